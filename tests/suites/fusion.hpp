// eagerpp - typed tests of lazy element-wise expressions evaluated in blocks (host/blocks.hpp)
// SPDX-License-Identifier: MIT
//
// On a backend that evaluates in blocks (ep::detail::blocked_backend: Eigen, xtensor, omp),
// element-wise ops of large floating tensors (and their bool comparisons) are lazy. Every result
// must equal the eager one: the oracle of an op is its backend kernel called on the whole tensor
// (the block path runs the same kernel on blocks whose starts are multiples of 64 elements, so the
// same SIMD instructions see the same elements: equal results, compared exactly), and chains are
// checked against scalar math in double. Reductions of a lazy expression sum blocks in another
// order: compared to 1e-6 (float) and 1e-13 (double). Instantiated for the host backends
// (EAGERPP_INSTANTIATE_HOST_SUITES, suites/all.hpp).
#pragma once

#include <cmath>        // std::exp, std::sin
#include <cstdint>      // std::int64_t
#include <limits>       // std::numeric_limits
#include <thread>       // std::thread
#include <type_traits>  // std::is_floating_point_v, std::is_same_v
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/autodiff/grad.hpp>
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/fuse.hpp>

#include "suites/unary_cases.hpp"
#include "support/support.hpp"

template <class B>
class Fusion : public ::testing::Test {};
TYPED_TEST_SUITE_P(Fusion);

namespace fusion_suite {
using values = std::vector<double>;

/// The size from which ops are lazy by default (ep::fusion_settings::min_size, on every backend).
inline constexpr std::int64_t lazy_min_size = 16384;
/// Past that size, and not a whole number of blocks.
inline constexpr std::int64_t rows = 3;
inline constexpr std::int64_t cols = lazy_min_size / 2 + 37;

/// Whether an op with a result of backend B is lazy at these sizes: blocked backends, floating and
/// bool results (integer ops stay eager).
template <class B>
constexpr bool lazy = ep::detail::blocked_backend<B> &&
                      (std::is_floating_point_v<typename B::value_type> ||
                       std::is_same_v<typename B::value_type, bool>);

template <class B>
double tolerance() {
  return sizeof(typename B::value_type) == 4 ? 1e-6 : 1e-13;
}

template <class B>
ep::Tensor<B> wrap(typename B::raw_type raw) {
  return ep::Tensor<B>(std::move(raw));
}

/// Whether `t` is an expression whose value is not computed yet (an internal of ep::Tensor, read
/// through its access struct: nothing in the API depends on it).
template <class B>
bool is_lazy(const ep::Tensor<B>& t) {
  return ep::detail::tensor_access::is_lazy(t);
}
}  // namespace fusion_suite

TYPED_TEST_P(Fusion, UnaryOpsEqualTheirKernels) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto v = ep::test::random_values(rows * cols, 0.05, 0.95);
  const auto x = ep::test::tensor<B>(v, {rows, cols});
  const auto check = [&](const auto& got, const auto& raw) {
    using R = typename std::remove_cvref_t<decltype(got)>::backend_type;
    EXPECT_EQ(fusion_suite::is_lazy(got), lazy<R>);
    ep::test::expect_close(got, wrap<R>(raw));
  };
  const auto& r = x.raw();
  // Every row of the unary table, on inputs from its cases' interval (suites/unary_cases.hpp).
