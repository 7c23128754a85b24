// eagerpp - the differential fuzzer's interpreter instantiated for the OpenMP (ep::omp) backend
// only
// SPDX-License-Identifier: MIT
#include <eagerpp/omp.hpp>

#include "fuzz/interpret.hpp"

namespace {
const ep::fuzz::registrar omp_registrar({"omp", &ep::fuzz::machine<ep::omp>::run});
const ep::fuzz::registrar omp_fused_registrar({"omp", &ep::fuzz::machine<ep::omp>::run_fused,
                                               true});
}  // namespace
