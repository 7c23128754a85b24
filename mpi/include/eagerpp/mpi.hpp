// eagerpp - data-parallel collectives over MPI: ep::mpi::environment and ep::mpi::communicator
// SPDX-License-Identifier: MIT
//
// Target eagerpp::mpi (built when CMake's find_package(MPI) finds MPI; nothing else depends on it).
// Collectives take and return ep::Tensor<B> of any backend:
//   - host backends (Eigen, xtensor: the optional hooks share_host / from_host_shared) hand MPI
//   their
//     C-order buffer and receive into a fresh buffer from eagerpp's cache that the result adopts:
//     no copy;
//   - a device backend (CUDA) hands MPI its device pointer when the MPI library is CUDA-aware
//     (MPIX_Query_cuda_support(), Open MPI's extension), and otherwise stages through host memory
//     (to_data / from_data); ep::mpi::cuda_aware() says which.
// Every collective first gathers each rank's dtype and shape (one small MPI_Allgather), so tensors
// that differ across ranks throw the same ep::value_error on every rank instead of hanging or
// corrupting memory. MPI failures throw ep::mpi::mpi_error naming the call and the rank.
#pragma once

#include <mpi.h>
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_CUDA_AWARE_SUPPORT, MPIX_Query_cuda_support (Open MPI)
#endif
#if defined(MPIX_CUDA_AWARE_SUPPORT) && MPIX_CUDA_AWARE_SUPPORT && __has_include(<cuda_runtime_api.h>)
#include <cuda_runtime_api.h>  // cudaStreamSynchronize
#define EAGERPP_MPI_CUDA_AWARE 1
#else
#define EAGERPP_MPI_CUDA_AWARE 0
#endif

#include <fmt/format.h>

#include <algorithm>    // std::copy_n, std::min
#include <array>        // std::array
#include <climits>      // INT_MAX
#include <concepts>     // std::same_as, std::constructible_from
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t
#include <functional>   // std::hash
#include <memory>       // std::shared_ptr, std::unique_ptr
#include <stdexcept>    // std::runtime_error
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple, std::tuple_element_t, std::tuple_size_v
#include <type_traits>  // std::is_same_v, std::is_signed_v
#include <utility>      // std::move, std::index_sequence
#include <vector>       // std::vector

#include "eagerpp/backend.hpp"
#include "eagerpp/backend_hooks.hpp"  // detail::host_sharing_backend
#include "eagerpp/error.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"
#include "eagerpp/tensor.hpp"
#include "eagerpp/tree.hpp"

namespace ep::mpi {

/// A failed MPI call: the message names the eagerpp op, the MPI call, the rank and MPI's own text.
class mpi_error : public std::runtime_error, public ep::error {
 public:
  explicit mpi_error(const std::string& msg) : std::runtime_error(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return std::runtime_error::what(); }
};

/// How all_reduce combines the ranks' tensors, element by element. `mean` is the sum divided by the
/// number of ranks (floating dtypes only); on bool tensors `min` is logical and, `max` logical or.
enum class op { sum, mean, min, max };

/// How all_gather joins the ranks' tensors: `stack` along a new first axis (every rank the same
/// shape: the result is (size, ...)), `concatenate` along the existing first axis (first extents
/// may differ: the inverse of scatter).
enum class gather { stack, concatenate };

/// Whether the MPI library takes CUDA device pointers (Open MPI built with CUDA, checked at compile
/// and at run time); when false, device tensors go through host memory.
inline bool cuda_aware() {
#if EAGERPP_MPI_CUDA_AWARE
  return MPIX_Query_cuda_support() == 1;
#else
  return false;
#endif
}

/// RAII initialization of MPI: MPI_Init in the constructor (unless MPI is already initialized),
/// MPI_Finalize in the destructor (only if this object initialized it). Create one at the top of
/// main, before any communicator; mpi4py and Boost.MPI's `environment` do the same.
class environment {
 public:
  environment() : environment(nullptr, nullptr) {}
  environment(int& argc, char**& argv) : environment(&argc, &argv) {}
  environment(const environment&) = delete;
  environment& operator=(const environment&) = delete;
  ~environment() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (owns_ && finalized == 0) MPI_Finalize();
  }

