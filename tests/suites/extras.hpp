// eagerpp - the typed suite of the extras: ep::generator / uniform / normal, inv, slogdet,
// ep::norms, kl_div_with_logits, meshgrid, eager_function, save_npy / load_npy
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>         // std::find
#include <cmath>             // std::sqrt, std::pow, std::abs
#include <cstdint>           // std::int32_t, std::int64_t
#include <filesystem>        // std::filesystem
#include <fstream>           // std::ifstream, std::ofstream
#include <initializer_list>  // std::initializer_list
#include <iterator>          // std::istreambuf_iterator
#include <limits>            // std::numeric_limits
#include <random>            // std::random_device
#include <string>            // std::string
#include <type_traits>       // std::is_same_v, std::remove_cvref_t
#include <utility>           // std::pair
#include <vector>            // std::vector

#include <gtest/gtest.h>

#include <eagerpp/norms.hpp>
#include <eagerpp/npy.hpp>
#include <eagerpp/random.hpp>

#include "support/gradcheck.hpp"
#include "support/support.hpp"

#ifndef EAGERPP_TEST_DATA_DIR
#error "EAGERPP_TEST_DATA_DIR must name tests/data (tests/CMakeLists.txt defines it)"
#endif

// Oracles:
// - random: an independent Python implementation of Philox-4x32-10 (checked against Random123's
//   known-answer vectors, e.g. counter 0 and key 0 -> 6627e8d5 e169c58d bc57ac4c 9b00dbd8) with
//   eagerpp's documented mapping: u = ((w0 << 21) ^ (w1 >> 11)) * 2^-53 from each pair of words,
//   normal by Box-Muller z = sqrt(-2 log1p(-u0)) * (cos, sin)(2 pi u1);
// - inv, slogdet: numpy.linalg.inv and numpy.linalg.slogdet (NumPy 1.24);
// - norms: EagerPy's definition, computed with NumPy: move the reduced axes last, flatten them and
//   take numpy.linalg.norm(y, ord=p, axis=-1) (then reshape for keepdims);
// - kl_div_with_logits: sum(exp(lp) * (lp - lq)) with lp, lq = x - logsumexp(x) in NumPy;
// - meshgrid: numpy.meshgrid; .npy: files written by numpy.save (tests/data, see make_fixtures.py).
namespace extras_suite {

using ep::test::tensor;
using ep::test::values;

/// The tolerance of results computed in double and rounded to B's type.
template <class B>
constexpr double rtol() {
  return std::is_same_v<typename B::value_type, float> ? 1e-6 : 1e-12;
}

/// (np.arange(24) % 7 - 3).reshape(2, 3, 4): small integers with zeros.
template <class B>
ep::Tensor<B> norm_input() {
  values v;
  for (int i = 0; i < 24; ++i) v.push_back(static_cast<double>(i % 7 - 3));
  return tensor<B>(v, {2, 3, 4});
}

/// The lp norm of norm_input's elements over `axes` (ascending), by a plain loop: (sum |x|^p)^(1/p)
/// for each index of the kept axes, in C order.
inline values lp_reference(double p, std::initializer_list<int> axes) {
  constexpr int dims[3] = {2, 3, 4};
  const auto reduced = [&](int d) { return std::find(axes.begin(), axes.end(), d) != axes.end(); };
  std::size_t kept = 1;
  for (int d = 0; d < 3; ++d)
    if (!reduced(d)) kept *= dims[d];
  values sums(kept, 0.0);
  for (int i = 0; i < 24; ++i) {
    const int index[3] = {i / 12, i / 4 % 3, i % 4};
    std::size_t k = 0;
    for (int d = 0; d < 3; ++d)
      if (!reduced(d)) k = k * dims[d] + index[d];
    sums[k] += std::pow(std::abs(i % 7 - 3.0), p);
  }
  for (double& s : sums) s = std::pow(s, 1 / p);
  return sums;
}

/// sum(y * w) for fixed weights 1, 2, 3, ...
template <class B>
ep::Tensor<B> weighted(const ep::Tensor<B>& y) {
  values w;
  for (std::int64_t i = 0; i < y.size(); ++i) w.push_back(static_cast<double>(i % 5) + 1);
  return (y * tensor<B>(w, y.shape())).sum();
}

/// A fresh directory under the system's temporary directory, removed with the object.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    path = std::filesystem::temp_directory_path() /
           ("eagerpp-extras-" + std::to_string(std::random_device{}()));
    std::filesystem::create_directories(path);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

inline std::string read_bytes(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline void write_bytes(const std::filesystem::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

using ep::test::fixture;

/// save_npy then load_npy on backend R; expects the same shape and elements.
template <class R>
void expect_round_trip(const std::filesystem::path& dir,
                       const std::vector<typename R::value_type>& data, const ep::Shape& shape,
                       const char* name) {
  SCOPED_TRACE(name);
  const auto t = ep::from_vector<R>(data, shape);
  const auto p = dir / name;
  ep::save_npy(p, t);
  const auto back = ep::load_npy<R>(p);
  ep::test::expect_equal(back, shape, data);
}

}  // namespace extras_suite

EAGERPP_TYPED_SUITE(Extras);

// --- random ------------------------------------------------------------------------------------

TYPED_TEST_P(Extras, RandomFirstValues) {
  using namespace extras_suite;
  constexpr double tol = rtol<TypeParam>();
  ep::generator g(42);
  ep::test::expect_near(ep::uniform<TypeParam>(g, {5}, -1, 3), {5},
                        values{1.4518395247576632, -0.7070730502336646, 2.950874603658042,
                               1.0556245878844663, 2.3034673087841973},
                        tol);
  // The generator goes on where uniform stopped (3 blocks of 4 words used).
  ep::test::expect_near(ep::normal<TypeParam>(g, {3}, 2, 0.5), {3},
                        values{1.307604246509643, 1.582252195023918, 1.8038414092974504}, tol);
  ep::generator g0(0);
  ep::test::expect_near(ep::uniform<TypeParam>(g0, {3}), {3},
                        values{0.3990464708489645, 0.7357127844834425, 0.9722412015223156}, tol);
  ep::generator g64((std::uint64_t{1} << 32) + 7);  // both halves of the seed count
  ep::test::expect_near(
      ep::normal<TypeParam>(g64, {2, 2}), {2, 2},
      values{-0.9040826444478975, 0.21478726986386415, -0.29250498018646354, -0.16118143455163164},
      tol, 1e-15);
}

TYPED_TEST_P(Extras, RandomSameSeedSameValues) {
  using namespace extras_suite;
  ep::generator a(7), b(7), c(8);
  const auto ua = ep::uniform<TypeParam>(a, {4, 5});
  const auto ub = ep::uniform<TypeParam>(b, {4, 5});
  ep::test::expect_close(ua, ub);
  const auto uc = ep::uniform<TypeParam>(c, {4, 5});
  EXPECT_NE(ua.to_vector(), uc.to_vector()) << "seeds 7 and 8 gave the same numbers";
  // Later draws differ from the first ones, and stay equal between equal generators.
  const auto na = ep::normal<TypeParam>(a, {3, 3});
  const auto nb =
      ep::normal(b, ua, {3, 3});  // EagerPy's form: the tensor supplies backend and dtype
  ep::test::expect_close(na, nb);
  EXPECT_EQ(nb.shape(), (ep::Shape{3, 3}));
  EXPECT_NE(ep::uniform<TypeParam>(a, {4, 5}).to_vector(), ua.to_vector());
  // 0-d and empty shapes.
  EXPECT_EQ(ep::uniform<TypeParam>(a, {}).shape(), ep::Shape{});
  EXPECT_EQ(ep::normal<TypeParam>(a, {0, 3}).shape(), (ep::Shape{0, 3}));
  EXPECT_THROW((void)ep::uniform<TypeParam>(a, {2}, 1, 0), ep::value_error);
  EXPECT_THROW((void)ep::normal<TypeParam>(a, {2}, 0, -1), ep::value_error);
}

TYPED_TEST_P(Extras, RandomStatistics) {
  using namespace extras_suite;
  ep::generator g(2024);
  // 10000 samples: the standard error of the mean is sigma / 100, the bounds below are ~4 of it.
  const auto u = ep::uniform<TypeParam>(g, {100, 100}, -2, 3);
  EXPECT_GE(static_cast<double>(u.min().item()), -2.0);
  EXPECT_LT(static_cast<double>(u.max().item()), 3.0);
  EXPECT_NEAR(static_cast<double>(u.mean().item()), 0.5, 0.06);
  const double su = std::sqrt(static_cast<double>((u - u.mean()).square().mean().item()));
  EXPECT_NEAR(su, 5 / std::sqrt(12.0), 0.03);
  const auto n = ep::normal<TypeParam>(g, {10000}, 1.5, 2);
  EXPECT_NEAR(static_cast<double>(n.mean().item()), 1.5, 0.08);
  const double sn = std::sqrt(static_cast<double>((n - n.mean()).square().mean().item()));
  EXPECT_NEAR(sn, 2.0, 0.06);
  // About 68.3% within one standard deviation.
  const double within = static_cast<double>(
      ((n - 1.5).abs() < 2).template astype<typename TypeParam::value_type>().mean().item());
  EXPECT_NEAR(within, 0.6827, 0.02);
}

// --- inv and slogdet -----------------------------------------------------------------------------

TYPED_TEST_P(Extras, Inv) {
  using namespace extras_suite;
  constexpr double tol = std::is_same_v<typename TypeParam::value_type, float> ? 1e-6 : 1e-12;
  const auto a =
      tensor<TypeParam>(values{4, 7, 2, 3, 6, 1, 2, 5, 3, 1, 2, 0, 0, 1, 3, 2, 0, 1}, {2, 3, 3});
  ep::test::expect_near(
      a.inv(), {2, 3, 3},
      values{1.4444444444444442, -1.222222222222222, -0.5555555555555556, -0.7777777777777777,
             0.8888888888888888, 0.22222222222222224, 0.3333333333333333, -0.6666666666666666,
             0.3333333333333333, 0.07692307692307693, -0.15384615384615385, 0.46153846153846156,
             0.46153846153846156, 0.07692307692307693, -0.23076923076923078, -0.15384615384615385,
             0.3076923076923077, 0.07692307692307693},
      tol, tol);
  ep::test::expect_near(tensor<TypeParam>(values{2, 1, 1, 1}, {2, 2}).inv(), {2, 2},
                        values{1, -1, -1, 2}, tol, tol);
  // A pivot is needed: [[0, 1], [1, 0]] is its own inverse.
  ep::test::expect_near(tensor<TypeParam>(values{0, 1, 1, 0}, {2, 2}).inv(), {2, 2},
                        values{0, 1, 1, 0}, tol, tol);
  // Empty batch and 1x1.
  EXPECT_EQ(tensor<TypeParam>(values{}, {0, 2, 2}).inv().shape(), (ep::Shape{0, 2, 2}));
  ep::test::expect_near(tensor<TypeParam>(values{4}, {1, 1}).inv(), {1, 1}, values{0.25}, tol);
  EXPECT_THROW((void)tensor<TypeParam>(values{1, 2, 3, 4, 5, 6}, {2, 3}).inv(), ep::value_error);
  EXPECT_THROW((void)tensor<TypeParam>(values{1, 2}, {2}).inv(), ep::value_error);
  if constexpr (std::is_same_v<typename TypeParam::value_type, double>) {
    using T = ep::Tensor<TypeParam>;
    EXPECT_TRUE(ep::test::check_gradient([](const T& x) { return weighted(x.inv()); }, a)) << "inv";
  }
}

TYPED_TEST_P(Extras, Slogdet) {
  using namespace extras_suite;
  constexpr double tol = rtol<TypeParam>();
  const double inf = std::numeric_limits<double>::infinity();
  // det 1 2 3 4 = -2; diag(2, 3) = 6; [[1, 2], [2, 4]] singular; [[0, 1], [1, 0]] = -1.
  const auto s =
      tensor<TypeParam>(values{1, 2, 3, 4, 2, 0, 0, 3, 1, 2, 2, 4, 0, 1, 1, 0}, {4, 2, 2});
  const auto [sign, logabs] = s.slogdet();
  ep::test::expect_equal(sign, {4}, values{-1, 1, 0, -1});
  ep::test::expect_near(logabs, {4}, values{0.6931471805599455, 1.791759469228055, -inf, 0.0}, tol,
                        tol);
  const auto [s3, l3] = tensor<TypeParam>(values{4, 7, 2, 3, 6, 1, 2, 5, 3}, {3, 3}).slogdet();
  ep::test::expect_equal(s3, {}, values{1});
  ep::test::expect_near(l3, {}, values{2.197224577336219}, tol);
  // A zero matrix is singular too.
  const auto [sz, lz] = tensor<TypeParam>(values{0, 0, 0, 0}, {2, 2}).slogdet();
  ep::test::expect_equal(sz, {}, values{0});
  ep::test::expect_equal(lz, {}, values{-inf});
  EXPECT_THROW((void)tensor<TypeParam>(values{1, 2, 3, 4, 5, 6}, {3, 2}).slogdet(),
               ep::value_error);
  if constexpr (std::is_same_v<typename TypeParam::value_type, double>) {
    using T = ep::Tensor<TypeParam>;
    // Batched, with a negative determinant: d log|det A| / dA = inv(A)^T.
    const auto a = tensor<TypeParam>(values{1, 2, 3, 4, 4, 7, 2, 3}, {2, 2, 2});  // det -2 and -2
    EXPECT_TRUE(
        ep::test::check_gradient([](const T& x) { return weighted(x.slogdet().second); }, a))
        << "slogdet, 2x2 batch";
    const auto b = tensor<TypeParam>(values{4, 7, 2, 3, 6, 1, 2, 5, 3}, {3, 3});
    EXPECT_TRUE(ep::test::check_gradient([](const T& x) { return x.slogdet().second; }, b))
        << "slogdet, 3x3";
  }
}

// --- norms
// -----------------------------------------------------------------------------------------

TYPED_TEST_P(Extras, NormsExact) {
  using namespace extras_suite;
  const auto x = norm_input<TypeParam>();
  namespace n = ep::norms;
  ep::test::expect_equal(n::l0(x), {}, values{21});
  ep::test::expect_equal(n::l0(x, 1), {2, 4}, values{3, 3, 2, 2, 3, 2, 3, 3});
  ep::test::expect_equal(n::l0(x, -1, true), {2, 3, 1}, values{3, 4, 3, 4, 3, 4});
  ep::test::expect_equal(n::l0(x, {0, 2}), {3}, values{7, 7, 7});
  ep::test::expect_equal(n::l0(x, {0, -1}, true), {1, 3, 1}, values{7, 7, 7});
  ep::test::expect_equal(n::l1(x), {}, values{42});
  ep::test::expect_equal(n::l1(x, 1), {2, 4}, values{6, 5, 4, 4, 6, 6, 6, 5});
  ep::test::expect_equal(n::l1(x, -1, true), {2, 3, 1}, values{6, 9, 4, 10, 4, 9});
  ep::test::expect_equal(n::l1(x, {0, 2}), {3}, values{16, 13, 13});
  ep::test::expect_equal(n::l1(x, {0, -1}, true), {1, 3, 1}, values{16, 13, 13});
  ep::test::expect_equal(n::linf(x), {}, values{3});
  ep::test::expect_equal(n::linf(x, 1), {2, 4}, values{3, 2, 3, 3, 3, 3, 3, 2});
  ep::test::expect_equal(n::linf(x, -1, true), {2, 3, 1}, values{3, 3, 2, 3, 2, 3});
  ep::test::expect_equal(n::linf(x, {0, 2}), {3}, values{3, 3, 3});
  // lp dispatches p = 0, 1 and infinity to the exact norms.
  ep::test::expect_equal(n::lp(x, 0, 1), {2, 4}, values{3, 3, 2, 2, 3, 2, 3, 3});
  ep::test::expect_equal(n::lp(x, 1, {0, 2}), {3}, values{16, 13, 13});
  ep::test::expect_equal(n::lp(x, std::numeric_limits<double>::infinity(), -1, true), {2, 3, 1},
                         values{3, 3, 2, 3, 2, 3});
  // Empty: the sum of nothing is 0.
  ep::test::expect_equal(n::l1(tensor<TypeParam>(values{}, {0, 3}), 0), {3}, values{0, 0, 0});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)n::lp(x, -1); }, {"p = -1"});
  EXPECT_THROW((void)n::lp(x, -0.5, 1), ep::value_error);
  EXPECT_THROW((void)n::lp(x, std::numeric_limits<double>::quiet_NaN()), ep::value_error);
}

