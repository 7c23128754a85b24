// eagerpp - ep::cuda's decompositions (eagerpp/cuda/cusolver.hpp, the real file) on the host: its
// cuSOLVER and cuBLAS calls go to LAPACK-backed stand-ins with cuSOLVER's documented semantics
// (tests/cuda/host_mock), so that every test run checks the calls' arguments and the layouts
// between C order and column-major, by reconstruction, without a GPU
// SPDX-License-Identifier: MIT
#include <algorithm>  // std::copy, std::max, std::min
#include <cmath>      // std::abs, std::isinf, std::isnan, std::log
#include <cstdint>    // std::int64_t
#include <random>     // std::mt19937, std::uniform_real_distribution
#include <vector>     // std::vector

#include <gtest/gtest.h>

// host_mock's eagerpp/cuda/runtime.hpp and system.hpp come first on the include path.
#include "eagerpp/cuda/cusolver.hpp"

namespace {

using ep::Shape;
template <class T>
using array = ep::cuda_array<T>;

template <class T>
array<T> make(const std::vector<T>& v, const Shape& s) {
  array<T> a(s);
  std::copy(v.begin(), v.end(), a.mutable_data());
  return a;
}
template <class T>
std::vector<T> values(const array<T>& a) {
  return std::vector<T>(a.data(), a.data() + a.size());
}
template <class T>
std::vector<T> random(std::int64_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (auto& x : v) x = T(d(rng));
  return v;
}
template <class T>
double tol() {
  return sizeof(T) == 4 ? 2e-4 : 1e-10;
}
/// The C-order m x k product of a (m x n) and b (n x k), in double.
template <class T>
std::vector<double> product(const T* a, const T* b, int m, int n, int k) {
  std::vector<double> c(static_cast<std::size_t>(m * k), 0);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < k; ++j)
      for (int l = 0; l < n; ++l) c[i * k + j] += static_cast<double>(a[i * n + l]) * b[l * k + j];
  return c;
}
template <class T>
std::vector<T> transpose(const T* a, int m, int n) {
  std::vector<T> t(static_cast<std::size_t>(m * n));
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) t[j * m + i] = a[i * n + j];
  return t;
}
/// max |aᵀa - I| of the C-order m x n matrix a (orthonormal columns).
template <class T>
double orthonormality(const T* a, int m, int n) {
  const auto p = product(transpose(a, m, n).data(), a, n, m, n);
  double worst = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) worst = std::max(worst, std::abs(p[i * n + j] - (i == j)));
  return worst;
}

template <class T>
class CusolverHost : public ::testing::Test {};
using Types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(CusolverHost, Types);