 private:
  environment(int* argc, char*** argv) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized != 0) return;
    if (const int rc = MPI_Init(argc, argv); rc != MPI_SUCCESS)
      throw mpi_error(fmt::format("environment: MPI_Init failed (error code {})", rc));
    owns_ = true;
  }
  bool owns_ = false;
};

namespace detail {

template <class T>
MPI_Datatype datatype() noexcept {
  if constexpr (std::is_same_v<T, bool>)
    return MPI_CXX_BOOL;
  else if constexpr (std::is_same_v<T, float>)
    return MPI_FLOAT;
  else if constexpr (std::is_same_v<T, double>)
    return MPI_DOUBLE;
  else if constexpr (std::is_signed_v<T>)
    return sizeof(T) == 1   ? MPI_INT8_T
           : sizeof(T) == 2 ? MPI_INT16_T
           : sizeof(T) == 4 ? MPI_INT32_T
                            : MPI_INT64_T;
  else
    return sizeof(T) == 1   ? MPI_UINT8_T
           : sizeof(T) == 2 ? MPI_UINT16_T
           : sizeof(T) == 4 ? MPI_UINT32_T
                            : MPI_UINT64_T;
}

/// ep::dtype's eleven types in one order: a dtype travels in the shape check as its index here.
using dtype_list =
    std::tuple<float, double, std::int32_t, std::int64_t, bool, std::int8_t, std::int16_t,
               std::uint8_t, std::uint16_t, std::uint32_t, std::uint64_t>;

template <class T>
constexpr std::int64_t dtype_code() noexcept {
  return []<std::size_t... I>(std::index_sequence<I...>) {
    std::int64_t code = 0;
    ((std::is_same_v<T, std::tuple_element_t<I, dtype_list>> ? code = I : 0), ...);
    return code;
  }
  (std::make_index_sequence<std::tuple_size_v<dtype_list>>{});
}
inline std::string_view dtype_name_of(std::int64_t code) noexcept {
  constexpr auto names = []<std::size_t... I>(std::index_sequence<I...>) {
    return std::array<std::string_view, sizeof...(I)>{
        dtype_name<std::tuple_element_t<I, dtype_list>>()...};
  }
  (std::make_index_sequence<std::tuple_size_v<dtype_list>>{});
  return code >= 0 && code < static_cast<std::int64_t>(names.size())
             ? names[static_cast<std::size_t>(code)]
             : "unknown";
}

/// A host backend: hands out its C-order elements and adopts a buffer, both without copying.
template <class B>
concept host_shared = ep::detail::host_sharing_backend<B>;

/// A device backend whose raw tensor exposes its device pointer and stream (ep::cuda_array) and can
/// be created uninitialized for a shape.
template <class B>
concept device_pointer =
    std::constructible_from<typename B::raw_type, const Shape&, std::string_view> &&
    requires(const typename B::raw_type& r) {
  { r.data() } -> std::same_as<const typename B::value_type*>;
  { r.mutable_data() } -> std::same_as<typename B::value_type*>;
  r.stream();
};

/// Each rank's dtype and shape, gathered by one MPI_Allgather of 2 + max_rank int64 per rank.
struct signature {
  std::int64_t dtype = 0;
  Shape shape;
};

}  // namespace detail

