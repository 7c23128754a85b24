// eagerpp - tests of ep::AnyTensor: results equal the static ep::Tensor's on Eigen and xtensor;
// errors name both sides
// SPDX-License-Identifier: MIT
#include <gtest/gtest.h>

#include <complex>  // std::complex
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
  EXPECT_EQ(error_of([&] { (void)i.exp(); }),
            "exp: not defined for dtype int32 (this tensor is eigen:int32); expected float32, "
            "float64, complex64 or complex128");
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

// --- complex dtypes: opted in with ep::any_array_api_dtypes ----------------------------------

using AnyC = ep::basic_any_tensor<ep::any_backends<ep::eigen>, ep::any_array_api_dtypes>;
using C = std::complex<double>;

void expect_complex(const std::vector<C>& got, const std::vector<C>& want, double rtol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t k = 0; k < got.size(); ++k)
    EXPECT_LE(std::abs(got[k] - want[k]), rtol * std::abs(want[k]) + 1e-7) << k;
}

TEST(AnyTensorComplex, OpsPromotionAndReductionsAsNumpy) {
  // NumPy 1.24: z = [1+2j, -0.5, 3-4j], w = [2-1j, 0.5j, -1+1j] (complex64).
  const AnyC z = ep::from_vector<ep::eigen<ep::complex64>>({{1, 2}, {-0.5, 0}, {3, -4}}, {3});
  const AnyC w = ep::from_vector<ep::eigen<ep::complex64>>({{2, -1}, {0, 0.5}, {-1, 1}}, {3});
  EXPECT_EQ(z.spec(), "eigen:complex64");
  const auto zwz = z * w + z;
  EXPECT_EQ(zwz.spec(), "eigen:complex64");
  expect_complex(zwz.to_vector<C>(), {{5, 5}, {-0.5, -0.25}, {4, 3}}, 1e-6);
  expect_complex(z.exp().to_vector<C>(),
                 {{-1.13120438, 2.47172667}, {0.60653066, 0}, {-13.12878308, 15.20078446}}, 1e-6);
  expect_complex(z.pow(AnyC::full("eigen:complex64", {3}, 2)).to_vector<C>(),
                 {{-3, 4}, {0.25, 0}, {-7, -24}}, 1e-6);
  expect_complex((-z).to_vector<C>(), {{-1, -2}, {0.5, 0}, {-3, 4}}, 0);
  // Real results hold the real dtype of the parts' width.
  const auto a = z.abs();
  EXPECT_EQ(a.spec(), "eigen:float32");
  EXPECT_NEAR(a.to_vector()[0], 2.236068, 1e-6);
  EXPECT_EQ(z.real().to_vector(), (std::vector<double>{1, -0.5, 3}));
  EXPECT_EQ(z.imag().to_vector(), (std::vector<double>{2, 0, -4}));
  expect_complex(z.conj().to_vector<C>(), {{1, -2}, {-0.5, 0}, {3, 4}}, 0);
  const auto angle = z.angle().to_vector();
  EXPECT_NEAR(angle[0], 1.1071488, 1e-6);
  EXPECT_NEAR(angle[1], 3.1415927, 1e-6);
  EXPECT_NEAR(angle[2], -0.9272952, 1e-6);
  EXPECT_EQ((z == w).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  EXPECT_EQ((z != z).to_vector<bool>(), (std::vector<bool>{false, false, false}));
  // np.result_type: float64 with complex64 is complex128, int8 with it complex64, int32 complex128.
  const auto f64 = AnyC::from_vector("eigen:float64", {1, 2, 3}, {3});
  EXPECT_EQ((f64 + z).spec(), "eigen:complex128");
  expect_complex((f64 + z).to_vector<C>(), {{2, 2}, {1.5, 0}, {6, -4}}, 0);
  EXPECT_EQ((AnyC::ones("eigen:int8", {3}) * z).spec(), "eigen:complex64");
  EXPECT_EQ((AnyC::ones("eigen:int32", {3}) * z).spec(), "eigen:complex128");
  EXPECT_EQ((z * 2.0).spec(), "eigen:complex64");
  // Reductions: sum (3.5-2j), mean (3.5-2j)/3.
  EXPECT_EQ(z.sum().item<C>(), C(3.5, -2));
  expect_complex({z.mean().item<C>()}, {C(3.5, -2) / 3.0}, 1e-6);
  // Creation from a spec; a real tensor read as complex.
  expect_complex(AnyC::full("eigen:complex128", {2}, 1.5).to_vector<C>(), {1.5, 1.5}, 0);
  expect_complex(f64.to_vector<C>(), {1, 2, 3}, 0);
  // matmul and inv of [[1+1j, 2], [0.5j, -1]] (complex128).
  const AnyC m =
      ep::from_vector<ep::eigen<ep::complex128>>({{1, 1}, {2, 0}, {0, 0.5}, {-1, 0}}, {2, 2});
  expect_complex(m.matmul(m).to_vector<C>(), {{0, 3}, {0, 2}, {-0.5, 0}, {1, 1}}, 1e-14);
  expect_complex(m.inv().to_vector<C>(), {{0.2, -0.4}, {0.4, -0.8}, {0.2, 0.1}, {-0.6, 0.2}},
                 1e-14);
  EXPECT_EQ(fmt::format("{}", z), fmt::format("{}", z.as<ep::eigen<ep::complex64>>()));
  const auto specs = AnyC::specs();
  EXPECT_EQ(specs.size(), 13U);
  EXPECT_EQ(specs.back(), "eigen:complex128");
}

TEST(AnyTensorComplex, OrderAndRealReadsThrow) {
  const AnyC z = ep::from_vector<ep::eigen<ep::complex64>>({{1, 2}, {3, 4}}, {2});
  EXPECT_EQ(error_of([&] { (void)(z < z); }),
            "less: not defined for dtype complex64 (this tensor is eigen:complex64); expected a "
            "real numeric dtype (an integer or floating one)");
  EXPECT_EQ(error_of([&] { (void)z.max(); }),
            "max: not defined for dtype complex64 (this tensor is eigen:complex64); expected a "
            "real numeric dtype (an integer or floating one)");
  EXPECT_EQ(error_of([&] { (void)z.sum().item(); }),
            "item: the tensor holds eigen:complex64; expected a complex U, e.g. "
            "item<std::complex<double>>()");
  EXPECT_EQ(error_of([&] { (void)z.to_vector<float>(); }),
            "to_vector: the tensor holds eigen:complex64; expected a complex U, e.g. "
            "to_vector<std::complex<double>>()");
  EXPECT_EQ(error_of([&] { (void)AnyC::ones("eigen:bool", {2}).negative(); }),
            "negative: not defined for dtype bool (this tensor is eigen:bool); expected a numeric "
            "dtype (an integer, floating or complex one)");
}

}  // namespace
