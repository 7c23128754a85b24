// eagerpp - every typed suite on the CUDA backend (float32 and float64; Autodiff in float64 only).
// Every test skips without a device.
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/cuda.hpp>

#include "suites/autodiff.hpp"
#include "suites/creation.hpp"
#include "suites/elementwise.hpp"
#include "suites/errors.hpp"
#include "suites/extras.hpp"
#include "suites/indexing.hpp"
#include "suites/linalg.hpp"
#include "suites/reductions.hpp"
#include "suites/shape.hpp"

using CudaBackends = ::testing::Types<ep::cuda<float>, ep::cuda<double>>;
using CudaDouble = ::testing::Types<ep::cuda<double>>;  // finite differences need double's digits

INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Creation, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Elementwise, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Reductions, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, ShapeOps, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Linalg, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Errors, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Indexing, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Extras, CudaBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, Autodiff, CudaDouble);
