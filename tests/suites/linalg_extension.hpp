// eagerpp - typed tests of ep::linalg (the LinalgExtension suite; the Linalg suite is matmul and
// the facade's products): every function against NumPy's values, the decompositions by
// reconstruction, bad input by its message, gradients by finite differences
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::abs
#include <cstdint>      // std::int64_t, std::uint64_t
#include <functional>   // std::function
#include <limits>       // std::numeric_limits
#include <type_traits>  // std::is_same_v

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>

#include "support/gradcheck.hpp"
#include "support/support.hpp"

// Oracles: numpy.linalg (NumPy 1.24, LAPACK) on the matrices below, printed with repr; the
// decompositions whose signs LAPACK leaves free (qr, svd, eigh) are checked by reconstruction,
// orthogonality and their sign-free parts (|R|, S, w).
namespace linalg_extension {

using ep::test::tensor;
using ep::test::values;

template <class B>
constexpr double tol() {
  return std::is_same_v<typename B::value_type, float> ? 2e-5 : 1e-11;
}

/// Two symmetric positive-definite 3x3 matrices: [[2, 1, 0], [1, 3, 0], [0, 0, 1]] and A.
template <class B>
ep::Tensor<B> spd() {
  return tensor<B>(values{2, 1, 0, 1, 3, 0, 0, 0, 1, 4, 2, 0.6, 2, 5, 1.5, 0.6, 1.5, 3}, {2, 3, 3});
}
/// A general 3x3 matrix G (det 2.75) and a 4x2 one M.
template <class B>
ep::Tensor<B> g3() {
  return tensor<B>(values{1, 2, 3, 4, 5, 6.5, 7, 8.5, 10}, {3, 3});
}
template <class B>
ep::Tensor<B> m42() {
  return tensor<B>(values{1, 2, 3, 4, 5, 6.5, -1, 0.5}, {4, 2});
}

/// The largest |a - b| of two tensors of one shape.
template <class B>
double max_diff(const ep::Tensor<B>& a, const ep::Tensor<B>& b) {
  EXPECT_EQ(a.shape(), b.shape()) << a.shape().str() << " vs " << b.shape().str();
  return static_cast<double>((a - b).abs().max().item());
}

/// x with each matrix symmetrized, (x + xᵀ) / 2: the inputs of the symmetric decompositions'
/// gradient checks, so that a perturbation of one element reaches both triangles.
template <class B>
ep::Tensor<B> sym(const ep::Tensor<B>& x) {
  return (x + ep::matrix_transpose(x)) * typename B::value_type(0.5);
}

}  // namespace linalg_extension

EAGERPP_TYPED_SUITE(LinalgExtension);

TYPED_TEST_P(LinalgExtension, Cholesky) {
  using namespace linalg_extension;
  const auto a = spd<TypeParam>();
  const auto l = ep::linalg::cholesky(a);
  ep::test::expect_near(
      l, {2, 3, 3},
      values{1.4142135623730951, 0.0, 0.0, 0.7071067811865475, 1.5811388300841898, 0.0, 0.0, 0.0,
             1.0, 2.0, 0.0, 0.0, 1.0, 2.0, 0.0, 0.3, 0.6, 1.5968719422671311},
      tol<TypeParam>(), tol<TypeParam>());
  EXPECT_LE(max_diff(ep::linalg::cholesky(a, {.upper = true}), ep::matrix_transpose(l)), 0.0);
  EXPECT_LE(max_diff(l.matmul(ep::matrix_transpose(l)), a), 10 * tol<TypeParam>());
  // Only the lower triangle is read.
  EXPECT_LE(max_diff(ep::linalg::cholesky(ep::tril(a)), l), 0.0);
  EXPECT_EQ(ep::linalg::cholesky(tensor<TypeParam>(values{}, {0, 0})).shape(), (ep::Shape{0, 0}));
  EXPECT_EQ(ep::linalg::cholesky(tensor<TypeParam>(values{}, {0, 2, 2})).shape(),
            (ep::Shape{0, 2, 2}));
  // The second matrix of the batch is indefinite.
  const auto bad = tensor<TypeParam>(values{1, 0, 0, 1, 1, 2, 2, 1, 2, 0, 0, 2}, {3, 2, 2});
  ep::test::expect_throws_with<ep::linalg_error>(
      [&] { (void)ep::linalg::cholesky(bad); },
      {"cholesky", "batch index (1)", "(3, 2, 2)", "not positive definite"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::linalg::cholesky(m42<TypeParam>()); }, {"cholesky", "(4, 2)", "square"});
}

