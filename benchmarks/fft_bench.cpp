// eagerpp - ep::fft against the FFT libraries underneath, and complex element-wise ops against the
// backend's own expression. Ratios side by side, in one run.
// SPDX-License-Identifier: MIT
//
// One thread throughout.
//   fft_1M/<backend>         ep::fft::fft of 2^20 complex64 points;
//   fft_1M/eigen_native      Eigen::FFT<float>::fwd on the same points (unscaled, as ep's);
//   fft_1M/kissfft           kissfft<float>::transform (the class ep::xtensor and ep::omp call).
// Target: each backend within 1.1x of its library (eigen of eigen_native, xtensor and omp of
// kissfft).
//   rfftn_512/<backend>      ep::fft::rfftn of a 512 x 512 float32 matrix: (512, 257) complex64;
//   rfftn_512/eigen_native   Eigen::FFT: each row's half spectrum (HalfSpectrum, real input), then
//                            each of the 257 columns gathered, transformed and scattered;
//   rfftn_512/kissfft        kissfft: each row by transform_real (a 256-point complex transform),
//                            then the columns as above.
// Target: within 1.1x of the library.
//   multiply_add_1M/<backend>        z * w + z of 10^6 complex64 elements;
//   multiply_add_1M/<backend>_native the same as the backend's own expression: an Eigen array
//                                    expression, an xtensor expression assigned with noalias.
// Target: within 1.2x.
// Built a second time as fft_fftw_bench with FFTW3 underneath (the CMake option EAGERPP_FFTW, GPL),
// where FFTW is installed: there each backend is measured against FFTW's own calls (fft_1M/fftw: a
// one-dimensional plan; rfftn_512/fftw: FFTW's two-dimensional real-input plan), target 1.1x, and
// against NumPy's pocketfft (python3-numpy, timed by a Python process this binary starts: numpy.fft
// computes in complex128), target 1.5x.
// Each benchmark runs 5 times in random order unless told otherwise (--benchmark_repetitions); the
// ratios are of the medians.
#include <cmath>    // std::sin, std::cos
#include <complex>  // std::complex
#include <cstdint>  // std::int64_t
#include <cstdio>   // popen, fscanf, pclose
#include <string>   // std::string
#include <vector>   // std::vector

#include <benchmark/benchmark.h>
#include <fmt/format.h>
#include <kissfft/kissfft.hh>
#ifdef EAGERPP_FFTW
#include <fftw3.h>
#endif
#include <unsupported/Eigen/FFT>
#include <xtensor/xadapt.hpp>
#include <xtensor/xnoalias.hpp>

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fft.hpp>
#include <eagerpp/xtensor.hpp>
#if EAGERPP_BENCHMARK_OMP
#include <omp.h>  // omp_set_num_threads

#include <eagerpp/omp.hpp>
#endif

#include "cpu_backends.hpp"
#include "ratio_reporter.hpp"

