// eagerpp - every typed suite on the xtensor backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/xtensor.hpp>

#include "suites/all.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
using XtensorDouble = ::testing::Types<ep::xtensor<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Xtensor, XtensorBackends, XtensorDouble);
