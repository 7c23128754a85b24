// eagerpp - every typed suite on the OpenMP backend (float32 and float64; Autodiff in float64
// only). ep::omp runs the Thrust code ep::cuda runs, so these tests also check the GPU backend's
// logic.
// SPDX-License-Identifier: MIT
#include <eagerpp/omp.hpp>

#include "suites/all.hpp"

using OmpBackends = ::testing::Types<ep::omp<float>, ep::omp<double>>;
using OmpDouble = ::testing::Types<ep::omp<double>>;
EAGERPP_INSTANTIATE_HOST_SUITES(Omp, OmpBackends, OmpDouble);

// The backend contract, family by family (include/eagerpp/backend.hpp), for every dtype.
static_assert(ep::complete_backend<ep::omp<float>> && ep::complete_backend<ep::omp<double>> &&
              ep::complete_backend<ep::omp<std::int32_t>> &&
              ep::complete_backend<ep::omp<std::int64_t>> && ep::complete_backend<ep::omp<bool>>);
