// eagerpp - the Elementwise suite on the xtensor backend compiled for the machine that builds it
// (-march=native): xsimd's batches differ by instruction set (its AVX-512 negation computed 0 - x),
// and the other tests are built for the compiler's default, SSE2 on x86-64. float32 and float64.
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/elementwise.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(XtensorNative, Elementwise, XtensorBackends);
