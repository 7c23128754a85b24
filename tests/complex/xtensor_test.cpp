// eagerpp - the Complex suite on ep::xtensor, complex64 and complex128
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "complex/complex_suite.hpp"

namespace complex_suite {
using Backends = ::testing::Types<ep::xtensor<ep::complex64>, ep::xtensor<ep::complex128>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Complex, Backends);
}  // namespace complex_suite
