// eagerpp - ep::linalg against the solver libraries underneath: each decomposition of a 512 x 512
// matrix, a batch of small Cholesky factorizations (and ep::omp's threads on it), and the gradient
// of a Gaussian process's likelihood. Ratios side by side, in one run.
// SPDX-License-Identifier: MIT
//
// double throughout; Eigen, OpenBLAS and OpenMP on one thread unless stated.
//   <op>_512/<backend>     ep::linalg::<op> of a 512 x 512 matrix: cholesky (of an SPD matrix), qr
//                          (reduced), svd ({.full_matrices = false}), eigh (of the SPD matrix),
//                          slogdet, solve with one right-hand side (solve_512x1) and with 512
//                          (solve_512x512), solve_triangular of the SPD matrix's Cholesky factor
//                          with 512 right-hand sides (solve_triangular_512x512);
//   <op>_512/eigen_native  the same with Eigen's solver on a column-major Eigen::MatrixXd of the
//                          same values: LLT, HouseholderQR (with its thin Q formed), BDCSVD (thin U
//                          and V), SelfAdjointEigenSolver, PartialPivLU (the log of |U|'s diagonal;
//                          .solve(b)), triangularView<Lower>().solve(b);
//   <op>_512/lapack        the same with LAPACK (OpenBLAS) called directly, as a C programmer with
//                          C-order data calls it: dpotrf, dgesdd, dsyevd and dgetrf (slogdet) on a
//                          copy of the C-order matrix, which is the column-major transpose and
//                          serves as it is (a Cholesky factor, singular vectors, eigenvectors or a
//                          determinant of the transpose are the matrix's own); dgeqrf + dorgqr and
//                          dgesv on column-major copies (a tiled transpose); cblas_dtrsm on the
//                          C-order matrices (CblasRowMajor), b copied; workspaces queried once,
//                          outside the timed loop.
// Target: each backend within 1.1x of its library (eigen of eigen_native, xtensor and omp of
// lapack).
//   cholesky_batch/<backend>     ep::linalg::cholesky of a (4096, 8, 8) stack of SPD matrices;
//   cholesky_batch/eigen_native  a loop of Eigen's LLT over the 4096 matrices (one LLT object,
//                                .compute per matrix), L written to a C-order output;
//   cholesky_batch/lapack        a loop of dpotrf (copy, factor, zero the other triangle);
//   cholesky_batch/omp/2_threads the omp backend with omp_set_num_threads(2) (cholesky_batch/omp:
//                                1).
// Targets: omp on 2 threads at least 1.6x faster than on 1; every backend within 1.5x of its loop.
//   gp_512/<backend>/forward, gp_512/<backend>/value_and_grad  the negative log-likelihood of a
//                          Gaussian process, 0.5 yᵀ K⁻¹ y + Σ log diag(L), L = cholesky(K), K⁻¹ y
//                          by cho_solve(L, y) (as scikit-learn's GaussianProcessRegressor), with
//                          K = σf² exp(-|xi - xj|² / 2ℓ²) + σn² I at n = 512, and its gradient with
//                          respect to (log ℓ, log σf, log σn) (target: value_and_grad within 3x of
//                          the forward).
// Each benchmark runs 5 times in random order unless told otherwise (--benchmark_repetitions); the
// ratios are of the medians.
#include <algorithm>  // std::copy_n, std::fill, std::max
#include <cmath>      // std::abs, std::log, std::exp
#include <cstdint>    // std::int64_t, std::uint64_t
#include <string>     // std::string
#include <vector>     // std::vector

#include <benchmark/benchmark.h>
#include <cblas.h>  // openblas_set_num_threads (OpenBLAS)
#include <fmt/format.h>
#include <Eigen/Dense>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/xtensor.hpp>  // with xtensor-blas's LAPACK declarations (cxxlapack::dpotrf_, ...)
#if EAGERPP_BENCHMARK_OMP
#include <omp.h>  // omp_set_num_threads

#include <eagerpp/omp.hpp>
#endif

#include "cpu_backends.hpp"
#include "ratio_reporter.hpp"

