// eagerpp - the Errors suite on the eigen backend (float32 and float64)
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/errors.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Errors, EigenBackends);
