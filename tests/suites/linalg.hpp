// eagerpp - the typed suite of linear algebra and nn ops: matmul, softmax, log_softmax, logsumexp,
// crossentropy, onehot_like
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cmath>        // std::isfinite
#include <cstdint>      // std::int64_t
#include <type_traits>  // std::is_same_v, std::type_identity
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include "support/support.hpp"

// Expected values come from NumPy 1.24 on the same inputs: `a @ b` for matmul; for the nn ops the
// formulas e = exp(x - max(x)); e / sum(e), x - logsumexp(x) with logsumexp(x) = m + log(sum(exp(x
// - m))), and crossentropy = logsumexp(x, axis=1) - x[arange(N), labels] (EagerPy's per-sample
// loss). Matmul inputs are small integers, so the products are exact and compared exactly.
namespace linalg_suite {

using ep::test::tensor;
using ep::test::values;

/// [((i * step) % 7) - 3 for i in range(n)]: small integers in [-3, 3].
inline values pattern(int n, int step) {
  values v;
  for (int i = 0; i < n; ++i) v.push_back(static_cast<double>((i * step) % 7 - 3));
  return v;
}

}  // namespace linalg_suite

EAGERPP_TYPED_SUITE(Linalg);

TYPED_TEST_P(Linalg, Matmul2D) {
  using namespace linalg_suite;
  const auto a = tensor<TypeParam>(pattern(6, 3), {2, 3});   // -3 0 3 / -1 2 -2
  const auto b = tensor<TypeParam>(pattern(12, 5), {3, 4});  // -3 2 0 -2 / 3 1 -1 -3 / 2 0 -2 3
  ep::test::expect_equal(a.matmul(b), {2, 4}, values{15, -6, -6, 15, 5, 0, 2, -10});
  ep::test::expect_equal(b.T().matmul(a.T()), {4, 2}, values{15, 5, -6, 0, -6, 2, 15, -10});
  EXPECT_THROW((void)a.matmul(a), ep::value_error);
}

TYPED_TEST_P(Linalg, MatmulVector) {
  using namespace linalg_suite;
  const auto a = tensor<TypeParam>(pattern(6, 3), {2, 3});
  const auto b = tensor<TypeParam>(pattern(12, 5), {3, 4});
  const auto v = tensor<TypeParam>({1, -2, 3}, {3});
  ep::test::expect_equal(v.matmul(b), {4}, values{-3, 0, -4, 13});
  ep::test::expect_equal(a.matmul(v), {2}, values{6, -11});
  ep::test::expect_equal(v.matmul(v), {}, values{14});
  const auto a3 = tensor<TypeParam>(pattern(24, 3), {2, 3, 4});
  ep::test::expect_equal(a3.matmul(tensor<TypeParam>({1, 0, -1, 2}, {4})), {2, 3},
                         values{-8, -5, 5, 1, -3, 7});
  EXPECT_THROW((void)v.matmul(a), ep::value_error);
  EXPECT_THROW((void)tensor<TypeParam>({2}, {}).matmul(v), ep::value_error);
}

TYPED_TEST_P(Linalg, MatmulBatched) {
  using namespace linalg_suite;
  const auto a = tensor<TypeParam>(pattern(24, 3), {2, 3, 4});
  const auto b = tensor<TypeParam>(pattern(40, 5), {2, 4, 5});
  ep::test::expect_equal(a.matmul(b), {2, 3, 5},
                         values{1, 3,  5,   0,  -19, -16, 9,   13, -18, 0,   9,   -6, -14, 13, 5,
                                5, 13, -14, -6, 9,   0,   -18, 13, 9,   -16, -19, 0,  5,   3,  1});
}

