// eagerpp - cross-backend agreement: the same random inputs through Eigen and xtensor, and Eigen
// and omp, give the same results
// SPDX-License-Identifier: MIT
#include <cmath>        // std::round
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uint64_t
#include <cstdlib>      // std::getenv, std::atoi
#include <string>       // std::string
#include <type_traits>  // std::is_same_v
#include <utility>      // std::swap
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eigen.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>
#if defined(EAGERPP_TEST_OMP)
#include <omp.h>  // omp_get_max_threads

#include <eagerpp/omp.hpp>
#endif

#include "support/support.hpp"

// On integer-valued data (random integers stored in float or double) every sum, product, minimum,
// maximum and matrix product below is exact whatever the order of evaluation, so the two backends
// must agree bit for bit (rtol 0). Transcendental functions may differ by an ulp or two between
// Eigen's, xsimd's and the C library's implementations, so they agree within a relative tolerance.
// Each test runs for Eigen against each other host backend X: xtensor, and omp (the Thrust code of
// the CUDA backend on CPU threads) where it is built.
namespace {

/// Eigen<T> against Other<T>.
template <template <class> class Other, class Dtype>
struct against {
  using T = Dtype;
  using E = ep::eigen<T>;
  using X = Other<T>;
};

template <class Pair>
class CrossBackend : public ::testing::Test {
 protected:
  using T = typename Pair::T;
  using E = typename Pair::E;
  using X = typename Pair::X;
  /// 1e-6 relative for float (as the brief asks), tighter for double.
  static constexpr double rtol = std::is_same_v<T, float> ? 1e-6 : 1e-12;

  static std::vector<ep::Shape> shapes() { return {{7}, {3, 4, 5}, {2, 3, 1, 4, 2}}; }

  /// Random integers in [lo, hi] from `seed`, optionally with 0 replaced by 1 (for divisors).
  static std::vector<double> integers(const ep::Shape& s, int lo, int hi, std::uint64_t seed,
                                      bool nonzero = false) {
    auto v = ep::test::random_values(static_cast<std::size_t>(s.numel()), lo - 0.5, hi + 0.5, seed);
    for (auto& x : v) {
      x = std::round(x);
      if (x < lo) x = lo;
      if (x > hi) x = hi;
      if (nonzero && x == 0) x = 1;
    }
    return v;
  }

  /// {-2, -1, 1, 2}: products of many of them are signed powers of two, exact in float.
  static std::vector<double> factors(const ep::Shape& s, std::uint64_t seed) {
    auto v = ep::test::random_values(static_cast<std::size_t>(s.numel()), 0, 4, seed);
    const double pick[] = {-2, -1, 1, 2};
    for (auto& x : v) x = pick[static_cast<int>(x) & 3];
    return v;
  }
};

using Pairs = ::testing::Types<against<ep::xtensor, float>, against<ep::xtensor, double>
#if defined(EAGERPP_TEST_OMP)
                               ,
                               against<ep::omp, float>, against<ep::omp, double>
#endif
                               >;
TYPED_TEST_SUITE(CrossBackend, Pairs);

std::string where(const ep::Shape& s, const std::string& what) {
  return fmt::format("shape {}, {}", s.str(), what);
}

TYPED_TEST(CrossBackend, ArithmeticOnIntegers) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  for (const auto& s : TestFixture::shapes()) {
    const auto a = TestFixture::integers(s, -50, 50, 1);
    const auto b = TestFixture::integers(s, -9, 9, 2, true);
    const auto ea = ep::test::tensor<E>(a, s), eb = ep::test::tensor<E>(b, s);
    const auto xa = ep::test::tensor<X>(a, s), xb = ep::test::tensor<X>(b, s);
    SCOPED_TRACE(where(s, "binary ops"));
    ep::test::expect_close(ea + eb, xa + xb);
    ep::test::expect_close(ea - eb, xa - xb);
    ep::test::expect_close(ea * eb, xa * xb);
    ep::test::expect_close(ea / eb, xa / xb);  // correctly rounded in both: IEEE division
    ep::test::expect_close(ea.minimum(eb), xa.minimum(xb));
    ep::test::expect_close(ea.maximum(eb), xa.maximum(xb));
    // Broadcasting against the last axis.
    const ep::Shape last{s.back()};
    const auto c = TestFixture::integers(last, -9, 9, 3, true);
    const auto ec = ep::test::tensor<E>(c, last);
    const auto xc = ep::test::tensor<X>(c, last);
    ep::test::expect_close(ea + ec, xa + xc);
    ep::test::expect_close(ec - ea, xc - xa);
    ep::test::expect_close(ea * ec, xa * xc);
    ep::test::expect_close(ea / ec, xa / xc);
    ep::test::expect_close(ea.minimum(ec), xa.minimum(xc));
    ep::test::expect_close(ec.maximum(ea), xc.maximum(xa));
  }
}