TYPED_TEST_P(Extras, NormsInexact) {
  using namespace extras_suite;
  const auto x = norm_input<TypeParam>();
  namespace n = ep::norms;
  constexpr double tol = std::is_same_v<typename TypeParam::value_type, float> ? 1e-6 : 1e-12;
  ep::test::expect_near(n::l2(x), {}, values{9.899494936611665}, tol);
  ep::test::expect_near(n::l2(x, 1), {2, 4},
                        values{3.7416573867739413, 3.0, 3.1622776601683795, 3.1622776601683795,
                               3.7416573867739413, 4.242640687119285, 3.7416573867739413, 3.0},
                        tol);
  ep::test::expect_near(n::l2(x, -1, true), {2, 3, 1},
                        values{3.7416573867739413, 4.795831523312719, 2.449489742783178,
                               5.0990195135927845, 2.449489742783178, 4.795831523312719},
                        tol);
  ep::test::expect_near(n::l2(x, {0, 2}), {3},
                        values{6.324555320336759, 5.385164807134504, 5.385164807134504}, tol);
  ep::test::expect_near(n::lp(x, 2, {0, -1}, true), {1, 3, 1},
                        values{6.324555320336759, 5.385164807134504, 5.385164807134504}, tol);
  // lp for p = 3 and p = 0.5 against a plain loop over the input (lp_reference, itself checked
  // against NumPy's np.linalg.norm(x.ravel(), p) here): over all axes, axis 1, axis -1 keeping it,
  // and two axes with and without keepdims.
  EXPECT_NEAR(lp_reference(3, {0, 1, 2})[0], 6.316359597656378, 1e-12);
  EXPECT_NEAR(lp_reference(0.5, {0, 1, 2})[0], 842.3839030470647, 1e-9);
  for (const double p : {3.0, 0.5}) {
    SCOPED_TRACE(p);
    ep::test::expect_near(n::lp(x, p), {}, lp_reference(p, {0, 1, 2}), tol);
    ep::test::expect_near(n::lp(x, p, 1), {2, 4}, lp_reference(p, {1}), tol);
    ep::test::expect_near(n::lp(x, p, -1, true), {2, 3, 1}, lp_reference(p, {2}), tol);
    ep::test::expect_near(n::lp(x, p, {0, 2}), {3}, lp_reference(p, {0, 2}), tol);
    ep::test::expect_near(n::lp(x, p, {0, -1}, true), {1, 3, 1}, lp_reference(p, {0, 2}), tol);
  }
}