#define EAGERPP_FUSION_UNARY(name, dtypes, grad, scalar)                                       \
  {                                                                                            \
    SCOPED_TRACE(#name);                                                                       \
    const auto* c = unary_cases::find(#name);                                                  \
    ASSERT_NE(c, nullptr) << "no cases in tests/suites/unary_cases.hpp";                       \
    const auto u =                                                                             \
        ep::test::tensor<B>(ep::test::random_values(rows * cols, c->lo, c->hi), {rows, cols}); \
    check(u.name(), B::name(u.raw()));                                                         \
  }
  EAGERPP_UNARY_OPS(EAGERPP_FUSION_UNARY)
#undef EAGERPP_FUSION_UNARY
  check(x.negative(), B::negative(r));
  using T = typename B::value_type;
  check(x.clip(T(0.25), T(0.75)), B::clip(r, T(0.25), T(0.75)));
  check(x.isnan(), B::isnan(r));
  check(x.isinf(), B::isinf(r));
  check((x * 100).template astype<std::int64_t>(),
        B::template astype<std::int64_t>((x * 100).raw()));
  check(x.template astype<bool>(), B::template astype<bool>(r));
}

TYPED_TEST_P(Fusion, BinaryOpsComparisonsWhereEqualTheirKernels) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto x = ep::test::tensor<B>(ep::test::random_values(rows * cols, -2, 2, 1), {rows, cols});
  const auto y = ep::test::tensor<B>(ep::test::random_values(rows * cols, 0.5, 2, 2), {rows, cols});
  const auto check = [&](const auto& got, const auto& raw) {
    using R = typename std::remove_cvref_t<decltype(got)>::backend_type;
    EXPECT_EQ(fusion_suite::is_lazy(got), lazy<R>);
    ep::test::expect_close(got, wrap<R>(raw));
  };
  const auto &a = x.raw(), &b = y.raw();
  check(x + y, B::add(a, b));
  check(x - y, B::subtract(a, b));
  check(x * y, B::multiply(a, b));
  check(x / y, B::divide(a, b));
  check(x.floordiv(y), B::floor_divide(a, b));
  check(x % y, B::mod(a, b));
  check(y.pow(x), B::power(b, a));
  check(x.minimum(y), B::minimum(a, b));
  check(x.maximum(y), B::maximum(a, b));
  check(x < y, B::less(a, b));
  check(x <= y, B::less_equal(a, b));
  check(x > y, B::greater(a, b));
  check(x >= y, B::greater_equal(a, b));
  check(x == x, B::equal(a, a));
  check(x != y, B::not_equal(a, b));
  check((x > 0).where(x, y), B::where((x > 0).raw(), a, b));
  check((x > 0).logical_and(y > 1),
        ep::Tensor<B>::bool_tensor::backend_type::logical_and((x > 0).raw(), (y > 1).raw()));
  check((x > 0).logical_or(y > 1),
        ep::Tensor<B>::bool_tensor::backend_type::logical_or((x > 0).raw(), (y > 1).raw()));
  check((x > 0).logical_not(),
        ep::Tensor<B>::bool_tensor::backend_type::logical_not((x > 0).raw()));
}

TYPED_TEST_P(Fusion, ChainsWithScalarsAndBroadcasting) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto v = ep::test::random_values(rows * cols, -2, 2, 3);
  const auto w = ep::test::random_values(cols, -1, 1, 4);
  const auto x = ep::test::tensor<B>(v, {rows, cols});
  const auto row = ep::test::tensor<B>(w, {cols});
  const auto zero_d = ep::test::tensor<B>(values{0.5}, {});
  const auto one = ep::test::tensor<B>(values{2}, {1, 1});
  // The chain of the benchmark, a 0-d and a (1, 1) operand (broadcast as scalars), a row stretched
  // over the rows (that op runs eagerly: a block of the result is not a block of the row), and a
  // (1, n) operand against (n,) (no stretch: same elements).
  const auto y = (-x * x).exp() * x.sin() + 1;
  const auto z = (y * zero_d - one) * row + x.maximum(0.25);
  const auto flat = ep::test::tensor<B>(v, {1, rows * cols});
  const auto f = (flat + ep::test::tensor<B>(v, {rows * cols})) / 2;
  values ey(v.size()), ez(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    ey[i] = std::exp(-v[i] * v[i]) * std::sin(v[i]) + 1;
    ez[i] = (ey[i] * 0.5 - 2) * w[i % cols] + std::max(v[i], 0.25);
  }
  EXPECT_EQ(fusion_suite::is_lazy(y), lazy<B>);
  ep::test::expect_near(y, {rows, cols}, ey, 10 * tolerance<B>(), 1e-6);
  ep::test::expect_near(z, {rows, cols}, ez, 10 * tolerance<B>(), 1e-6);
  EXPECT_EQ(fusion_suite::is_lazy(f), lazy<B>);
  ep::test::expect_near(f, {1, rows * cols}, v, tolerance<B>());
  // Shape and size are known without computing anything.
  const auto u = x * 2 + 1;
  EXPECT_EQ(u.shape(), (ep::Shape{rows, cols}));
  EXPECT_EQ(u.size(), rows * cols);
  EXPECT_EQ(u.ndim(), 2);
  EXPECT_EQ(fusion_suite::is_lazy(u), lazy<B>);
}