TYPED_TEST(CrossBackend, ReductionsOnIntegers) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  for (const auto& s : TestFixture::shapes()) {
    const auto a = TestFixture::integers(s, -50, 50, 4);
    const auto p = TestFixture::factors(s, 5);
    const auto ea = ep::test::tensor<E>(a, s), eprod = ep::test::tensor<E>(p, s);
    const auto xa = ep::test::tensor<X>(a, s), xprod = ep::test::tensor<X>(p, s);
    {
      SCOPED_TRACE(where(s, "all axes"));
      ep::test::expect_close(ea.sum(), xa.sum());
      ep::test::expect_close(eprod.prod(), xprod.prod());
      ep::test::expect_close(ea.min(), xa.min());
      ep::test::expect_close(ea.max(), xa.max());
      ep::test::expect_close(ea.sum({}, true), xa.sum({}, true));
    }
    for (int axis = 0; axis < s.size(); ++axis) {
      SCOPED_TRACE(where(s, fmt::format("axis {}", axis)));
      ep::test::expect_close(ea.sum(axis), xa.sum(axis));
      ep::test::expect_close(eprod.prod(axis), xprod.prod(axis));
      ep::test::expect_close(ea.min(axis), xa.min(axis));
      ep::test::expect_close(ea.max(axis, true), xa.max(axis, true));
      ep::test::expect_close(ea.cumsum(axis), xa.cumsum(axis));
      ep::test::expect_close(ea.argmax(axis), xa.argmax(axis));
      ep::test::expect_close(ea.argmin(axis), xa.argmin(axis));
    }
    if (s.size() >= 3) {
      SCOPED_TRACE(where(s, "axes {0, 2}"));
      ep::test::expect_close(ea.sum({0, 2}), xa.sum({0, 2}));
      ep::test::expect_close(eprod.prod({0, -1}, true), xprod.prod({0, -1}, true));
      ep::test::expect_close(ea.max({0, 2}), xa.max({0, 2}));
    }
  }
}

TYPED_TEST(CrossBackend, MatmulOnIntegers) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  // (n,) @ (n,), (3,4,5) @ (5,6) and (2,3,1,4,2) @ (2,3) with broadcast batch axes.
  for (const auto& s : TestFixture::shapes()) {
    const ep::Shape rhs = s.size() == 1 ? ep::Shape{s[0]} : ep::Shape{s.back(), 3};
    const auto a = TestFixture::integers(s, -20, 20, 6);
    const auto b = TestFixture::integers(rhs, -20, 20, 7);
    SCOPED_TRACE(where(s, "matmul"));
    ep::test::expect_close(ep::test::tensor<E>(a, s).matmul(ep::test::tensor<E>(b, rhs)),
                           ep::test::tensor<X>(a, s).matmul(ep::test::tensor<X>(b, rhs)));
    // The transposed product too: (rhs^T) @ (s^T) on the last two axes.
    if (s.size() >= 2) {
      const auto eb = ep::test::tensor<E>(b, rhs).T();
      const auto xb = ep::test::tensor<X>(b, rhs).T();
      std::vector<int> perm;
      for (int i = 0; i < s.size(); ++i) perm.push_back(i);
      std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
      ep::test::expect_close(eb.matmul(ep::test::tensor<E>(a, s).transpose(perm)),
                             xb.matmul(ep::test::tensor<X>(a, s).transpose(perm)));
    }
  }
}

// ep::omp streams outputs of at least detail::omp_system::streaming_cutoff bytes past the cache, a
// tile at a time (backends/omp/include/eagerpp/omp/system.hpp). With the cutoff at 0 every output
// below takes that path: whole tiles (64 floats, 32 doubles, 256 bools) and the rest, on
// the same-shape, scalar-operand and broadcasting paths of the element-wise transform.
TYPED_TEST(CrossBackend, StreamedOutputsAgree) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
#if defined(EAGERPP_TEST_OMP)
  struct stream_everything {
    std::int64_t saved = ep::detail::omp_system::streaming_cutoff;
    stream_everything() { ep::detail::omp_system::streaming_cutoff = 0; }
    ~stream_everything() { ep::detail::omp_system::streaming_cutoff = saved; }
  } guard;
