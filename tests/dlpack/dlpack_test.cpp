// eagerpp - tests of ep::to_dlpack / ep::from_dlpack on hand-made DLManagedTensors, Eigen and
// xtensor, every dtype (the complex ones as DLPack's kDLComplex)
// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cstdint>  // std::int8_t ... std::uint64_t
#include <cstring>  // std::memcpy
#include <string>   // std::string
#include <vector>   // std::vector

#include <eagerpp/dlpack.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

namespace {

/// A DLManagedTensor over a buffer of this test, whose deleter counts its calls.
template <class T>
struct hand_made {
  alignas(64) T elements[16];
  std::vector<std::int64_t> shape, strides;
  int deleted = 0;
  DLManagedTensor managed{};

  hand_made(std::vector<std::int64_t> shape_, std::vector<std::int64_t> strides_,
            std::uint64_t byte_offset = 0)
      : shape(std::move(shape_)), strides(std::move(strides_)) {
    for (int i = 0; i < 16; ++i) elements[i] = value(i);
    DLTensor& t = managed.dl_tensor;
    t.data = elements;
    t.device = DLDevice{kDLCPU, 0};
    t.ndim = static_cast<int>(shape.size());
    t.dtype = ep::dlpack_dtype<T>();
    t.shape = shape.empty() ? nullptr : shape.data();
    t.strides = strides.empty() ? nullptr : strides.data();
    t.byte_offset = byte_offset;
    managed.manager_ctx = &deleted;
    managed.deleter = [](DLManagedTensor* self) { ++*static_cast<int*>(self->manager_ctx); };
  }
  static T value(int i) {
    if constexpr (std::is_same_v<T, bool>)
      return i % 3 == 1;
    else if constexpr (ep::complex_dtype<T>)
      return T(10 + i, -i);
    else
      return static_cast<T>(10 + i);
  }
};

template <class B>
class DLPack : public ::testing::Test {};
using Backends =
    ::testing::Types<ep::eigen<float>, ep::eigen<double>, ep::eigen<std::int32_t>,
                     ep::eigen<std::int64_t>, ep::eigen<bool>, ep::eigen<std::uint8_t>,
                     ep::eigen<std::int16_t>, ep::xtensor<float>, ep::xtensor<double>,
                     ep::xtensor<std::int32_t>, ep::xtensor<std::int64_t>, ep::xtensor<bool>,
                     ep::xtensor<std::int8_t>, ep::xtensor<std::uint64_t>, ep::eigen<ep::complex64>,
                     ep::xtensor<ep::complex128>>;
TYPED_TEST_SUITE(DLPack, Backends);

template <class T>
std::vector<T> values_at(const hand_made<T>& h, std::initializer_list<int> offsets) {
  std::vector<T> out;
  for (int i : offsets) out.push_back(h.elements[i]);
  return out;
}

TYPED_TEST(DLPack, ContiguousIsWrappedWithoutCopyAndDeletedOnce) {
  using T = typename TypeParam::value_type;
  hand_made<T> h({2, 3}, {});
  {
    const auto t = ep::from_dlpack<TypeParam>(&h.managed);
    EXPECT_EQ(t.shape(), (ep::Shape{2, 3}));
    EXPECT_EQ(t.raw().data(), h.elements);
    EXPECT_EQ(t.to_vector(), values_at(h, {0, 1, 2, 3, 4, 5}));
    const auto copy = t;  // shares the elements
    EXPECT_EQ(h.deleted, 0);
  }
  EXPECT_EQ(h.deleted, 1);
}

TYPED_TEST(DLPack, CompactStridesAreWrapped) {
  using T = typename TypeParam::value_type;
  hand_made<T> h({2, 1, 3}, {3, 7, 1});  // the stride of an axis of extent 1 does not matter
  {
    const auto t = ep::from_dlpack<TypeParam>(&h.managed);
    EXPECT_EQ(t.raw().data(), h.elements);
    EXPECT_EQ(t.to_vector(), values_at(h, {0, 1, 2, 3, 4, 5}));
  }
  EXPECT_EQ(h.deleted, 1);
}

TYPED_TEST(DLPack, StridesAreCopiedAndDeletedAtOnce) {
  using T = typename TypeParam::value_type;
  hand_made<T> h({2, 3}, {1, 2});  // the transpose of a C-order (3, 2) array
  const auto t = ep::from_dlpack<TypeParam>(&h.managed);
  EXPECT_EQ(h.deleted, 1);
  EXPECT_NE(t.raw().data(), h.elements);
  EXPECT_EQ(t.to_vector(),
            values_at(h, {0, 2, 4, 1, 3, 5}));  // NumPy: arange(6).reshape(3, 2).T.ravel()
}

TYPED_TEST(DLPack, NegativeStridesAndByteOffset) {
  using T = typename TypeParam::value_type;
  // x[::-1, 1:] of a C-order (3, 4) array starting at element 1: NumPy's data pointer moves to the
  // last row.
  hand_made<T> h({3, 3}, {-4, 1}, (1 + 2 * 4 + 1) * sizeof(T));
  const auto t = ep::from_dlpack<TypeParam>(&h.managed);
  EXPECT_EQ(h.deleted, 1);
  EXPECT_EQ(t.to_vector(), values_at(h, {10, 11, 12, 6, 7, 8, 2, 3, 4}));
}

TYPED_TEST(DLPack, ContiguousByteOffsetKeepsItsValues) {
  using T = typename TypeParam::value_type;
  {
    hand_made<T> h({5}, {}, 2 * sizeof(T));  // aligned for T, not for SIMD: wrapped
    {
      const auto t = ep::from_dlpack<TypeParam>(&h.managed);
      EXPECT_EQ(t.to_vector(), values_at(h, {2, 3, 4, 5, 6}));
    }
    EXPECT_EQ(h.deleted, 1);
  }
  if constexpr (sizeof(T) > 1) {
    hand_made<T> h({0}, {});
    // A misaligned first element: copied byte by byte. The values are those bytes read as T.
    unsigned char* bytes = reinterpret_cast<unsigned char*>(h.elements);
    for (int i = 0; i < 3; ++i) {
      const T v = hand_made<T>::value(i);
      std::memcpy(bytes + 1 + i * sizeof(T), &v, sizeof(T));
    }
    h.shape = {3};
    h.managed.dl_tensor.shape = h.shape.data();
    h.managed.dl_tensor.byte_offset = 1;
    const auto t = ep::from_dlpack<TypeParam>(&h.managed);
    EXPECT_EQ(h.deleted, 1);
    EXPECT_EQ(t.to_vector(), (std::vector<T>{hand_made<T>::value(0), hand_made<T>::value(1),
                                             hand_made<T>::value(2)}));
  }
}

TYPED_TEST(DLPack, ZeroDimAndZeroSize) {
  using T = typename TypeParam::value_type;
  {
    hand_made<T> h({}, {}, 4 * sizeof(T));
    {
      const auto t = ep::from_dlpack<TypeParam>(&h.managed);
      EXPECT_EQ(t.ndim(), 0);
      EXPECT_EQ(t.item(), h.elements[4]);
    }
    EXPECT_EQ(h.deleted, 1);
  }
  hand_made<T> h({2, 0, 3}, {5, 9, -3});  // no element: any strides
  const auto t = ep::from_dlpack<TypeParam>(&h.managed);
  EXPECT_EQ(h.deleted, 1);
  EXPECT_EQ(t.shape(), (ep::Shape{2, 0, 3}));
  EXPECT_EQ(t.size(), 0);
}

/// The message `from_dlpack(m)` throws; `m` stays the caller's (its deleter has not run).
template <class B, class T>
std::string error_of(hand_made<T>& h) {
  try {
    (void)ep::from_dlpack<B>(&h.managed);
  } catch (const ep::value_error& e) {
    EXPECT_EQ(h.deleted, 0);
    return e.what();
  }
  ADD_FAILURE() << "from_dlpack did not throw";
  return {};
}

TYPED_TEST(DLPack, MismatchesThrowNamingThem) {
  using T = typename TypeParam::value_type;
  const std::string backend = fmt::format("ep::{}<{}>", TypeParam::name, ep::dtype_name<T>());
  hand_made<T> h({2, 3}, {});
  h.managed.dl_tensor.dtype.lanes = 2;
  EXPECT_EQ(error_of<TypeParam>(h),
            fmt::format("from_dlpack: dtype (code {}, bits {}, lanes 2) does not match {}; "
                        "expected {} (code {}, bits {}, lanes 1)",
                        ep::dlpack_dtype<T>().code, 8 * sizeof(T), backend, ep::dtype_name<T>(),
                        ep::dlpack_dtype<T>().code, 8 * sizeof(T)));
  h.managed.dl_tensor.dtype = DLDataType{kDLFloat, 16, 1};  // float16: no eagerpp dtype
  EXPECT_NE(error_of<TypeParam>(h).find(
                "from_dlpack: dtype (code 2, bits 16, lanes 1) does not match " + backend),
            std::string::npos);
  h.managed.dl_tensor.dtype = ep::dlpack_dtype<T>();
  h.managed.dl_tensor.device = DLDevice{kDLCUDA, 1};
  EXPECT_EQ(error_of<TypeParam>(h), "from_dlpack: device type 2 (device 1) cannot be read by " +
                                        backend + "; expected CPU memory (kDLCPU = 1)");
  h.managed.dl_tensor.device = DLDevice{kDLCPU, 0};
  h.shape[1] = -3;
  EXPECT_EQ(error_of<TypeParam>(h),
            "from_dlpack: extent -3 of axis 1 is negative; expected extents >= 0");
  EXPECT_THROW((void)ep::from_dlpack<TypeParam>(nullptr), ep::value_error);
  h.managed.deleter(&h.managed);  // the caller's to delete
  EXPECT_EQ(h.deleted, 1);
}

TYPED_TEST(DLPack, RoundTripSharesTheElements) {
  using T = typename TypeParam::value_type;
  std::vector<T> values;
  for (int i = 0; i < 12; ++i) values.push_back(hand_made<T>::value(i));
  DLManagedTensor* m = nullptr;
  const T* data = nullptr;
  {
    const auto t = ep::from_vector<TypeParam>(values, {3, 4});
    data = t.raw().data();
    m = ep::to_dlpack(t);
  }  // `m` keeps the elements alive
  const DLTensor& dl = m->dl_tensor;
  EXPECT_EQ(dl.data, data);
  EXPECT_EQ(dl.device.device_type, kDLCPU);
  EXPECT_EQ(dl.dtype.code, ep::dlpack_dtype<T>().code);
  EXPECT_EQ(dl.dtype.bits, 8 * sizeof(T));
  EXPECT_EQ(dl.byte_offset, 0U);
  ASSERT_EQ(dl.ndim, 2);
  EXPECT_EQ(std::vector<std::int64_t>(dl.shape, dl.shape + 2), (std::vector<std::int64_t>{3, 4}));
  EXPECT_EQ(std::vector<std::int64_t>(dl.strides, dl.strides + 2),
            (std::vector<std::int64_t>{4, 1}));
  // Into the other host backend: still the same elements.
  using Other = std::conditional_t<TypeParam::name == std::string_view("eigen"), ep::xtensor<T>,
                                   ep::eigen<T>>;
  const auto back = ep::from_dlpack<Other>(m);
  EXPECT_EQ(back.raw().data(), data);
  EXPECT_EQ(back.to_vector(), values);
  // 0-d and 0-size tensors go out and come back (the deleter frees what to_dlpack allocated: ASan
  // checks it).
  const auto scalar = ep::from_dlpack<TypeParam>(ep::to_dlpack(ep::full<TypeParam>({}, values[1])));
  EXPECT_EQ(scalar.ndim(), 0);
  EXPECT_EQ(scalar.item(), values[1]);
  const auto empty = ep::from_dlpack<TypeParam>(ep::to_dlpack(ep::zeros<TypeParam>({0, 2})));
  EXPECT_EQ(empty.shape(), (ep::Shape{0, 2}));
}

}  // namespace
