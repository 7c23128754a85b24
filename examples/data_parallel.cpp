// eagerpp - data-parallel training over MPI: each rank computes gradients on its shard of every
// batch
// SPDX-License-Identifier: MIT
//
// Run it on several processes: `mpirun -np 2 ./data_parallel` (ctest does, as
// example_data_parallel).
//
// A two-layer MLP (4 inputs, 16 tanh units, 3 classes, softmax cross-entropy) trained by SGD on 360
// synthetic points (a fixed seed: every rank generates the same data) labelled by a random linear
// teacher. Rank 0 draws the initial parameters and broadcasts them (one message for the whole
// tree of parameters). Every step takes the next batch of 45 points; each rank takes its rows of
// the batch (split as np.array_split does: with 2 ranks 23 and 22, so the shards are uneven),
// computes value_and_grad of its shard's mean loss, and all_reduce(mean) of the gradients' tree
// (one message) averages them, each weighted by its shard's share of the batch so that the average
// equals the full batch's gradient; ep::optim::sgd steps the parameters. Then every rank also trains alone on the full
// batches from the same start, and the program fails (on every rank) unless the two sets of weights
// agree to 1e-5 in float64, on Eigen, on xtensor and on omp (where eagerpp::omp is built).
#include <algorithm>  // std::max
#include <chrono>     // std::chrono::steady_clock
#include <cmath>      // std::abs
#include <cstdint>    // std::int64_t
#include <cstdio>     // std::printf
#include <cstdlib>    // EXIT_SUCCESS, EXIT_FAILURE
#include <tuple>      // std::tuple, std::get
#include <vector>     // std::vector

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/mpi.hpp>
#include <eagerpp/optim.hpp>
#include <eagerpp/random.hpp>
#include <eagerpp/tree.hpp>
#include <eagerpp/xtensor.hpp>
#if __has_include( \
    <eagerpp/omp.hpp>)  // eagerpp::omp: built where Thrust, OpenMP and OpenBLAS are found
#include <eagerpp/omp.hpp>
#define EAGERPP_DATA_PARALLEL_OMP 1
#endif

