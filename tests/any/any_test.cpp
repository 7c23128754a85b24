// eagerpp - tests of ep::AnyTensor: results equal the static ep::Tensor's on Eigen and xtensor;
// errors name both sides
// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <cstdint>  // std::int64_t
#include <string>   // std::string
#include <utility>  // std::pair
#include <vector>   // std::vector

#include <eagerpp/any.hpp>

namespace {

using E = ep::eigen<double>;
using X = ep::xtensor<float>;

/// The message of the ep::value_error that `f` throws.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ep::value_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no ep::value_error";
  return {};
}

template <class B>
class AnyTensor : public ::testing::Test {};
using Backends = ::testing::Types<E, X>;
TYPED_TEST_SUITE(AnyTensor, Backends);

template <class B>
std::string spec_of() {
  return fmt::format("{}:{}", B::name, ep::dtype_name<typename B::value_type>());
}

TYPED_TEST(AnyTensor, CreationMatchesTheStaticTensor) {
  using B = TypeParam;
  using T = typename B::value_type;
  const std::string spec = spec_of<B>();
  const auto z = ep::AnyTensor::zeros(spec, {2, 3});
  EXPECT_EQ(z.backend(), B::name);
  EXPECT_EQ(z.dtype(), ep::dtype_name<T>());
  EXPECT_EQ(z.spec(), spec);
  EXPECT_TRUE(z.holds<B>());
  EXPECT_EQ(z.shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(z.as<B>().to_vector(), ep::zeros<B>({2, 3}).to_vector());
  EXPECT_EQ(ep::AnyTensor::ones(spec, {4}).as<B>().to_vector(), ep::ones<B>({4}).to_vector());
  EXPECT_EQ(ep::AnyTensor::full(spec, {2}, 2.5).to_vector(), (std::vector<double>{2.5, 2.5}));
  EXPECT_EQ(ep::AnyTensor::arange(spec, 5).as<B>().to_vector(), ep::arange<B>(5).to_vector());
  EXPECT_EQ(ep::AnyTensor::arange(spec, 1, 2, 0.25).to_vector(),
            (std::vector<double>{1, 1.25, 1.5, 1.75}));
  const auto v = ep::AnyTensor::from_vector(spec, {1, 2, 3, 4}, {2, 2});
  EXPECT_EQ(v.as<B>().to_vector(), (std::vector<T>{1, 2, 3, 4}));
  EXPECT_EQ(v.ndim(), 2);
  EXPECT_EQ(v.size(), 4);
  // From a static tensor: it holds that very tensor.
  const auto s = ep::from_vector<B>({5, 6}, {2});
  const ep::AnyTensor a = s;
  EXPECT_EQ(a.as<B>().raw().data(), s.raw().data());
  EXPECT_EQ(ep::AnyTensor(s).as<B>().raw().data(),
            s.raw().data());  // as() of a temporary moves it out
}

TYPED_TEST(AnyTensor, OpsMatchTheStaticTensor) {
  using B = TypeParam;
  const std::vector<double> values{0.5, -1.25, 2, 3.5, -0.75, 1};
  const ep::AnyTensor a = ep::AnyTensor::from_vector(spec_of<B>(), values, {2, 3});
  const auto s = a.as<B>();
  EXPECT_EQ(a.exp().sum(1, true).as<B>().to_vector(), s.exp().sum(1, true).to_vector());
  EXPECT_EQ(ep::mean(a, 0).as<B>().to_vector(), s.mean(0).to_vector());
  EXPECT_EQ(a.matmul(a.T()).as<B>().to_vector(), s.matmul(s.T()).to_vector());
  EXPECT_EQ(ep::softmax(a).as<B>().to_vector(), s.softmax().to_vector());
  EXPECT_EQ((2 * a + a * a - 1).as<B>().to_vector(), (2 * s + s * s - 1).to_vector());
  EXPECT_EQ(a.reshape({3, 2}).transpose().as<B>().to_vector(),
            s.reshape({3, 2}).transpose().to_vector());
  const ep::AnyTensor positive = a > 0.5;
  EXPECT_EQ(positive.dtype(), "bool");
  EXPECT_EQ(positive.as<typename B::template rebind<bool>>().to_vector(), (s > 0.5).to_vector());
  EXPECT_EQ(ep::where(positive, a, -a).as<B>().to_vector(), ep::where(s > 0.5, s, -s).to_vector());
  const ep::AnyTensor index = a.argmax(1);
  EXPECT_EQ(index.dtype(), "int64");
  EXPECT_EQ(index.to_vector<std::int64_t>(), (std::vector<std::int64_t>{2, 0}));
  EXPECT_DOUBLE_EQ(a.max().item(), 3.5);
}

/// The function differentiated below; one object for every test, so that ep::value_and_grad is
/// instantiated once for each floating alternative (a second lambda would double that compile
/// cost).
const auto x_exp_x_sum = [](const ep::AnyTensor& x) { return (x * x.exp()).sum(); };

TYPED_TEST(AnyTensor, ValueAndGradMatchesTheStaticOne) {
  using B = TypeParam;
  const ep::AnyTensor a = ep::AnyTensor::from_vector(spec_of<B>(), {0.5, -1.25, 2, 3.5}, {4});
  const std::pair<ep::AnyTensor, ep::AnyTensor> any = ep::value_and_grad(x_exp_x_sum, a);
  const auto [vs, gs] =
      ep::value_and_grad([](const auto& x) { return (x * x.exp()).sum(); }, a.as<B>());
  EXPECT_EQ(any.first.as<B>().item(), vs.item());
  EXPECT_EQ(any.second.as<B>().to_vector(), gs.to_vector());
}

TEST(AnyTensorTypes, ScalarsAndDivisionFollowNumpy) {
  // The static tensor's dtype rules hold behind the variant: np.arange(4, dtype=np.int32) * 0.5 and
  // / 2 are float64, * 3 stays int32, > 1.5 compares the real values.
  for (const char* spec : {"eigen:int32", "xtensor:int64"}) {
    SCOPED_TRACE(spec);
    const auto i = ep::AnyTensor::arange(spec, 4);
    const auto half = i * 0.5;
    EXPECT_EQ(half.dtype(), "float64");
    EXPECT_EQ(half.to_vector(), (std::vector<double>{0, 0.5, 1, 1.5}));
    const auto q = i / 2;
    EXPECT_EQ(q.spec(), fmt::format("{}:float64", i.backend()));
    EXPECT_EQ(q.to_vector(), (std::vector<double>{0, 0.5, 1, 1.5}));
    EXPECT_EQ((3 / (i + 1)).to_vector(), (std::vector<double>{3, 1.5, 1, 0.75}));
    EXPECT_EQ((i * 3).dtype(), i.dtype());
    EXPECT_EQ((i > 1.5).to_vector<bool>(), (std::vector<bool>{false, false, true, true}));
  }
}

TEST(AnyTensorTypes, EveryRealDtypeAndPromotionAsNumpy) {
  // The array API's eleven real dtypes, and two dtypes of one backend promoted as between static
  // tensors (NumPy 1.24: int8 + uint8 is int16 [254, 128, -128], np.maximum(int32, float32) is
  // float64, np.where(c, int8, float32) float32, uint8 * 2 wraps to [254, 2, 0]).
  for (const char* backend : {"eigen", "xtensor"}) {
    SCOPED_TRACE(backend);
    const auto spec = [&](const char* dtype) { return fmt::format("{}:{}", backend, dtype); };
    const auto i8 = ep::AnyTensor::from_vector(spec("int8"), {-1, 127, -128}, {3});
    const auto u8 = ep::AnyTensor::from_vector(spec("uint8"), {255, 1, 0}, {3});
    const auto sum = i8 + u8;
    EXPECT_EQ(sum.spec(), spec("int16"));
    EXPECT_EQ(sum.to_vector<int>(), (std::vector<int>{254, 128, -128}));
    EXPECT_EQ((u8 * 2).spec(), spec("uint8"));
    EXPECT_EQ((u8 * 2).to_vector<int>(), (std::vector<int>{254, 2, 0}));
    EXPECT_EQ((i8 < u8).to_vector<bool>(), (std::vector<bool>{true, false, true}));
    const auto f32 = ep::AnyTensor::from_vector(spec("float32"), {0.5, 0.25, -2}, {3});
    const auto i32 = ep::AnyTensor::from_vector(spec("int32"), {-1, 2, 3}, {3});
    const auto m = ep::maximum(i32, f32);
    EXPECT_EQ(m.spec(), spec("float64"));
    EXPECT_EQ(m.to_vector(), (std::vector<double>{0.5, 2, 3}));
    const auto w = ep::where(f32 > 0, i8, f32);
    EXPECT_EQ(w.spec(), spec("float32"));
    EXPECT_EQ(w.to_vector(), (std::vector<double>{-1, 127, -2}));
    EXPECT_EQ(u8.sum().spec(), spec("uint64"));
    EXPECT_EQ(u8.sum().item<int>(), 256);
    for (const char* dtype : {"int16", "uint16", "uint32", "uint64"})
      EXPECT_EQ(ep::AnyTensor::arange(spec(dtype), 3).to_vector<int>(),
                (std::vector<int>{0, 1, 2}));
  }
}

TEST(AnyTensorErrors, NameBothSides) {
  const auto e = ep::AnyTensor::ones("eigen:float32", {2});
  const auto x = ep::AnyTensor::ones("xtensor:float32", {2});
  const auto i = ep::AnyTensor::arange("eigen:int32", 2);
  EXPECT_EQ(error_of([&] { (void)(e + x); }),
            "add: the operands hold eigen:float32 and xtensor:float32; expected one backend, and "
            "dtypes that promote (not uint64 with a signed integer; convert with as<B>() and "
            "astype, or create both from one spec)");
  const auto u = ep::AnyTensor::ones("eigen:uint64", {2});
  const auto l = ep::AnyTensor::ones("eigen:int64", {2});
  EXPECT_EQ(error_of([&] { (void)u.matmul(l); }),
            "matmul: the operands hold eigen:uint64 and eigen:int64; expected one backend, and "
            "dtypes that promote (not uint64 with a signed integer; convert with as<B>() and "
            "astype, or create both from one spec)");
  EXPECT_EQ(
      error_of([&] { (void)i.exp(); }),
      "exp: not defined for dtype int32 (this tensor is eigen:int32); expected float32 or float64");
  EXPECT_EQ(error_of([&] { (void)x.as<ep::eigen<float>>(); }),
            "AnyTensor::as: holds xtensor:float32, not eigen:float32; expected the backend and "
            "dtype it holds");
  EXPECT_EQ(error_of([&] { (void)ep::AnyTensor::zeros("eigen:float16", {1}); }),
            "AnyTensor: unknown spec \"eigen:float16\"; expected one of eigen:float32, "
            "eigen:float64, eigen:int8, eigen:int16, eigen:int32, eigen:int64, eigen:uint8, "
            "eigen:uint16, eigen:uint32, eigen:uint64, eigen:bool, xtensor:float32, "
            "xtensor:float64, xtensor:int8, xtensor:int16, xtensor:int32, xtensor:int64, "
            "xtensor:uint8, xtensor:uint16, xtensor:uint32, xtensor:uint64, xtensor:bool");
  EXPECT_EQ(error_of([&] { (void)ep::value_and_grad(x_exp_x_sum, i); }),
            "value_and_grad: not defined for dtype int32 (this tensor is eigen:int32); expected "
            "float32 or float64");
  EXPECT_EQ(error_of([&] {
              (void)ep::AnyTensor::full("eigen:float32", {2, 3}, 1).reshape({4});
            }).substr(0, 8),
            "reshape:");
}

}  // namespace