TYPED_TEST(CusolverHost, CholeskyReadsTheLowerTriangleAndReportsTheFailingMatrix) {
  using T = TypeParam;
  const int n = 4, batch = 3;
  std::vector<T> x(batch * n * n);
  for (int b = 0; b < batch; ++b) {
    const auto g = random<T>(n * n, 1 + b);
    const auto s = product(g.data(), transpose(g.data(), n, n).data(), n, n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        x[b * n * n + i * n + j] = j > i ? T(99) : T(s[i * n + j] + (i == j ? n : 0));
  }
  std::int64_t failed = 7;
  const auto l = values(ep::detail::cusolver_cholesky(make(x, {batch, n, n}), failed));
  EXPECT_EQ(failed, -1);
  for (int b = 0; b < batch; ++b) {
    const T* lb = l.data() + b * n * n;
    const auto llt = product(lb, transpose(lb, n, n).data(), n, n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) {
        if (j > i) {
          EXPECT_EQ(lb[i * n + j], T(0));
        }
        EXPECT_NEAR(llt[i * n + j], x[b * n * n + std::max(i, j) * n + std::min(i, j)],
                    10 * tol<T>());
      }
  }
  const std::vector<T> bad = {1, 0, 0, 1, 1, 2, 2, 1, 2, 0, 0, 2};  // the second is indefinite
  const auto lbad = values(ep::detail::cusolver_cholesky(make(bad, {3, 2, 2}), failed));
  EXPECT_EQ(failed, 1);
  EXPECT_TRUE(std::isnan(lbad[4]) && std::isnan(lbad[7]));
  EXPECT_EQ(lbad[0], T(1));
  EXPECT_NEAR(lbad[8], std::sqrt(2.0), tol<T>());
}

TYPED_TEST(CusolverHost, SolveAndItsSingularMatrix) {
  using T = TypeParam;
  const int n = 5, k = 3, batch = 2;
  const auto a = random<T>(batch * n * n, 11), b = random<T>(batch * n * k, 12);
  std::int64_t failed = 7;
  const auto x =
      values(ep::detail::cusolver_solve(make(a, {batch, n, n}), make(b, {batch, n, k}), failed));
  EXPECT_EQ(failed, -1);
  for (int i = 0; i < batch; ++i) {
    const auto ax = product(a.data() + i * n * n, x.data() + i * n * k, n, n, k);
    for (int j = 0; j < n * k; ++j) EXPECT_NEAR(ax[j], b[i * n * k + j], 100 * tol<T>());
  }
  const std::vector<T> singular = {1, 0, 0, 1, 1, 2, 2, 4};
  const auto xs = values(ep::detail::cusolver_solve(
      make(singular, {2, 2, 2}), make(std::vector<T>{1, 1, 1, 1}, {2, 2, 1}), failed));
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(xs[0], T(1));
  EXPECT_TRUE(std::isnan(xs[2]));
  (void)ep::detail::cusolver_solve(make(singular, {2, 2, 2}), array<T>(Shape{2, 2, 0}), failed);
  EXPECT_EQ(failed, 1);  // no right-hand sides: the singular matrix is still reported
}

TYPED_TEST(CusolverHost, TriangularSolveInEveryMode) {
  using T = TypeParam;
  const int n = 4, k = 3, batch = 2;
  for (int mode = 0; mode < 8; ++mode) {
    const bool upper = (mode & 1) != 0, trans = (mode & 2) != 0, unit = (mode & 4) != 0;
    auto a = random<T>(batch * n * n, 20 + mode);
    const auto b = random<T>(batch * n * k, 30 + mode);
    for (int m = 0; m < batch; ++m)
      for (int i = 0; i < n; ++i) a[m * n * n + i * (n + 1)] += T(3);  // well conditioned
    std::int64_t failed = 7;
    const auto x = values(ep::detail::cusolver_triangular_solve(
        make(a, {batch, n, n}), make(b, {batch, n, k}), upper, trans, unit, failed));
    EXPECT_EQ(failed, -1);
    for (int m = 0; m < batch; ++m) {
      std::vector<T> t(n * n, T(0));  // the triangle read, its diagonal ones where unit
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j)
          if (i == j)
            t[i * n + j] = unit ? T(1) : a[m * n * n + i * n + j];
          else if (upper ? j > i : j < i)
            t[i * n + j] = a[m * n * n + i * n + j];
      if (trans) t = transpose(t.data(), n, n);
      const auto tx = product(t.data(), x.data() + m * n * k, n, n, k);
      for (int j = 0; j < n * k; ++j)
        EXPECT_NEAR(tx[j], b[m * n * k + j], 10 * tol<T>()) << "mode " << mode;
    }
  }
  const std::vector<T> zero = {1, 0, 0, 1, 1, 0, 5, 0};  // the second has a 0 on its diagonal
  const auto rhs = make(std::vector<T>{1, 1, 1, 1}, {2, 2, 1});
  std::int64_t failed = 7;
  const auto x = values(ep::detail::cusolver_triangular_solve(make(zero, {2, 2, 2}), rhs, false,
                                                              false, false, failed));
  EXPECT_EQ(failed, 1);
  EXPECT_EQ(x[0], T(1));
  EXPECT_TRUE(std::isnan(x[2]));
  (void)ep::detail::cusolver_triangular_solve(make(zero, {2, 2, 2}), rhs, false, false, true,
                                              failed);
  EXPECT_EQ(failed, -1);  // a unit diagonal is not read
}

