// eagerpp - the CUDA backend's building blocks: broadcasting transform, strided copy, CUB reductions, GEMM
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::min
#include <cstdint>      // std::int64_t
#include <new>          // std::bad_alloc
#include <span>         // std::span
#include <string_view>  // std::string_view
#include <tuple>        // std::tuple
#include <type_traits>  // std::is_same_v
#include <utility>      // std::index_sequence

#include <cub/device/device_reduce.cuh>            // cub::DeviceReduce::Reduce
#include <cub/device/device_segmented_reduce.cuh>  // cub::DeviceSegmentedReduce::Reduce
#include <cuda/std/tuple>                          // cuda::std::tuple in device functors
#include <thrust/execution_policy.h>               // thrust::cuda::par_nosync
#include <thrust/copy.h>                           // thrust::copy_n
#include <thrust/fill.h>                           // thrust::fill_n
#include <thrust/for_each.h>                       // thrust::for_each_n
#include <thrust/gather.h>                         // thrust::gather
#include <thrust/iterator/counting_iterator.h>     // thrust::counting_iterator
#include <thrust/iterator/permutation_iterator.h>  // thrust::make_permutation_iterator
#include <thrust/iterator/transform_iterator.h>    // thrust::make_transform_iterator
#include <thrust/reduce.h>                         // thrust::reduce_by_key
#include <thrust/scan.h>                           // thrust::inclusive_scan_by_key
#include <thrust/sort.h>                           // thrust::stable_sort, thrust::stable_sort_by_key
#include <thrust/system_error.h>                   // thrust::system_error
#include <thrust/transform.h>                      // thrust::transform

#include "eagerpp/cuda/functors.cuh"
#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/shape.hpp"

