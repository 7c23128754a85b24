// eagerpp - the Reductions suite on the xtensor backend
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/reductions.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Reductions, XtensorBackends);