TYPED_TEST_P(Extras, NormGradients) {
  using namespace extras_suite;
  using T = ep::Tensor<TypeParam>;
  // l2 at 0: the gradient is 0, not NaN; where the norm is not 0 it is x / |x|.
  const auto [v0, g0] = ep::value_and_grad([](const T& t) { return ep::norms::l2(t); },
                                           tensor<TypeParam>(values{0, 0, 0}, {3}));
  ep::test::expect_equal(v0, {}, values{0});
  ep::test::expect_equal(g0, {3}, values{0, 0, 0});
  const auto [v1, g1] = ep::value_and_grad([](const T& t) { return ep::norms::l2(t, -1).sum(); },
                                           tensor<TypeParam>(values{0, 0, 3, 4}, {2, 2}));
  ep::test::expect_near(v1, {}, values{5}, rtol<TypeParam>());
  ep::test::expect_near(g1, {2, 2}, values{0, 0, 0.6, 0.8}, rtol<TypeParam>());
  const auto [v2, g2] = ep::value_and_grad(
      [](const T& t) {
        return ep::norms::l2(t, {0, 2}, true).sum();
      },
      tensor<TypeParam>(values{0, 0, 0, 0, 0, 0, 0, 0}, {2, 2, 2}));
  ep::test::expect_equal(g2, {2, 2, 2}, values{0, 0, 0, 0, 0, 0, 0, 0});
  if constexpr (std::is_same_v<typename TypeParam::value_type, double>) {
    const T x = tensor<TypeParam>(ep::test::random_values(24, -2, 2, 5), {2, 3, 4});
    EXPECT_TRUE(ep::test::check_gradient(
        [](const T& t) {
          return weighted(ep::norms::l2(t, {0, 2}, true));
        },
        x))
        << "l2";
    EXPECT_TRUE(
        ep::test::check_gradient([](const T& t) { return weighted(ep::norms::lp(t, 3, 1)); }, x))
        << "lp(3)";
    EXPECT_TRUE(
        ep::test::check_gradient([](const T& t) { return weighted(ep::norms::l1(t, -1)); }, x))
        << "l1";
  }
}

