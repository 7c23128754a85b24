// eagerpp - the Linalg suite on ep::eigen<float> and ep::eigen<double>
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "linalg/linalg_suite.hpp"

using Backends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Linalg, Backends);