TYPED_TEST_P(Fusion, SharedAndRepeatedValues) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto v = ep::test::random_values(rows * cols, -1, 1, 5);
  const auto x = ep::test::tensor<B>(v, {rows * cols});
  // A value used twice in one expression, and a chain read by two consumers.
  const auto t = x.exp();
  const auto u = t * t + t;
  const auto y = x * 3 - 1;
  const auto total = y.sum();
  values eu(v.size());
  double ey = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    eu[i] = std::exp(v[i]) * std::exp(v[i]) + std::exp(v[i]);
    ey += v[i] * 3 - 1;
  }
  ep::test::expect_near(u, {rows * cols}, eu, 10 * tolerance<B>());
  EXPECT_EQ(fusion_suite::is_lazy(t),
            lazy<B>);  // read through u's blocks, never computed as a whole
  EXPECT_EQ(fusion_suite::is_lazy(y), lazy<B>);  // the sum took its blocks
  ep::test::expect_near(total, {}, values{ey}, 1e-4);
  ep::test::expect_near(y * 1, {rows * cols}, (x * 3 - 1).to_vector(), 0);
  // A balanced tree: several intermediate blocks alive at once, each in a scratch buffer of the
  // evaluation (block_context::scratch), and one of them (p's) read twice in every block.
  const auto p = x * 2 + 1;
  const auto w = (p * p - (x + 3) * (x - 3)) / (p + (x * x + 2));
  values ew(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double pi = v[i] * 2 + 1;
    ew[i] = (pi * pi - (v[i] + 3) * (v[i] - 3)) / (pi + (v[i] * v[i] + 2));
  }
  ep::test::expect_near(w, {rows * cols}, ew, 50 * tolerance<B>());
  // A long loop: the expression is bounded (detail::max_lazy_nodes), the values exact.
  auto z = x;
  for (int i = 0; i < 100; ++i) z = z * 0.5 + 1;
  values ez(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    double e = static_cast<typename B::value_type>(v[i]);
    for (int k = 0; k < 100; ++k)
      e = static_cast<typename B::value_type>(static_cast<typename B::value_type>(e * 0.5) + 1);
    ez[i] = e;
  }
  ep::test::expect_equal(z, {rows * cols}, ez);
  // Every value read twice (a_k+1 = a_k + a_k-1 * 0.5): the shared nodes' memos and blocks fill the
  // evaluation's fixed arrays (block_context) until the expression passes max_lazy_nodes and its
  // inputs are computed; the values exact all the same.
  auto a = x;
  auto b = x * 2;
  for (int k = 0; k < 12; ++k) {
    auto next = b + a * 0.5;
    a = b;
    b = next;
  }
  values eb(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    using T = typename B::value_type;
    T ea = static_cast<T>(v[i]);
    T e = ea * T(2);
    for (int k = 0; k < 12; ++k) {
      const T next = e + static_cast<T>(ea * T(0.5));
      ea = e;
      e = next;
    }
    eb[i] = e;
  }
  ep::test::expect_equal(b, {rows * cols}, eb);
}

TYPED_TEST_P(Fusion, EvaluatedFromTwoThreads) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto v = ep::test::random_values(rows * cols, -1, 1, 6);
  const auto x = ep::test::tensor<B>(v, {rows * cols});
  for (int round = 0; round < 4; ++round) {
    const auto y = (x * x + 1).sqrt();
    const auto s = y.sum();  // shares y's inputs, computed on this thread
    std::vector<double> first, second;
    std::thread t1([&] {
      for (auto e : y.to_vector()) first.push_back(static_cast<double>(e));
    });
    std::thread t2([&] {
      for (auto e : (y * 1).to_vector()) second.push_back(static_cast<double>(e));
    });
    t1.join();
    t2.join();
    ASSERT_EQ(first.size(), v.size());
    EXPECT_EQ(first, second);
    for (std::size_t i = 0; i < v.size(); ++i)
      EXPECT_NEAR(first[i], std::sqrt(v[i] * v[i] + 1), 1e-6) << i;
    EXPECT_FALSE(fusion_suite::is_lazy(y));
    const auto total = static_cast<double>(y.sum().item());
    EXPECT_NEAR(static_cast<double>(s.item()), total, 10 * tolerance<B>() * total);
  }
}

