// eagerpp - the Complex suite on ep::omp, complex64 and complex128
// SPDX-License-Identifier: MIT
#include <eagerpp/omp.hpp>

#include "complex/complex_suite.hpp"

namespace complex_suite {
using Backends = ::testing::Types<ep::omp<ep::complex64>, ep::omp<ep::complex128>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Omp, Complex, Backends);
}  // namespace complex_suite
