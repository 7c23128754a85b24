// eagerpp - the differential fuzzer's interpreter instantiated for the Eigen backend only
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "fuzz/interpret.hpp"

namespace {
const ep::fuzz::registrar eigen_registrar({"eigen", &ep::fuzz::machine<ep::eigen>::run});
const ep::fuzz::registrar eigen_fused_registrar({"eigen", &ep::fuzz::machine<ep::eigen>::run_fused,
                                                 true});
}  // namespace