TYPED_TEST_P(LinalgExtension, SolveInvDet) {
  using namespace linalg_extension;
  const double t = tol<TypeParam>() * 100;  // G's condition number is about 100
  const auto g = g3<TypeParam>();
  const auto b = tensor<TypeParam>(values{1, -2, 0.5}, {3});
  ep::test::expect_near(ep::linalg::solve(g, b), {3},
                        values{-6.272727272727273, 11.000000000000002, -4.90909090909091}, t, t);
  const auto bb = tensor<TypeParam>(values{1, 0, 2, 1, 0, 3}, {3, 2});
  ep::test::expect_near(ep::linalg::solve(g, bb), {3, 2},
                        values{2.0909090909090904, -0.18181818181818088, -5.999999999999998,
                               1.9999999999999984, 3.6363636363636354, -1.272727272727272},
                        t, t);
  // The batch axes broadcast: one right-hand side for a stack of matrices.
  const auto stack = ep::stack({g, g * typename TypeParam::value_type(2)});
  const auto xs = ep::linalg::solve(stack, b);
  EXPECT_EQ(xs.shape(), (ep::Shape{2, 3}));
  EXPECT_LE(max_diff(xs(1) * typename TypeParam::value_type(2), xs(0)), t);
  ep::test::expect_near(ep::linalg::inv(g), {3, 3},
                        values{-1.9090909090909096, 1.999999999999999, -0.7272727272727268,
                               2.0000000000000018, -3.9999999999999996, 1.9999999999999998,
                               -0.36363636363636453, 2.0, -1.0909090909090908},
                        t, t);
  ep::test::expect_near(ep::linalg::det(g), {}, values{2.75}, t, t);
  ep::test::expect_near(ep::linalg::det(spd<TypeParam>()), {2}, values{5.000000000000001, 40.8}, t,
                        t);
  const auto singular = tensor<TypeParam>(values{1, 0, 0, 1, 1, 2, 2, 4}, {2, 2, 2});
  ep::test::expect_throws_with<ep::linalg_error>(
      [&] {
        (void)ep::linalg::solve(singular, tensor<TypeParam>(values{1, 1}, {2}));
      },
      {"solve", "batch index (1)", "singular"});
  ep::test::expect_throws_with<ep::linalg_error>([&] { (void)ep::linalg::inv(singular); },
                                                 {"inv", "batch index (1)", "singular"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::linalg::solve(g, tensor<TypeParam>(values{1, 2}, {2}));
      },
      {"solve", "(2,)", "(3, 3)"});
  EXPECT_EQ(
      ep::linalg::solve(tensor<TypeParam>(values{}, {0, 0}), tensor<TypeParam>(values{}, {0, 2}))
          .shape(),
      (ep::Shape{0, 2}));
}

