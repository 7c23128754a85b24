// eagerpp - skips every test of the CUDA test binary when no CUDA device is present
// SPDX-License-Identifier: MIT
//
// The typed suites are shared with the CPU backends, so the skip cannot live in their fixtures: a
// global environment whose SetUp calls GTEST_SKIP() makes GoogleTest (>= 1.11) skip every test.
#include <gtest/gtest.h>

#include <eagerpp/cuda/runtime.hpp>

namespace {

class SkipWithoutDevice : public ::testing::Environment {
 public:
  void SetUp() override {
    if (!ep::cuda_available()) GTEST_SKIP() << "no CUDA device: every CUDA test is skipped";
  }
};

// Registered during static initialization, before gtest_main's RUN_ALL_TESTS.
[[maybe_unused]] const auto* const environment =
    ::testing::AddGlobalTestEnvironment(new SkipWithoutDevice);

}  // namespace