namespace {

using E = ep::eigen<double>;
using X = ep::xtensor<double>;
#if EAGERPP_BENCHMARK_OMP
using O = ep::omp<double>;
#endif

constexpr std::int64_t n = 512;
constexpr int ni = static_cast<int>(n);
constexpr std::int64_t batch = 4096, small = 8;

using rowmajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// rows x cols standard normal values, C order.
std::vector<double> gaussian(std::uint64_t seed, std::int64_t rows, std::int64_t cols) {
  ep::generator gen(seed);
  return ep::normal<E>(gen, {rows, cols}).to_vector();
}

/// G Gᵀ / m + I for each m x m matrix G of a stack: symmetric positive definite, well conditioned.
std::vector<double> spd(const std::vector<double>& g, std::int64_t m) {
  std::vector<double> out(g.size());
  const std::int64_t count = static_cast<std::int64_t>(g.size()) / (m * m);
  for (std::int64_t b = 0; b < count; ++b) {
    const Eigen::Map<const rowmajor> gb(g.data() + b * m * m, m, m);
    Eigen::Map<rowmajor>(out.data() + b * m * m, m, m) =
        gb * gb.transpose() / static_cast<double>(m) + rowmajor::Identity(m, m);
  }
  return out;
}

/// The lower Cholesky factor of an SPD n x n matrix, C order, zeros above the diagonal.
std::vector<double> cholesky_factor(const std::vector<double>& a) {
  const rowmajor l =
      Eigen::LLT<Eigen::MatrixXd>(Eigen::Map<const rowmajor>(a.data(), n, n)).matrixL();
  return {l.data(), l.data() + n * n};
}

/// The inputs, C order: a general and an SPD 512 x 512 matrix, right-hand sides, the batch.
struct inputs {
  std::vector<double> general = gaussian(1, n, n);
  std::vector<double> sym = spd(gaussian(2, n, n), n);
  std::vector<double> rhs1 = gaussian(3, n, 1);
  std::vector<double> rhsn = gaussian(4, n, n);
  std::vector<double> stack = spd(gaussian(5, batch* small, small), small);
  std::vector<double> lower = cholesky_factor(sym);
};
const inputs& data() {
  static const inputs d;
  return d;
}

enum class op { cholesky, qr, svd, eigh, slogdet, solve1, solven, trsolven };
constexpr int op_count = 8;

constexpr bool symmetric(op o) { return o == op::cholesky || o == op::eigh; }
constexpr bool many_rhs(op o) { return o == op::solven || o == op::trsolven; }
constexpr std::int64_t rhs_columns(op o) { return many_rhs(o) ? n : 1; }
const std::vector<double>& matrix_of(op o) {
  return o == op::trsolven ? data().lower : symmetric(o) ? data().sym : data().general;
}
const std::vector<double>& rhs_of(op o) { return many_rhs(o) ? data().rhsn : data().rhs1; }

// --- 512 x 512 through ep::linalg ---------------------------------------------------------------

template <class B, op Op>
void facade(benchmark::State& st) {
  const auto a = ep::from_vector<B>(matrix_of(Op), {n, n});
  const auto b = ep::from_vector<B>(rhs_of(Op), {n, rhs_columns(Op)});
  for (auto _ : st) {
    if constexpr (Op == op::cholesky) benchmark::DoNotOptimize(ep::linalg::cholesky(a));
    if constexpr (Op == op::qr) benchmark::DoNotOptimize(ep::linalg::qr(a));
    if constexpr (Op == op::svd)
      benchmark::DoNotOptimize(ep::linalg::svd(a, {.full_matrices = false}));
    if constexpr (Op == op::eigh) benchmark::DoNotOptimize(ep::linalg::eigh(a));
    if constexpr (Op == op::slogdet) benchmark::DoNotOptimize(ep::linalg::slogdet(a));
    if constexpr (Op == op::solve1 || Op == op::solven)
      benchmark::DoNotOptimize(ep::linalg::solve(a, b));
    if constexpr (Op == op::trsolven)
      benchmark::DoNotOptimize(ep::linalg::solve_triangular(a, b, {.lower = true}));
  }
}

// --- the same with Eigen's solvers --------------------------------------------------------------

template <op Op>
void eigen_native(benchmark::State& st) {
  const Eigen::MatrixXd a = Eigen::Map<const rowmajor>(matrix_of(Op).data(), n, n);
  const Eigen::MatrixXd b = Eigen::Map<const rowmajor>(rhs_of(Op).data(), n, rhs_columns(Op));
  for (auto _ : st) {
    if constexpr (Op == op::cholesky) {
      const Eigen::LLT<Eigen::MatrixXd> llt(a);
      benchmark::DoNotOptimize(llt.matrixLLT().data());
    }
    if constexpr (Op == op::qr) {
      const Eigen::HouseholderQR<Eigen::MatrixXd> qr(a);
      const Eigen::MatrixXd q = qr.householderQ() * Eigen::MatrixXd::Identity(n, n);
      const Eigen::MatrixXd r = qr.matrixQR().triangularView<Eigen::Upper>();
      benchmark::DoNotOptimize(q.data());
      benchmark::DoNotOptimize(r.data());
    }
    if constexpr (Op == op::svd) {
      const Eigen::BDCSVD<Eigen::MatrixXd> svd(a, Eigen::ComputeThinU | Eigen::ComputeThinV);
      benchmark::DoNotOptimize(svd.matrixU().data());
    }
    if constexpr (Op == op::eigh) {
      const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(a);
      benchmark::DoNotOptimize(es.eigenvectors().data());
    }
    if constexpr (Op == op::slogdet) {
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
      double sign = lu.permutationP().determinant(), logabs = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const double d = lu.matrixLU()(i, i);
        sign = d < 0 ? -sign : sign;
        logabs += std::log(std::abs(d));
      }
      benchmark::DoNotOptimize(sign);
      benchmark::DoNotOptimize(logabs);
    }
    if constexpr (Op == op::solve1 || Op == op::solven) {
      const Eigen::PartialPivLU<Eigen::MatrixXd> lu(a);
      const Eigen::MatrixXd x = lu.solve(b);
      benchmark::DoNotOptimize(x.data());
    }
    if constexpr (Op == op::trsolven) {
      const Eigen::MatrixXd x = a.triangularView<Eigen::Lower>().solve(b);
      benchmark::DoNotOptimize(x.data());
    }
    benchmark::ClobberMemory();
  }
}