TYPED_TEST_P(Extras, KlDivWithLogits) {
  using namespace extras_suite;
  constexpr double tol = rtol<TypeParam>();
  const auto a = tensor<TypeParam>(values{1, 2, 3, 0, -1, 2}, {2, 3});
  const auto b = tensor<TypeParam>(values{0, 0, 0, 1, 1, -1}, {2, 3});
  ep::test::expect_near(ep::kl_div_with_logits(a, b), {2},
                        values{0.26621670682817083, 1.9219465279145196}, tol, tol);
  ep::test::expect_near(ep::kl_div_with_logits(a, b, 0, true), {1, 3},
                        values{0.4621171572600098, 1.074970843234214, 0.0}, tol, tol);
  // KL(p || p) = 0.
  ep::test::expect_near(ep::kl_div_with_logits(a, a), {2}, values{0, 0}, tol, tol);
}

// --- meshgrid and eager_function
// -------------------------------------------------------------------

TYPED_TEST_P(Extras, Meshgrid) {
  using namespace extras_suite;
  const auto x = tensor<TypeParam>(values{1, 2, 3}, {3});
  const auto y = tensor<TypeParam>(values{4, 5}, {2});
  const auto xy = ep::meshgrid<TypeParam>({x, y});
  ASSERT_EQ(xy.size(), 2u);
  ep::test::expect_equal(xy[0], {2, 3}, values{1, 2, 3, 1, 2, 3});
  ep::test::expect_equal(xy[1], {2, 3}, values{4, 4, 4, 5, 5, 5});
  const auto ij = ep::meshgrid<TypeParam>({x, y}, "ij");
  ep::test::expect_equal(ij[0], {3, 2}, values{1, 1, 2, 2, 3, 3});
  ep::test::expect_equal(ij[1], {3, 2}, values{4, 5, 4, 5, 4, 5});
  // Three inputs, "xy": np.meshgrid([1, 2], [3, 4, 5], [6, 7, 8, 9]) has shape (3, 2, 4).
  const auto g3 = ep::meshgrid<TypeParam>({tensor<TypeParam>(values{1, 2}, {2}),
                                           tensor<TypeParam>(values{3, 4, 5}, {3}),
                                           tensor<TypeParam>(values{6, 7, 8, 9}, {4})});
  ASSERT_EQ(g3.size(), 3u);
  for (const auto& g : g3) EXPECT_EQ(g.shape(), (ep::Shape{3, 2, 4}));
  ep::test::expect_equal(g3[0](ep::slice(), ep::slice(), 0), {3, 2}, values{1, 2, 1, 2, 1, 2});
  ep::test::expect_equal(g3[1](ep::slice(), ep::slice(), 0), {3, 2}, values{3, 3, 4, 4, 5, 5});
  ep::test::expect_equal(g3[2](ep::slice(), ep::slice(), 1), {3, 2}, values{7, 7, 7, 7, 7, 7});
  // One input: unchanged.
  ep::test::expect_equal(ep::meshgrid<TypeParam>({x})[0], {3}, values{1, 2, 3});
  EXPECT_THROW((void)ep::meshgrid<TypeParam>({x, y}, "xz"), ep::value_error);
  EXPECT_THROW((void)ep::meshgrid<TypeParam>({x.reshape({3, 1}), y}), ep::value_error);
}