namespace ep::detail {

/// Thrust's policy for our stream; par_nosync: Thrust does not synchronize after each algorithm
/// (errors of asynchronous work surface at the next synchronizing call, to_data).
inline auto cuda_policy() { return thrust::cuda::par_nosync.on(cuda_stream()); }

/// Runs `f`, turning Thrust's exceptions (system_error, bad_alloc) into ep::device_error naming `op`.
template <class F>
decltype(auto) cuda_guard(std::string_view op, F&& f) {
  try {
    return f();
  } catch (const thrust::system_error& e) {
    throw device_error(fmt::format("{}: CUDA error: {}", op, e.what()));
  } catch (const std::bad_alloc& e) {
    throw device_error(fmt::format("{}: out of device memory ({})", op, e.what()));
  }
}

inline thrust::counting_iterator<std::int64_t> cuda_count(std::int64_t start = 0) {
  return thrust::counting_iterator<std::int64_t>(start);
}

// --- the strided copy: transpose, broadcast_to, flip, slice, pad, concatenate ---------------------

/// out[out_offset + k . out_strides] = in[in_offset + k . in_strides] for every multi-index k < dims.
/// Strides may be 0 (broadcast) or negative (flip).
struct cuda_layout {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t in_strides[max_rank] = {};
  std::int64_t out_strides[max_rank] = {};
  std::int64_t in_offset = 0;
  std::int64_t out_offset = 0;
};

template <class T>
struct strided_copy_fn {
  cuda_layout l;
  const T* in;
  T* out;
  __device__ void operator()(std::int64_t i) const {
    std::int64_t src = l.in_offset;
    std::int64_t dst = l.out_offset;
    for (int a = l.rank - 1; a >= 0; --a) {
      const std::int64_t q = i / l.dims[a];
      const std::int64_t k = i - q * l.dims[a];
      i = q;
      src += k * l.in_strides[a];
      dst += k * l.out_strides[a];
    }
    out[dst] = in[src];
  }
};

/// Merges adjacent axes that are contiguous in both views and drops extents of 1, so that most
/// copies run at rank 1 or 2 (fewer divisions per element).
inline cuda_layout cuda_simplify(const cuda_layout& l) {
  cuda_layout s;
  s.in_offset = l.in_offset;
  s.out_offset = l.out_offset;
  for (int a = 0; a < l.rank; ++a) {
    if (l.dims[a] == 1) continue;
    if (s.rank > 0) {
      const int b = s.rank - 1;
      if (s.in_strides[b] == l.in_strides[a] * l.dims[a] && s.out_strides[b] == l.out_strides[a] * l.dims[a]) {
        s.dims[b] *= l.dims[a];
        s.in_strides[b] = l.in_strides[a];
        s.out_strides[b] = l.out_strides[a];
        continue;
      }
    }
    s.dims[s.rank] = l.dims[a];
    s.in_strides[s.rank] = l.in_strides[a];
    s.out_strides[s.rank] = l.out_strides[a];
    ++s.rank;
  }
  return s;
}

template <class T>
void cuda_strided_copy(const cuda_layout& layout, const T* in, T* out, std::string_view op) {
  std::int64_t n = 1;
  for (int a = 0; a < layout.rank; ++a) n *= layout.dims[a];
  if (n == 0) return;
  const cuda_layout l = cuda_simplify(layout);
  if (l.rank == 0 || (l.rank == 1 && l.in_strides[0] == 1 && l.out_strides[0] == 1)) {
    cuda_check(cudaMemcpyAsync(out + l.out_offset, in + l.in_offset, static_cast<std::size_t>(n) * sizeof(T),
                               cudaMemcpyDeviceToDevice, cuda_stream()),
               op);
    return;
  }
  cuda_guard(op, [&] { thrust::for_each_n(cuda_policy(), cuda_count(), n, strided_copy_fn<T>{l, in, out}); });
}

/// The elements of `x` permuted: axis a of the result is axis perm[a] of x.
template <class T>
cuda_array<T> cuda_permute(const cuda_array<T>& x, std::span<const int> perm, std::string_view op) {
  const Shape xs = strides_of(x.shape());
  Shape shape;
  for (int p : perm) shape.push_back(x.shape()[p]);
  cuda_array<T> out(shape, op);
  const Shape os = strides_of(shape);
  cuda_layout l;
  l.rank = shape.size();
  for (int a = 0; a < l.rank; ++a) {
    l.dims[a] = shape[a];
    l.in_strides[a] = xs[perm[static_cast<std::size_t>(a)]];
    l.out_strides[a] = os[a];
  }
  cuda_strided_copy(l, x.data(), out.mutable_data(), op);
  return out;
}

/// A (d0, d1, d2) tensor transposed to (d0, d2, d1).
template <class T>
cuda_array<T> cuda_swap_last(const cuda_array<T>& x, std::int64_t d0, std::int64_t d1, std::int64_t d2,
                             std::string_view op) {
  const int perm[3] = {0, 2, 1};
  return cuda_permute(cuda_array<T>(x.storage(), Shape{d0, d1, d2}), perm, op);
}

// --- the broadcasting transform: every element-wise op of one, two or three operands --------------

template <int N>
struct cuda_broadcast_layout {
  int rank = 0;
  std::int64_t dims[max_rank] = {};
  std::int64_t strides[N][max_rank] = {};
};

/// out[i] = f(in_k[offset_k(i)]...), where offset_k follows operand k's strides (0 on broadcast axes).
template <class F, class... In>
struct broadcast_fn {
  F f;
  cuda_broadcast_layout<sizeof...(In)> l;
  cuda::std::tuple<const In*...> in;

  __device__ auto operator()(std::int64_t i) const { return call(i, std::index_sequence_for<In...>{}); }

  template <std::size_t... K>
  __device__ auto call(std::int64_t i, std::index_sequence<K...>) const {
    std::int64_t off[sizeof...(In)] = {};
    for (int a = l.rank - 1; a >= 0; --a) {
      const std::int64_t q = i / l.dims[a];
      const std::int64_t k = i - q * l.dims[a];
      i = q;
      ((off[K] += k * l.strides[K][a]), ...);
    }
    return f(cuda::std::get<K>(in)[off[K]]...);
  }
};

/// The fast path: each operand is either the full result shape (step 1) or one element (step 0).
template <class F, class... In>
struct flat_fn {
  F f;
  std::int64_t step[sizeof...(In)];
  cuda::std::tuple<const In*...> in;

