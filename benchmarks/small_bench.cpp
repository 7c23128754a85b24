// eagerpp - small tensors: one Kalman filter step (4 states, 2 measurements) through the facade on
// each CPU backend, against the same step as plain loops over fixed-size arrays; and single 4 x 4
// ops (matmul, add, inv) on ep::eigen against Eigen's fixed-size matrices. Ratios side by side.
// SPDX-License-Identifier: MIT
//
// Target: the Kalman step on ep::eigen within 8x of the plain loops. Each benchmark runs 5 times in
// random order unless told otherwise (--benchmark_repetitions); the ratios are of the medians.
#include <array>    // std::array
#include <cmath>    // std::abs
#include <cstdint>  // std::int64_t
#include <string>   // std::string
#include <vector>   // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <Eigen/Dense>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/xtensor.hpp>

#include "ratio_reporter.hpp"

namespace {

constexpr double dt = 0.1;

/// The model: constant velocity in 2-D, position measured.
struct model {
  std::vector<double> F{1, 0, dt, 0, 0, 1, 0, dt, 0, 0, 1, 0, 0, 0, 0, 1};
  std::vector<double> Q{1e-4, 0, 0, 0, 0, 1e-4, 0, 0, 0, 0, 1e-3, 0, 0, 0, 0, 1e-3};
  std::vector<double> H{1, 0, 0, 0, 0, 1, 0, 0};
  std::vector<double> R{0.01, 0, 0, 0.01};
  std::vector<double> z{0.5, 0.2};
};

/// The step as a user writes it, once for every backend: predict, then update.
template <class B>
struct kalman {
  using T = ep::Tensor<B>;
  T F, Q, H, R, z, I, x, P;
  explicit kalman(const model& m)
      : F(ep::from_vector<B>(m.F, {4, 4})),
        Q(ep::from_vector<B>(m.Q, {4, 4})),
        H(ep::from_vector<B>(m.H, {2, 4})),
        R(ep::from_vector<B>(m.R, {2, 2})),
        z(ep::from_vector<B>(m.z, {2, 1})),
        I(ep::from_vector<B>({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}, {4, 4})),
        x(ep::zeros<B>({4, 1})),
        P(I) {}
  void step() {
    const T xp = F.matmul(x);
    const T Pp = F.matmul(P).matmul(F.T()) + Q;
    const T S = H.matmul(Pp).matmul(H.T()) + R;
    const T K = Pp.matmul(H.T()).matmul(S.inv());
    x = xp + K.matmul(z - H.matmul(xp));
    P = (I - K.matmul(H)).matmul(Pp);
  }
};

/// The same step as a C programmer writes it: loops over fixed-size row-major arrays.
struct kalman_loop {
  template <int N, int M>
  using mat = std::array<double, N * M>;
  template <int N, int K, int M>
  static mat<N, M> mul(const mat<N, K>& a, const mat<K, M>& b) {
    mat<N, M> c{};
    for (int i = 0; i < N; ++i)
      for (int p = 0; p < K; ++p)
        for (int j = 0; j < M; ++j) c[i * M + j] += a[i * K + p] * b[p * M + j];
    return c;
  }
  template <int N, int M>
  static mat<M, N> transpose(const mat<N, M>& a) {
    mat<M, N> t{};
    for (int i = 0; i < N; ++i)
      for (int j = 0; j < M; ++j) t[j * N + i] = a[i * M + j];
    return t;
  }
  mat<4, 4> F, Q, P;
  mat<2, 4> H;
  mat<2, 2> R;
  mat<2, 1> z;
  mat<4, 1> x{};
  explicit kalman_loop(const model& m) : P{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1} {
    std::copy(m.F.begin(), m.F.end(), F.begin());
    std::copy(m.Q.begin(), m.Q.end(), Q.begin());
    std::copy(m.H.begin(), m.H.end(), H.begin());
    std::copy(m.R.begin(), m.R.end(), R.begin());
    std::copy(m.z.begin(), m.z.end(), z.begin());
  }
  void step() {
    const auto xp = mul<4, 4, 1>(F, x);
    auto Pp = mul<4, 4, 4>(mul<4, 4, 4>(F, P), transpose<4, 4>(F));
    for (int i = 0; i < 16; ++i) Pp[i] += Q[i];
    const auto Ht = transpose<2, 4>(H);
    auto S = mul<2, 4, 2>(mul<2, 4, 4>(H, Pp), Ht);
    for (int i = 0; i < 4; ++i) S[i] += R[i];
    const double det = S[0] * S[3] - S[1] * S[2];
    const mat<2, 2> Si{S[3] / det, -S[1] / det, -S[2] / det, S[0] / det};
    const auto K = mul<4, 2, 2>(mul<4, 4, 2>(Pp, Ht), Si);
    const auto hx = mul<2, 4, 1>(H, xp);
    const mat<2, 1> innovation{z[0] - hx[0], z[1] - hx[1]};
    const auto dx = mul<4, 2, 1>(K, innovation);
    for (int i = 0; i < 4; ++i) x[i] = xp[i] + dx[i];
    auto IKH = mul<4, 2, 4>(K, H);
    for (int i = 0; i < 16; ++i) IKH[i] = (i % 5 == 0 ? 1.0 : 0.0) - IKH[i];
    P = mul<4, 4, 4>(IKH, Pp);
  }
};

template <class B>
void BM_kalman(benchmark::State& state) {
  kalman<B> k{model{}};
  for (auto _ : state) {
    k.step();
    benchmark::DoNotOptimize(k.x.raw());
  }
}

void BM_kalman_loop(benchmark::State& state) {
  kalman_loop k{model{}};
  for (auto _ : state) {
    k.step();
    benchmark::DoNotOptimize(k.x.data());
    benchmark::ClobberMemory();
  }
}

/// A well-conditioned 4 x 4 matrix and another, as eagerpp tensors and as Eigen's fixed-size.
std::vector<double> matrix_values(double shift) {
  std::vector<double> v(16);
  for (int i = 0; i < 16; ++i) v[i] = (i % 5 == 0 ? 4.0 : 0.0) + shift * i;
  return v;
}

template <int Op>  // 0 matmul, 1 add, 2 inv
void BM_op4(benchmark::State& state) {
  using E = ep::eigen<double>;
  const auto a = ep::from_vector<E>(matrix_values(0.1), {4, 4});
  const auto b = ep::from_vector<E>(matrix_values(0.05), {4, 4});
  for (auto _ : state) {
    if constexpr (Op == 0) benchmark::DoNotOptimize(a.matmul(b).raw());
    if constexpr (Op == 1) benchmark::DoNotOptimize((a + b).raw());
    if constexpr (Op == 2) benchmark::DoNotOptimize(a.inv().raw());
  }
}

template <int Op>
void BM_op4_native(benchmark::State& state) {
  using M = Eigen::Matrix<double, 4, 4, Eigen::RowMajor>;
  const auto va = matrix_values(0.1), vb = matrix_values(0.05);
  const M a = Eigen::Map<const M>(va.data()), b = Eigen::Map<const M>(vb.data());
  M c;
  for (auto _ : state) {
    if constexpr (Op == 0) c.noalias() = a * b;
    if constexpr (Op == 1) c = a + b;
    if constexpr (Op == 2) c = a.inverse();
    benchmark::DoNotOptimize(c.data());
    benchmark::ClobberMemory();
  }
}

BENCHMARK(BM_kalman<ep::eigen<double>>)->Name("kalman/eigen");
BENCHMARK(BM_kalman<ep::xtensor<double>>)->Name("kalman/xtensor");
BENCHMARK(BM_kalman_loop)->Name("kalman/loop");
BENCHMARK(BM_op4<0>)->Name("matmul4/eigen");
BENCHMARK(BM_op4_native<0>)->Name("matmul4/native");
BENCHMARK(BM_op4<1>)->Name("add4/eigen");
BENCHMARK(BM_op4_native<1>)->Name("add4/native");
BENCHMARK(BM_op4<2>)->Name("inv4/eigen");
BENCHMARK(BM_op4_native<2>)->Name("inv4/native");

}  // namespace