TYPED_TEST_P(Fusion, ReductionsTakeBlocks) {
  using namespace fusion_suite;
  using B = TypeParam;
  using I64 = typename B::template rebind<std::int64_t>;
  const auto v = ep::test::random_values(4 * 5 * 1000, -3, 3, 7);
  const auto x = ep::test::tensor<B>(v, {4, 5, 1000});
  const auto lazy_y = [&] { return (x * x).exp() - x; };
  const auto y = lazy_y();
  const auto eager = ep::Tensor<B>(y.raw());  // computed once, then reduced as any tensor
  // Sums and products of 20000 terms in another order: float keeps about 5 digits of them. The
  // axes reach every path of reduce_blocks: whole slices per block ({2}), partial rows of a slice
  // ({1}, {0, 1}, {1, 2}, all), and the computed fallback (an inner extent past a block, {0}; axes
  // that are not one range, {0, 2}); keepdims alternates.
  const double rtol = sizeof(typename B::value_type) == 4 ? 1e-4 : 1e-11;
  const auto same = [&](const auto& a, const auto& b, double tol) {
    ep::test::expect_close(a, b, tol, tol);
  };
  bool keepdims = false;
  for (const ep::Axes& axes : {ep::Axes{}, ep::Axes{0}, ep::Axes{1}, ep::Axes{2}, ep::Axes{0, 1},
                               ep::Axes{1, 2}, ep::Axes{0, 2}, ep::Axes{-1}}) {
    keepdims = !keepdims;
    {
      SCOPED_TRACE(::testing::Message() << "keepdims " << keepdims);
      same(lazy_y().sum(axes, keepdims), eager.sum(axes, keepdims), rtol);
      same(lazy_y().mean(axes, keepdims), eager.mean(axes, keepdims), rtol);
      same(lazy_y().min(axes, keepdims), eager.min(axes, keepdims), 0);
      same(lazy_y().max(axes, keepdims), eager.max(axes, keepdims), 0);
      same((x * 1e-4 + 1).prod(axes, keepdims),
           (ep::Tensor<B>((x * 1e-4 + 1).raw())).prod(axes, keepdims), rtol * 10);
      same((lazy_y() > 2).all(axes, keepdims), (eager > 2).all(axes, keepdims), 0);
      same((lazy_y() > 2).any(axes, keepdims), (eager > 2).any(axes, keepdims), 0);
      same((lazy_y() > 2).sum(axes, keepdims), (eager > 2).sum(axes, keepdims), 0);
      // A last map (square, abs) taken into the reduction: of a computed tensor and of a lazy one.
      same(x.square().sum(axes, keepdims), ep::Tensor<B>(x.square().raw()).sum(axes, keepdims),
           rtol);
      same(lazy_y().square().mean(axes, keepdims), eager.square().mean(axes, keepdims), rtol);
      same((x - 1).abs().max(axes, keepdims),
           ep::Tensor<B>((x - 1).abs().raw()).max(axes, keepdims), 0);
      same(lazy_y().abs().min(axes, keepdims), eager.abs().min(axes, keepdims), 0);
    }
  }
  // int64 beyond float's mantissa: squares up to 1e12, a sum of 2.0e15 (exact).
  std::vector<std::int64_t> w(42000);
  for (std::size_t i = 0; i < w.size(); ++i)
    w[i] = (static_cast<std::int64_t>(i * 7919 % 2001) - 1000) * 1000;
  const auto k = ep::from_vector<I64>(w, {42000});
  std::int64_t expected = 0;
  for (auto e : w) expected += e * e;
  ep::test::expect_equal(k.square().sum(), {}, std::vector<std::int64_t>{expected});
  // NaN propagates through the block reductions, as through the eager ones.
  auto with_nan = v;
  with_nan[4321] = std::nan("");
  const auto n = ep::test::tensor<B>(with_nan, {4 * 5 * 1000});
  ep::test::expect_equal(n.square().sum(), {}, values{std::nan("")});
  ep::test::expect_equal(n.abs().max(), {}, values{std::nan("")});
  ep::test::expect_equal(n.abs().min(), {}, values{std::nan("")});
  EXPECT_EQ(fusion_suite::is_lazy(y), false);  // `eager` computed it
}

TYPED_TEST_P(Fusion, SmallEmptyAndZeroDimStayEager) {
  using namespace fusion_suite;
  using B = TypeParam;
  constexpr std::int64_t edge = lazy_min_size;
  const auto below = ep::test::tensor<B>(ep::test::random_values(edge - 1, 0, 1), {edge - 1});
  const auto at = ep::test::tensor<B>(ep::test::random_values(edge, 0, 1), {edge});
  EXPECT_FALSE(fusion_suite::is_lazy(below + 1));
  EXPECT_EQ(fusion_suite::is_lazy(at + 1), lazy<B>);
  const auto eager_sum = static_cast<double>(ep::Tensor<B>((at + 1).raw()).sum().item());
  EXPECT_NEAR(static_cast<double>((at + 1).sum().item()), eager_sum,
              tolerance<B>() * 10 * eager_sum);
  // A stretched operand: computed now.
  const auto col = ep::test::tensor<B>(ep::test::random_values(edge, 0, 1), {edge, 1});
  const auto row = ep::test::tensor<B>(values{1, 2}, {2});
  EXPECT_FALSE(fusion_suite::is_lazy(col * row));
  ep::test::expect_equal(
      (col * row)(ep::slice(0, 1)), {1, 2},
      values{static_cast<double>(col(0, 0).item()), 2 * static_cast<double>(col(0, 0).item())});
  const auto empty = ep::test::tensor<B>(values{}, {0, 5});
  ep::test::expect_equal((empty.exp() * 2 + 1), {0, 5}, values{});
  ep::test::expect_equal((empty.exp() * 2 + 1).sum(), {}, values{0});
  const auto scalar = ep::test::tensor<B>(values{0.5}, {});
  EXPECT_FALSE(fusion_suite::is_lazy(scalar * 2));
  ep::test::expect_near((scalar * 2 + 1).exp(), {}, values{std::exp(2.0)}, 1e-6);
  // Errors are raised when the op is called, not when the values are computed.
  const auto other = ep::test::tensor<B>(ep::test::random_values(edge + 1, 0, 1), {edge + 1});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)(at + other); },
                                                {"add", std::to_string(edge)});
}