namespace {

using C = ep::complex64;
constexpr std::int64_t points = std::int64_t{1} << 20;
constexpr std::int64_t side = 512, half = side / 2 + 1;
constexpr std::int64_t elements = 1000000;

std::vector<C> signal(std::int64_t n, double a) {
  std::vector<C> v;
  for (std::int64_t k = 0; k < n; ++k)
    v.emplace_back(static_cast<float>(std::sin(a * static_cast<double>(k))),
                   static_cast<float>(std::cos(0.37 * a * static_cast<double>(k % 1000))));
  return v;
}
std::vector<float> image() {
  std::vector<float> v;
  for (std::int64_t k = 0; k < side * side; ++k)
    v.push_back(static_cast<float>(std::sin(0.001 * static_cast<double>(k * (k % 7)))));
  return v;
}

// --- through ep::fft ------------------------------------------------------------------------------

template <class B>
void fft_facade(benchmark::State& st) {
  const auto x = ep::from_vector<typename B::template rebind<C>>(signal(points, 0.01), {points});
  for (auto _ : st) benchmark::DoNotOptimize(ep::fft::fft(x));
}

template <class B>
void rfftn_facade(benchmark::State& st) {
  const auto x = ep::from_vector<typename B::template rebind<float>>(image(), {side, side});
  for (auto _ : st) benchmark::DoNotOptimize(ep::fft::rfftn(x));
}

template <class B>
void multiply_add_facade(benchmark::State& st) {
  using Bc = typename B::template rebind<C>;
  const auto z = ep::from_vector<Bc>(signal(elements, 0.01), {elements});
  const auto w = ep::from_vector<Bc>(signal(elements, 0.02), {elements});
  for (auto _ : st) benchmark::DoNotOptimize((z * w + z).raw());
}

// --- the libraries called directly ----------------------------------------------------------------

void fft_eigen_native(benchmark::State& st) {
  const auto x = signal(points, 0.01);
  std::vector<C> y(x.size());
  Eigen::FFT<float> fft;
  fft.SetFlag(Eigen::FFT<float>::Unscaled);
  for (auto _ : st) {
    fft.fwd(y.data(), x.data(), points);
    benchmark::DoNotOptimize(y.data());
  }
}

void fft_kissfft(benchmark::State& st) {
  const auto x = signal(points, 0.01);
  std::vector<C> y(x.size());
  const kissfft<float> plan(static_cast<std::size_t>(points), false);
  for (auto _ : st) {
    plan.transform(x.data(), y.data());
    benchmark::DoNotOptimize(y.data());
  }
}

/// The columns of the (side, half) row-major spectrum `out`, each gathered, transformed by `line`
/// and scattered back.
template <class Line>
void transform_columns(std::vector<C>& out, std::vector<C>& column, std::vector<C>& result,
                       const Line& line) {
  for (std::int64_t j = 0; j < half; ++j) {
    for (std::int64_t i = 0; i < side; ++i)
      column[static_cast<std::size_t>(i)] = out[static_cast<std::size_t>(i * half + j)];
    line(column.data(), result.data());
    for (std::int64_t i = 0; i < side; ++i)
      out[static_cast<std::size_t>(i * half + j)] = result[static_cast<std::size_t>(i)];
  }
}

void rfftn_eigen_native(benchmark::State& st) {
  const auto x = image();
  std::vector<C> out(static_cast<std::size_t>(side * half)), column(side), result(side);
  Eigen::FFT<float> rows, columns;
  rows.SetFlag(Eigen::FFT<float>::HalfSpectrum);
  rows.SetFlag(Eigen::FFT<float>::Unscaled);
  columns.SetFlag(Eigen::FFT<float>::Unscaled);
  for (auto _ : st) {
    for (std::int64_t i = 0; i < side; ++i)
      rows.fwd(out.data() + i * half, x.data() + i * side, side);
    transform_columns(out, column, result, [&](const C* in, C* o) { columns.fwd(o, in, side); });
    benchmark::DoNotOptimize(out.data());
  }
}

void rfftn_kissfft(benchmark::State& st) {
  const auto x = image();
  std::vector<C> out(static_cast<std::size_t>(side * half)), column(side), result(side),
      row(side / 2 + 1);
  const kissfft<float> rows(static_cast<std::size_t>(side / 2), false);
  const kissfft<float> columns(static_cast<std::size_t>(side), false);
  for (auto _ : st) {
    for (std::int64_t i = 0; i < side; ++i) {
      // transform_real writes N/2 points, the Nyquist point packed into the first one's imaginary
      // part: unpacked into the row's last point.
      C* o = out.data() + i * half;
      rows.transform_real(x.data() + i * side, o);
      o[side / 2] = C(o[0].imag(), 0);
      o[0] = C(o[0].real(), 0);
    }
    transform_columns(out, column, result, [&](const C* in, C* o) { columns.transform(in, o); });
    benchmark::DoNotOptimize(out.data());
  }
}

#ifdef EAGERPP_FFTW
void fft_fftw(benchmark::State& st) {
  auto x = signal(points, 0.01);
  std::vector<C> y(x.size());
  const fftwf_plan plan =
      fftwf_plan_dft_1d(static_cast<int>(points), reinterpret_cast<fftwf_complex*>(x.data()),
                        reinterpret_cast<fftwf_complex*>(y.data()), FFTW_FORWARD, FFTW_ESTIMATE);
  for (auto _ : st) {
    fftwf_execute(plan);
    benchmark::DoNotOptimize(y.data());
  }
  fftwf_destroy_plan(plan);
}

void rfftn_fftw(benchmark::State& st) {
  auto x = image();
  std::vector<C> out(static_cast<std::size_t>(side * half));
  const fftwf_plan plan =
      fftwf_plan_dft_r2c_2d(static_cast<int>(side), static_cast<int>(side), x.data(),
                            reinterpret_cast<fftwf_complex*>(out.data()), FFTW_ESTIMATE);
  for (auto _ : st) {
    fftwf_execute(plan);
    benchmark::DoNotOptimize(out.data());
  }
  fftwf_destroy_plan(plan);
}

/// NumPy's time in milliseconds of `call` (its best of 7 runs of 5 calls) on the inputs of the
/// benchmarks above, from a Python process; 0 where none runs.
double numpy_ms(const std::string& call) {
  const std::string script =
      "import numpy as np, timeit; k = np.arange(" + std::to_string(points) +
      "); x = (np.sin(0.01 * k) + 1j * np.cos(0.0037 * (k % 1000))).astype(np.complex64); "
      "j = np.arange(" +
      std::to_string(side * side) + "); r = np.sin(0.001 * (j * (j % 7))).astype(np.float32)." +
      "reshape(" + std::to_string(side) + ", " + std::to_string(side) +
      "); print(min(timeit.repeat(lambda: " + call + ", number=5, repeat=7)) / 5 * 1e3)";
  FILE* p = popen(("/usr/bin/python3 -c \"" + script + "\" 2>/dev/null").c_str(), "r");
  if (p == nullptr) return 0;
  double ms = 0;
  if (std::fscanf(p, "%lf", &ms) != 1) ms = 0;
  pclose(p);
  return ms;
}
#endif

void multiply_add_eigen_native(benchmark::State& st) {
  const auto zv = signal(elements, 0.01), wv = signal(elements, 0.02);
  const Eigen::ArrayXcf z = Eigen::Map<const Eigen::ArrayXcf>(zv.data(), elements);
  const Eigen::ArrayXcf w = Eigen::Map<const Eigen::ArrayXcf>(wv.data(), elements);
  for (auto _ : st) {
    Eigen::ArrayXcf y = z * w + z;
    benchmark::DoNotOptimize(y.data());
  }
}

void multiply_add_xtensor_native(benchmark::State& st) {
  const auto zv = signal(elements, 0.01), wv = signal(elements, 0.02);
  const auto z = xt::adapt(zv, {static_cast<std::size_t>(elements)});
  const auto w = xt::adapt(wv, {static_cast<std::size_t>(elements)});
  for (auto _ : st) {
    xt::xtensor<C, 1> y = xt::xtensor<C, 1>::from_shape({static_cast<std::size_t>(elements)});
    xt::noalias(y) = z * w + z;
    benchmark::DoNotOptimize(y.data());
  }
}

/// Whether ep::fft's results on backend B agree with Eigen::FFT's (a run that measured a wrong
/// answer would measure nothing).
template <class B>
bool agrees(const char* name) {
  const auto x = signal(4096, 0.01);
  std::vector<C> y(x.size());
  Eigen::FFT<float> fft;
  fft.SetFlag(Eigen::FFT<float>::Unscaled);
  fft.fwd(y.data(), x.data(), 4096);
  const auto got =
      ep::fft::fft(ep::from_vector<typename B::template rebind<C>>(x, {4096})).to_vector();
  for (std::size_t i = 0; i < y.size(); ++i)
    if (std::abs(got[i] - y[i]) > 1e-2F) {
      fmt::print(stderr, "fft_bench: {} differs from Eigen::FFT at {}\n", name, i);
      return false;
    }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  ep::bench::use_one_thread();
  using E = ep::eigen<float>;
  using X = ep::xtensor<float>;
  std::vector<std::string> backends{"eigen", "xtensor"};
  bool same = agrees<E>("eigen") && agrees<X>("xtensor");
#if EAGERPP_BENCHMARK_OMP
  using O = ep::omp<float>;
  backends.emplace_back("omp");
  same = same && agrees<O>("omp");
#endif
  if (!same) return 1;
  const auto ms = benchmark::kMillisecond;
  const auto us = benchmark::kMicrosecond;
  benchmark::RegisterBenchmark("fft_1M/eigen", fft_facade<E>)->Unit(ms);
  benchmark::RegisterBenchmark("fft_1M/xtensor", fft_facade<X>)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/eigen", rfftn_facade<E>)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/xtensor", rfftn_facade<X>)->Unit(ms);
  benchmark::RegisterBenchmark("multiply_add_1M/eigen", multiply_add_facade<E>)->Unit(us);
  benchmark::RegisterBenchmark("multiply_add_1M/xtensor", multiply_add_facade<X>)->Unit(us);
#if EAGERPP_BENCHMARK_OMP
  benchmark::RegisterBenchmark("fft_1M/omp", fft_facade<O>)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/omp", rfftn_facade<O>)->Unit(ms);
#endif
#ifdef EAGERPP_FFTW
  benchmark::RegisterBenchmark("fft_1M/fftw", fft_fftw)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/fftw", rfftn_fftw)->Unit(ms);
#endif
  benchmark::RegisterBenchmark("fft_1M/eigen_native", fft_eigen_native)->Unit(ms);
  benchmark::RegisterBenchmark("fft_1M/kissfft", fft_kissfft)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/eigen_native", rfftn_eigen_native)->Unit(ms);
  benchmark::RegisterBenchmark("rfftn_512/kissfft", rfftn_kissfft)->Unit(ms);
  benchmark::RegisterBenchmark("multiply_add_1M/eigen_native", multiply_add_eigen_native)->Unit(us);
  benchmark::RegisterBenchmark("multiply_add_1M/xtensor_native", multiply_add_xtensor_native)
      ->Unit(us);