TYPED_TEST(CusolverHost, QrReducedAndCompleteOfTallWideAndSquare) {
  using T = TypeParam;
  const int batch = 2;
  for (const auto& [m, n] : {std::pair{5, 3}, std::pair{3, 5}, std::pair{4, 4}})
    for (const bool complete : {false, true}) {
      const int k = std::min(m, n), kq = complete ? m : k;
      const auto x = random<T>(batch * m * n, 40 + m);
      const auto [q, r] = ep::detail::cusolver_qr(make(x, {batch, m, n}), complete);
      ASSERT_EQ(q.shape(), (Shape{batch, m, kq}));
      ASSERT_EQ(r.shape(), (Shape{batch, kq, n}));
      const auto qv = values(q), rv = values(r);
      for (int b = 0; b < batch; ++b) {
        const auto qr = product(qv.data() + b * m * kq, rv.data() + b * kq * n, m, kq, n);
        for (int i = 0; i < m * n; ++i) EXPECT_NEAR(qr[i], x[b * m * n + i], 10 * tol<T>());
        EXPECT_LT(orthonormality(qv.data() + b * m * kq, m, kq), 10 * tol<T>());
        for (int i = 0; i < kq; ++i)
          for (int j = 0; j < std::min(i, n); ++j) EXPECT_EQ(rv[b * kq * n + i * n + j], T(0));
      }
    }
  const auto [q, r] = ep::detail::cusolver_qr(array<T>(Shape{3, 0}), true);  // no reflectors
  EXPECT_EQ(values(q), (std::vector<T>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
  EXPECT_EQ(r.shape(), (Shape{3, 0}));
}

TYPED_TEST(CusolverHost, SvdFullAndReducedOfTallWideAndSquare) {
  using T = TypeParam;
  const int batch = 2;
  for (const auto& [m, n] : {std::pair{5, 3}, std::pair{3, 5}, std::pair{4, 4}, std::pair{1, 3}})
    for (const bool full : {false, true}) {
      const int k = std::min(m, n), ku = full ? m : k, kv = full ? n : k;
      const auto x = random<T>(batch * m * n, 50 + m * n);
      const auto [u, s, vh] = ep::detail::cusolver_svd(make(x, {batch, m, n}), full, true);
      ASSERT_EQ(u.shape(), (Shape{batch, m, ku}));
      ASSERT_EQ(s.shape(), (Shape{batch, k}));
      ASSERT_EQ(vh.shape(), (Shape{batch, kv, n}));
      const auto uv = values(u), sv = values(s), vv = values(vh);
      const auto sv2 =
          values(std::get<1>(ep::detail::cusolver_svd(make(x, {batch, m, n}), false, false)));
      for (int b = 0; b < batch; ++b) {
        for (int i = 0; i < k; ++i) EXPECT_NEAR(sv2[b * k + i], sv[b * k + i], tol<T>());
        for (int i = 1; i < k; ++i) EXPECT_LE(sv[b * k + i], sv[b * k + i - 1]);
        std::vector<T> us(m * k);  // U's first k columns times diag(S), then Vh's first k rows
        for (int i = 0; i < m; ++i)
          for (int j = 0; j < k; ++j) us[i * k + j] = uv[b * m * ku + i * ku + j] * sv[b * k + j];
        const auto usv = product(us.data(), vv.data() + b * kv * n, m, k, n);
        for (int i = 0; i < m * n; ++i) EXPECT_NEAR(usv[i], x[b * m * n + i], 10 * tol<T>());
        EXPECT_LT(orthonormality(uv.data() + b * m * ku, m, ku), 10 * tol<T>());
        const auto v = transpose(vv.data() + b * kv * n, kv, n);
        EXPECT_LT(orthonormality(v.data(), n, kv), 10 * tol<T>());
      }
    }
  const auto [u, s, vh] = ep::detail::cusolver_svd(array<T>(Shape{2, 0}), true, true);
  EXPECT_EQ(values(u), (std::vector<T>{1, 0, 0, 1}));
  EXPECT_EQ(s.shape(), (Shape{0}));
}

TYPED_TEST(CusolverHost, EighReadsTheLowerTriangle) {
  using T = TypeParam;
  const int n = 5, batch = 2;
  const auto x = random<T>(batch * n * n, 60);
  const auto [w, v] = ep::detail::cusolver_eigh(make(x, {batch, n, n}));
  const auto wv = values(w), vv = values(v);
  for (int b = 0; b < batch; ++b) {
    std::vector<T> sym(n * n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        sym[i * n + j] = x[b * n * n + std::max(i, j) * n + std::min(i, j)];
    for (int i = 1; i < n; ++i) EXPECT_GE(wv[b * n + i], wv[b * n + i - 1]);
    const auto av = product(sym.data(), vv.data() + b * n * n, n, n, n);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j)
        EXPECT_NEAR(av[i * n + j], vv[b * n * n + i * n + j] * wv[b * n + j], 10 * tol<T>());
  }
}

TYPED_TEST(CusolverHost, SlogdetFromTheLuDiagonalAndPivots) {
  using T = TypeParam;
  // det -2 (a row interchange), det -1 (a permutation), singular, det 6
  const std::vector<T> x = {1, 2, 3, 4, 0, 1, 1, 0, 1, 2, 2, 4, 2, 0, 0, 3};
  const auto [s, l] = ep::detail::cusolver_slogdet(make(x, {4, 2, 2}));
  const auto sv = values(s), lv = values(l);
  EXPECT_EQ(sv, (std::vector<T>{-1, -1, 0, 1}));
  EXPECT_NEAR(lv[0], std::log(2.0), tol<T>());
  EXPECT_NEAR(lv[1], 0.0, tol<T>());
  EXPECT_TRUE(std::isinf(lv[2]) && lv[2] < 0);
  EXPECT_NEAR(lv[3], std::log(6.0), tol<T>());
  const auto [s0, l0] = ep::detail::cusolver_slogdet(array<T>(Shape{2, 0, 0}));
  EXPECT_EQ(values(s0), (std::vector<T>{1, 1}));
  EXPECT_EQ(values(l0), (std::vector<T>{0, 0}));
}

}  // namespace
