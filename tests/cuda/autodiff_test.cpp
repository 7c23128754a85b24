// eagerpp - the Autodiff suite on the cuda backend (double only, as on the CPU backends: finite
// differences need its digits); skipped without a device
// SPDX-License-Identifier: MIT
#include <eagerpp/cuda.hpp>

#include "suites/autodiff.hpp"

using CudaBackends = ::testing::Types<ep::cuda<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Autodiff, CudaBackends);
