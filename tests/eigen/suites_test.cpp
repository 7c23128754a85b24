// eagerpp - every typed suite on the Eigen backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/eigen.hpp>

#include "suites/all.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
using EigenDouble = ::testing::Types<ep::eigen<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Eigen, EigenBackends, EigenDouble);
