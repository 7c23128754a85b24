// eagerpp - without a CUDA device, ep::cuda_available() is false and creating a CUDA tensor, or a
// decomposition's output, throws ep::device_error
// SPDX-License-Identifier: MIT
#include <cstdint>     // std::int64_t
#include <functional>  // std::function
#include <memory>      // std::shared_ptr

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

// The decompositions (eagerpp/cuda/cusolver.hpp) allocate their outputs first, so they fail the
// same way before any cuSOLVER call; the input's shape alone is read.
TEST(CudaWithoutDevice, DecompositionsThrowDeviceError) {
  if (ep::cuda_available()) GTEST_SKIP() << "a CUDA device is present";
  using B = ep::cuda<double>;
  const ep::cuda_array<double> x(std::shared_ptr<double>(), ep::Shape{2, 2});
  std::int64_t failed = -1;
  const auto expect = [](const std::function<void()>& f, const char* op) {
    ep::test::expect_throws_with<ep::device_error>(f, {op, "no CUDA device"});
  };
  expect([&] { (void)B::cholesky(x, failed); }, "cholesky");
  expect([&] { (void)B::solve(x, x, failed); }, "solve");
  expect([&] { (void)B::triangular_solve(x, x, false, false, false, failed); }, "solve_triangular");
  expect([&] { (void)B::qr(x, true); }, "qr");
  expect([&] { (void)B::svd(x, false); }, "svd");
  expect([&] { (void)B::svdvals(x); }, "svd");
  expect([&] { (void)B::eigh(x); }, "eigh");
  expect([&] { (void)B::slogdet(x); }, "slogdet");
}

TEST(CudaWithoutDevice, AvailabilityNeverThrows) {
  EXPECT_NO_THROW((void)ep::cuda_available());
  EXPECT_EQ(ep::cuda_available(), ep::cuda_available());
}

}  // namespace
