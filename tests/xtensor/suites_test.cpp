// eagerpp - every typed suite on the xtensor backend: float32 and float64, Autodiff in float64 only
// SPDX-License-Identifier: MIT
//
// One translation unit per backend: the suites share almost all of their instantiations (the facade
// and the backend's kernels for each dtype), so compiling them together costs a third of compiling
// them one family at a time (measured: 276 s for the nine Eigen suites together against about 80 s
// for each alone, Debug with ASan+UBSan).
#include <eagerpp/xtensor.hpp>

#include "suites/autodiff.hpp"
#include "suites/creation.hpp"
#include "suites/elementwise.hpp"
#include "suites/errors.hpp"
#include "suites/extras.hpp"
#include "suites/indexing.hpp"
#include "suites/linalg.hpp"
#include "suites/reductions.hpp"
#include "suites/shape.hpp"

using XtensorBackends = ::testing::Types<ep::xtensor<float>, ep::xtensor<double>>;
using XtensorDouble = ::testing::Types<ep::xtensor<double>>;  // finite differences need double's digits

INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Creation, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Elementwise, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Reductions, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, ShapeOps, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Linalg, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Errors, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Indexing, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Extras, XtensorBackends);
INSTANTIATE_TYPED_TEST_SUITE_P(Xtensor, Autodiff, XtensorDouble);
