// eagerpp - every typed suite on the xtensor backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
#include <eagerpp/xtensor.hpp>

#include "suites/all.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
using XtensorDouble = ::testing::Types<ep::xtensor<double>>;
EAGERPP_INSTANTIATE_HOST_SUITES(Xtensor, XtensorBackends, XtensorDouble);
