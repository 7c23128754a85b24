// eagerpp - ep::to between the CUDA backend and the CPU backends: round trips for every dtype and
// shape kind
// SPDX-License-Identifier: MIT
#include <cstdint>  // std::int32_t, std::int64_t
#include <vector>   // std::vector

#include <gtest/gtest.h>

#include <eagerpp/cuda.hpp>
#include <eagerpp/eigen.hpp>

#include "support/support.hpp"

namespace {

template <class T>
class Transfer : public ::testing::Test {};
using Dtypes = ::testing::Types<float, double, std::int32_t, std::int64_t, bool>;
TYPED_TEST_SUITE(Transfer, Dtypes);

template <class T>
void round_trip(const ep::Shape& shape) {
  std::vector<T> values;
  for (std::int64_t i = 0; i < shape.numel(); ++i)
    values.push_back(static_cast<T>(i % 7 == 3 ? 0 : i + 1));
  const auto host = ep::from_vector<ep::eigen<T>>(values, shape);
  const auto device = ep::to<ep::cuda<T>>(host);
  static_assert(std::is_same_v<decltype(device), const ep::Tensor<ep::cuda<T>>>);
  EXPECT_EQ(device.shape(), shape);
  const auto back = device.template to<ep::eigen<T>>();
  ep::test::expect_equal(back, shape, values);
  // The family form keeps the dtype.
  ep::test::expect_equal(ep::to<ep::eigen>(ep::to<ep::cuda>(host)), shape, values);
}

TYPED_TEST(Transfer, RoundTripsMatrices) { round_trip<TypeParam>({3, 4}); }
TYPED_TEST(Transfer, RoundTripsHigherRanks) { round_trip<TypeParam>({2, 3, 1, 5}); }
TYPED_TEST(Transfer, RoundTripsScalars) { round_trip<TypeParam>({}); }
TYPED_TEST(Transfer, RoundTripsEmptyTensors) {
  round_trip<TypeParam>({0});
  round_trip<TypeParam>({2, 0, 3});
}

TYPED_TEST(Transfer, ComputesOnTheDevice) {
  using T = TypeParam;
  if constexpr (ep::numeric_dtype<T>) {
    const auto a = ep::to<ep::cuda>(ep::from_vector<ep::eigen<T>>({1, 2, 3, 4, 5, 6}, {2, 3}));
    ep::test::expect_equal(ep::to<ep::eigen>(a + a), {2, 3},
                           std::vector<double>{2, 4, 6, 8, 10, 12});
    ep::test::expect_equal(ep::to<ep::eigen>(a.sum(1)), {2}, std::vector<double>{6, 15});
  }
}

}  // namespace