TYPED_TEST_P(LinalgExtension, SolveTriangular) {
  using namespace linalg_extension;
  using T = typename TypeParam::value_type;
  const double t = tol<TypeParam>() * 10;
  // Oracles: scipy.linalg.solve_triangular and cho_solve (SciPy 1.10). A's upper triangle and U's
  // lower one hold values that must not be read.
  const auto a = tensor<TypeParam>(values{2, 7, -3, 1, 3, 9, -1, 0.5, 1.5}, {3, 3});
  const auto u = tensor<TypeParam>(values{2, 1, -1, 5, 3, 0.5, 4, -6, 1.5}, {3, 3});
  const auto b1 = tensor<TypeParam>(values{1, -2, 0.5}, {3});
  const auto b2 = tensor<TypeParam>(values{1, 0, 2, 1, 0, 3}, {3, 2});
  ep::test::expect_near(ep::linalg::solve_triangular(a, b1, {.lower = true}), {3},
                        values{0.5, -0.8333333333333334, 0.9444444444444445}, t, t);
  ep::test::expect_near(ep::linalg::solve_triangular(a, b2, {.lower = true, .trans = true}), {3, 2},
                        values{0.16666666666666669, 1.0, 0.6666666666666666, 0.0, 0.0, 2.0}, t, t);
  ep::test::expect_near(ep::linalg::solve_triangular(a, b2, {.lower = true, .unit_diagonal = true}),
                        {3, 2}, values{1.0, 0.0, 1.0, 1.0, 0.5, 2.5}, t, t);
  ep::test::expect_near(ep::linalg::solve_triangular(u, b1), {3},
                        values{1.0277777777777777, -0.7222222222222222, 0.3333333333333333}, t, t);
  ep::test::expect_near(
      ep::linalg::solve_triangular(u, b2, {.trans = true}), {3, 2},
      values{0.5, 0.0, 0.5, 0.3333333333333333, 0.16666666666666666, 1.8888888888888888}, t, t);
  const auto l = ep::linalg::cholesky(spd<TypeParam>()(1));
  ep::test::expect_near(ep::linalg::cho_solve(l, b2), {3, 2},
                        values{0.06249999999999997, -0.125, 0.4455882352941177,
                               -0.06764705882352945, -0.23529411764705888, 1.058823529411765},
                        t, t);
  ep::test::expect_near(ep::linalg::cho_solve(ep::matrix_transpose(l), b1, {.lower = false}), {3},
                        values{0.5625, -0.7544117647058823, 0.431372549019608}, t, t);
  // A batch: each matrix solved on its own, b's batch axes broadcast against a's.
  const auto stack = ep::stack({a, u * T(2)});
  const auto xs = ep::linalg::solve_triangular(stack, b2, {.lower = true});
  EXPECT_EQ(xs.shape(), (ep::Shape{2, 3, 2}));
  EXPECT_LE(max_diff(xs(0), ep::linalg::solve_triangular(a, b2, {.lower = true})), 0.0);
  EXPECT_LE(max_diff(xs(1), ep::linalg::solve_triangular(u * T(2), b2, {.lower = true})), 0.0);
  EXPECT_EQ(ep::linalg::solve_triangular(stack, b1).shape(), (ep::Shape{2, 3}));
  EXPECT_EQ(ep::linalg::solve_triangular(a, ep::stack({b2, b2, b2})).shape(), (ep::Shape{3, 3, 2}));
  EXPECT_EQ(ep::linalg::solve_triangular(tensor<TypeParam>(values{}, {0, 0}),
                                         tensor<TypeParam>(values{}, {0, 2}))
                .shape(),
            (ep::Shape{0, 2}));
  // A zero on the diagonal (LAPACK's trtrs: INFO > 0) is singular; with unit_diagonal it is not
  // read.
  const auto singular = tensor<TypeParam>(values{1, 0, 0, 1, 1, 0, 2, 0}, {2, 2, 2});
  ep::test::expect_throws_with<ep::linalg_error>(
      [&] {
        (void)ep::linalg::solve_triangular(singular, tensor<TypeParam>(values{1, 1}, {2}),
                                           {.lower = true});
      },
      {"solve_triangular", "batch index (1)", "(2, 2, 2)", "singular"});
  EXPECT_EQ(ep::linalg::solve_triangular(singular, tensor<TypeParam>(values{1, 1}, {2}),
                                         {.lower = true, .unit_diagonal = true})
                .shape(),
            (ep::Shape{2, 2}));
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::linalg::solve_triangular(a, tensor<TypeParam>(values{1, 2}, {2}));
      },
      {"solve_triangular", "(2,)", "(3, 3)"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::linalg::solve_triangular(m42<TypeParam>(), b1); },
      {"solve_triangular", "(4, 2)", "square"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::linalg::cho_solve(l, tensor<TypeParam>(values{1, 2}, {2, 1}));
      },
      {"cho_solve", "(2, 1)", "(3, 3)"});
}