TYPED_TEST_P(Fusion, SettingsSetThresholdAndBlocksPerThread) {
  using namespace fusion_suite;
  using B = TypeParam;
  const auto v = ep::test::random_values(3 * 100, 0.05, 0.95);
  const auto x = ep::test::tensor<B>(v, {3, 100});
  const auto scalar = ep::test::tensor<B>(values{0.5}, {});
  const auto empty = ep::test::tensor<B>(values{}, {0, 5});
  const auto chain = [](const auto& t) { return (-t * t).exp() * t.sin() + 1; };
  const auto shared = [](const auto& t) {
    const auto u = t * t;
    return (u + u.sin()) * u;
  };
  // Eager here (300 elements, under the default min_size), the oracle of the lazy values below.
  const auto eager_chain = chain(x), eager_shared = shared(x), eager_scalar = chain(scalar);
  const auto m = x(ep::slice(0, 3), ep::slice(0, 16)) * 1;  // (3, 16), computed
  const auto eager_padded = chain(m).pad({{1, 1}, {2, 0}});
  EXPECT_FALSE(fusion_suite::is_lazy(eager_chain));
  EXPECT_EQ(ep::fusion().min_size, lazy_min_size);
  {
    // Every result lazy, blocks of 64 floats (or 64 doubles, past the scratch memory's 256 bytes):
    // 300 elements are five blocks, the last one of 44.
    const ep::fusion_scope scope({.min_size = 0, .block_bytes = 256});
    EXPECT_EQ(ep::fusion().block_bytes, 256);
    const auto y = chain(x), z = shared(x), s = chain(scalar);
    EXPECT_EQ(fusion_suite::is_lazy(y), lazy<B>);
    EXPECT_EQ(fusion_suite::is_lazy(z), lazy<B>);
    EXPECT_EQ(fusion_suite::is_lazy(s), lazy<B>);
    // The same kernels on the same packets: equal, element for element.
    EXPECT_EQ(y.to_vector(), eager_chain.to_vector());
    EXPECT_EQ(z.to_vector(), eager_shared.to_vector());
    EXPECT_EQ(s.to_vector(), eager_scalar.to_vector());
    // Reductions of expressions take their blocks of 64 (sums in another order).
    const double total = static_cast<double>(eager_chain.sum().item());
    EXPECT_NEAR(static_cast<double>(chain(x).sum().item()), total, tolerance<B>() * total);
    ep::test::expect_close(chain(x).sum(1), eager_chain.sum(1), tolerance<B>());
    ep::test::expect_close(chain(x).max(0), eager_chain.max(0));
    // Rows shorter than a block, padded (the expression written into the padded buffer): the
    // blocks across rows end at the expression's end.
    EXPECT_EQ(chain(m).pad({{1, 1}, {2, 0}}).to_vector(), eager_padded.to_vector());
    ep::test::expect_equal(chain(empty), {0, 5}, values{});
    ep::test::expect_equal(chain(empty).sum(), {}, values{0});
    // Another thread keeps its own settings.
    bool other_lazy = true;
    std::thread([&] { other_lazy = fusion_suite::is_lazy(chain(x)); }).join();
    EXPECT_FALSE(other_lazy);
  }
  EXPECT_EQ(ep::fusion().min_size, lazy_min_size);  // restored
  EXPECT_FALSE(fusion_suite::is_lazy(chain(x)));
  {
    // No fusion at all: eager from any size.
    const ep::fusion_scope off({.min_size = std::numeric_limits<std::int64_t>::max()});
    const auto big = ep::test::tensor<B>(ep::test::random_values(rows * cols, 0, 1), {rows, cols});
    EXPECT_FALSE(fusion_suite::is_lazy(chain(big)));
  }
  ep::test::expect_throws_with<ep::value_error>(
      [] { const ep::fusion_scope bad({.min_size = -1}); },
      {"ep::fusion_scope", "min_size -1", "min_size >= 0"});
  ep::test::expect_throws_with<ep::value_error>(
      [] { const ep::fusion_scope bad({.block_bytes = 0}); },
      {"ep::fusion_scope", "block_bytes 0"});
  EXPECT_EQ(ep::fusion().min_size, lazy_min_size);  // a scope that threw changed nothing
}