// --- the same with LAPACK -----------------------------------------------------------------------

/// out[j * rows + i] = in[i * cols + j]: a C-order matrix written column-major, in 16 x 16 tiles (a
/// plain loop takes 15 times as long at 512 x 512: each write of a column 4 KiB apart, on one cache
/// set).
void transpose(const double* in, std::int64_t rows, std::int64_t cols, double* out) {
  constexpr std::int64_t tile = 16;
  for (std::int64_t i0 = 0; i0 < rows; i0 += tile)
    for (std::int64_t j0 = 0; j0 < cols; j0 += tile)
      for (std::int64_t j = j0; j < std::min(j0 + tile, cols); ++j)
        for (std::int64_t i = i0; i < std::min(i0 + tile, rows); ++i)
          out[j * rows + i] = in[i * cols + j];
}

template <op Op>
void lapack_native(benchmark::State& st) {
  using namespace cxxlapack;  // xtensor-blas's declarations of LAPACK's Fortran routines
  const std::vector<double>& x = matrix_of(Op);
  const std::vector<double>& rhs = rhs_of(Op);
  const int k = static_cast<int>(rhs_columns(Op));
  std::vector<double> a(n * n), u(n * n), vt(n * n), s(n), tau(n), b(n * k);
  std::vector<int> ipiv(n), iwork(8 * n);
  int info = 0, lwork = -1, liwork = -1;
  double query = 0;
  std::vector<double> work;
  const char up = 'U', vectors = 'V', thin = 'S';
  if constexpr (Op == op::qr) {  // workspaces: one query each, before the timed loop
    double q2 = 0;
    dgeqrf_(&ni, &ni, a.data(), &ni, tau.data(), &query, &lwork, &info);
    dorgqr_(&ni, &ni, &ni, a.data(), &ni, tau.data(), &q2, &lwork, &info);
    query = std::max(query, q2);
  }
  if constexpr (Op == op::svd)
    dgesdd_(&thin, &ni, &ni, a.data(), &ni, s.data(), u.data(), &ni, vt.data(), &ni, &query, &lwork,
            iwork.data(), &info);
  if constexpr (Op == op::eigh) {
    int iquery = 0;
    dsyevd_(&vectors, &up, &ni, a.data(), &ni, s.data(), &query, &lwork, &iquery, &liwork, &info);
    liwork = iquery;
    iwork.resize(static_cast<std::size_t>(liwork));
  }
  lwork = static_cast<int>(query) + 1;
  work.resize(static_cast<std::size_t>(lwork));
  for (auto _ : st) {
    if constexpr (Op == op::cholesky) {  // the upper factor U of xᵀ (column-major) is L in C order
      std::copy_n(x.data(), n * n, a.data());
      dpotrf_(&up, &ni, a.data(), &ni, &info);
    }
    if constexpr (Op == op::qr) {
      transpose(x.data(), n, n, a.data());
      dgeqrf_(&ni, &ni, a.data(), &ni, tau.data(), work.data(), &lwork, &info);
      for (std::int64_t j = 0; j < n; ++j)  // R, column-major, before dorgqr overwrites it
        for (std::int64_t i = 0; i < n; ++i) u[j * n + i] = i <= j ? a[j * n + i] : 0.0;
      dorgqr_(&ni, &ni, &ni, a.data(), &ni, tau.data(), work.data(), &lwork, &info);
    }
    if constexpr (Op == op::svd) {  // xᵀ = U' S V'ᵀ: U' and V'ᵀ column-major are x's Vh and U
      std::copy_n(x.data(), n * n, a.data());
      dgesdd_(&thin, &ni, &ni, a.data(), &ni, s.data(), u.data(), &ni, vt.data(), &ni, work.data(),
              &lwork, iwork.data(), &info);
    }
    if constexpr (Op == op::eigh) {
      std::copy_n(x.data(), n * n, a.data());
      dsyevd_(&vectors, &up, &ni, a.data(), &ni, s.data(), work.data(), &lwork, iwork.data(),
              &liwork, &info);
    }
    if constexpr (Op == op::slogdet) {  // det(xᵀ) = det(x)
      std::copy_n(x.data(), n * n, a.data());
      dgetrf_(&ni, &ni, a.data(), &ni, ipiv.data(), &info);
      double sign = 1, logabs = 0;
      for (std::int64_t i = 0; i < n; ++i) {
        const double d = a[i * n + i];
        sign = (d < 0) != (ipiv[i] != i + 1) ? -sign : sign;
        logabs += std::log(std::abs(d));
      }
      benchmark::DoNotOptimize(sign);
      benchmark::DoNotOptimize(logabs);
    }
    if constexpr (Op == op::solve1 || Op == op::solven) {
      transpose(x.data(), n, n, a.data());
      transpose(rhs.data(), n, k, b.data());
      dgesv_(&ni, &k, a.data(), &ni, ipiv.data(), b.data(), &ni, &info);
    }
    if constexpr (Op == op::trsolven) {
      std::copy_n(rhs.data(), n * k, b.data());
      cblas_dtrsm(CblasRowMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, ni, k, 1.0,
                  x.data(), ni, b.data(), k);
    }
    benchmark::DoNotOptimize(a.data());
    benchmark::DoNotOptimize(info);
    benchmark::ClobberMemory();
  }
}