TYPED_TEST_P(LinalgExtension, Qr) {
  using namespace linalg_extension;
  const double t = tol<TypeParam>() * 10;
  const auto m = m42<TypeParam>();
  const auto [q, r] = ep::linalg::qr(m);
  EXPECT_EQ(q.shape(), (ep::Shape{4, 2}));
  ep::test::expect_near(r.abs(), {2, 2}, values{6.0, 7.666666666666666, 0.0, 1.9293061504650368}, t,
                        t);
  EXPECT_LE(max_diff(q.matmul(r), m), t);
  EXPECT_LE(max_diff(ep::matrix_transpose(q).matmul(q), ep::eye<TypeParam>(2)), t);
  const auto [qc, rc] = ep::linalg::qr(m, "complete");
  EXPECT_EQ(qc.shape(), (ep::Shape{4, 4}));
  EXPECT_EQ(rc.shape(), (ep::Shape{4, 2}));
  EXPECT_LE(max_diff(qc.matmul(rc), m), t);
  EXPECT_LE(max_diff(ep::matrix_transpose(qc).matmul(qc), ep::eye<TypeParam>(4)), t);
  // A wide stack: Q (2, 2, 2), R (2, 2, 4), upper triangular.
  const auto w = ep::test::random_tensor<TypeParam>({2, 2, 4}, -1, 1, 7);
  const auto [qw, rw] = ep::linalg::qr(w);
  EXPECT_EQ(rw.shape(), (ep::Shape{2, 2, 4}));
  EXPECT_LE(max_diff(qw.matmul(rw), w), t);
  EXPECT_LE(max_diff(ep::tril(rw, -1), ep::zeros_like(rw)), 0.0);
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::linalg::qr(m, "r"); },
                                                {"qr", "\"r\"", "reduced"});
}

TYPED_TEST_P(LinalgExtension, SvdEigh) {
  using namespace linalg_extension;
  const double t = tol<TypeParam>() * 10;
  const auto m = m42<TypeParam>();
  const auto [u, s, vh] = ep::linalg::svd(m);
  EXPECT_EQ(u.shape(), (ep::Shape{4, 4}));
  EXPECT_EQ(vh.shape(), (ep::Shape{2, 2}));
  ep::test::expect_near(s, {2}, values{9.854961562081478, 1.174620198147711}, t, t);
  const auto [ur, sr, vhr] = ep::linalg::svd(m, {.full_matrices = false});
  EXPECT_LE(max_diff((ur * sr.expand_dims(0)).matmul(vhr), m), t);
  EXPECT_LE(max_diff(ep::matrix_transpose(u).matmul(u), ep::eye<TypeParam>(4)), t);
  ep::test::expect_near(ep::linalg::svdvals(g3<TypeParam>()), {3},
                        values{17.82153939382941, 0.9301684935905905, 0.16589215689081468}, t, t);
  const auto batch = ep::test::random_tensor<TypeParam>({3, 2, 5}, -1, 1, 3);
  const auto [ub, sb, vb] = ep::linalg::svd(batch, {.full_matrices = false});
  EXPECT_LE(max_diff((ub * sb.expand_dims(-2)).matmul(vb), batch), t);
  EXPECT_LE(max_diff(ep::linalg::svdvals(batch), sb), t);

  const auto a = spd<TypeParam>()(1);
  const auto [w, v] = ep::linalg::eigh(a);
  ep::test::expect_near(w, {3}, values{2.0045845125687465, 2.8474199084736527, 7.1479955789576035},
                        t, t);
  EXPECT_LE(max_diff(a.matmul(v), v * w.expand_dims(0)), t);
  EXPECT_LE(max_diff(ep::linalg::eigvalsh(ep::tril(a)), w), t);  // the lower triangle only
  const auto [wb, vb2] = ep::linalg::eigh(sym(batch.matmul(ep::matrix_transpose(batch))));
  EXPECT_EQ(wb.shape(), (ep::Shape{3, 2}));
  EXPECT_LE(max_diff(wb, sb.square().flip(-1)), t);  // the eigenvalues of X Xᵀ are S²
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::linalg::eigh(m); },
                                                {"eigh", "(4, 2)"});
  EXPECT_EQ(ep::linalg::svdvals(tensor<TypeParam>(values{}, {0, 3})).shape(), (ep::Shape{0}));
}