TYPED_TEST_P(Extras, EagerFunction) {
  using namespace extras_suite;
  using Raw = typename TypeParam::raw_type;
  const auto f = ep::eager_function([](const auto& t, double k) { return (t * k + 1).sum(-1); });
  const auto x = tensor<TypeParam>(values{1, 2, 3, 4, 5, 6}, {2, 3});
  const Raw raw = x.raw();
  const auto out = f(raw, 2.0);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(out)>, Raw>, "native in, native out");
  ep::test::expect_equal(ep::Tensor<TypeParam>(out), {2}, values{15, 33});
  // An ep::Tensor in: an ep::Tensor out.
  const auto t = f(x, 3.0);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(t)>, ep::Tensor<TypeParam>>,
                "tensor in, tensor out");
  ep::test::expect_equal(t, {2}, values{21, 48});
  // A pair of results: each restored to native.
  const auto g = ep::eager_function([](const auto& a, const auto& b) {
    return std::pair{a + b, a.matmul(b.T())};
  });
  const auto [s, m] = g(raw, raw);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(s)>, Raw>);
  static_assert(std::is_same_v<std::remove_cvref_t<decltype(m)>, Raw>);
  ep::test::expect_equal(ep::Tensor<TypeParam>(s), {2, 3}, values{2, 4, 6, 8, 10, 12});
  ep::test::expect_equal(ep::Tensor<TypeParam>(m), {2, 2}, values{14, 32, 32, 77});
  // astensor of the native gives back the same values.
  ep::test::expect_equal(ep::astensor(raw), {2, 3}, values{1, 2, 3, 4, 5, 6});
}

