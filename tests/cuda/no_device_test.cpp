// eagerpp - without a CUDA device, ep::cuda_available() is false and creating a CUDA tensor throws
// ep::device_error
// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <eagerpp/cuda.hpp>

#include "support/support.hpp"

namespace {

TEST(CudaWithoutDevice, CreatingATensorThrowsDeviceError) {
  if (ep::cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  ep::test::expect_throws_with<ep::device_error>(
      [] {
        (void)ep::from_vector<ep::cuda<float>>({1, 2, 3});
      },
      {"from_data", "no CUDA device"});
  ep::test::expect_throws_with<ep::device_error>(
      [] {
        (void)ep::zeros<ep::cuda<double>>({2, 2});
      },
      {"full", "no CUDA device"});
  // Also catchable as the root of the hierarchy.
  EXPECT_THROW((void)ep::ones<ep::cuda<float>>({0}), ep::error);
}

TEST(CudaWithoutDevice, AvailabilityNeverThrows) {
  EXPECT_NO_THROW((void)ep::cuda_available());
  EXPECT_EQ(ep::cuda_available(), ep::cuda_available());
}

}  // namespace