/// A group of processes that run collectives together: MPI_COMM_WORLD or a communicator of yours.
/// Cheap to copy (it holds the handle, not a duplicate); sets MPI_ERRORS_RETURN on the handle so
/// that failures become exceptions. The collectives are called by every rank of the group, in the
/// same order, as MPI requires. Results are new constant tensors (not recorded on the autodiff
/// tape): reduce gradients after value_and_grad, as Horovod and DistributedDataParallel do.
class communicator {
 public:
  /// MPI_COMM_WORLD. Requires MPI to be initialized (ep::mpi::environment).
  communicator() : communicator(MPI_COMM_WORLD) {}
  /// Wraps `comm` (not owned; it must outlive this object's use).
  explicit communicator(MPI_Comm comm) : comm_(comm) {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized == 0)
      throw mpi_error(
          "communicator: MPI is not initialized; expected an ep::mpi::environment to be alive");
    // Errors before comm's own rank is known name the rank in MPI_COMM_WORLD, always valid here.
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    check(MPI_Comm_set_errhandler(comm_, MPI_ERRORS_RETURN), "communicator",
          "MPI_Comm_set_errhandler");
    check(MPI_Comm_rank(comm_, &rank_), "communicator", "MPI_Comm_rank");
    check(MPI_Comm_size(comm_, &size_), "communicator", "MPI_Comm_size");
  }

  /// This process's index in the group, 0 <= rank() < size().
  [[nodiscard]] int rank() const noexcept { return rank_; }
  /// The number of processes in the group.
  [[nodiscard]] int size() const noexcept { return size_; }
  /// The MPI handle, for calls of your own.
  [[nodiscard]] MPI_Comm native() const noexcept { return comm_; }

  /// Waits until every rank has called it (MPI_Barrier).
  void barrier() const { check(MPI_Barrier(comm_), "barrier", "MPI_Barrier"); }

  /// The element-wise sum, mean, min or max of `t` over all ranks, on every rank
  /// (MPI_Allreduce; torch.distributed.all_reduce). Throws ep::value_error on every rank when the
  /// ranks' dtypes or shapes differ, or for a mean of an integer or bool tensor and a sum of a
  /// bool tensor; ep::mpi::mpi_error when MPI fails.
  template <backend B>
  [[nodiscard]] Tensor<B> all_reduce(const Tensor<B>& t, op how = op::sum) const {
    using T = typename B::value_type;
    const auto all = signatures("all_reduce", t);
    require_same_shape("all_reduce", all);
    MPI_Op mop = MPI_SUM;
    if constexpr (std::is_same_v<T, bool>) {
      if (how == op::sum || how == op::mean)
        throw value_error(
            fmt::format("all_reduce: {} of a bool tensor of shape {}; expected op::min (logical "
                        "and) or op::max (logical or), or convert with astype first",
                        how == op::sum ? "sum" : "mean", t.shape().str()));
      mop = how == op::min ? MPI_LAND : MPI_LOR;
    } else {
      if (how == op::mean && !floating_dtype<T>)
        throw value_error(
            fmt::format("all_reduce: mean of an {} tensor of shape {}; expected float32 or float64 "
                        "(convert with astype first)",
                        dtype_name<T>(), t.shape().str()));
      mop = how == op::min ? MPI_MIN : how == op::max ? MPI_MAX : MPI_SUM;
    }
    Tensor<B> out = transfer<B>(t, t.shape(), [&](const T* in, T* result) {
      for_chunks(t.size(), [&](std::int64_t start, int count) {
        check(MPI_Allreduce(in + start, result + start, count, detail::datatype<T>(), mop, comm_),
              "all_reduce", "MPI_Allreduce");
      });
      if constexpr (floating_dtype<T>) {
        if (how == op::mean && !direct_device<B>()) {
          const T p = static_cast<T>(size_);
          for (std::int64_t i = 0; i < t.size(); ++i) result[i] /= p;
        }
      }
    });
    if constexpr (floating_dtype<T>) {
      if (how == op::mean && direct_device<B>()) out = out / static_cast<T>(size_);
    }
    return out;
  }

  /// all_reduce of every leaf of a tree (tensors of one type in structs, tuples, vectors, maps:
  /// ep::tree_map's trees) as one message: the leaves are joined into one vector, reduced once and
  /// split back, so a model's gradients cost one MPI_Allreduce, not one per parameter. Throws
  /// ep::value_error on every rank when the ranks' trees differ in structure or leaf shapes, and
  /// as the tensor overload does otherwise.
  template <class Tree>
  requires(!istensor<Tree>) [[nodiscard]] Tree
      all_reduce(const Tree& tree, op how = op::sum) const {
    return on_joined_leaves("all_reduce", tree,
                            [&](const auto& joined) { return all_reduce(joined, how); });
  }

  /// Root's tree on every rank, as one message (broadcast of the leaves joined into one vector).
  /// Every rank passes a tree of root's structure and leaf shapes; throws ep::value_error on every
  /// rank otherwise.
  template <class Tree>
  requires(!istensor<Tree>) [[nodiscard]] Tree broadcast(const Tree& tree, int root = 0) const {
    return on_joined_leaves("broadcast", tree,
                            [&](const auto& joined) { return broadcast(joined, root); });
  }

  /// Root's `t` on every rank (MPI_Bcast; torch.distributed.broadcast). Every rank passes a tensor
  /// of root's dtype and shape (its elements are not read off the root); throws ep::value_error on
  /// every rank otherwise, or when root is not a rank.
  template <backend B>
  [[nodiscard]] Tensor<B> broadcast(const Tensor<B>& t, int root = 0) const {
    using T = typename B::value_type;
    const auto all = signatures("broadcast", t, root);
    require_same_shape("broadcast", all);
    if (rank_ == root) {
      // MPI_Bcast sends from this buffer and writes nothing into it: the root keeps its own tensor.
      with_input(t, [&](const T* in) {
        for_chunks(t.size(), [&](std::int64_t start, int count) {
          check(MPI_Bcast(const_cast<T*>(in) + start, count, detail::datatype<T>(), root, comm_),
                "broadcast", "MPI_Bcast");
        });
      });
      return Tensor<B>(t.raw());  // the same elements, as a constant like every rank's result
    }
    return make_output<B>(t.shape(), [&](T* result) {
      for_chunks(t.size(), [&](std::int64_t start, int count) {
        check(MPI_Bcast(result + start, count, detail::datatype<T>(), root, comm_), "broadcast",
              "MPI_Bcast");
      });
    });
  }

  /// Every rank's `t`, joined in rank order, on every rank (MPI_Allgather(v);
  /// torch.distributed.all_gather). gather::stack (the default) stacks along a new first axis and
  /// requires one shape on every rank; gather::concatenate joins along the first axis, whose extent
  /// may differ, and requires the other extents to agree. Throws ep::value_error on every rank when
  /// they do not, or when the dtypes differ.
  template <backend B>
  [[nodiscard]] Tensor<B> all_gather(const Tensor<B>& t, gather how = gather::stack) const {
    using T = typename B::value_type;
    const auto all = signatures("all_gather", t);
    require_same_dtype("all_gather", all);
    Shape shape = t.shape();
    std::vector<std::int64_t> counts(static_cast<std::size_t>(size_));
    if (how == gather::stack) {
      require_same_shape("all_gather", all);
      shape = Shape{static_cast<std::int64_t>(size_)};
      for (const auto d : t.shape()) shape.push_back(d);
      for (auto& c : counts) c = t.size();
    } else {
      require_same_trailing("all_gather", all);
      std::int64_t first = 0;
      for (int r = 0; r < size_; ++r) {
        first += all[static_cast<std::size_t>(r)].shape[0];
        counts[static_cast<std::size_t>(r)] = all[static_cast<std::size_t>(r)].shape.numel();
      }
      shape[0] = first;
    }
    // Named references rather than a structured binding, which clang 14 cannot capture.
    const auto ints = int_counts("all_gather", counts);
    const std::vector<int>& icounts = ints.first;
    const std::vector<int>& displs = ints.second;
    return transfer<B>(t, shape, [&](const T* in, T* result) {
      check(MPI_Allgatherv(in, icounts[static_cast<std::size_t>(rank_)], detail::datatype<T>(),
                           result, icounts.data(), displs.data(), detail::datatype<T>(), comm_),
            "all_gather", "MPI_Allgatherv");
    });
  }

  /// Root's `t` split along its first axis into size() parts as NumPy's array_split does (the first
  /// n % size parts one row longer), part r on rank r (MPI_Scatterv). Only the root's elements and
  /// shape are read; other ranks pass any tensor of the same dtype (e.g. an empty one). Throws
  /// ep::value_error on every rank when the dtypes differ, root's `t` is 0-d, or root is not a
  /// rank.
  template <backend B>
  [[nodiscard]] Tensor<B> scatter(const Tensor<B>& t, int root = 0) const {
    using T = typename B::value_type;
    const auto all = signatures("scatter", t, root);
    require_same_dtype("scatter", all);
    const Shape& whole = all[static_cast<std::size_t>(root)].shape;
    if (whole.size() == 0)
      throw value_error(fmt::format(
          "scatter: the root (rank {}) holds a 0-d tensor; expected at least one axis to split",
          root));
    const std::int64_t n = whole[0], row = n == 0 ? 0 : whole.numel() / n;
    const std::int64_t p = size_, base = n / p, extra = n % p;
    std::vector<std::int64_t> counts(static_cast<std::size_t>(size_));
    for (std::int64_t r = 0; r < p; ++r)
      counts[static_cast<std::size_t>(r)] = (base + (r < extra ? 1 : 0)) * row;
    // Named references rather than a structured binding, which clang 14 cannot capture.
    const auto ints = int_counts("scatter", counts);
    const std::vector<int>& icounts = ints.first;
    const std::vector<int>& displs = ints.second;
    Shape mine = whole;
    mine[0] = base + (rank_ < extra ? 1 : 0);
    if (rank_ == root) {
      return transfer<B>(t, mine, [&](const T* in, T* result) {
        check(MPI_Scatterv(in, icounts.data(), displs.data(), detail::datatype<T>(), result,
                           icounts[static_cast<std::size_t>(rank_)], detail::datatype<T>(), root,
                           comm_),
              "scatter", "MPI_Scatterv");
      });
    }
    return make_output<B>(mine, [&](T* result) {
      check(MPI_Scatterv(nullptr, nullptr, nullptr, detail::datatype<T>(), result,
                         icounts[static_cast<std::size_t>(rank_)], detail::datatype<T>(), root,
                         comm_),
            "scatter", "MPI_Scatterv");
    });
  }

 private:
  /// `f` of the tree's leaves joined into one vector, split back into the tree's leaves; checks
  /// first that every rank holds a tree of the same structure and leaf shapes.
  template <class Tree, class F>
  Tree on_joined_leaves(std::string_view what, const Tree& tree, F&& f) const {
    auto [leaves, def] = tree_flatten(tree);
    std::string layout = def.str();
    for (const auto& leaf : leaves) layout += leaf.shape().str();
    const unsigned long long h = std::hash<std::string>{}(layout);
    std::array<unsigned long long, 2> mine{h, ~h}, largest{};
    // Equal on every rank exactly when the largest hash and the largest complement are this
    // rank's own: one message of two integers.
    check(MPI_Allreduce(mine.data(), largest.data(), 2, MPI_UNSIGNED_LONG_LONG, MPI_MAX, comm_),
          what, "MPI_Allreduce");
    if (largest != mine)
      throw value_error(
          fmt::format("{} of a tree: the ranks' trees differ in structure or leaf shapes (rank {} "
                      "holds {} with "
                      "leaf shapes{}); expected the same tree on every rank",
                      what, rank_, def.str(), layout.substr(def.str().size())));
    if (leaves.empty()) return tree;
    std::vector<std::decay_t<decltype(leaves.front())>> flat;
    flat.reserve(leaves.size());
    for (const auto& leaf : leaves) flat.push_back(leaf.reshape(Shape{leaf.size()}));
    const auto joined = f(concatenate(flat));
    std::int64_t at = 0;
    for (auto& leaf : leaves) {
      const std::int64_t n = leaf.size();
      leaf = joined(slice(at, at + n)).reshape(leaf.shape());
      at += n;
    }
    return tree_unflatten(def, leaves);
  }

  /// Whether B's device buffers go to MPI directly (a device backend and a CUDA-aware MPI); then
  /// the result of all_reduce's sum is device memory, and mean divides it with a facade op.
  template <backend B>
  static bool direct_device() {
#if EAGERPP_MPI_CUDA_AWARE
    if constexpr (!detail::host_shared<B> && detail::device_pointer<B>) return cuda_aware();
#endif
    return false;
  }

  void check(int rc, std::string_view what, std::string_view call) const {
    if (rc == MPI_SUCCESS) return;
    std::array<char, MPI_MAX_ERROR_STRING> text{};
    int length = 0;
    if (MPI_Error_string(rc, text.data(), &length) != MPI_SUCCESS) length = 0;
    throw mpi_error(fmt::format("{}: {} failed on rank {} of {} ({})", what, call, rank_, size_,
                                std::string_view(text.data(), static_cast<std::size_t>(length))));
  }

  /// Every rank's dtype and shape, on every rank (one MPI_Allgather of 10 int64 per rank), after
  /// checking `root` (of a collective that has one; 0 is a rank of every communicator).
  template <backend B>
  std::vector<detail::signature> signatures(std::string_view what, const Tensor<B>& t,
                                            int root = 0) const {
    if (root < 0 || root >= size_)
      throw value_error(
          fmt::format("{}: root {} is not a rank of this communicator; expected 0 <= root < {}",
                      what, root, size_));
    constexpr int width = 2 + max_rank;
    std::array<std::int64_t, width> mine{};
    mine[0] = detail::dtype_code<typename B::value_type>();
    mine[1] = t.ndim();
    for (int i = 0; i < t.ndim(); ++i) mine[static_cast<std::size_t>(2 + i)] = t.shape()[i];
    std::vector<std::int64_t> every(static_cast<std::size_t>(width) *
                                    static_cast<std::size_t>(size_));
    check(MPI_Allgather(mine.data(), width, MPI_INT64_T, every.data(), width, MPI_INT64_T, comm_),
          what, "MPI_Allgather");
    std::vector<detail::signature> out(static_cast<std::size_t>(size_));
    for (std::size_t r = 0; r < out.size(); ++r) {
      const std::int64_t* row = every.data() + r * width;
      out[r].dtype = row[0];
      out[r].shape = Shape(row + 2, row + 2 + row[1]);
    }
    return out;
  }

  void require_same_dtype(std::string_view what, const std::vector<detail::signature>& all) const {
    for (std::size_t r = 1; r < all.size(); ++r) {
      if (all[r].dtype != all[0].dtype)
        throw value_error(fmt::format(
            "{}: the ranks hold different dtypes (rank 0: {}, rank {}: {}); expected one "
            "dtype on every rank",
            what, detail::dtype_name_of(all[0].dtype), r, detail::dtype_name_of(all[r].dtype)));
    }
  }

  void require_same_shape(std::string_view what, const std::vector<detail::signature>& all) const {
    require_same_dtype(what, all);
    for (std::size_t r = 1; r < all.size(); ++r) {
      if (all[r].shape != all[0].shape)
        throw value_error(fmt::format(
            "{}: the ranks hold different shapes (rank 0: {}, rank {}: {}); expected one "
            "shape on every rank",
            what, all[0].shape.str(), r, all[r].shape.str()));
    }
  }

  /// Equal rank >= 1 and equal extents after the first axis (all_gather's concatenate).
  void require_same_trailing(std::string_view what,
                             const std::vector<detail::signature>& all) const {
    for (std::size_t r = 0; r < all.size(); ++r) {
      const Shape& s = all[r].shape;
      bool ok = s.size() >= 1 && s.size() == all[0].shape.size();
      for (int i = 1; ok && i < s.size(); ++i) ok = s[i] == all[0].shape[i];
      if (!ok)
        throw value_error(fmt::format(
            "{}: cannot concatenate the ranks' tensors along the first axis (rank 0: {}, "
            "rank {}: {}); expected at least one axis and equal extents after the first",
            what, all[0].shape.str(), r, s.str()));
    }
  }

  /// MPI's int counts and displacements for element counts per rank; throws past INT_MAX.
  static std::pair<std::vector<int>, std::vector<int>> int_counts(
      std::string_view what, const std::vector<std::int64_t>& counts) {
    std::vector<int> c(counts.size()), d(counts.size());
    std::int64_t offset = 0;
    for (std::size_t r = 0; r < counts.size(); ++r) {
      if (counts[r] > INT_MAX || offset > INT_MAX)
        throw value_error(fmt::format(
            "{}: {} elements at offset {} on rank {}; expected at most {} (MPI's int counts)", what,
            counts[r], offset, r, INT_MAX));
      c[r] = static_cast<int>(counts[r]);
      d[r] = static_cast<int>(offset);
      offset += counts[r];
    }
    return {std::move(c), std::move(d)};
  }

  /// Calls f(start, count) over [0, n) in pieces of at most 2^30 elements (MPI counts are int).
  template <class F>
  static void for_chunks(std::int64_t n, F&& f) {
    constexpr std::int64_t chunk = std::int64_t{1} << 30;
    for (std::int64_t start = 0; start < n; start += chunk)
      f(start, static_cast<int>(std::min(chunk, n - start)));
  }

  /// Calls f(pointer to t's C-order elements) where MPI can read them: the backend's own buffer
  /// (host backends; device backends with a CUDA-aware MPI) or a host copy.
  template <backend B, class F>
  void with_input(const Tensor<B>& t, F&& f) const {
    using T = typename B::value_type;
    if constexpr (detail::host_shared<B>) {
      const std::shared_ptr<T> in = B::share_host(t.raw());
      f(static_cast<const T*>(in.get()));
    } else {
#if EAGERPP_MPI_CUDA_AWARE
      if constexpr (detail::device_pointer<B>) {
        if (direct_device<B>()) {
          (void)cudaStreamSynchronize(t.raw().stream());  // the kernels producing t must be done
          f(t.raw().data());
          return;
        }
      }
#endif
      const auto host = host_copy(t);
      f(static_cast<const T*>(host.get()));
    }
  }

  /// A new tensor of `shape` whose elements f(pointer) writes: a buffer the result adopts (host
  /// backends; device backends with a CUDA-aware MPI), or a host buffer copied in afterwards.
  template <backend B, class F>
  Tensor<B> make_output(const Shape& shape, F&& f) const {
    using T = typename B::value_type;
    const auto n = static_cast<std::size_t>(shape.numel());
    if constexpr (detail::host_shared<B>) {
      std::shared_ptr<T> out = allocate_storage<T>(n);
      f(out.get());
      return Tensor<B>(B::from_host_shared(std::move(out), shape));
    } else {
#if EAGERPP_MPI_CUDA_AWARE
      if constexpr (detail::device_pointer<B>) {
        if (direct_device<B>()) {
          typename B::raw_type out(shape, std::string_view{"mpi"});
          (void)cudaStreamSynchronize(
              out.stream());  // stream-ordered allocation: wait until it exists
          f(out.mutable_data());
          return Tensor<B>(std::move(out));
        }
      }
#endif
      std::unique_ptr<T[]> out(
          new T[n == 0 ? 1 : n]);  // not std::vector: vector<bool> has no data()
      f(out.get());
      return Tensor<B>(B::from_data(out.get(), shape));
    }
  }

  /// make_output with t's elements readable too: f(input pointer, result pointer).
  template <backend B, class F>
  Tensor<B> transfer(const Tensor<B>& t, const Shape& shape, F&& f) const {
    return make_output<B>(
        shape, [&](auto* result) { with_input(t, [&](const auto* in) { f(in, result); }); });
  }

  template <backend B>
  static std::unique_ptr<typename B::value_type[]> host_copy(const Tensor<B>& t) {
    const auto n = static_cast<std::size_t>(t.size());
    std::unique_ptr<typename B::value_type[]> host(new typename B::value_type[n == 0 ? 1 : n]);
    B::to_data(t.raw(), host.get());
    return host;
  }

  MPI_Comm comm_;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace ep::mpi
