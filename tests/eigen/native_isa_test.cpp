// eagerpp - the Elementwise suite on the Eigen backend compiled for the machine that builds it
// (-march=native): Eigen's packet math differs by instruction set (its packet pow from SSE4.1 on,
// its sqrt in AVX-512 doubles), and the other tests are built for the compiler's default, SSE2 on
// x86-64. float32 and float64.
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/elementwise.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(EigenNative, Elementwise, EigenBackends);
