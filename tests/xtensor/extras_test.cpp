// eagerpp - the Extras suite on the xtensor backend
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/extras.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Extras, XtensorBackends);