  __device__ auto operator()(std::int64_t i) const { return call(i, std::index_sequence_for<In...>{}); }

  template <std::size_t... K>
  __device__ auto call(std::int64_t i, std::index_sequence<K...>) const {
    return f(cuda::std::get<K>(in)[i * step[K]]...);
  }
};

/// f applied element-wise with NumPy broadcasting; Out is the result's element type. One operand,
/// or equal shapes of two, run as a plain thrust::transform over the buffers; a one-element operand
/// is read through stride 0; other shapes index through broadcast strides.
template <class Out, class F, class... In>
cuda_array<Out> cuda_map(std::string_view op, F f, const cuda_array<In>&... xs) {
  constexpr int n_in = sizeof...(In);
  Shape shape;
  ((shape = broadcast_shapes(shape, xs.shape(), op)), ...);
  cuda_array<Out> out(shape, op);
  const std::int64_t n = shape.numel();
  if (n == 0) return out;
  Out* o = out.mutable_data();
  const bool same = ((xs.shape() == shape) && ...);
  if constexpr (n_in == 1) {
    cuda_guard(op, [&] { (thrust::transform(cuda_policy(), xs.data(), xs.data() + n, o, f), ...); });
    return out;
  } else if constexpr (n_in == 2) {
    if (same) {
      cuda_guard(op, [&] {
        const auto [a, b] = std::tuple{xs.data()...};
        thrust::transform(cuda_policy(), a, a + n, b, o, f);
      });
      return out;
    }
  }
  if (((xs.shape() == shape || xs.size() == 1) && ...)) {
    flat_fn<F, In...> fn{f, {(xs.size() == 1 && xs.shape() != shape ? std::int64_t{0} : std::int64_t{1})...},
                         {xs.data()...}};
    cuda_guard(op, [&] { thrust::transform(cuda_policy(), cuda_count(), cuda_count(n), o, fn); });
    return out;
  }
  cuda_broadcast_layout<n_in> l;
  l.rank = shape.size();
  for (int a = 0; a < l.rank; ++a) l.dims[a] = shape[a];
  int k = 0;
  (
      [&](const Shape& s) {
        const Shape st = strides_of(s);
        const int lead = l.rank - s.size();
        for (int a = 0; a < s.size(); ++a) l.strides[k][lead + a] = s[a] == 1 ? 0 : st[a];
        ++k;
      }(xs.shape()),
      ...);
  broadcast_fn<F, In...> fn{f, l, {xs.data()...}};
  cuda_guard(op, [&] { thrust::transform(cuda_policy(), cuda_count(), cuda_count(n), o, fn); });
  return out;
}

template <class T>
cuda_array<T> cuda_full(const Shape& shape, T value, std::string_view op) {
  cuda_array<T> out(shape, op);
  const std::int64_t n = shape.numel();
  if (n > 0) cuda_guard(op, [&] { thrust::fill_n(cuda_policy(), out.mutable_data(), n, value); });
  return out;
}

// --- reductions ---------------------------------------------------------------------------------------

/// `x` seen as (outer, reduced, inner) for one block of consecutive axes [first, last].
struct cuda_split {
  std::int64_t outer = 1, reduced = 1, inner = 1;
};
inline cuda_split cuda_split_at(const Shape& s, int first, int last) {
  cuda_split r;
  for (int a = 0; a < s.size(); ++a) (a < first ? r.outer : a > last ? r.inner : r.reduced) *= s[a];
  return r;
}

/// Reduces each of `segments` consecutive runs of `length` elements of `in` into out[segment].
template <class Out, class InIt, class Op, class Init>
void cuda_segmented_reduce(InIt in, Out* out, std::int64_t segments, std::int64_t length, Op op, Init init,
                           std::string_view name) {
  std::size_t bytes = 0;
  const cudaStream_t s = cuda_stream();
  if (segments == 1) {
    cuda_check(cub::DeviceReduce::Reduce(nullptr, bytes, in, out, length, op, init, s), name);
    const auto scratch = device_scratch(bytes, name);
    cuda_check(cub::DeviceReduce::Reduce(scratch.get(), bytes, in, out, length, op, init, s), name);
  } else {
    const auto begin = thrust::make_transform_iterator(cuda_count(), cu::scale_fn{length});
    cuda_check(cub::DeviceSegmentedReduce::Reduce(nullptr, bytes, in, out, segments, begin, begin + 1, op, init, s),
               name);
    const auto scratch = device_scratch(bytes, name);
    cuda_check(
        cub::DeviceSegmentedReduce::Reduce(scratch.get(), bytes, in, out, segments, begin, begin + 1, op, init, s),
        name);
  }
}

/// `x` rearranged so that each result element's inputs are one contiguous segment: returns the
/// (possibly transposed) data and the segment length. Axes are sorted and unique.
template <class T>
std::pair<cuda_array<T>, std::int64_t> cuda_segments(const cuda_array<T>& x, std::span<const int> axes,
                                                      std::string_view op) {
  const Shape& s = x.shape();
  const int first = axes.front();
  const int last = axes.back();
  if (last - first + 1 == static_cast<int>(axes.size())) {  // one block: (outer, reduced, inner)
    const cuda_split sp = cuda_split_at(s, first, last);
    if (sp.inner == 1) return {x, sp.reduced};
    return {cuda_swap_last(x, sp.outer, sp.reduced, sp.inner, op), sp.reduced};
  }
  int perm[max_rank];  // kept axes first, reduced axes last
  int k = 0;
  std::int64_t reduced = 1;
  for (int a = 0; a < s.size(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) perm[k++] = a;
  for (int a : axes) {
    perm[k++] = a;
    reduced *= s[a];
  }
  return {cuda_permute(x, std::span<const int>(perm, static_cast<std::size_t>(k)), op), reduced};
}

inline Shape cuda_reduced_shape(const Shape& s, std::span<const int> axes) {
  Shape out;
  for (int a = 0; a < s.size(); ++a)
    if (std::find(axes.begin(), axes.end(), a) == axes.end()) out.push_back(s[a]);
  return out;
}

/// The reduction of `x` over `axes` with `op`, whose identity is `init`.
template <class T, class Op>
cuda_array<T> cuda_reduce(const cuda_array<T>& x, std::span<const int> axes, Op op, T init, std::string_view name) {
  const Shape shape = cuda_reduced_shape(x.shape(), axes);
  const std::int64_t segments = shape.numel();
  if (segments == 0) return cuda_array<T>(shape, name);
  if (x.size() == 0) return cuda_full(shape, init, name);
  const auto [src, length] = cuda_segments(x, axes, name);
  cuda_array<T> out(shape, name);
  cuda_segmented_reduce(src.data(), out.mutable_data(), segments, length, op, init, name);
  return out;
}

/// argmin (IsMax = false) or argmax along `axis`: the first index of the extreme, NaN first.
template <bool IsMax, class T>
cuda_array<std::int64_t> cuda_arg_reduce(const cuda_array<T>& x, int axis, std::string_view name) {
  const int axes[1] = {axis};
  const Shape shape = cuda_reduced_shape(x.shape(), axes);
  const std::int64_t segments = shape.numel();
  if (segments == 0) return cuda_array<std::int64_t>(shape, name);
  if (x.size() == 0) return cuda_full<std::int64_t>(shape, 0, name);
  const auto [src, length] = cuda_segments(x, axes, name);
  using pair = cu::arg_pair<T>;
  const auto best = device_allocate<pair>(static_cast<std::size_t>(segments), name);
  const auto in = thrust::make_transform_iterator(cuda_count(), cu::arg_candidate_fn<T>{src.data(), length});
  cuda_segmented_reduce(in, best.get(), segments, length, cu::arg_op<T, IsMax>{}, pair{0, T{}, false}, name);
  cuda_array<std::int64_t> out(shape, name);
  cuda_guard(name, [&] {
    thrust::transform(cuda_policy(), best.get(), best.get() + segments, out.mutable_data(), cu::arg_index_fn<T>{});
  });
  return out;
}

/// Cumulative sum along `axis`: a segmented inclusive scan (thrust::inclusive_scan_by_key with key
/// i / n) over the data with `axis` made last.
template <class T>
cuda_array<T> cuda_cumsum(const cuda_array<T>& x, int axis, std::string_view name) {
  const cuda_split sp = cuda_split_at(x.shape(), axis, axis);
  if (x.size() == 0) return cuda_array<T>(x.shape(), name);
  const cuda_array<T> src = sp.inner == 1 ? x : cuda_swap_last(x, sp.outer, sp.reduced, sp.inner, name);
  cuda_array<T> scanned(src.shape(), name);
  const std::int64_t n = x.size();
  const auto keys = thrust::make_transform_iterator(cuda_count(), cu::segment_fn{sp.reduced});
  cuda_guard(name, [&] {
    thrust::inclusive_scan_by_key(cuda_policy(), keys, keys + n, src.data(), scanned.mutable_data());
  });
  if (sp.inner == 1) return scanned;
  return cuda_array<T>(cuda_swap_last(scanned, sp.outer, sp.inner, sp.reduced, name).storage(), x.shape());
}

// --- indexing: take, put, put_add -----------------------------------------------------------------

/// out = x[index] (thrust::gather); x is 1-D, the indices are in range.
template <class T>
cuda_array<T> cuda_take(const cuda_array<T>& x, const cuda_array<std::int64_t>& index, std::string_view name) {
  cuda_array<T> out(index.shape(), name);
  const std::int64_t n = index.size();
  if (n > 0)
    cuda_guard(name, [&] { thrust::gather(cuda_policy(), index.data(), index.data() + n, x.data(), out.mutable_data()); });
  return out;
}

/// After a stable sort of the indices: position i of each run of equal indices that is last (the
/// last write in the original order) writes x[key] = values[pos].
template <class T>
struct put_last_fn {
  const std::int64_t* keys;
  const std::int64_t* pos;
  const T* values;
  T* x;
  std::int64_t n;
  __device__ void operator()(std::int64_t i) const {
    if (i + 1 == n || keys[i] != keys[i + 1]) x[keys[i]] = values[pos[i]];
  }
};
template <class T>
struct add_at_fn {
  const std::int64_t* keys;
  const T* sums;
  T* x;
  __device__ void operator()(std::int64_t i) const { x[keys[i]] = static_cast<T>(x[keys[i]] + sums[i]); }
};

/// A copy of x with x[index[i]] = values[i] (Add: +=), deterministic with repeated indices: the
/// indices are stably sorted with their positions, then put keeps the last write of each run and
/// put_add adds each run's sum (thrust::reduce_by_key), so no two threads touch one element.
template <bool Add, class T>
cuda_array<T> cuda_put(const cuda_array<T>& x, const cuda_array<std::int64_t>& index, const cuda_array<T>& values,
                       std::string_view name) {
  cuda_array<T> out(x.shape(), name);
  if (x.size() > 0)
    cuda_check(cudaMemcpyAsync(out.mutable_data(), x.data(), static_cast<std::size_t>(x.size()) * sizeof(T),
                               cudaMemcpyDeviceToDevice, cuda_stream()),
               name);
  const std::int64_t n = index.size();
  if (n == 0) return out;
  const auto keys = device_allocate<std::int64_t>(static_cast<std::size_t>(n), name);
  const auto pos = device_allocate<std::int64_t>(static_cast<std::size_t>(n), name);
  cuda_guard(name, [&] {
    cuda_check(cudaMemcpyAsync(keys.get(), index.data(), static_cast<std::size_t>(n) * sizeof(std::int64_t),
                               cudaMemcpyDeviceToDevice, cuda_stream()),
               name);
    thrust::copy_n(cuda_policy(), cuda_count(), n, pos.get());
    thrust::stable_sort_by_key(cuda_policy(), keys.get(), keys.get() + n, pos.get());
    if constexpr (!Add) {
      thrust::for_each_n(cuda_policy(), cuda_count(), n, put_last_fn<T>{keys.get(), pos.get(), values.data(),
                                                                         out.mutable_data(), n});
    } else {
      const auto unique = device_allocate<std::int64_t>(static_cast<std::size_t>(n), name);
      const auto sums = device_allocate<T>(static_cast<std::size_t>(n), name);
      const auto in = thrust::make_permutation_iterator(values.data(), pos.get());
      const auto ends = thrust::reduce_by_key(cuda_policy(), keys.get(), keys.get() + n, in, unique.get(), sums.get());
      const std::int64_t m = ends.first - unique.get();
      thrust::for_each_n(cuda_policy(), cuda_count(), m, add_at_fn<T>{unique.get(), sums.get(), out.mutable_data()});
    }
  });
  return out;
}

// --- sorting ----------------------------------------------------------------------------------------

/// NumPy's order within each run of n elements: ascending, NaN last; runs stay in order.
template <class T>
struct segment_less_fn {
  const T* x;
  std::int64_t n;
  __device__ bool operator()(std::int64_t a, std::int64_t b) const {
    const std::int64_t sa = a / n;
    const std::int64_t sb = b / n;
    if (sa != sb) return sa < sb;
    const T u = x[a];
    const T v = x[b];
    if (cu::is_nan(u)) return false;
    if (cu::is_nan(v)) return true;
    return u < v;
  }
};
struct modulo_fn {
  std::int64_t n;
  __device__ std::int64_t operator()(std::int64_t i) const { return i % n; }
};

/// sort (Arg = false) or argsort (Arg = true) along `axis`: the axis is made last, the positions
/// 0..N-1 are stably sorted by (run, value), then gathered (sort) or taken modulo the run (argsort).
template <bool Arg, class T>
auto cuda_sort(const cuda_array<T>& x, int axis, std::string_view name) {
  using Out = std::conditional_t<Arg, std::int64_t, T>;
  const cuda_split sp = cuda_split_at(x.shape(), axis, axis);
  if (x.size() == 0) return cuda_array<Out>(x.shape(), name);
  const cuda_array<T> src = sp.inner == 1 ? x : cuda_swap_last(x, sp.outer, sp.reduced, sp.inner, name);
  const std::int64_t n = x.size();
  const auto order = device_allocate<std::int64_t>(static_cast<std::size_t>(n), name);
  cuda_array<Out> sorted(src.shape(), name);
  cuda_guard(name, [&] {
    thrust::copy_n(cuda_policy(), cuda_count(), n, order.get());
    thrust::stable_sort(cuda_policy(), order.get(), order.get() + n, segment_less_fn<T>{src.data(), sp.reduced});
    if constexpr (Arg) {
      thrust::transform(cuda_policy(), order.get(), order.get() + n, sorted.mutable_data(), modulo_fn{sp.reduced});
    } else {
      thrust::gather(cuda_policy(), order.get(), order.get() + n, src.data(), sorted.mutable_data());
    }
  });
  if (sp.inner == 1) return sorted;
  return cuda_array<Out>(cuda_swap_last(sorted, sp.outer, sp.inner, sp.reduced, name).storage(), x.shape());
}

// --- matmul ---------------------------------------------------------------------------------------------

/// C[b] = op(A[b]) op(B[b]) for integer and bool types, one thread per output element (NumPy's bool
/// matmul is the OR of ANDs); a transposed operand is read in place. cuBLAS serves float and double.
template <class T>
struct int_matmul_fn {
  const T* a;
  const T* b;
  T* c;
  std::int64_t n, k, m;
  bool transpose_a, transpose_b;
  __device__ void operator()(std::int64_t idx) const {
    const std::int64_t batch = idx / (n * m);
    const std::int64_t r = idx - batch * n * m;
    const std::int64_t i = r / m;
    const std::int64_t j = r - i * m;
    // Element (i, t) of op(A) and (t, j) of op(B): pa[t * sa], pb[t * sb].
    const T* pa = a + batch * n * k + (transpose_a ? i : i * k);
    const T* pb = b + batch * k * m + (transpose_b ? j * k : j);
    const std::int64_t sa = transpose_a ? n : 1;
    const std::int64_t sb = transpose_b ? 1 : m;
    if constexpr (std::is_same_v<T, bool>) {
      bool acc = false;
      for (std::int64_t t = 0; t < k && !acc; ++t) acc = pa[t * sa] && pb[t * sb];
      c[idx] = acc;
    } else {
      T acc = 0;
      for (std::int64_t t = 0; t < k; ++t) acc = static_cast<T>(acc + pa[t * sa] * pb[t * sb]);
      c[idx] = acc;
    }
  }
};

/// op(a) op(b) for a stored as (..., n, k) or, transposed, (..., k, n), and b as (..., k, m) or (..., m, k).
template <class T>
cuda_array<T> cuda_matmul(const cuda_array<T>& a, const cuda_array<T>& b, bool transpose_a, bool transpose_b,
                          std::string_view name) {
  const Shape& as = a.shape();
  const Shape& bs = b.shape();
  const int r = as.size();
  const std::int64_t n = as[r - (transpose_a ? 1 : 2)];
  const std::int64_t k = as[r - (transpose_a ? 2 : 1)];
  const std::int64_t m = bs[r - (transpose_b ? 2 : 1)];
  Shape shape = as;
  shape[r - 2] = n;
  shape[r - 1] = m;
  const std::int64_t batch = shape.numel() / (n * m == 0 ? 1 : n * m);
  if (shape.numel() == 0) return cuda_array<T>(shape, name);
  if (k == 0) return cuda_full(shape, T{0}, name);
  cuda_array<T> out(shape, name);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    // Row-major C = op(A) op(B) is column-major C^T = op(B)^T op(A)^T: cuBLAS computes
    // (m x n) = (m x k)(k x n). A row-major block read column-major is its transpose, so an operand
    // stored untransposed is passed as is (OP_N) and a transposed one as OP_T.
    const T one = 1;
    const T zero = 0;
    cublasHandle_t h = cublas_handle(name);
    const auto mi = static_cast<int>(m);
    const auto ni = static_cast<int>(n);
    const auto ki = static_cast<int>(k);
    const auto bi = static_cast<int>(batch);
    const cublasOperation_t op_a = transpose_a ? CUBLAS_OP_T : CUBLAS_OP_N;
    const cublasOperation_t op_b = transpose_b ? CUBLAS_OP_T : CUBLAS_OP_N;
    const int lda = transpose_a ? ni : ki;
    const int ldb = transpose_b ? ki : mi;
    if constexpr (std::is_same_v<T, float>) {
      cublas_check(cublasSgemmStridedBatched(h, op_b, op_a, mi, ni, ki, &one, b.data(), ldb, k * m, a.data(), lda,
                                             n * k, &zero, out.mutable_data(), mi, n * m, bi),
                   name);
    } else {
      cublas_check(cublasDgemmStridedBatched(h, op_b, op_a, mi, ni, ki, &one, b.data(), ldb, k * m, a.data(), lda,
                                             n * k, &zero, out.mutable_data(), mi, n * m, bi),
                   name);
    }
  } else {
    cuda_guard(name, [&] {
      thrust::for_each_n(
          cuda_policy(), cuda_count(), shape.numel(),
          int_matmul_fn<T>{a.data(), b.data(), out.mutable_data(), n, k, m, transpose_a, transpose_b});
    });
  }
  return out;
}

}  // namespace ep::detail