#endif
  const ep::Shape s{301, 7};  // 2107 elements
  const auto a = TestFixture::integers(s, -50, 50, 4);
  const auto b = TestFixture::integers(s, -9, 9, 5, true);
  const auto ea = ep::test::tensor<E>(a, s), eb = ep::test::tensor<E>(b, s);
  const auto xa = ep::test::tensor<X>(a, s), xb = ep::test::tensor<X>(b, s);
  const ep::Shape last{7};
  const auto c = TestFixture::integers(last, -9, 9, 6, true);
  const auto ec = ep::test::tensor<E>(c, last);
  const auto xc = ep::test::tensor<X>(c, last);
  ep::test::expect_close(ea * eb - ea, xa * xb - xa);
  ep::test::expect_close(-ea, -xa);
  ep::test::expect_close(ea + 1, xa + 1);
  ep::test::expect_close(2 * eb, 2 * xb);
  ep::test::expect_close(ea / ec, xa / xc);
  ep::test::expect_close(ea < eb, xa < xb);
  ep::test::expect_close(ea.exp(), xa.exp(), TestFixture::rtol);
}

TYPED_TEST(CrossBackend, TranscendentalOnRandomData) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  constexpr double rtol = TestFixture::rtol;
  for (const auto& s : TestFixture::shapes()) {
    const auto n = static_cast<std::size_t>(s.numel());
    const auto r = ep::test::random_values(n, -5, 5, 8);
    const auto pos = ep::test::random_values(n, 0.01, 10, 9);
    const auto er = ep::test::tensor<E>(r, s), epos = ep::test::tensor<E>(pos, s);
    const auto xr = ep::test::tensor<X>(r, s), xpos = ep::test::tensor<X>(pos, s);
    SCOPED_TRACE(where(s, "transcendental"));
    // atol = rtol: sin and cos near their zeros have tiny values whose relative error is large.
    ep::test::expect_close(er.exp(), xr.exp(), rtol);
    ep::test::expect_close(epos.log(), xpos.log(), rtol, rtol);
    ep::test::expect_close(epos.sqrt(), xpos.sqrt(), rtol);
    ep::test::expect_close(er.sin(), xr.sin(), rtol, rtol);
    ep::test::expect_close(er.cos(), xr.cos(), rtol, rtol);
    ep::test::expect_close(er.tanh(), xr.tanh(), rtol, rtol);
    ep::test::expect_close(er.softmax(), xr.softmax(), rtol, rtol);
    ep::test::expect_close(er.softmax(0), xr.softmax(0), rtol, rtol);
    ep::test::expect_close(er.logsumexp(), xr.logsumexp(), rtol);
    for (int axis = 0; axis < s.size(); ++axis) {
      SCOPED_TRACE(fmt::format("axis {}", axis));
      ep::test::expect_close(er.logsumexp(axis), xr.logsumexp(axis), rtol, rtol);
      ep::test::expect_close(er.log_softmax(axis), xr.log_softmax(axis), rtol, rtol);
    }
  }
}

TYPED_TEST(CrossBackend, RandomNumbersAreTheSame) {
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  // The same seed gives bit-identical tensors on both backends, for every shape and any sequence of
  // draws.
  ep::generator ge(20240611), gx(20240611);
  for (const auto& s : TestFixture::shapes()) {
    SCOPED_TRACE(where(s, "uniform, normal"));
    ep::test::expect_close(ep::uniform<E>(ge, s), ep::uniform<X>(gx, s));
    ep::test::expect_close(ep::uniform<E>(ge, s, -3, 5), ep::uniform<X>(gx, s, -3, 5));
    ep::test::expect_close(ep::normal<E>(ge, s), ep::normal<X>(gx, s));
    ep::test::expect_close(ep::normal<E>(ge, s, 2, 0.5), ep::normal<X>(gx, s, 2, 0.5));
  }
  // The first values of a fresh generator, against the literals from an independent Philox-4x32-10
  // (Python, checked against Random123's known answers): seed 0 starts with 0x6627e8d5 / 2^32.
  ep::generator e0(0), x0(0);
  const std::vector<double> first{0.3990464708489645, 0.7357127844834425, 0.9722412015223156};
  ep::test::expect_near(ep::uniform<E>(e0, {3}), {3}, first, TestFixture::rtol);
  ep::test::expect_near(ep::uniform<X>(x0, {3}), {3}, first, TestFixture::rtol);
  // randint and permutation draw from the same stream, on the host: equal on both backends.
  using EI = typename E::template rebind<std::int64_t>;
  using XI = typename X::template rebind<std::int64_t>;
  ep::generator ie(99), ix(99);
  EXPECT_EQ(ep::randint<EI>(ie, -5, 1000, {3, 4}).to_vector(),
            ep::randint<XI>(ix, -5, 1000, {3, 4}).to_vector());
  EXPECT_EQ(ep::permutation<E>(ie, 50).to_vector(), ep::permutation<X>(ix, 50).to_vector());
}

