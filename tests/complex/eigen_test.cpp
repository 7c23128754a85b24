// eagerpp - the Complex suite on ep::eigen, complex64 and complex128
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "complex/complex_suite.hpp"

namespace complex_suite {
using Backends = ::testing::Types<ep::eigen<ep::complex64>, ep::eigen<ep::complex128>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Complex, Backends);
}  // namespace complex_suite