namespace {

constexpr std::int64_t n_points = 360, n_in = 4, n_hidden = 16, n_classes = 3;
constexpr std::int64_t batch = 45;
constexpr int steps = 40;  // 5 passes over the 8 batches
constexpr double learning_rate = 0.5;

template <class B>
using params =
    std::tuple<ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>, ep::Tensor<B>>;  // W1, b1, W2, b2

template <class B>
using labels = ep::Tensor<typename B::template rebind<std::int64_t>>;

/// The mean cross-entropy of the MLP on (x, y).
template <class B>
ep::Tensor<B> loss(const params<B>& p, const ep::Tensor<B>& x, const labels<B>& y) {
  const auto& [w1, b1, w2, b2] = p;
  const ep::Tensor<B> h = (x.matmul(w1) + b1).tanh();
  return (h.matmul(w2) + b2).crossentropy(y).mean();
}

/// Points uniform in [-1, 1)^4 and their labels: the argmax of a random linear teacher.
template <class B>
std::pair<ep::Tensor<B>, labels<B>> make_data() {
  ep::generator gen(20251125);
  const auto x = ep::uniform<B>(gen, {n_points, n_in}, -1.0, 1.0);
  const auto teacher = ep::normal<B>(gen, {n_in, n_classes});
  return {x, x.matmul(teacher).argmax(1)};
}

/// The rows [start, stop) of the batch that `rank` of `size` takes: np.array_split's split.
std::pair<std::int64_t, std::int64_t> shard(std::int64_t n, int rank, int size) {
  const std::int64_t base = n / size, extra = n % size;
  const std::int64_t start = rank * base + std::min<std::int64_t>(rank, extra);
  return {start, start + base + (rank < extra ? 1 : 0)};
}

/// Every parameter's elements, one after the other.
std::vector<double> flatten(const auto& p) {
  std::vector<double> out;
  for (const auto& t : ep::tree_leaves(p)) {
    const auto v = t.to_vector();
    out.insert(out.end(), v.begin(), v.end());
  }
  return out;
}

struct outcome {
  double difference;  // the largest weight difference between data-parallel and single-process
                      // training
  bool learned;       // the loss of the last pass over the data is below that of the first
};

/// Trains data-parallel and alone on backend B.
template <class B>
outcome run(const ep::mpi::communicator& comm, const char* name) {
  const auto [x, y] = make_data<B>();

  // Rank 0 draws the initial parameters (the other ranks start from anything of the same shapes,
  // here zeros) and broadcasts them: every rank then holds rank 0's.
  params<B> p0{ep::zeros<B>({n_in, n_hidden}), ep::zeros<B>({n_hidden}),
               ep::zeros<B>({n_hidden, n_classes}), ep::zeros<B>({n_classes})};
  if (comm.rank() == 0) {
    ep::generator gen(7);
    p0 = {ep::normal<B>(gen, {n_in, n_hidden}, 0, 0.5), ep::zeros<B>({n_hidden}),
          ep::normal<B>(gen, {n_hidden, n_classes}, 0, 0.5), ep::zeros<B>({n_classes})};
  }
  p0 = comm.broadcast(p0, 0);

  const auto loss_and_grad = ep::value_and_grad_fn(loss<B>);
  params<B> parallel = p0, alone = p0;
  ep::optim::sgd<params<B>> sgd_parallel(p0, learning_rate), sgd_alone(p0, learning_rate);
  double first_pass = 0, last_pass = 0;  // the mean loss over the 8 batches of a pass
  using clock = std::chrono::steady_clock;
  clock::duration step_time{},
      reduce_time{};  // the data-parallel steps, and their all_reduce alone
  for (int step = 0; step < steps; ++step) {
    const std::int64_t first = (step * batch) % n_points;
    const auto xb = x(ep::slice(first, first + batch));
    const auto yb = y(ep::slice(first, first + batch));

    // Data-parallel: this rank's rows, its gradient, and the weighted mean over the ranks:
    // mean_r(g_r * n_r * size / batch) = sum_r n_r g_r / batch, the full batch's gradient.
    const auto t0 = clock::now();
    const auto [start, stop] = shard(batch, comm.rank(), comm.size());
    const auto [l, g] =
        loss_and_grad(parallel, xb(ep::slice(start, stop)), yb(ep::slice(start, stop)));
    const double weight =
        static_cast<double>((stop - start) * comm.size()) / static_cast<double>(batch);
    const auto t1 = clock::now();
    const params<B> weighted = ep::tree_map([&](const auto& t) { return t * weight; }, g);
    const params<B> averaged = comm.all_reduce(weighted, ep::mpi::op::mean);
    const auto t2 = clock::now();
    parallel = sgd_parallel.step(parallel, averaged);
    step_time += clock::now() - t0;
    reduce_time += t2 - t1;
    const double batch_loss = comm.all_reduce(l * weight, ep::mpi::op::mean).item();
    if (step < n_points / batch) first_pass += batch_loss / (n_points / batch);
    if (step >= steps - n_points / batch) last_pass += batch_loss / (n_points / batch);

    // Alone, on the whole batch: the reference.
    alone = sgd_alone.step(alone, std::get<1>(loss_and_grad(alone, xb, yb)));
  }

  const auto a = flatten(parallel), b = flatten(alone);
  double diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) diff = std::max(diff, std::abs(a[i] - b[i]));
  const auto us = [](clock::duration d) {
    return std::chrono::duration<double, std::micro>(d).count() / steps;
  };
  if (comm.rank() == 0) {
    std::printf(
        "%s: %d ranks, %d steps, mean loss of the first pass %.6f, of the last %.6f; largest "
        "weight "
        "difference from single-process training: %.3g\n",
        name, comm.size(), steps, first_pass, last_pass, diff);
    std::printf(
        "  one data-parallel step: %.1f us on rank 0, of which %.1f us in the gradients' "
        "all_reduce\n",
        us(step_time), us(reduce_time));
  }
  return {diff, last_pass < first_pass};
}

}  // namespace

int main(int argc, char** argv) {
  const ep::mpi::environment env(argc, argv);
  const ep::mpi::communicator comm;
  std::vector<outcome> outcomes{run<ep::eigen<double>>(comm, "eigen<double>"),
                                run<ep::xtensor<double>>(comm, "xtensor<double>")};
#if defined(EAGERPP_DATA_PARALLEL_OMP)
  outcomes.push_back(run<ep::omp<double>>(comm, "omp<double>"));
#endif
  double mine = 0;
  bool learned = true;
  for (const outcome& o : outcomes) {
    mine = std::max(mine, o.difference);
    learned = learned && o.learned;
  }
  // Every rank's verdict: fail everywhere if any rank disagrees.
  const double worst =
      comm.all_reduce(ep::from_vector<ep::eigen<double>>({mine}, {1}), ep::mpi::op::max).item();
  const bool agree = worst <= 1e-5;
  if (comm.rank() == 0) {
    std::printf("the loss decreased on every backend (%zu): %s\n", outcomes.size(),
                learned ? "yes" : "NO");
    std::printf("largest difference on any rank: %.3g (%s 1e-5)\n", worst,
                agree ? "<=" : "EXCEEDS");
  }
  return agree && learned ? EXIT_SUCCESS : EXIT_FAILURE;
}
