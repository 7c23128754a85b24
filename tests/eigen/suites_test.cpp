// eagerpp - every typed suite on the Eigen backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/eigen.hpp>

#include "suites/autodiff.hpp"
#include "suites/creation.hpp"
#include "suites/elementwise.hpp"
#include "suites/errors.hpp"
#include "suites/extras.hpp"
#include "suites/indexing.hpp"
#include "suites/linalg.hpp"
#include "suites/reductions.hpp"
#include "suites/shape.hpp"

using EigenBackends = ::testing::Types<ep::eigen<float>, ep::eigen<double>>;
using EigenDouble = ::testing::Types<ep::eigen<double>>;  // finite differences need double's digits

INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Creation, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Elementwise, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Reductions, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, ShapeOps, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Linalg, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Errors, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Indexing, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Extras, EigenBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Eigen, Autodiff, EigenDouble);
