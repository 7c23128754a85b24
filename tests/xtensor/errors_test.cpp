// eagerpp - the Errors suite on the xtensor backend (float32 and float64)
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/errors.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Errors, XtensorBackends);
