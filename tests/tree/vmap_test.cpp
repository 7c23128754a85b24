// eagerpp - ep::vmap: each op family batched against a loop of the unbatched function, the
// compositions with every transform, and the errors, on each CPU backend
// SPDX-License-Identifier: MIT
#include <cstdint>      // std::int64_t
#include <optional>     // std::optional
#include <tuple>        // std::tuple, std::get
#include <type_traits>  // std::is_same_v, std::decay_t
#include <utility>      // std::pair, std::index_sequence
#include <vector>       // std::vector

#include <gtest/gtest.h>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fft.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/vmap.hpp>
#include <eagerpp/xtensor.hpp>
#ifdef EAGERPP_TEST_OMP
#include <eagerpp/omp.hpp>
#endif

#include "support/support.hpp"

namespace vmap_test {
template <class B>
struct Layer {
  ep::Tensor<B> w, b;
  int tag = 7;  // not listed: a rebuilt struct takes its default
};
template <class B>
EAGERPP_TREE(Layer<B>, w, b)
}  // namespace vmap_test

namespace vmap_suite {

template <class B>
class Vmap : public ::testing::Test {};

#ifdef EAGERPP_TEST_OMP
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>, ep::omp<double>>;
#else
using Backends = ::testing::Types<ep::eigen<double>, ep::xtensor<double>>;
#endif
TYPED_TEST_SUITE(Vmap, Backends);

using ep::test::expect_close;
using ep::test::random_tensor;

/// Example `i` of `x` along `axis`, or x itself where it is unmapped.
template <class Tn>
Tn example(const Tn& x, ep::vmap_axis axis, std::int64_t i) {
  if (!axis) return x;
  return ep::moveaxis(x, *axis, 0)[i];
}

/// The reference: f called once per example, the results stacked along `out_axis`.
template <class F, class... Tn>
auto loop(const F& f, std::int64_t n, const std::vector<ep::vmap_axis>& in_axes, int out_axis,
          const Tn&... args) {
  using Y = std::decay_t<decltype(f(args...))>;
  std::vector<Y> outs;
  for (std::int64_t i = 0; i < n; ++i) {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      outs.push_back(f(example(args, in_axes[K], i)...));
    }
    (std::index_sequence_for<Tn...>{});
  }
  return ep::stack(outs, out_axis);
}

/// vmap(f) against the loop, for the in_axes given.
template <class F, class... Tn>
void expect_batched(const F& f, std::int64_t n, const std::vector<ep::vmap_axis>& in_axes,
                    const Tn&... args) {
  const auto batched = ep::vmap(f, in_axes)(args...);
  expect_close(batched, loop(f, n, in_axes, 0, args...), 1e-12, 1e-12);
}

TYPED_TEST(Vmap, ElementwiseOpsBroadcastWithSharedAndMappedOperands) {
  using B = TypeParam;
  const auto x = random_tensor<B>({5, 3}, -1, 1, 1);   // 5 examples of shape (3)
  const auto xt = random_tensor<B>({3, 5}, -1, 1, 2);  // mapped along axis 1
  const auto s = random_tensor<B>({4, 3}, 0.5, 2, 3);  // shared, of higher rank than an example
  const auto f = [](const auto& a, const auto& b) {
    return (a > 0).where(a * b + a.exp(), b.square() - 1) / (b.abs() + 1);
  };
  expect_batched(f, 5, {0, ep::unmapped}, x, s);
  expect_batched(f, 5, {1, 0}, xt, x);
  expect_batched(f, 5, {-1, ep::unmapped}, xt, s);
  // scalars, clip, maximum with a number, comparisons to bool and back
  const auto g = [](const auto& a) {
    return a.clip(-0.5, 0.5) + 2 * a.maximum(0.1) + (a > 0.2).template astype<double>();
  };
  expect_batched(g, 5, {0}, x);
}

TYPED_TEST(Vmap, ReductionsAndScansShiftTheirAxes) {
  using B = TypeParam;
  const auto x = random_tensor<B>({4, 3, 5}, -2, 2, 4);
  expect_batched([](const auto& a) { return a.sum(); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.mean(-1); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.max(0, true) - a.min(1, true); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.logsumexp(1); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.cumsum(1) + a.softmax(0); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.argmax(1).template astype<double>(); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.sort(-1) * a.argsort(0).template astype<double>(); },
                 4, {0}, x);
  expect_batched([](const auto& a) { return ep::var(a, 1) + a.prod(0).sum(); }, 3, {1}, x);
}

