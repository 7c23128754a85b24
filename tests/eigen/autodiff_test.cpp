// eagerpp - the Autodiff suite on the Eigen backend (double only: finite differences need its digits)
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/autodiff.hpp"

using EigenBackends = ::testing::Types<ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Autodiff, EigenBackends);