TYPED_TEST_P(Fusion, GradientsThroughLazyChains) {
  using namespace fusion_suite;
  using B = typename TypeParam::template rebind<double>;
  using T = ep::Tensor<B>;
  const auto v = ep::test::random_values(rows * cols, -2, 2, 8);
  const T x = ep::test::tensor<B>(v, {rows * cols});
  const auto f = [](const T& t) {
    return ((-t * t).exp() * t.sin() + 1).sum() + t.square().sum().sqrt();
  };
  const auto [value, g] = ep::value_and_grad(f, x);
  double sum = 0, squares = 0;
  for (double e : v) {
    sum += std::exp(-e * e) * std::sin(e) + 1;
    squares += e * e;
  }
  const double norm = std::sqrt(squares);
  values expected(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    const double e = v[i];
    expected[i] = std::exp(-e * e) * (std::cos(e) - 2 * e * std::sin(e)) + e / norm;
  }
  ep::test::expect_near(value, {}, values{sum + norm}, 1e-12);
  ep::test::expect_near(g, {rows * cols}, expected, 1e-12, 1e-12);
  // The backward pass is element-wise ops too: the L2 norm's gradient x / |x| is an expression
  // over x (read once when computed), equal to the eager values.
  const auto [n, gn] = ep::value_and_grad([](const T& t) { return t.square().sum().sqrt(); }, x);
  EXPECT_EQ(fusion_suite::is_lazy(gn), lazy<B>);
  values en(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) en[i] = v[i] / norm;
  ep::test::expect_near(n, {}, values{norm}, 1e-13);
  ep::test::expect_near(gn, {rows * cols}, en, 1e-12, 1e-15);
}

TYPED_TEST_P(Fusion, SlicesAreLazyLeaves) {
  using namespace fusion_suite;
  using B = TypeParam;
  using T = typename B::value_type;
  using ep::slice;
  // A strided slice of at least lazy_min_size elements is an expression whose blocks gather their
  // elements: equal to the backend's slice, also as a leaf of a chain and under reductions.
  const std::int64_t n = 160;
  const auto u = ep::test::tensor<B>(ep::test::random_values(n * n, -1, 1, 9), {n, n});
  const auto uv = u.to_vector();
  const auto inner = u(slice(1, -1), slice(1, -1));
  EXPECT_EQ(fusion_suite::is_lazy(inner), lazy<B>);
  const std::vector<std::int64_t> one{1, 1};
  ep::test::expect_close(inner, wrap<B>(B::slice(u.raw(), one, one, ep::Shape{n - 2, n - 2})));
  // The heat step of the stencil benchmark against a plain loop, operation for operation.
  const auto lap = u(slice(2, {}), slice(1, -1)) + u(slice({}, -2), slice(1, -1)) +
                   u(slice(1, -1), slice(2, {})) + u(slice(1, -1), slice({}, -2)) - 4 * inner;
  const auto step = inner + 0.25 * lap;
  EXPECT_EQ(fusion_suite::is_lazy(step), lazy<B>);
  values expected;
  for (std::int64_t i = 1; i + 1 < n; ++i) {
    for (std::int64_t j = 1; j + 1 < n; ++j) {
      const T* r = &uv[static_cast<std::size_t>(i * n)];
      const T l = static_cast<T>(static_cast<T>(static_cast<T>(r[j + n] + r[j - n]) + r[j + 1]) +
                                 r[j - 1]) -
                  static_cast<T>(4 * r[j]);
      expected.push_back(static_cast<T>(r[j] + static_cast<T>(T(0.25) * l)));
    }
  }
  ep::test::expect_equal(step, {n - 2, n - 2}, expected);
  // Steps, three axes, a slice of a lazy tensor, reductions of a lazy slice, a gradient.
  const auto w =
      ep::test::tensor<B>(ep::test::random_values(60 * 50 * 40, -1, 1, 10), {60, 50, 40});
  const auto s = w(slice(1, 59, 2), slice({}, {}, 3), slice(2, 39));
  EXPECT_EQ(fusion_suite::is_lazy(s), lazy<B>);
  const std::vector<std::int64_t> start{1, 0, 2}, steps{2, 3, 1};
  const auto eager = wrap<B>(B::slice(w.raw(), start, steps, ep::Shape{29, 17, 37}));
  ep::test::expect_close(s, eager);
  ep::test::expect_close((w * 2)(slice(1, 59, 2), slice({}, {}, 3), slice(2, 39)), eager * 2);
  const double rtol = sizeof(T) == 4 ? 1e-4 : 1e-11;
  ep::test::expect_close(s.sum(2), eager.sum(2), rtol, rtol);
  ep::test::expect_close(s.max(), eager.max());
  const auto [v, g] = ep::value_and_grad(
      [](const auto& t) { return t(slice(1, -1), slice(1, -1)).square().sum(); }, u);
  values eg(uv.size(), 0.0);
  for (std::int64_t i = 1; i + 1 < n; ++i)
    for (std::int64_t j = 1; j + 1 < n; ++j)
      eg[static_cast<std::size_t>(i * n + j)] = 2 * static_cast<double>(uv[i * n + j]);
  ep::test::expect_near(g, {n, n}, eg, 1e-6);
  ep::test::expect_close(v, (inner * inner).sum(), rtol, rtol);
}

