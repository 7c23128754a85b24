// eagerpp - ep::mpi::communicator::all_reduce against a raw MPI_Allreduce of the same buffer
// SPDX-License-Identifier: MIT
//
// Run on 2 processes from a Release build:
//   mpirun -np 2 build/bench/benchmarks/mpi_bench [repetitions]
// For each size (1e7 floats, the target; and 131 doubles, the gradients of
// examples/data_parallel.cpp, which measures the latency), alternates the two, each timed between
// barriers with MPI_Wtime on rank 0, and prints the medians, their ratio (target for 1e7 floats:
// at most 1.05), the spread (min and max) and the bus bandwidth of the large reduction in the NCCL
// tests' convention: 2 (p - 1) / p * bytes / time. Timing with Google Benchmark would time each
// rank alone; here every repetition is one collective of all ranks. The median of the
// per-repetition ratios is the robust figure on a busy machine, where one slow repetition moves a
// median by more than the difference measured.
#include <algorithm>  // std::sort, std::min_element, std::max_element
#include <cstdio>     // std::printf
#include <cstdlib>    // std::atoi, EXIT_SUCCESS
#include <memory>     // std::shared_ptr
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/mpi.hpp>
#include <eagerpp/xtensor.hpp>

namespace {

struct stats {
  double median, min, max;
};
stats summarize(std::vector<double> t) {
  std::sort(t.begin(), t.end());
  return {t[t.size() / 2], t.front(), t.back()};
}

/// Times `f` between barriers, as every rank finishing it (rank 0's clock).
template <class F>
double timed(const ep::mpi::communicator& comm, F&& f) {
  comm.barrier();
  const double start = MPI_Wtime();
  f();
  comm.barrier();
  return MPI_Wtime() - start;
}

template <class B>
void compare(const ep::mpi::communicator& comm, std::int64_t n, int repetitions, const char* name) {
  using T = typename B::value_type;
  const auto x = ep::full<B>({n}, static_cast<T>(comm.rank() + 1));
  const std::shared_ptr<T> in = B::share_host(x.raw());  // the tensor's own elements
  std::vector<T> out(static_cast<std::size_t>(n));       // raw MPI writes here, allocated once
  std::vector<double> raw, facade, pair;  // pair: each repetition's all_reduce / its MPI_Allreduce
  double checksum = 0;
  for (int rep = -2; rep < repetitions;
       ++rep) {  // two warm-up rounds (first touch, the buffer cache)
    const double t_raw = timed(comm, [&] {
      MPI_Allreduce(in.get(), out.data(), static_cast<int>(n), ep::mpi::detail::datatype<T>(),
                    MPI_SUM, comm.native());
    });
    ep::Tensor<B> y = x;
    const double t_facade = timed(comm, [&] { y = comm.all_reduce(x); });
    checksum += static_cast<double>(y.raw().data()[n - 1]) -
                static_cast<double>(out.back());  // 0: same sums
    if (rep >= 0) {
      raw.push_back(t_raw);
      facade.push_back(t_facade);
      pair.push_back(t_facade / t_raw);
    }
  }
  const stats r = summarize(raw), f = summarize(facade), q = summarize(pair);
  const double bytes = static_cast<double>(n) * sizeof(T), p = comm.size();
  if (comm.rank() == 0) {
    std::printf(
        "%s, n = %lld: MPI_Allreduce %.1f us (min %.1f, max %.1f), all_reduce %.1f us (min %.1f, "
        "max %.1f)\n"
        "  ratio of the medians %.3f; median of the paired ratios %.3f (min %.3f, max %.3f); bus "
        "bandwidth "
        "%.3f GB/s; checksum %g (0: equal sums)\n",
        name, static_cast<long long>(n), r.median * 1e6, r.min * 1e6, r.max * 1e6, f.median * 1e6,
        f.min * 1e6, f.max * 1e6, f.median / r.median, q.median, q.min, q.max,
        2 * (p - 1) / p * bytes / r.median * 1e-9, checksum);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const ep::mpi::environment env(argc, argv);
  const ep::mpi::communicator comm;
  const int repetitions = argc > 1 ? std::atoi(argv[1]) : 21;
  if (comm.rank() == 0)
    std::printf(
        "%d ranks, %d repetitions, medians; ratio = all_reduce / MPI_Allreduce (target <= 1.05 at "
        "n = 1e7)\n",
        comm.size(), repetitions);
  compare<ep::eigen<float>>(comm, 10'000'000, repetitions, "eigen<float>");
  compare<ep::xtensor<float>>(comm, 10'000'000, repetitions, "xtensor<float>");
  compare<ep::eigen<double>>(comm, 131, repetitions * 10, "eigen<double>");
  return EXIT_SUCCESS;
}
