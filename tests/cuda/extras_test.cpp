// eagerpp - the Extras suite on the cuda backend (float32 and float64); skipped without a device
// SPDX-License-Identifier: MIT
#include <eagerpp/cuda.hpp>

#include "suites/extras.hpp"

using CudaBackends = ::testing::Types<ep::cuda<float>, ep::cuda<double>>;
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Extras, CudaBackends);