TYPED_TEST_P(Linalg, BackendMatmulReadsTransposedOperands) {
  // The backend primitive matmul(a, b, transpose_a, transpose_b) (used by matmul's gradient): an
  // operand stored transposed gives the same product as MatmulBatched, for each of the 4 flag
  // pairs, in the floating dtype (BLAS) and in int64 (the backends' own loops). The second product
  // has one column (m = 1: the matrix-vector paths), with extents that cover both vector and scalar
  // tails.
  using namespace linalg_suite;
  const values expected{1, 3,  5,   0,  -19, -16, 9,   13, -18, 0,   9,   -6, -14, 13, 5,
                        5, 13, -14, -6, 9,   0,   -18, 13, 9,   -16, -19, 0,  5,   3,  1};
  const values expected_column{23, -18, -10, -23, 6,  0,  22, 23, -18, -10,
                               6,  -20, -4,  -9,  14, 16, -3, 6,  -20, -4};
  const auto check = [&](auto tag) {
    using B2 = typename decltype(tag)::type;
    const auto products = [](const ep::Tensor<B2>& a, const ep::Tensor<B2>& b,
                             const ep::Shape& shape, const values& want) {
      const auto at = a.transpose({0, 2, 1});
      const auto bt = b.transpose({0, 2, 1});
      for (const bool ta : {false, true})
        for (const bool tb : {false, true}) {
          SCOPED_TRACE(::testing::Message()
                       << "shape " << shape << ", transpose_a " << ta << ", transpose_b " << tb);
          const ep::Tensor<B2> r(B2::matmul((ta ? at : a).raw(), (tb ? bt : b).raw(), ta, tb));
          ep::test::expect_equal(r, shape, want);
        }
    };
    products(tensor<B2>(pattern(24, 3), {2, 3, 4}), tensor<B2>(pattern(40, 5), {2, 4, 5}),
             {2, 3, 5}, expected);
    products(tensor<B2>(pattern(180, 3), {2, 10, 9}), tensor<B2>(pattern(18, 5), {2, 9, 1}),
             {2, 10, 1}, expected_column);
    // More extents, against the product computed here from its definition: a row vector (n = 1:
    // the other matrix-vector path) and products past the size where a backend calls its GEMM
    // (Eigen: n + k + m >= 20), one of them over several of its register blocks.
    for (const std::array<std::int64_t, 3> nkm :
         {std::array<std::int64_t, 3>{1, 9, 7}, std::array<std::int64_t, 3>{7, 9, 11},
          std::array<std::int64_t, 3>{33, 17, 29}}) {
      const auto [n, k, m] = nkm;
      const values va = pattern(static_cast<int>(n * k), 3),
                   vb = pattern(static_cast<int>(k * m), 5);
      values want(static_cast<std::size_t>(n * m), 0.0);
      for (std::int64_t i = 0; i < n; ++i)
        for (std::int64_t j = 0; j < m; ++j)
          for (std::int64_t p = 0; p < k; ++p)
            want[static_cast<std::size_t>(i * m + j)] +=
                va[static_cast<std::size_t>(i * k + p)] * vb[static_cast<std::size_t>(p * m + j)];
      products(tensor<B2>(va, {1, n, k}), tensor<B2>(vb, {1, k, m}), {1, n, m}, want);
    }
  };
  check(std::type_identity<TypeParam>{});
  check(std::type_identity<typename TypeParam::template rebind<std::int64_t>>{});
}

TYPED_TEST_P(Linalg, MatmulBroadcastBatch) {
  using namespace linalg_suite;
  const auto m = tensor<TypeParam>(pattern(12, 2), {3, 4});
  const auto b = tensor<TypeParam>(pattern(40, 5), {2, 4, 5});
  ep::test::expect_equal(m.matmul(b), {2, 3, 5},
                         values{12, -2, -2, 12, -9, -4, 2,  8, -7, -15, -6, 6,  4, -5, -14,
                                -9, 12, -2, -2, 12, 11, -4, 2, 8,  -7,  10, -6, 6, 4,  -5});
  const auto c = tensor<TypeParam>(pattern(24, 4), {2, 1, 3, 4});
  const auto d = tensor<TypeParam>(pattern(40, 6), {5, 4, 2});
  ep::test::expect_equal(c.matmul(d), {2, 5, 3, 2},
                         values{7,   -12, 15, 9,   -5, 2,   -12, 4,  9,   -11, 2,  -5, 4,  6,  -11,
                                -10, -5,  -5, 6,   -6, -10, -9,  -5, 9,   -6,  -4, -9, -8, 9,  9,
                                -11, 9,   4,  -12, -2, 2,   9,   15, -12, 7,   2,  -8, 15, 14, 7,
                                5,   -8,  -4, 14,  -8, 5,   -4,  -4, 7,   -8,  -9, -4, -6, 7,  11});
  EXPECT_THROW((void)tensor<TypeParam>(pattern(24, 3), {2, 3, 4})
                   .matmul(tensor<TypeParam>(pattern(60, 5), {3, 4, 5})),
               ep::value_error);
}

