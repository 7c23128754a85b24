// eagerpp - every typed suite, and one macro that instantiates them all for a backend
// SPDX-License-Identifier: MIT
#pragma once

#include "suites/array_api.hpp"
#include "suites/autodiff.hpp"
#include "suites/conveniences.hpp"
#include "suites/creation.hpp"
#include "suites/elementwise.hpp"
#include "suites/errors.hpp"
#include "suites/extras.hpp"
#include "suites/fuse.hpp"
#include "suites/fusion.hpp"
#include "suites/indexing.hpp"
#include "suites/jacobian.hpp"
#include "suites/linalg.hpp"
#include "suites/linalg_extension.hpp"
#include "suites/reductions.hpp"
#include "suites/shape.hpp"

/// Instantiates every typed suite under `Prefix` for the backends in `Types` (a ::testing::Types of
/// backend tags, e.g. float and double), and the Autodiff and Jacobian suites for `DoubleTypes`
/// (their finite differences need double's digits). One line per backend in
/// tests/<backend>/suites_test.cpp.
#define EAGERPP_INSTANTIATE_ALL_SUITES(Prefix, Types, DoubleTypes) \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Creation, Types);         \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Elementwise, Types);      \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Reductions, Types);       \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, ShapeOps, Types);         \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Linalg, Types);           \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Errors, Types);           \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Indexing, Types);         \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Extras, Types);           \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Conveniences, Types);     \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, ArrayApi, Types);         \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Autodiff, DoubleTypes);   \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Jacobian, DoubleTypes)

/// EAGERPP_INSTANTIATE_ALL_SUITES and the suites of what only the host backends have: the Fusion
/// suite (element-wise ops evaluated in blocks) and Fuse (ep::fuse in one loop), which ep::cuda,
/// where every op is eager, does without; and LinalgExtension (ep::linalg's decompositions), which
/// tests/cuda/suites_test.cpp instantiates on a line of its own.
#define EAGERPP_INSTANTIATE_HOST_SUITES(Prefix, Types, DoubleTypes) \
  EAGERPP_INSTANTIATE_ALL_SUITES(Prefix, Types, DoubleTypes);       \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Fusion, Types);            \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Fuse, Types);              \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, LinalgExtension, Types)