// --- a batch of small Cholesky factorizations ---------------------------------------------------

template <class B>
void batch_facade(benchmark::State& st, [[maybe_unused]] int threads) {
#if EAGERPP_BENCHMARK_OMP
  omp_set_num_threads(threads);
#endif
  const auto x = ep::from_vector<B>(data().stack, {batch, small, small});
  for (auto _ : st) benchmark::DoNotOptimize(ep::linalg::cholesky(x));
#if EAGERPP_BENCHMARK_OMP
  omp_set_num_threads(1);
#endif
}

/// One LLT object, .compute for each matrix, its L into a C-order output.
void batch_eigen_native(benchmark::State& st) {
  const std::vector<double>& x = data().stack;
  std::vector<double> out(x.size());
  Eigen::LLT<Eigen::MatrixXd> llt(small);
  for (auto _ : st) {
    for (std::int64_t b = 0; b < batch; ++b) {
      llt.compute(Eigen::Map<const rowmajor>(x.data() + b * small * small, small, small));
      Eigen::Map<rowmajor>(out.data() + b * small * small, small, small) = llt.matrixL();
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

/// dpotrf of each matrix: copied into the output, factored, its other triangle zeroed.
void batch_lapack(benchmark::State& st) {
  const std::vector<double>& x = data().stack;
  std::vector<double> out(x.size());
  const char up = 'U';
  const int m = static_cast<int>(small);
  int info = 0;
  for (auto _ : st) {
    for (std::int64_t b = 0; b < batch; ++b) {
      double* l = out.data() + b * small * small;
      std::copy_n(x.data() + b * small * small, small * small, l);
      cxxlapack::dpotrf_(&up, &m, l, &m, &info);
      for (std::int64_t i = 0; i < small; ++i)
        std::fill(l + i * small + i + 1, l + (i + 1) * small, 0.0);
    }
    benchmark::DoNotOptimize(out.data());
    benchmark::ClobberMemory();
  }
}

// --- a Gaussian process's negative log-likelihood -----------------------------------------------

/// 0.5 yᵀ K⁻¹ y + Σ log diag(L), L = cholesky(K), K = σf² exp(-d² / 2ℓ²) + σn² I; `log_params` is
/// (log ℓ, log σf, log σn), `sqdist` the squared distances of the inputs (n, n), y (n, 1).
template <class B>
ep::Tensor<B> gp_nll(const ep::Tensor<B>& log_params, const ep::Tensor<B>& sqdist,
                     const ep::Tensor<B>& y) {
  const auto ell2 = (2 * log_params(0)).exp(), sf2 = (2 * log_params(1)).exp(),
             sn2 = (2 * log_params(2)).exp();
  const auto k = sf2 * (-0.5 * sqdist / ell2).exp() + sn2 * ep::eye<B>(sqdist.shape()[0]);
  const auto l = ep::linalg::cholesky(k);
  const auto alpha = ep::linalg::cho_solve(l, y);
  return 0.5 * (y * alpha).sum() + ep::linalg::diagonal(l).log().sum();
}

/// The GP's data: n random 2-D inputs' squared distances (n, n) and targets y (n, 1).
struct gp_data {
  std::vector<double> sqdist, y;
  gp_data() : sqdist(n * n), y(n) {
    const auto p = gaussian(6, n, 2);
    for (std::int64_t i = 0; i < n; ++i) {
      for (std::int64_t j = 0; j < n; ++j) {
        const double dx = p[2 * i] - p[2 * j], dy = p[2 * i + 1] - p[2 * j + 1];
        sqdist[i * n + j] = dx * dx + dy * dy;
      }
      y[i] = std::sin(2 * p[2 * i]) * std::cos(p[2 * i + 1]) + 0.1 * std::sin(37.0 * i);
    }
  }
};

template <class B>
struct gp_problem {
  gp_data d;
  ep::Tensor<B> sqdist = ep::from_vector<B>(d.sqdist, {n, n});
  ep::Tensor<B> y = ep::from_vector<B>(d.y, {n, 1});
  ep::Tensor<B> log_params = ep::from_vector<B>({std::log(0.8), 0.0, std::log(0.1)}, {3});
};

template <class B>
void gp_forward(benchmark::State& st) {
  const gp_problem<B> g;
  for (auto _ : st) benchmark::DoNotOptimize(gp_nll(g.log_params, g.sqdist, g.y));
}

template <class B>
void gp_value_and_grad(benchmark::State& st) {
  const gp_problem<B> g;
  for (auto _ : st)
    benchmark::DoNotOptimize(ep::value_and_grad(gp_nll<B>, g.log_params, g.sqdist, g.y));
}

// --- registration and the agreement checks ------------------------------------------------------

constexpr const char* op_names[] = {
    "cholesky", "qr",          "svd",           "eigh",
    "slogdet",  "solve_512x1", "solve_512x512", "solve_triangular_512x512"};

std::string bench_name(op o, const std::string& who) {
  const std::string name = op_names[static_cast<int>(o)];
  return (name.starts_with("solve") ? name : name + "_512") + "/" + who;
}

template <op Op>
void register_op() {
  const auto ms = benchmark::kMillisecond;
  benchmark::RegisterBenchmark(bench_name(Op, "eigen").c_str(), facade<E, Op>)->Unit(ms);
  benchmark::RegisterBenchmark(bench_name(Op, "xtensor").c_str(), facade<X, Op>)->Unit(ms);
#if EAGERPP_BENCHMARK_OMP
  benchmark::RegisterBenchmark(bench_name(Op, "omp").c_str(), facade<O, Op>)->Unit(ms);
#endif
  benchmark::RegisterBenchmark(bench_name(Op, "eigen_native").c_str(), eigen_native<Op>)->Unit(ms);
  benchmark::RegisterBenchmark(bench_name(Op, "lapack").c_str(), lapack_native<Op>)->Unit(ms);
}

template <class B>
void register_backend(const std::string& name) {
  benchmark::RegisterBenchmark(("cholesky_batch/" + name).c_str(), batch_facade<B>, 1)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark(("gp_512/" + name + "/forward").c_str(), gp_forward<B>)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("gp_512/" + name + "/value_and_grad").c_str(), gp_value_and_grad<B>)
      ->Unit(benchmark::kMillisecond);
}

/// The largest |a - b| of two C-order arrays.
double max_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double worst = a.size() == b.size() ? 0 : 1e300;
  for (std::size_t i = 0; i < std::min(a.size(), b.size()); ++i)
    worst = std::max(worst, std::abs(a[i] - b[i]));
  return worst;
}

/// Each backend's Cholesky factor, log-determinant and solution against Eigen's, and the GP's
/// gradient against central differences of its value: the timings compare equal work.
template <class B>
bool agrees(const std::string& name) {
  const Eigen::MatrixXd s = Eigen::Map<const rowmajor>(data().sym.data(), n, n);
  const Eigen::MatrixXd g = Eigen::Map<const rowmajor>(data().general.data(), n, n);
  const rowmajor l = Eigen::LLT<Eigen::MatrixXd>(s).matrixL();
  const Eigen::PartialPivLU<Eigen::MatrixXd> lu(g);
  const Eigen::VectorXd x = lu.solve(Eigen::Map<const Eigen::VectorXd>(data().rhs1.data(), n));
  double logabs = 0;
  for (std::int64_t i = 0; i < n; ++i) logabs += std::log(std::abs(lu.matrixLU()(i, i)));
  const auto a = ep::from_vector<B>(data().general, {n, n});
  const double dl =
      max_diff(ep::linalg::cholesky(ep::from_vector<B>(data().sym, {n, n})).to_vector(),
               std::vector<double>(l.data(), l.data() + n * n));
  const double dd = std::abs(ep::linalg::slogdet(a).logabsdet.item() - logabs);
  const double dx = max_diff(ep::linalg::solve(a, ep::from_vector<B>(data().rhs1, {n})).to_vector(),
                             std::vector<double>(x.data(), x.data() + n));
  const Eigen::VectorXd xt = Eigen::Map<const rowmajor>(data().lower.data(), n, n)
                                 .triangularView<Eigen::Lower>()
                                 .solve(Eigen::Map<const Eigen::VectorXd>(data().rhs1.data(), n));
  const double dt =
      max_diff(ep::linalg::solve_triangular(ep::from_vector<B>(data().lower, {n, n}),
                                            ep::from_vector<B>(data().rhs1, {n}), {.lower = true})
                   .to_vector(),
               std::vector<double>(xt.data(), xt.data() + n));
  const gp_problem<B> gp;
  const auto [value, grad] = ep::value_and_grad(gp_nll<B>, gp.log_params, gp.sqdist, gp.y);
  const auto p = gp.log_params.to_vector();
  double dg = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const double h = 1e-5;
    auto plus = p, minus = p;
    plus[i] += h;
    minus[i] -= h;
    const auto at = [&](const std::vector<double>& v) {
      return gp_nll(ep::from_vector<B>(v, {3}), gp.sqdist, gp.y).item();
    };
    const double fd = (at(plus) - at(minus)) / (2 * h);
    dg = std::max(dg, std::abs(grad.to_vector()[i] - fd) / std::max(1.0, std::abs(fd)));
  }
  fmt::print(
      "{:<8} against Eigen: cholesky {:.1e}, log|det| {:.1e}, solve {:.1e}, solve_triangular "
      "{:.1e}; GP gradient against central differences {:.1e} (NLL {:.6g})\n",
      name, dl, dd, dx, dt, dg, value.item());
  return dl < 1e-10 && dd < 1e-8 && dx < 1e-8 && dt < 1e-10 && dg < 1e-5;
}

}  // namespace