TYPED_TEST_P(Linalg, MatmulInt64) {
  using namespace linalg_suite;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  // Products up to 2^41: exact in int64, not in float32.
  const auto i = tensor<I64, std::int64_t>({100003, -3, 7, 2097153, 5, -11}, {2, 3});
  const auto j = tensor<I64, std::int64_t>({1048577, -1, 100001, 4, -2, 2097155}, {3, 2});
  static_assert(std::is_same_v<typename decltype(i.matmul(j))::value_type, std::int64_t>);
  ep::test::expect_equal(
      i.matmul(j), {2, 2},
      std::vector<std::int64_t>{104860545714, 14580070, 2199026901308, -25165838});
}

TYPED_TEST_P(Linalg, MatmulFreeFunction) {
  using namespace linalg_suite;
  const auto a = tensor<TypeParam>(pattern(6, 3), {2, 3});
  const auto b = tensor<TypeParam>(pattern(12, 5), {3, 4});
  ep::test::expect_equal(ep::matmul(a, b), {2, 4}, values{15, -6, -6, 15, 5, 0, 2, -10});
}

TYPED_TEST_P(Linalg, Softmax) {
  using namespace linalg_suite;
  const auto s = tensor<TypeParam>({1, 2, 3, -1, 0, 4}, {2, 3});
  ep::test::expect_near(s.softmax(), {2, 3},
                        values{0.09003057317038046, 0.24472847105479764, 0.6652409557748218,
                               0.006573263185309083, 0.0178679818703045, 0.9755587549443865});
  ep::test::expect_near(s.softmax(-1), {2, 3},
                        values{0.09003057317038046, 0.24472847105479764, 0.6652409557748218,
                               0.006573263185309083, 0.0178679818703045, 0.9755587549443865});
  ep::test::expect_near(ep::softmax(s, 0), {2, 3},
                        values{0.8807970779778823, 0.8807970779778823, 0.2689414213699951,
                               0.11920292202211755, 0.11920292202211755, 0.7310585786300049});
  ep::test::expect_near(s.softmax(-1).sum(-1), {2}, values{1, 1});
  ep::test::expect_near(s.softmax(0).sum(0), {3}, values{1, 1, 1});
  const auto t = tensor<TypeParam>({0.5, -1., 2., 0.,  1.5, -0.5, 3.,   1., -2., 0.25, 0.75, -1.25,
                                    2.5, 0.,  1., -3., 0.5, 1.5,  -0.5, 2., 1.,  -1.,  0.,   0.5},
                                   {2, 3, 4});
  ep::test::expect_near(
      t.softmax(1), {2, 3, 4},
      values{0.2631324936512963,   0.16289127509249063, 0.2497011934862539,  0.2497011934862539,
             0.7152682759694339,   0.26856231005645526, 0.67875821679822,    0.67875821679822,
             0.021599230379269717, 0.5685464148510542,  0.07154058971552618, 0.07154058971552618,
             0.7361247243125938,   0.17095278019779026, 0.6285317192117624,  0.005478593159646257,
             0.09962364806231831,  0.7661572065563422,  0.14024438316608848, 0.8130953182608678,
             0.1642516276250878,   0.0628900132458675,  0.23122389762214907, 0.18142608857948594});
}

TYPED_TEST_P(Linalg, SoftmaxLargeValues) {
  using namespace linalg_suite;
  using T = typename TypeParam::value_type;
  // exp(1000) overflows: a naive softmax gives NaN. In float32 the result's absolute error is about
  // one ulp of 1000 (6e-5), hence the looser tolerance there.
  const double tol = std::is_same_v<T, float> ? 2e-4 : 1e-9;
  const auto l = tensor<TypeParam>({1000, 1001, 1002}, {3});
  const auto sm = l.softmax();
  for (auto v : sm.to_vector()) EXPECT_TRUE(std::isfinite(v));
  ep::test::expect_near(sm, {3},
                        values{0.09003057317038046, 0.24472847105479764, 0.6652409557748218}, tol);
  ep::test::expect_near(l.log_softmax(), {3},
                        values{-2.4076059644444285, -1.4076059644444285, -0.40760596444442854},
                        tol);
}

