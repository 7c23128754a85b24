// eagerpp - the ShapeOps suite on the Eigen backend
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/shape.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, ShapeOps, EigenBackends);