  ep::bench::ratio_reporter rep;
  ep::bench::run_repeated(argc, argv, rep);

  fmt::print("\nRatios (median times of this run, one thread):\n");
  bool ok = true;
  for (const auto& b : backends) {
#ifdef EAGERPP_FFTW
    const std::string lib = "fftw", lib_name = "FFTW";
#else
    const std::string lib = b == "eigen" ? "eigen_native" : "kissfft";
    const std::string lib_name = b == "eigen" ? "Eigen::FFT" : "kissfft";
#endif
    ok &= ep::bench::print_ratio(rep, fmt::format("fft 2^20 complex64: {} / {}", b, lib_name),
                                 "fft_1M/" + b, "fft_1M/" + lib, 1.1);
    ok &= ep::bench::print_ratio(rep, fmt::format("rfftn 512x512 float32: {} / {}", b, lib_name),
                                 "rfftn_512/" + b, "rfftn_512/" + lib, 1.1);
  }
  for (const std::string b : {"eigen", "xtensor"})
    ok &= ep::bench::print_ratio(
        rep, fmt::format("z * w + z, 10^6 complex64: {} / its own expression", b),
        "multiply_add_1M/" + b, "multiply_add_1M/" + b + "_native", 1.2);
#ifdef EAGERPP_FFTW
  // NumPy's pocketfft, timed now, against each backend's median.
  const double fft_numpy = numpy_ms("np.fft.fft(x)"), rfftn_numpy = numpy_ms("np.fft.rfftn(r)");
  if (fft_numpy > 0 && rfftn_numpy > 0) {
    for (const auto& b : backends) {
      ok &= ep::bench::print_ratio_to(rep, fmt::format("fft 2^20 complex64: {} / NumPy", b),
                                      "fft_1M/" + b, fft_numpy, 1.5);
      ok &= ep::bench::print_ratio_to(rep, fmt::format("rfftn 512x512 float32: {} / NumPy", b),
                                      "rfftn_512/" + b, rfftn_numpy, 1.5);
    }
  } else {
    fmt::print("NumPy (python3-numpy) did not run: no ratios to NumPy\n");
  }
#endif
  fmt::print("{}\n", ok ? "all targets met" : "some targets missed");
  benchmark::Shutdown();
  return 0;
}