TYPED_TEST(Vmap, ShapeOpsAndIndexingShiftTheirAxes) {
  using B = TypeParam;
  const auto x = random_tensor<B>({4, 3, 5}, -2, 2, 5);
  const auto s = random_tensor<B>({3, 2}, -2, 2, 6);
  expect_batched([](const auto& a) { return a.reshape({5, 3}).transpose(); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.flip(1).expand_dims(0).squeeze(0); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a(ep::slice(0, 2), ep::slice(1, 5, 2)); }, 4, {0}, x);
  expect_batched(
      [](const auto& a) {
        return a.pad({{1, 0}, {0, 2}}, "constant", -1.0);
      },
      4, {0}, x);
  expect_batched(
      [](const auto& a, const auto& b) {
        return ep::concatenate({a, b, a}, -1);
      },
      4, {0, ep::unmapped}, x, s);
  expect_batched(
      [](const auto& a, const auto& b) {
        return ep::stack({b, a(ep::slice(0, 3), 0)}, 0);
      },
      4, {0, ep::unmapped}, x, s.reshape({6})(ep::slice(0, 3)));
  expect_batched([](const auto& a) { return a.broadcast_to({2, 3, 5}); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a.index_update(ep::index(1), a(0) * 2); }, 4, {0}, x);
  expect_batched([](const auto& a) { return a(ep::slice(0, 3), 0).tile({2}); }, 4, {0}, x);
}

TYPED_TEST(Vmap, GathersAndScattersOffsetEachExamplesIndices) {
  using B = TypeParam;
  using I = typename B::template rebind<std::int64_t>;
  const auto x = random_tensor<B>({4, 6}, -2, 2, 7);
  const auto idx = ep::from_vector<I>(std::vector<std::int64_t>{5, 0, 2, -1, 3, 3, 1, 4}, {4, 2});
  const auto shared = ep::from_vector<I>(std::vector<std::int64_t>{1, 4}, {2});
  const auto take = [](const auto& a, const auto& i) { return a[i]; };
  expect_batched(take, 4, {0, 0}, x, idx);
  expect_batched(take, 4, {0, ep::unmapped}, x, shared);
  expect_batched(take, 4, {ep::unmapped, 0}, x(0), idx);
  const auto along = [](const auto& a, const auto& i) { return ep::take_along_axis(a, i, 0); };
  expect_batched(along, 4, {0, 0}, x, idx);
  const auto scatter = [](const auto& a, const auto& i) {
    return a.index_update(ep::index(i), a[i] * 10 + 1);
  };
  expect_batched(scatter, 4, {0, 0}, x, idx);
  expect_batched(scatter, 4, {0, ep::unmapped}, x, shared);
  // one label per example: crossentropy and onehot read every example's labels
  const auto labels = ep::from_vector<I>(std::vector<std::int64_t>{1, 5, 0, 3}, {4});
  const auto ce = [](const auto& logits, const auto& l) {
    return logits.reshape({1, 6}).crossentropy(l.reshape({1})).sum();
  };
  expect_batched(ce, 4, {0, 0}, x, labels);
  const auto bad = ep::from_vector<I>(std::vector<std::int64_t>{1, 6, 0, 3}, {4});
  ep::test::expect_throws_with<ep::index_error>(
      [&] {
        (void)ep::vmap(take)(x, bad.reshape({4, 1}));
      },
      {"index 6", "out of bounds"});
}

TYPED_TEST(Vmap, MatmulIsOneBatchedProduct) {
  using B = TypeParam;
  const auto a = random_tensor<B>({5, 3, 4}, -1, 1, 8);
  const auto b = random_tensor<B>({5, 4, 2}, -1, 1, 9);
  const auto w = random_tensor<B>({4, 2}, -1, 1, 10);
  const auto m = random_tensor<B>({3, 4}, -1, 1, 11);
  const auto mm = [](const auto& p, const auto& q) { return p.matmul(q); };
  expect_batched(mm, 5, {0, 0}, a, b);
  expect_batched(mm, 5, {0, ep::unmapped}, a, w);  // rows stacked: one GEMM
  expect_batched(mm, 5, {ep::unmapped, 0}, m, b);  // columns side by side: one GEMM
  // b mapped along its last axis: examples of shape (5, 4)
  expect_batched(mm, 2, {ep::unmapped, 2}, random_tensor<B>({3, 5}, -1, 1, 27), b);
  const auto tmm = [](const auto& p, const auto& q) { return p.transpose().matmul(q.transpose()); };
  expect_batched(tmm, 5, {0, ep::unmapped}, a.transpose({0, 2, 1}), m);
  expect_batched(tmm, 5, {ep::unmapped, 0}, m, a.transpose({0, 2, 1}));
  const auto vec = random_tensor<B>({5, 4}, -1, 1, 12);
  expect_batched(mm, 5, {0, ep::unmapped}, vec, w);  // vector times matrix
  expect_batched(mm, 5, {ep::unmapped, 0}, m, vec);  // matrix times vector
  expect_batched([](const auto& p, const auto& q) { return p.matmul(q); }, 5, {0, 0}, vec, vec * 2);
}