TYPED_TEST(CrossBackend, TransfersShareHostMemory) {
  using T = typename TestFixture::T;
  using E = typename TestFixture::E;
  using X = typename TestFixture::X;
  // ep::to between Eigen and xtensor (or omp) shares the elements (no copy), keeps values and
  // shape, and the shared buffer outlives the tensor it came from. An Eigen tensor of one element
  // holds it inline (no buffer), so that one is copied on the way to the other backend.
  for (const auto& s : std::vector<ep::Shape>{{}, {1}, {0, 3}, {2, 3, 4}}) {
    SCOPED_TRACE(where(s, fmt::format("eigen -> {} -> eigen", X::name)));
    const auto v = TestFixture::integers(s, -9, 9, 7);
    auto e = ep::test::tensor<E>(v, s);
    const T* data = e.raw().data();
    const ep::Tensor<X> x = ep::to<X>(e);
    EXPECT_EQ(x.shape(), s);
    if (s.numel() > 1) {
      EXPECT_EQ(x.raw().data(), data);
    }
    e = ep::zeros<E>({1});  // drop the original: x keeps the buffer alive
    ep::test::expect_near(x, s, v, 0);
    const ep::Tensor<E> back = x.template to<E>();
    if (s.numel() > 0) {
      EXPECT_EQ(back.raw().data(), x.raw().data());
    }
    ep::test::expect_near(back, s, v, 0);
    ep::test::expect_near(
        back * 2, s,
        [&] {
          auto w = v;
          for (auto& d : w) d *= 2;
          return w;
        }(),
        0);
  }
}

#if defined(EAGERPP_TEST_OMP) && defined(_OPENMP)
// Linking ep::omp compiles the program with OpenMP; Eigen's matrix products still get the threads
// the user chose: OMP_NUM_THREADS where it is set (ctest cross_backend sets 2), else one, as in a
// program without OpenMP (ctest cross_backend_default_threads); Eigen::setNbThreads still works.
TEST(EigenThreads, LinkingOmpKeepsTheUsersChoice) {
  const char* env = std::getenv("OMP_NUM_THREADS");
  EXPECT_EQ(Eigen::nbThreads(), env == nullptr ? 1 : std::atoi(env));
  Eigen::setNbThreads(3);
  EXPECT_EQ(Eigen::nbThreads(), 3);
  Eigen::setNbThreads(0);  // Eigen's OpenMP default
  EXPECT_EQ(Eigen::nbThreads(), omp_get_max_threads());
  Eigen::setNbThreads(env == nullptr ? 1 : std::atoi(env));
}
#endif

// The 8- and 16-bit and unsigned integer dtypes cross backends as the others do: the elements are
// shared, not copied.
TEST(CrossBackendDtypes, TransfersOfTheIntegerDtypesShareHostMemory) {
  const auto u = ep::from_vector<ep::eigen<std::uint8_t>>({0, 200, 255, 7}, {2, 2});
  const auto x = ep::to<ep::xtensor<std::uint8_t>>(u);
  EXPECT_EQ(x.shape(), u.shape());
  EXPECT_EQ(x.to_vector(), u.to_vector());
  EXPECT_EQ(x.raw().data(), u.raw().data());
  const auto i = ep::from_vector<ep::xtensor<std::int16_t>>({-300, 7, 32767}, {3});
  EXPECT_EQ(ep::to<ep::eigen<std::int16_t>>(i).to_vector(),
            (std::vector<std::int16_t>{-300, 7, 32767}));
  const auto big = ep::from_vector<ep::eigen<std::uint64_t>>({18446744073709551615ULL, 1}, {2});
  EXPECT_EQ(ep::to<ep::xtensor<std::uint64_t>>(big).to_vector(),
            (std::vector<std::uint64_t>{18446744073709551615ULL, 1}));
}

}  // namespace
