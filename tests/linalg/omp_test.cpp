// eagerpp - the Linalg suite on ep::omp<float> and ep::omp<double>
// SPDX-License-Identifier: MIT
#include <eagerpp/omp.hpp>

#include "linalg/linalg_suite.hpp"

using Backends = ::testing::Types<ep::omp<float>, ep::omp<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Omp, Linalg, Backends);