int main(int argc, char** argv) {
  {  // The facade and the loops must agree before their times mean anything.
    kalman<ep::eigen<double>> k{model{}};
    kalman_loop l{model{}};
    for (int i = 0; i < 20; ++i) k.step(), l.step();
    const auto x = k.x.to_vector();
    for (int i = 0; i < 4; ++i)
      if (std::abs(x[static_cast<std::size_t>(i)] - l.x[static_cast<std::size_t>(i)]) > 1e-12) {
        fmt::print(stderr, "small_bench: the facade's Kalman state differs from the loop's\n");
        return 1;
      }
  }
  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);
  fmt::print("\nratios (median times of this run):\n");
  bool ok =
      ep::bench::print_ratio(rep, "Kalman step: eigen / loop", "kalman/eigen", "kalman/loop", 8);
  fmt::print("  {:<58} {:>7.3f}   (no target)\n", "Kalman step: xtensor / loop",
             rep.ratio("kalman/xtensor", "kalman/loop"));
  for (const char* op : {"matmul4", "add4", "inv4"})
    fmt::print("  {:<58} {:>7.3f}   (no target)\n",
               fmt::format("{} 4x4: eigen / Eigen fixed-size", op),
               rep.ratio(fmt::format("{}/eigen", op), fmt::format("{}/native", op)));
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
