// eagerpp - the Elementwise suite on the xtensor backend (float32 and float64)
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/elementwise.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Elementwise, XtensorBackends);
