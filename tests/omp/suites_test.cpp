// eagerpp - every typed suite on the OpenMP backend (float32 and float64; Autodiff in float64 only).
// ep::omp runs the Thrust code ep::cuda runs, so these tests also check the GPU backend's logic.
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (see tests/eigen/suites_test.cpp).
#include <eagerpp/omp.hpp>

#include "suites/all.hpp"

using OmpBackends = ::testing::Types<ep::omp<float>, ep::omp<double>>;
using OmpDouble = ::testing::Types<ep::omp<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Omp, OmpBackends, OmpDouble);

// The backend contract, family by family (include/eagerpp/backend.hpp), for every dtype.
static_assert(ep::complete_backend<ep::omp<float>> && ep::complete_backend<ep::omp<double>> &&
              ep::complete_backend<ep::omp<std::int32_t>> && ep::complete_backend<ep::omp<std::int64_t>> &&
              ep::complete_backend<ep::omp<bool>>);