// --- .npy
// --------------------------------------------------------------------------------------------

TYPED_TEST_P(Extras, NpyRoundTrip) {
  using namespace extras_suite;
  using T = typename TypeParam::value_type;
  using F = typename TypeParam::template rebind<float>;
  using D = typename TypeParam::template rebind<double>;
  using I32 = typename TypeParam::template rebind<std::int32_t>;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  using Bool = typename TypeParam::template rebind<bool>;
  const temp_dir dir;
  const double nan = std::numeric_limits<double>::quiet_NaN(),
               inf = std::numeric_limits<double>::infinity();
  expect_round_trip<TypeParam>(dir.path, {T(1.5), T(-0.25), T(nan), T(inf), T(-inf), T(1e-30)},
                               {2, 3}, "own.npy");
  expect_round_trip<F>(dir.path, {1.5f, -2.0f, 3.25f, 0.1f}, {4}, "float.npy");
  expect_round_trip<D>(dir.path, {0.1, -1e300, 5e-324, 2.0, 3.0, 4.0, 5.0, 6.0}, {2, 1, 2, 1, 2},
                       "double.npy");
  expect_round_trip<I32>(dir.path, {-2147483647 - 1, 2147483647, 0, -7, 8, 9}, {3, 2}, "int32.npy");
  expect_round_trip<I64>(dir.path, {std::int64_t{1} << 62, -(std::int64_t{1} << 40), 3}, {3},
                         "int64.npy");
  expect_round_trip<Bool>(dir.path, {true, false, false, true, true, false}, {2, 3}, "bool.npy");
  expect_round_trip<TypeParam>(dir.path, {T(-3.5)}, {}, "zero_d.npy");
  expect_round_trip<TypeParam>(dir.path, {}, {0, 3}, "empty.npy");
  expect_round_trip<I64>(dir.path, {}, {2, 0}, "empty_int64.npy");
  // The header is byte for byte what NumPy writes: version 1.0, padded so that the data starts at a
  // multiple of 64.
  const std::string bytes = read_bytes(dir.path / "float.npy");
  ASSERT_GE(bytes.size(), 10u);
  EXPECT_EQ(bytes.substr(0, 8), std::string("\x93NUMPY\x01\x00", 8));
  const std::size_t header =
      static_cast<unsigned char>(bytes[8]) + 256 * static_cast<unsigned char>(bytes[9]);
  // np.save(f, np.zeros(4, np.float32)) writes a 118-byte header and 144 bytes in all.
  EXPECT_EQ(header, 118u);
  EXPECT_EQ(bytes.substr(10, header),
            std::string("{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }") +
                std::string(60, ' ') + "\n");
  EXPECT_EQ(bytes.size(), 144u);
}