TYPED_TEST_P(Linalg, LogSoftmax) {
  using namespace linalg_suite;
  using T = typename TypeParam::value_type;
  // x - logsumexp(x) cancels: 4 - 4.0247449 leaves an absolute error of about one ulp of 4 in
  // float32 (NumPy's float32 gives -0.024744987 too), hence an absolute tolerance besides rtol
  // 1e-6.
  const double atol = std::is_same_v<T, float> ? 1e-6 : 1e-12;
  const auto s = tensor<TypeParam>({1, 2, 3, -1, 0, 4}, {2, 3});
  ep::test::expect_near(s.log_softmax(), {2, 3},
                        values{-2.4076059644443806, -1.4076059644443806, -0.4076059644443806,
                               -5.024744890138822, -4.024744890138822, -0.024744890138822306},
                        1e-6, atol);
  ep::test::expect_near(ep::log_softmax(s, -1), {2, 3},
                        values{-2.4076059644443806, -1.4076059644443806, -0.4076059644443806,
                               -5.024744890138822, -4.024744890138822, -0.024744890138822306},
                        1e-6, atol);
  ep::test::expect_near(s.log_softmax(0), {2, 3},
                        values{-0.1269280110429727, -0.1269280110429727, -1.3132616875182226,
                               -2.1269280110429727, -2.1269280110429727, -0.3132616875182226},
                        1e-6, atol);
  ep::test::expect_near(s.log_softmax(0).exp().sum(0), {3}, values{1, 1, 1});
}

TYPED_TEST_P(Linalg, Logsumexp) {
  using namespace linalg_suite;
  const auto t = tensor<TypeParam>({0.5, -1., 2., 0.,  1.5, -0.5, 3.,   1., -2., 0.25, 0.75, -1.25,
                                    2.5, 0.,  1., -3., 0.5, 1.5,  -0.5, 2., 1.,  -1.,  0.,   0.5},
                                   {2, 3, 4});
  ep::test::expect_near(t.logsumexp({0, 2}), {3},
                        values{3.271704287678117, 3.7380989447138453, 2.2573521400813856});
  ep::test::expect_near(ep::logsumexp(t, {0, -1}, true), {1, 3, 1},
                        values{3.271704287678117, 3.7380989447138453, 2.2573521400813856});
}

TYPED_TEST_P(Linalg, Crossentropy) {
  using namespace linalg_suite;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  const auto logits =
      tensor<TypeParam>({0.5, -1., 2., 0., 1.5, -0.5, 3., 1., -2., 0.25, 0.75, -1.25}, {3, 4});
  const auto labels = tensor<I64>({0, 3, 1}, {3});
  ep::test::expect_near(logits.crossentropy(labels), {3},
                        values{1.8423495823898222, 2.3283412890257247, 1.0910002758054762});
  ep::test::expect_near(ep::crossentropy(logits, tensor<I64>({2, 2, 3}, {3})), {3},
                        values{0.34234958238982216, 0.3283412890257247, 2.5910002758054764});
  EXPECT_THROW((void)logits.crossentropy(tensor<I64>({0, 1}, {2})), ep::value_error);
  EXPECT_THROW((void)logits.reshape({12}).crossentropy(labels), ep::value_error);
}

TYPED_TEST_P(Linalg, OnehotLike) {
  using namespace linalg_suite;
  using I64 = typename TypeParam::template rebind<std::int64_t>;
  const auto x = tensor<TypeParam>(pattern(12, 3), {3, 4});
  const auto indices = tensor<I64>({1, 0, 3}, {3});
  ep::test::expect_equal(x.onehot_like(indices), {3, 4},
                         values{0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1});
  ep::test::expect_equal(ep::onehot_like(x, indices, 5), {3, 4},
                         values{0, 5, 0, 0, 5, 0, 0, 0, 0, 0, 0, 5});
  EXPECT_THROW((void)x.onehot_like(tensor<I64>({1, 0}, {2})), ep::value_error);
}

REGISTER_TYPED_TEST_SUITE_P(Linalg, Matmul2D, MatmulVector, MatmulBatched,
                            BackendMatmulReadsTransposedOperands, MatmulBroadcastBatch, MatmulInt64,
                            MatmulFreeFunction, Softmax, SoftmaxLargeValues, LogSoftmax, Logsumexp,
                            Crossentropy, OnehotLike);