TYPED_TEST_P(Fusion, RowBlocksAndPadWriteInPlace) {
  using namespace fusion_suite;
  using B = TypeParam;
  using T = typename B::value_type;
  using ep::slice;
  // Where a leaf is a slice with unit steps along the last axis and the rows are long (at least a
  // quarter block: 512 doubles, 1024 floats), blocks lie within rows and the slice's blocks are
  // views of the sliced tensor at any element; `pad` of an expression writes the expression into
  // the padded buffer's interior. Rows of 1098 elements (within a block), of 4500 (a block and a
  // part for float, two and a part for double), against a plain loop with the border.
  for (const std::int64_t cols : {std::int64_t{1100}, std::int64_t{4502}}) {
    const std::int64_t n = cols == 1100 ? 20 : 6;
    const auto u = ep::test::tensor<B>(ep::test::random_values(n * cols, -1, 1, 11), {n, cols});
    const auto uv = u.to_vector();
    const auto inner = u(slice(1, -1), slice(1, -1));
    const auto lap = u(slice(2, {}), slice(1, -1)) + u(slice({}, -2), slice(1, -1)) +
                     u(slice(1, -1), slice(2, {})) + u(slice(1, -1), slice({}, -2)) - 4 * inner;
    const auto step = inner + 0.25 * lap;
    EXPECT_EQ(fusion_suite::is_lazy(step), lazy<B>);
    values expected(static_cast<std::size_t>(n * cols), 0.0);
    for (std::int64_t i = 1; i + 1 < n; ++i) {
      for (std::int64_t j = 1; j + 1 < cols; ++j) {
        const T* r = &uv[static_cast<std::size_t>(i * cols)];
        const T l =
            static_cast<T>(static_cast<T>(static_cast<T>(r[j + cols] + r[j - cols]) + r[j + 1]) +
                           r[j - 1]) -
            static_cast<T>(4 * r[j]);
        expected[static_cast<std::size_t>(i * cols + j)] =
            static_cast<T>(r[j] + static_cast<T>(T(0.25) * l));
      }
    }
    const auto padded = step.pad({1, 1});
    ep::test::expect_equal(padded, {n, cols}, expected);
    // index_update by slices writes the expression into a copy of u the same way: the interior
    // as pad's, the border u's. Also with a step along the rows (copied element by element).
    values updated = expected;
    for (std::int64_t i = 0; i < n; ++i)
      for (std::int64_t j = 0; j < cols; ++j)
        if (i == 0 || j == 0 || i == n - 1 || j == cols - 1)
          updated[static_cast<std::size_t>(i * cols + j)] =
              uv[static_cast<std::size_t>(i * cols + j)];
    ep::test::expect_equal(
        u.index_update(ep::index(slice(1, -1), slice(1, -1)), inner + 0.25 * lap), {n, cols},
        updated);
    const auto every_other = u.index_update(ep::index(1, slice(0, {}, 2)), T(5));
    const auto ev = every_other.to_vector();
    for (std::int64_t j = 0; j < cols; ++j)
      EXPECT_EQ(ev[static_cast<std::size_t>(cols + j)],
                j % 2 == 0 ? T(5) : uv[static_cast<std::size_t>(cols + j)])
          << "element " << j;
    // The same values through the computed step and the backend's pad.
    const std::vector<std::int64_t> one{1, 1};
    ep::test::expect_close(padded, wrap<B>(B::pad(step.raw(), one, one, T(0))));
    // A computed operand beside the row views: its blocks start anywhere in its rows.
    const auto v = ep::test::tensor<B>(ep::test::random_values((n - 2) * (cols - 2), -1, 1, 12),
                                       {n - 2, cols - 2});
    const auto mixed = inner * v + u(slice(2, {}), slice({}, -2));
    EXPECT_EQ(fusion_suite::is_lazy(mixed), lazy<B>);
    const std::vector<std::int64_t> two_zero{2, 0};
    const auto shifted = wrap<B>(B::slice(u.raw(), two_zero, one, ep::Shape{n - 2, cols - 2}));
    const auto eager_inner = wrap<B>(B::slice(u.raw(), one, one, ep::Shape{n - 2, cols - 2}));
    ep::test::expect_close(mixed,
                           wrap<B>(B::add(B::multiply(eager_inner.raw(), v.raw()), shifted.raw())));
    // The same values as the kernels on whole tensors, to the bit, also where a function's SIMD and
    // scalar versions differ: blocks hold whole SIMD packets (block_grain) except the last.
    ep::test::expect_close(
        inner.sin() * inner.exp(),
        wrap<B>(B::multiply(B::sin(eager_inner.raw()), B::exp(eager_inner.raw()))));
  }
  // Uneven paddings of three axes and a value; short rows (40 elements) whose blocks hold several
  // rows, copied row by row into the interior; rank 1; a bool mask.
  const auto w =
      ep::test::tensor<B>(ep::test::random_values(60 * 50 * 40, -1, 1, 13), {60, 50, 40});
  const std::vector<std::int64_t> before{1, 0, 2}, after{2, 3, 1};
  const auto chain = w * 2 + 1;
  const auto expected = wrap<B>(B::pad(chain.raw(), before, after, T(7)));
  ep::test::expect_close((w * 2 + 1).pad({{1, 2}, {0, 3}, {2, 1}}, "constant", T(7)), expected);
  const auto x = ep::test::tensor<B>(ep::test::random_values(20000, -1, 1, 14), {20000});
  const std::vector<std::int64_t> b1{3}, a1{5};
  ep::test::expect_close((x + 1).pad({3, 5}), wrap<B>(B::pad((x + 1).raw(), b1, a1, T(0))));
  const auto mask = (x > 0).pad({3, 5});
  EXPECT_EQ(mask.shape(), ep::Shape{20008});
  const auto mv = mask.to_vector();
  const auto xv = x.to_vector();
  for (std::size_t i = 0; i < mv.size(); ++i)
    EXPECT_EQ(mv[i], i >= 3 && i < 20003 && xv[i - 3] > 0) << "element " << i;
  // An expression held twice is padded from its value (computed once, kept); its gradient.
  const auto y = w * 3;
  const auto y2 = y;
  ep::test::expect_close(y.pad({{1, 2}, {0, 3}, {2, 1}}),
                         wrap<B>(B::pad(y2.raw(), before, after, T(0))));
  const auto [value, grad] = ep::value_and_grad(
      [](const auto& t) {
        return (t * 3).pad({{1, 2}, {0, 3}, {2, 1}}, "constant", 5).sum();
      },
      w);
  const double rtol = sizeof(T) == 4 ? 1e-4 : 1e-11;
  const double border = 63.0 * 53 * 43 - 60.0 * 50 * 40;
  EXPECT_NEAR(static_cast<double>(value.item()),
              static_cast<double>((w * 3).sum().item()) + 5 * border, rtol * 5 * border);
  ep::test::expect_close(grad, ep::full_like(w, T(3)));
}