TYPED_TEST_P(Extras, NpyFilesWrittenByNumpy) {
  using namespace extras_suite;
  using F = typename TypeParam::template rebind<float>;
  using D = typename TypeParam::template rebind<double>;
  using I32 = typename TypeParam::template rebind<std::int32_t>;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  using Bool = typename TypeParam::template rebind<bool>;
  // np.arange(6, dtype=np.float32).reshape(2, 3) * 0.5 - 1
  ep::test::expect_equal(ep::load_npy<F>(fixture("float32_2x3.npy")), {2, 3},
                         values{-1, -0.5, 0, 0.5, 1, 1.5});
  // np.asfortranarray(np.arange(24.0).reshape(2, 3, 4) - 10): stored in Fortran order, read in C
  // order.
  values f;
  for (int i = 0; i < 24; ++i) f.push_back(i - 10.0);
  ep::test::expect_equal(ep::load_npy<D>(fixture("float64_fortran_2x3x4.npy")), {2, 3, 4}, f);
  ep::test::expect_equal(ep::load_npy<I32>(fixture("int32_4.npy")), {4},
                         values{-2, 7, 0, 2147483647});
  ep::test::expect_equal(ep::load_npy<I64>(fixture("int64_0d.npy")), {}, values{-5});
  ep::test::expect_equal(ep::load_npy<Bool>(fixture("bool_2x2.npy")), {2, 2}, values{1, 0, 0, 1});
  ep::test::expect_equal(ep::load_npy<F>(fixture("float32_empty_0x3.npy")), {0, 3}, values{});
}

