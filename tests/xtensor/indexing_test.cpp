// eagerpp - the Indexing suite on the xtensor backend
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/indexing.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Indexing, XtensorBackends);