TYPED_TEST_P(LinalgExtension, Compositions) {
  using namespace linalg_extension;
  using T = typename TypeParam::value_type;
  const double t = tol<TypeParam>() * 100;
  const double inf = std::numeric_limits<double>::infinity();
  const auto m = m42<TypeParam>();
  const auto g = g3<TypeParam>();
  ep::test::expect_near(
      ep::linalg::pinv(m), {2, 4},
      values{-0.22014925373134286, 0.02611940298507462, 0.10074626865671625, -0.6380597014925375,
             0.19402985074626838, 0.04477611940298509, 0.02985074626865686, 0.47761194029850773},
      t, t);
  const auto [x, res, rank, sv] =
      ep::linalg::lstsq(m, tensor<TypeParam>(values{1, 2, 2.5, 0}, {4}));
  ep::test::expect_near(x, {2}, values{0.08395522388059719, 0.35820895522388063}, t, t);
  ep::test::expect_near(res, {}, values{0.20988805970149244}, t, t);
  ep::test::expect_equal(rank, {}, values{2});
  EXPECT_EQ(sv.shape(), (ep::Shape{2}));
  ep::test::expect_equal(ep::linalg::matrix_rank(tensor<TypeParam>(values{1, 2, 2, 4}, {2, 2})), {},
                         values{1});
  const std::pair<ep::linalg::norm_order, double> norms[] = {
      {"fro", 17.84656829757475}, {"nuc", 18.917600044310817}, {1, 19.5},   {-1, 12.0},
      {2, 17.82153939382941},     {-2, 0.16589215689081468},   {inf, 25.5}, {-inf, 6.0}};
  for (const auto& [ord, expected] : norms) {
    SCOPED_TRACE(ord.str());
    ep::test::expect_near(ep::linalg::matrix_norm(g, {.ord = ord}), {}, values{expected}, t, t);
  }
  EXPECT_EQ(ep::linalg::matrix_norm(g, {.keepdims = true}).shape(), (ep::Shape{1, 1}));
  const auto v = tensor<TypeParam>(values{3, -4, 0, 1.5}, {4});
  const std::pair<double, double> vnorms[] = {
      {2, 5.220153254455275}, {1, 8.5}, {inf, 4.0}, {-inf, 0.0}, {0, 3.0},
      {3, 4.552874245617287}, {-1, 0.0}};
  for (const auto& [ord, expected] : vnorms) {
    SCOPED_TRACE(ord);
    ep::test::expect_near(ep::linalg::vector_norm(v, {.ord = ord}), {}, values{expected}, t, t);
  }
  EXPECT_EQ(ep::linalg::vector_norm(g, {.axis = 1, .keepdims = true}).shape(), (ep::Shape{3, 1}));
  ep::test::expect_near(
      ep::linalg::matrix_power(g, 3), {3, 3},
      values{502.0, 638.5, 793.75, 1189.0, 1511.0, 1877.125, 1910.75, 2427.625, 3015.25}, t, t);
  ep::test::expect_near(ep::linalg::matrix_power(g, -2), {3, 3},
                        values{7.909090909090913, -13.272727272727264, 6.181818181818178,
                               -12.545454545454557, 23.999999999999996, -11.636363636363635,
                               5.090909090909098, -10.90909090909091, 5.454545454545454},
                        t, t);
  EXPECT_LE(max_diff(ep::linalg::matrix_power(g, 0), ep::eye<TypeParam>(3)), 0.0);
  const auto x34 = ep::test::iota<TypeParam>({3, 4});
  ep::test::expect_equal(ep::linalg::diagonal(x34, 1), {3}, values{1, 6, 11});
  ep::test::expect_equal(ep::linalg::diagonal(x34, -1), {2}, values{4, 9});
  ep::test::expect_equal(ep::linalg::diagonal(x34, 4), {0}, values{});
  ep::test::expect_equal(ep::linalg::trace(x34, 1), {}, values{18});
  ep::test::expect_equal(ep::linalg::outer(tensor<TypeParam>(values{1, 2}, {2}),
                                           tensor<TypeParam>(values{3, 4, 5}, {3})),
                         {2, 3}, values{3, 4, 5, 6, 8, 10});
  const auto c = ep::linalg::cross(tensor<TypeParam>(values{1, 2, 3, 0, 1, 0}, {2, 3}),
                                   tensor<TypeParam>(values{4, 5, 6, 0, 0, 1}, {2, 3}));
  ep::test::expect_equal(c, {2, 3}, values{-3, 6, -3, 1, 0, 0});
  // Along axis 0: the transposed inputs give the transposed product.
  ep::test::expect_equal(ep::linalg::cross(tensor<TypeParam>(values{1, 0, 2, 1, 3, 0}, {3, 2}),
                                           tensor<TypeParam>(values{4, 0, 5, 0, 6, 1}, {3, 2}), 0),
                         {3, 2}, values{-3, 1, 6, 0, -3, 0});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::linalg::cross(m, m); },
                                                {"cross", "(4, 2)", "extent 3"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::linalg::matrix_norm(g, {.ord = 3}); }, {"matrix_norm", "ord 3"});
  EXPECT_EQ(static_cast<double>(ep::linalg::vecdot(v, v).item()), T(3 * 3 + 4 * 4 + 1.5 * 1.5));
}

