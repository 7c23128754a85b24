// eagerpp - every typed suite on the Eigen backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
#include <eagerpp/eigen.hpp>

#include "suites/all.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
using EigenDouble = ::testing::Types<ep::eigen<double>>;
EAGERPP_INSTANTIATE_HOST_SUITES(Eigen, EigenBackends, EigenDouble);