int main(int argc, char** argv) {
  ep::bench::use_one_thread();
  std::vector<std::string> backends{"eigen", "xtensor"};
  bool same = agrees<E>("eigen") && agrees<X>("xtensor");
#if EAGERPP_BENCHMARK_OMP
  backends.emplace_back("omp");
  same = same && agrees<O>("omp");
#endif
  if (!same) {
    fmt::print(stderr, "linalg_bench: a backend disagrees with Eigen\n");
    return 1;
  }
  register_op<op::cholesky>();
  register_op<op::qr>();
  register_op<op::svd>();
  register_op<op::eigh>();
  register_op<op::slogdet>();
  register_op<op::solve1>();
  register_op<op::solven>();
  register_op<op::trsolven>();
  register_backend<E>("eigen");
  register_backend<X>("xtensor");
#if EAGERPP_BENCHMARK_OMP
  register_backend<O>("omp");
  benchmark::RegisterBenchmark("cholesky_batch/omp/2_threads", batch_facade<O>, 2)
      ->Unit(benchmark::kMicrosecond);
#endif
  benchmark::RegisterBenchmark("cholesky_batch/eigen_native", batch_eigen_native)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("cholesky_batch/lapack", batch_lapack)
      ->Unit(benchmark::kMicrosecond);

  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);

  // Labels "<measure>: <backend>[ / <baseline>]", one row per measure in docs/benchmarks.md.
  fmt::print("\nRatios (median times of this run, one thread unless stated):\n");
  const char* eigen_solver[] = {
      "LLT",          "HouseholderQR", "BDCSVD",       "SelfAdjointEigenSolver",
      "PartialPivLU", "PartialPivLU",  "PartialPivLU", "triangularView"};
  const char* lapack_routine[] = {"dpotrf", "dgeqrf+dorgqr", "dgesdd", "dsyevd",
                                  "dgetrf", "dgesv",         "dgesv",  "dtrsm"};
  const char* measure[] = {
      "cholesky 512", "qr 512",         "svd 512",          "eigh 512",
      "slogdet 512",  "solve 512, k=1", "solve 512, k=512", "solve_triangular 512, k=512"};
  bool ok = true;
  for (int i = 0; i < op_count; ++i) {
    const op o = static_cast<op>(i);
    for (const auto& b : backends)
      ok &= ep::bench::print_ratio(
          rep,
          fmt::format("{}: {} / {}", measure[i], b,
                      b == "eigen" ? eigen_solver[i]
                                   : std::string(o == op::trsolven ? "BLAS " : "LAPACK ") +
                                         lapack_routine[i]),
          bench_name(o, b), bench_name(o, b == "eigen" ? "eigen_native" : "lapack"), 1.1);
  }
  for (const auto& b : backends)
    ok &= ep::bench::print_ratio(
        rep,
        fmt::format("cholesky 4096 x 8x8: {} / {}", b,
                    b == "eigen" ? "a loop of LLT" : "a loop of dpotrf"),
        "cholesky_batch/" + b,
        b == "eigen" ? "cholesky_batch/eigen_native" : "cholesky_batch/lapack", 1.5);
  // At least 1.6x faster on 2 threads: at most 1 / 1.6 of the time.
  ok &= ep::bench::print_ratio(rep, "cholesky 4096 x 8x8, 2 threads / 1 thread: omp",
                               "cholesky_batch/omp/2_threads", "cholesky_batch/omp", 1 / 1.6);
  for (const auto& b : backends)
    ok &= ep::bench::print_ratio(rep, fmt::format("GP NLL 512, value_and_grad / forward: {}", b),
                                 "gp_512/" + b + "/value_and_grad", "gp_512/" + b + "/forward", 3);
  for (int i = 0; i < op_count; ++i) {
    const op o = static_cast<op>(i);
    const double r = rep.ratio(bench_name(o, "eigen_native"), bench_name(o, "lapack"));
    if (r > 0)
      fmt::print(
          "  {:<58} {:>7.3f}   (for comparison)\n",
          fmt::format("{}: Eigen's {} / LAPACK {}", measure[i], eigen_solver[i], lapack_routine[i]),
          r);
  }
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