TYPED_TEST_P(LinalgExtension, Gradients) {
  using namespace linalg_extension;
  if constexpr (std::is_same_v<typename TypeParam::value_type, double>) {
    using Tn = ep::Tensor<TypeParam>;
    using F = std::function<Tn(const Tn&)>;
    const auto weighted = [](const Tn& y) {
      return (y * ep::test::iota<TypeParam>(y.shape()).cos()).sum();
    };
    const auto a = spd<TypeParam>();
    const auto g = g3<TypeParam>();
    const auto m = m42<TypeParam>();
    const auto w = ep::test::random_tensor<TypeParam>({2, 3, 5}, -1, 1, 11);
    const std::pair<const char*, std::pair<F, Tn>> cases[] = {
        {"cholesky", {[&](const Tn& x) { return weighted(ep::linalg::cholesky(sym(x))); }, a}},
        {"cholesky upper",
         {[&](const Tn& x) { return weighted(ep::linalg::cholesky(sym(x), {.upper = true})); },
          a(0)}},
        {"solve a",
         {[&](const Tn& x) { return weighted(ep::linalg::solve(x, m(ep::slice(0, 3)))); }, g}},
        {"solve b",
         {[&](const Tn& x) { return weighted(ep::linalg::solve(g, x)); }, m(ep::slice(0, 3))}},
        {"solve_triangular a",
         {[&](const Tn& x) {
            return weighted(ep::linalg::solve_triangular(x, m(ep::slice(0, 3)), {.lower = true}));
          },
          g}},
        {"solve_triangular a trans batch",
         {[&](const Tn& x) {
            return weighted(ep::linalg::solve_triangular(x, m(ep::slice(0, 3)), {.trans = true}));
          },
          a}},
        {"solve_triangular a unit_diagonal",
         {[&](const Tn& x) {
            return weighted(
                ep::linalg::solve_triangular(x, m(ep::slice(0, 3)), {.unit_diagonal = true}));
          },
          g * 0.1}},
        {"solve_triangular b",
         {[&](const Tn& x) {
            return weighted(ep::linalg::solve_triangular(g, x, {.lower = true, .trans = true}));
          },
          ep::test::iota<TypeParam>({3})}},
        {"cho_solve",
         {[&](const Tn& x) {
            return weighted(
                ep::linalg::cho_solve(ep::linalg::cholesky(sym(x)), m(ep::slice(0, 3))));
          },
          a}},
        {"inv", {[&](const Tn& x) { return weighted(ep::linalg::inv(x)); }, a}},
        {"det", {[&](const Tn& x) { return ep::linalg::det(x).sum(); }, g}},
        {"qr",
         {[&](const Tn& x) {
            const auto [q, r] = ep::linalg::qr(x);
            return weighted(q) + weighted(r);
          },
          m}},
        // Householder QR is not continuous where a column's entries below the diagonal are all
        // zero (LAPACK and Eigen then reflect nothing, and R's diagonal keeps its sign): a
        // generic batch.
        {"qr square batch",
         {[&](const Tn& x) {
            const auto [q, r] = ep::linalg::qr(x);
            return weighted(q.matmul(q)) + weighted(r.square());
          },
          ep::test::random_tensor<TypeParam>({2, 3, 3}, -1, 1, 5)}},
        {"svd",
         {[&](const Tn& x) {
            const auto [u, s, vh] = ep::linalg::svd(x, {.full_matrices = false});
            return weighted(s) + weighted(u.square()) + weighted(vh.square());
          },
          w}},
        {"svd tall",
         {[&](const Tn& x) {
            const auto [u, s, vh] = ep::linalg::svd(x, {.full_matrices = false});
            return weighted(s) + weighted(u.square()) + weighted(vh.square());
          },
          m}},
        {"svdvals", {[&](const Tn& x) { return weighted(ep::linalg::svdvals(x)); }, w}},
        {"eigh",
         {[&](const Tn& x) {
            const auto [e, v] = ep::linalg::eigh(sym(x));
            return weighted(e) + weighted(v.square());
          },
          a}},
        {"pinv", {[&](const Tn& x) { return weighted(ep::linalg::pinv(x)); }, m}},
        {"lstsq",
         {[&](const Tn& x) {
            return weighted(ep::linalg::lstsq(x, ep::test::iota<TypeParam>({4})).solution);
          },
          m}},
        {"matrix_norm nuc",
         {[&](const Tn& x) { return ep::linalg::matrix_norm(x, {.ord = "nuc"}); }, g}},
        {"matrix_norm 2", {[&](const Tn& x) { return ep::linalg::matrix_norm(x, {.ord = 2}); }, g}},
        {"matrix_norm fro", {[&](const Tn& x) { return ep::linalg::matrix_norm(x).sum(); }, w}},
        {"matrix_norm 1", {[&](const Tn& x) { return ep::linalg::matrix_norm(x, {.ord = 1}); }, g}},
        {"vector_norm 3", {[&](const Tn& x) { return ep::linalg::vector_norm(x, {.ord = 3}); }, g}},
        {"matrix_power -3",
         {[&](const Tn& x) { return weighted(ep::linalg::matrix_power(x, -3)); }, a}},
        {"matrix_power 5",
         {[&](const Tn& x) { return weighted(ep::linalg::matrix_power(x, 5)); }, g * 0.1}},
        {"trace", {[&](const Tn& x) { return weighted(ep::linalg::trace(x, -1)); }, w}},
        {"cross", {[&](const Tn& x) { return weighted(ep::linalg::cross(x, g.flip(0))); }, g}},
    };
    for (const auto& [name, c] : cases)
      EXPECT_TRUE(ep::test::check_gradient(c.first, c.second, 1e-5, 1e-6)) << name;
    // Second order: the gradient of sum(d log|det x| / dx) = sum(inv(x)ᵀ), through the rules of
    // slogdet and solve, against finite differences.
    EXPECT_TRUE(ep::test::check_gradient(
        F([](const Tn& x) {
          return ep::value_and_grad([](const Tn& y) { return ep::linalg::slogdet(y).logabsdet; }, x)
              .second.sum();
        }),
        g))
        << "grad of grad of slogdet";
  }
}

