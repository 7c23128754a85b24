// eagerpp - the Linalg suite on ep::xtensor<float> and ep::xtensor<double>
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "linalg/linalg_suite.hpp"

using Backends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Linalg, Backends);
