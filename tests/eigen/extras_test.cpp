// eagerpp - the Extras suite on the Eigen backend
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/extras.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Extras, EigenBackends);