// Matrices larger than the rule's block (64) take Murray's blocked reverse mode: it must give the
// closed form's gradient and agree with central differences along random symmetric directions.
TYPED_TEST_P(LinalgExtension, CholeskyBlockedGradient) {
  using namespace linalg_extension;
  if constexpr (std::is_same_v<typename TypeParam::value_type, double>) {
    using Tn = ep::Tensor<TypeParam>;
    const std::int64_t n = 150;  // blocks of 64, 64 and 22
    const auto r = ep::test::random_tensor<TypeParam>({2, n, n}, -1, 1, 3);
    const Tn a = r.matmul(ep::matrix_transpose(r)) + double(n) * ep::eye<TypeParam>(n);
    const Tn w = ep::test::random_tensor<TypeParam>({2, n, n}, -1, 1, 4);
    const auto f = [&](const Tn& x) { return (ep::linalg::cholesky(x) * w).sum(); };
    const Tn grad = ep::grad(f)(a);
    const Tn closed = ep::detail::cholesky_closed_form_backward(ep::linalg::cholesky(a), w);
    const double scale = static_cast<double>(closed.abs().max().item());
    EXPECT_LE(max_diff(grad, closed), 1e-12 * scale);
    EXPECT_LE(max_diff(grad, ep::matrix_transpose(grad)), 0.0);
    for (const std::uint64_t seed : {5, 6, 7}) {
      const Tn v = sym(ep::test::random_tensor<TypeParam>({2, n, n}, -1, 1, seed));
      const double e = 1e-6;
      const double fd = (f(a + e * v).item() - f(a - e * v).item()) / (2 * e);
      const double exact = static_cast<double>((grad * v).sum().item());
      EXPECT_NEAR(fd, exact, 1e-6 * std::abs(exact)) << "direction " << seed;
    }
  }
}

REGISTER_TYPED_TEST_SUITE_P(LinalgExtension, Cholesky, SolveInvDet, SolveTriangular, Qr, SvdEigh,
                            Compositions, Gradients, CholeskyBlockedGradient);