TYPED_TEST_P(Extras, NpyBadFiles) {
  using namespace extras_suite;
  using F = typename TypeParam::template rebind<float>;
  using D = typename TypeParam::template rebind<double>;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  using Bool = typename TypeParam::template rebind<bool>;
  const temp_dir dir;
  const auto missing = dir.path / "missing.npy";
  ep::test::expect_throws_with<ep::io_error>([&] { (void)ep::load_npy<F>(missing); },
                                             {missing.string()});
  // Another dtype than the file's: named, with both dtypes.
  const auto f32 = fixture("float32_2x3.npy");
  ep::test::expect_throws_with<ep::io_error>([&] { (void)ep::load_npy<D>(f32); },
                                             {f32.string(), "<f4", "<f8"});
  ep::test::expect_throws_with<ep::io_error>([&] { (void)ep::load_npy<I64>(f32); },
                                             {f32.string(), "dtype"});
  ep::test::expect_throws_with<ep::io_error>(
      [&] { (void)ep::load_npy<Bool>(fixture("int32_4.npy")); }, {"int32_4.npy", "dtype"});
  const std::string good = read_bytes(f32);
  ASSERT_EQ(good.size(), 152u);
  // Truncated data (the last float cut in half), truncated header, magic only, empty file, garbage.
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"truncated_data.npy", good.substr(0, good.size() - 2)},
      {"no_data.npy", good.substr(0, 128)},
      {"truncated_header.npy", good.substr(0, 40)},
      {"magic_only.npy", good.substr(0, 6)},
      {"empty.npy", ""},
      {"garbage.npy", "this is not a .npy file, just some text that is long enough\n"},
      {"bad_shape.npy",
       [&] {
         std::string s = good;
         s.replace(s.find("(2, 3)"), 6, "(2, x)");
         return s;
       }()},
      {"no_shape_key.npy",
       [&] {
         std::string s = good;
         s.replace(s.find("'shape'"), 7, "'shapf'");
         return s;
       }()},
      {"bad_version.npy",
       [&] {
         std::string s = good;
         s[6] = 9;
         return s;
       }()},
  };
  for (const auto& [name, bytes] : bad) {
    SCOPED_TRACE(name);
    const auto p = dir.path / name;
    write_bytes(p, bytes);
    ep::test::expect_throws_with<ep::io_error>([&] { (void)ep::load_npy<F>(p); }, {p.string()});
  }
  // Writing to a directory that does not exist.
  EXPECT_THROW(ep::save_npy(dir.path / "no" / "such" / "dir.npy", ep::from_vector<F>({1.0f})),
               ep::io_error);
}

REGISTER_TYPED_TEST_SUITE_P(Extras, RandomFirstValues, RandomSameSeedSameValues, RandomStatistics,
                            Inv, Slogdet, NormsExact, NormsInexact, NormGradients, KlDivWithLogits,
                            Meshgrid, EagerFunction, NpyRoundTrip, NpyFilesWrittenByNumpy,
                            NpyBadFiles);
