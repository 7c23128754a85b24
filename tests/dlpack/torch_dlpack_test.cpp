// eagerpp - DLPack between eagerpp (Eigen) and PyTorch (libtorch's at::toDLPack / at::fromDLPack):
// shared memory both ways
// SPDX-License-Identifier: MIT
//
// Built only when CMake finds libtorch (Debian: libtorch-dev, about 1 GB). scripts/test does not
// install it: this one TU takes minutes of CI time to compile against libtorch's headers.
#include <gtest/gtest.h>

#include <cstdint>  // std::int32_t, std::int64_t
#include <string>   // std::string
#include <vector>   // std::vector

#include <ATen/ATen.h>
#include <ATen/DLConvertor.h>
#include <eagerpp/dlpack.hpp>
#include <eagerpp/eigen.hpp>

namespace {

TEST(TorchDLPack, FromTorchSharesMemoryAndSeesWrites) {
  at::Tensor a = at::arange(12, at::kFloat).reshape({3, 4});
  const auto t = ep::from_dlpack<ep::eigen<float>>(at::toDLPack(a));
  EXPECT_EQ(t.shape(), (ep::Shape{3, 4}));
  EXPECT_EQ(static_cast<const void*>(t.raw().data()), a.data_ptr());
  EXPECT_EQ(t.to_vector(), (std::vector<float>{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}));
  a.mul_(2);  // PyTorch writes in place: the eagerpp tensor shares the elements
  EXPECT_EQ(t.to_vector(), (std::vector<float>{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22}));
  a = at::Tensor();  // the eagerpp tensor keeps the elements alive
  EXPECT_EQ(t.sum().item(), 132.0F);
}

TEST(TorchDLPack, FromTorchCopiesATranspose) {
  const at::Tensor a = at::arange(6, at::kLong).reshape({2, 3});
  const auto t = ep::from_dlpack<ep::eigen<std::int64_t>>(at::toDLPack(a.t()));  // strides (1, 3)
  EXPECT_EQ(t.shape(), (ep::Shape{3, 2}));
  EXPECT_NE(static_cast<const void*>(t.raw().data()), a.data_ptr());
  EXPECT_EQ(t.to_vector(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
}

TEST(TorchDLPack, ToTorchSharesMemoryAndSeesWrites) {
  const auto t = ep::from_vector<ep::eigen<double>>({1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, {2, 3});
  at::Tensor a = at::fromDLPack(ep::to_dlpack(t));
  EXPECT_EQ(a.scalar_type(), at::kDouble);
  EXPECT_EQ(a.sizes().vec(), (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(a.data_ptr(), static_cast<const void*>(t.raw().data()));
  EXPECT_DOUBLE_EQ(a.sum().item<double>(), 24.0);
  a.index_put_({1, 2}, -1.0);  // seen by every eagerpp tensor sharing the elements
  EXPECT_EQ(t.to_vector(), (std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, -1.0}));
}

TEST(TorchDLPack, Int32RoundTripThroughTorch) {
  const auto t = ep::from_vector<ep::eigen<std::int32_t>>({7, -8, 9, 10}, {4});
  const at::Tensor a = at::fromDLPack(ep::to_dlpack(t));
  EXPECT_EQ(a.scalar_type(), at::kInt);
  const auto back = ep::from_dlpack<ep::eigen<std::int32_t>>(at::toDLPack(a * 2));
  EXPECT_EQ(back.to_vector(), (std::vector<std::int32_t>{14, -16, 18, 20}));
}

TEST(TorchDLPack, DtypeMismatchNamesBoth) {
  const at::Tensor a = at::ones({2}, at::kFloat);
  DLManagedTensor* m = at::toDLPack(a);
  try {
    (void)ep::from_dlpack<ep::eigen<double>>(m);
    ADD_FAILURE() << "from_dlpack did not throw";
  } catch (const ep::value_error& e) {
    EXPECT_EQ(std::string(e.what()),
              "from_dlpack: dtype (code 2, bits 32, lanes 1) does not match ep::eigen<float64>; "
              "expected float64 (code 2, bits 64, lanes 1)");
  }
  m->deleter(m);  // not consumed: still ours
}

}  // namespace
