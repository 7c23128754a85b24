// eagerpp - every typed suite on the CUDA backend (float32 and float64; Autodiff in float64 only).
// Every test skips without a device.
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/cuda.hpp>

#include "suites/all.hpp"

using CudaBackends = ::testing::Types<ep::cuda<float>, ep::cuda<double>>;
using CudaDouble = ::testing::Types<ep::cuda<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Cuda, CudaBackends, CudaDouble);