TYPED_TEST(Vmap, DecompositionsRunOverTheBatch) {
  using B = TypeParam;
  const auto r = random_tensor<B>({3, 4, 4}, -1, 1, 13);
  const auto spd = r.matmul(r.transpose({0, 2, 1})) + ep::eye<B>(4) * 4.0;
  const auto rhs = random_tensor<B>({4, 2}, -1, 1, 14);
  expect_batched([](const auto& a, const auto& b) { return ep::linalg::solve(a, b); }, 3,
                 {0, ep::unmapped}, spd, rhs);
  expect_batched([](const auto& a) { return ep::linalg::cholesky(a); }, 3, {0}, spd);
  expect_batched([](const auto& a) { return a.inv() + ep::linalg::det(a); }, 3, {0}, spd);
  expect_batched([](const auto& a) { return ep::linalg::eigh(a).eigenvalues; }, 3, {0}, spd);
}

TYPED_TEST(Vmap, FourierTransformsRunAlongTheExamplesAxes) {
  using B = TypeParam;
  const auto x = random_tensor<B>({3, 6, 5}, -1, 1, 15);
  const auto f = [](const auto& v) {
    return ep::fft::irfft(ep::fft::rfft(v, std::nullopt, 0) * 2.0, v.shape()[0], 0) +
           ep::abs(ep::fft::fftn(v)) + ep::fft::ifft(v).imag();
  };
  expect_batched(f, 3, {0}, x);
  expect_batched(f, 5, {2}, x);
  const auto loss = [&](const auto& v) { return (f(v) * v).sum(); };
  expect_batched([&](const auto& v) { return ep::grad(loss)(v); }, 3, {0}, x);
}

TYPED_TEST(Vmap, AxesBatchSizesTreesAndNesting) {
  using B = TypeParam;
  using Tn = ep::Tensor<B>;
  const auto x = random_tensor<B>({3, 4}, -1, 1, 15);
  const auto f = [](const auto& a) { return a.sin() * a.sum(); };
  // out_axes: the batch axis put last
  expect_close(ep::vmap(f, {0}, {1})(x), loop(f, 3, {0}, 1, x), 1e-12, 1e-12);
  // batch sizes 1 and 0
  expect_batched(f, 1, {0}, x(ep::slice(0, 1)));
  const auto empty = ep::vmap(f)(x(ep::slice(0, 0)));
  EXPECT_EQ(empty.shape(), ep::Shape({0, 4}));
  // nested: the inner vmap over axis 1 of each example, the outer over axis 0
  const auto inner = [](const auto& a) { return a * a.max(); };
  const auto nested = ep::vmap(ep::vmap(inner))(x.reshape({3, 2, 2}));
  expect_close(nested, (x.reshape({3, 2, 2}) * x.reshape({3, 2, 2}).max(-1, true)), 1e-12);
  // tuple arguments and results; a vector argument
  const auto pairwise = [](const auto& p) {
    const auto& [a, b] = p;
    return std::pair{a + b, (a * b).sum()};
  };
  const auto [sums, dots] = ep::vmap(pairwise, {0}, {1, 0})(std::pair{x, x * 3});
  expect_close(sums, (x * 4).transpose(), 1e-12);
  expect_close(dots, (x * x * 3).sum(1), 1e-12);
  const auto total = [](const auto& v) { return v[0] - v[1] * v[2]; };
  expect_close(ep::vmap(total)(std::vector<Tn>{x, x + 1, x - 1}), x - (x + 1) * (x - 1), 1e-12);
}

