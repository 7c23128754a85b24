// eagerpp - every typed suite on the CUDA backend (float32 and float64; Autodiff in float64 only)
// but Fusion (ep::cuda is eager). Every test skips without a device.
// SPDX-License-Identifier: MIT
//
// One translation unit per backend, the suites' shared instantiations compiled once
// (tests/CMakeLists.txt).
#include <eagerpp/cuda.hpp>

#include "suites/all.hpp"

using CudaBackends = ::testing::Types<ep::cuda<float>, ep::cuda<double>>;
using CudaDouble = ::testing::Types<ep::cuda<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Cuda, CudaBackends, CudaDouble);
// Lazy evaluation in blocks is the host backends' (suites/fusion.hpp).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Fusion);
