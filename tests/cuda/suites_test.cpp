// eagerpp - every typed suite on the CUDA backend (float32 and float64; Autodiff in float64 only)
// but Fusion and Fuse (ep::cuda is eager), LinalgExtension through cuSOLVER included. Every test
// skips without a device.
// SPDX-License-Identifier: MIT
//
// One translation unit per backend, the suites' shared instantiations compiled once
// (tests/CMakeLists.txt).
#include <vector>  // std::vector

#include <eagerpp/cuda.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/vmap.hpp>

#include "suites/all.hpp"

using CudaBackends = ::testing::Types<ep::cuda<float>, ep::cuda<double>>;
using CudaDouble = ::testing::Types<ep::cuda<double>>;
EAGERPP_INSTANTIATE_ALL_SUITES(Cuda, CudaBackends, CudaDouble);
// ep::linalg's decompositions through cuSOLVER (eagerpp/cuda/cusolver.hpp).
INSTANTIATE_TYPED_TEST_SUITE_P(Cuda, LinalgExtension, CudaBackends);
// Lazy evaluation in blocks is the host backends' (suites/fusion.hpp).
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Fusion);

namespace cuda_tree_test {
template <class B>
struct Params {
  ep::Tensor<B> w, b;
};
template <class B>
EAGERPP_TREE(Params<B>, w, b)
}  // namespace cuda_tree_test

// Parameter trees through grad, hessian and ep::optim on device tensors (tests/tree runs the same
// on every CPU backend).
TEST(CudaTrees, GradHessianAndAdamOfAStruct) {
  using B = ep::cuda<double>;
  using P = cuda_tree_test::Params<B>;
  const P p{ep::from_vector<B>({1, -2}, {2}), ep::from_vector<B>({0.5}, {1})};
  const auto loss = [](const P& q) { return q.w.square().sum() + 3 * q.b.sum(); };
  const P g = ep::grad(loss)(p);
  EXPECT_EQ(g.w.to_vector(), (std::vector<double>{2, -4}));
  EXPECT_EQ(g.b.to_vector(), (std::vector<double>{3}));
  const auto h = ep::hessian(loss, p);
  EXPECT_EQ(h[0][0].to_vector(), (std::vector<double>{2, 0, 0, 2}));
  EXPECT_EQ(h[1][1].to_vector(), (std::vector<double>{0}));
  // Adam's first step moves each parameter by lr against the sign of its gradient.
  ep::optim::adam opt(p, 0.1);
  const P next = opt.step(p, g);
  const auto w = next.w.to_vector();
  EXPECT_NEAR(w[0], 0.9, 1e-7);
  EXPECT_NEAR(w[1], -1.9, 1e-7);
  EXPECT_NEAR(next.b.to_vector()[0], 0.4, 1e-7);
}

// ep::vmap on device tensors: per-example gradients, and a Jacobian as one batched backward pass
// (tests/tree/vmap_test.cpp runs every op family on the CPU backends).
TEST(CudaVmap, PerExampleGradientsAndAJacobian) {
  using B = ep::cuda<double>;
  const auto x = ep::from_vector<B>({1, 2, 3, 4, 5, 6}, {3, 2});
  const auto w = ep::from_vector<B>({0.5, -1}, {2});
  const auto loss = [](const auto& wi, const auto& xi) { return (xi * wi).sum().square(); };
  // d/dw (x . w)^2 = 2 (x . w) x, one row per example
  EXPECT_EQ(ep::vmap(ep::grad(loss), {ep::unmapped, 0})(w, x).to_vector(),
            (std::vector<double>{-3, -6, -15, -20, -35, -42}));
  // d (v * sum(v)) / dv = diag(sum(v)) + v 1^T
  EXPECT_EQ(ep::jacobian([](const auto& v) { return v * v.sum(); }, w).to_vector(),
            (std::vector<double>{0, 0.5, -1, -1.5}));
}