TYPED_TEST(Vmap, ComposesWithEveryTransform) {
  using B = TypeParam;
  using Tn = ep::Tensor<B>;
  const auto x = random_tensor<B>({6, 3}, -1, 1, 16);
  const auto w = random_tensor<B>({3, 2}, -1, 1, 17);
  const auto loss = [](const auto& wi, const auto& xi) {
    return xi.matmul(wi).tanh().square().sum();
  };
  // per-example gradients: vmap(grad) against one grad per example
  const auto per_example = ep::vmap(ep::grad(loss), {ep::unmapped, 0})(w, x);
  expect_close(per_example,
               loop([&](const Tn& wi, const Tn& xi) { return ep::grad(loss)(wi, xi); }, 6,
                    {ep::unmapped, 0}, 0, w, x),
               1e-12, 1e-12);
  // grad of a function that calls vmap: the gradient of the batch's total loss
  const auto through = ep::grad([&](const auto& ww) {
    return ep::vmap(loss, {ep::unmapped, 0})(ww, x).sum();
  })(w);
  expect_close(through, per_example.sum(0), 1e-12, 1e-12);
  // a gradient with respect to the mapped argument, through vmap
  const auto wrt_x = ep::grad([&](const auto& xx) {
    return ep::vmap(loss, {ep::unmapped, 0})(w, xx).square().sum();
  })(x);
  expect_close(wrt_x, ep::grad([&](const Tn& xx) {
                 return loop(loss, 6, {ep::unmapped, 0}, 0, w, xx).square().sum();
               })(x),
               1e-12, 1e-12);
  // vmap of jacobian, vjp and jvp
  const auto layer = [](const auto& xi) { return xi.tanh() * xi.sum(); };
  expect_batched([&](const auto& xi) { return ep::jacobian(layer, xi); }, 6, {0}, x);
  const auto v = random_tensor<B>({6, 3}, -1, 1, 18);
  const auto pull = [&](const auto& xi, const auto& vi) {
    auto [y, pb] = ep::vjp(layer, xi);
    return pb(vi);
  };
  expect_batched(pull, 6, {0, 0}, x, v);
  const auto push = [&](const auto& xi, const auto& vi) { return ep::jvp(layer, xi, vi).second; };
  expect_batched(push, 6, {0, 0}, x, v);
  // second order: vmap of a hessian; vmap inside checkpoint
  expect_batched([&](const auto& wi, const auto& xi) { return ep::hessian(loss, wi, xi); }, 6,
                 {ep::unmapped, 0}, w, x);  // d2 loss / dw2 of each example
  const auto ck = ep::grad([&](const auto& ww) {
    return ep::checkpoint([&](const auto& w2) {
      return ep::vmap(loss, {ep::unmapped, 0})(w2, x).sum();
    })(ww);
  })(w);
  expect_close(ck, through, 1e-12, 1e-12);
}

TYPED_TEST(Vmap, StructsOfParametersInAndOut) {
  using B = TypeParam;
  using Tn = ep::Tensor<B>;
  const vmap_test::Layer<B> p{random_tensor<B>({3, 2}, -1, 1, 28),
                              random_tensor<B>({2}, -1, 1, 29)};
  const auto x = random_tensor<B>({4, 3}, -1, 1, 30);
  const auto loss = [](const auto& q, const auto& xi) {
    return (xi.matmul(q.w) + q.b).tanh().square().sum();
  };
  // per-example gradients of a struct: a struct of batched gradients
  const auto g = ep::vmap(ep::grad(loss), {ep::unmapped, 0})(p, x);
  static_assert(std::is_same_v<std::decay_t<decltype(g)>, vmap_test::Layer<B>>);
  for (std::int64_t i = 0; i < 4; ++i) {
    const auto gi = ep::grad(loss)(p, x(i));
    expect_close(g.w(i), gi.w, 1e-12, 1e-12);
    expect_close(g.b(i), gi.b, 1e-12, 1e-12);
  }
  EXPECT_EQ(g.tag, 7);
  // a struct mapped along an axis of each member: a batch of models
  const vmap_test::Layer<B> models{ep::stack(std::vector<Tn>{p.w, p.w * 2}),
                                   ep::stack(std::vector<Tn>{p.b, -p.b})};
  const auto per_model = ep::vmap(loss, {0, ep::unmapped})(models, x(0));
  expect_close(
      per_model,
      ep::stack(std::vector<Tn>{loss(p, x(0)), loss(vmap_test::Layer<B>{p.w * 2, -p.b}, x(0))}),
      1e-12, 1e-12);
}

TYPED_TEST(Vmap, CapturedTensorsAreSharedByEveryExample) {
  using B = TypeParam;
  using Tn = ep::Tensor<B>;
  const auto x = random_tensor<B>({5, 3}, -1, 1, 21);
  const auto w = random_tensor<B>({3, 2}, -1, 1, 22);
  const auto b = random_tensor<B>({2}, -1, 1, 23);
  // w and b captured, not passed: operators, methods and free functions lift them
  const auto layer = [&](const auto& xi) {
    return ep::maximum(xi.matmul(w) + b, b * 0.5) - b.matmul(w.transpose()).sum();
  };
  expect_batched(layer, 5, {0}, x);
  // the gradient flows to a captured tensor: summed over the examples
  const auto through = ep::grad([&](const Tn& ww) {
    return ep::vmap([&](const auto& xi) { return xi.matmul(ww).tanh().sum(); })(x).sum();
  })(w);
  expect_close(through, ep::grad([&](const Tn& ww) { return x.matmul(ww).tanh().sum(); })(w), 1e-12,
               1e-12);
  // a captured tensor's gradient where the result is the same for every example: n times one
  const auto shared = ep::grad([&](const Tn& ww) {
    return ep::vmap([&](const auto& xi) { return xi.sum() * 0 + ww.square().sum(); })(x).sum();
  })(w);
  expect_close(shared, w * 10, 1e-12, 1e-12);
}

