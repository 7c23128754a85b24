// eagerpp - the differential fuzzer's interpreter instantiated for the xtensor backend only
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "fuzz/interpret.hpp"

namespace {
const ep::fuzz::registrar xtensor_registrar({"xtensor", &ep::fuzz::machine<ep::xtensor>::run});
const ep::fuzz::registrar xtensor_fused_registrar({"xtensor",
                                                   &ep::fuzz::machine<ep::xtensor>::run_fused,
                                                   true});
}  // namespace
