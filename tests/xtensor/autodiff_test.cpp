// eagerpp - the Autodiff suite on the xtensor backend (double only: finite differences need its digits)
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/autodiff.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Autodiff, XtensorBackends);