TYPED_TEST(Vmap, JacobiansAreOneBatchedPass) {
  using B = TypeParam;
  using Tn = ep::Tensor<B>;
  const auto x = random_tensor<B>({4}, -1, 1, 24);
  const auto w = random_tensor<B>({4, 3}, -1, 1, 25);
  const auto generic = [&](const auto& v) {
    return ep::concatenate({v.matmul(w).tanh(), v.exp() * v.sum()}, 0);
  };
  const auto typed = [&](const Tn& v) { return generic(v); };  // runs the per-row loop
  const auto expected = ep::jacobian(typed, x);
  ASSERT_EQ(expected.shape(), ep::Shape({7, 4}));
  expect_close(ep::jacobian(generic, x), expected, 1e-12, 1e-12);
  expect_close(ep::jacrev(generic, x), expected, 1e-12, 1e-12);
  expect_close(ep::jacfwd(generic, x), expected, 1e-12, 1e-12);
  // a Jacobian of a matrix-valued function of a matrix; a Hessian with an extra argument
  const auto m = random_tensor<B>({2, 3}, -1, 1, 26);
  const auto outer = [](const auto& a) { return a.transpose().matmul(a.sin()); };
  expect_close(ep::jacobian(outer, m), ep::jacobian([&](const Tn& a) { return outer(a); }, m),
               1e-12, 1e-12);
  expect_close(ep::jacfwd(outer, m), ep::jacobian([&](const Tn& a) { return outer(a); }, m), 1e-12,
               1e-12);
  const auto energy = [](const auto& v, const auto& ww) {
    return v.matmul(ww).square().sum() * v.sum();
  };
  expect_close(ep::hessian(energy, x, w),
               ep::hessian([&](const Tn& v, const Tn& ww) { return energy(v, ww); }, x, w), 1e-12,
               1e-12);
}

TYPED_TEST(Vmap, RandomDrawsAreEachExamplesOwnAndReproducible) {
  using B = TypeParam;
  const auto x = ep::zeros<B>({4, 3});
  ep::generator gen(7), same(7);
  const auto noisy =
      ep::vmap([&](const auto& xi) { return xi + ep::normal(gen, xi, {3}, 0, 1); })(x);
  expect_close(noisy, ep::normal<B>(same, {4, 3}, 0, 1));  // (n, 3) from the same stream
  EXPECT_GT((noisy(0) - noisy(1)).abs().max().item(), 0.0);
}

TYPED_TEST(Vmap, BadInputNamesTheArgumentAndTheShapes) {
  using B = TypeParam;
  const auto x = random_tensor<B>({3, 4}, -1, 1, 19);
  const auto y = random_tensor<B>({5, 4}, -1, 1, 20);
  const auto add = [](const auto& a, const auto& b) { return a + b; };
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::vmap(add)(x, y); },
      {"vmap", "3 along argument 0", "5 along argument 1", "(5, 4)"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::vmap(add, {2, 0})(x, x);
      },
      {"in_axes[0] = 2", "argument 0", "(3, 4)"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::vmap(add, {ep::unmapped, ep::unmapped})(x, x);
      },
      {"no argument is mapped"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::vmap(add, {0, 0, 0})(x, x);
      },
      {"in_axes has 3 entries", "2 arguments"});
  ep::test::expect_throws_with<ep::value_error>([&] { (void)ep::vmap(add, {0}, {2})(x, x); },
                                                {"out_axes[0] = 2", "result 0"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] {
        (void)ep::vmap([](const auto& a) { return std::tuple{a, a}; }, {0}, {0, 1, 0})(x);
      },
      {"out_axes has 3 entries", "returning 2 results"});
  ep::test::expect_throws_with<ep::value_error>(
      [&] { (void)ep::vmap([](const auto& a) { return a * a.sum().item(); })(x); },
      {"vmap", "cannot be read inside ep::vmap"});
}

}  // namespace vmap_suite