// ep::fuse of a function without state is one node of the lazy evaluation: a reduction takes its
// blocks, a later op reads them, and its values are those of the fused loop run at once (as a
// function with state runs: exactly, the blocks starting at whole packets); its gradient is the
// eager chain's.
TYPED_TEST_P(Fusion, FusedFunctionsAreNodes) {
  using namespace fusion_suite;
  using B = TypeParam;
  if constexpr (std::is_floating_point_v<typename B::value_type>) {
    const auto v = ep::test::random_values(rows * cols, -2, 2, 9);
    const auto x = ep::test::tensor<B>(v, {rows, cols});
    const auto f = [](const auto& t) { return (-t * t).exp() * t.sin() + 1; };
    const double one = 1;
    const auto with_state = [&one](const auto& t) { return (-t * t).exp() * t.sin() + one; };
    const auto y = ep::fuse(f)(x);
    const auto now = ep::fuse(with_state)(x);
    EXPECT_EQ(fusion_suite::is_lazy(y), lazy<B>);
    EXPECT_FALSE(fusion_suite::is_lazy(now));
    const auto total = y.sum();
    EXPECT_EQ(fusion_suite::is_lazy(y), lazy<B>);  // the sum took its blocks
    ep::test::expect_near(total, {}, values{static_cast<double>(now.sum().item())}, tolerance<B>());
    const auto z = y * 2 - x;
    EXPECT_EQ(fusion_suite::is_lazy(z), lazy<B>);
    ep::test::expect_equal(z, {rows, cols}, (now * 2 - x).to_vector());
    ep::test::expect_equal(y, {rows, cols}, now.to_vector());
    // Below the lazy size, and under a tape (the gradient is one more fused pass).
    EXPECT_FALSE(fusion_suite::is_lazy(ep::fuse(f)(x(0, ep::slice(0, 100)))));
    const auto fused_loss = [&f](const auto& t) { return ep::fuse(f)(t).sum(); };
    const auto eager_loss = [&f](const auto& t) { return f(t).sum(); };
    const auto [fv, fg] = ep::value_and_grad(fused_loss, x);
    const auto [ev, eg] = ep::value_and_grad(eager_loss, x);
    ep::test::expect_near(fv, {}, values{static_cast<double>(ev.item())}, tolerance<B>());
    ep::test::expect_near(fg, {rows, cols}, eg.to_vector(), 10 * tolerance<B>(), 1e-6);
  }
}

REGISTER_TYPED_TEST_SUITE_P(Fusion, UnaryOpsEqualTheirKernels,
                            BinaryOpsComparisonsWhereEqualTheirKernels,
                            ChainsWithScalarsAndBroadcasting, SharedAndRepeatedValues,
                            EvaluatedFromTwoThreads, ReductionsTakeBlocks,
                            SmallEmptyAndZeroDimStayEager, SettingsSetThresholdAndBlocksPerThread,
                            GradientsThroughLazyChains, SlicesAreLazyLeaves,
                            RowBlocksAndPadWriteInPlace, FusedFunctionsAreNodes);
