// eagerpp - the contract of a Thrust system (ep::cuda's, ep::omp's) and the plain types both
// systems use
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as
#include <cstdint>      // std::int64_t
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_class_v, std::is_final_v

#include "eagerpp/detail/numpy_math.hpp"  // EAGERPP_HOST_DEVICE
#include "eagerpp/thrust/array.hpp"       // ep::thrust_array

// The Thrust backend (eagerpp/thrust/backend.hpp, kernels.hpp) is written once over a *system* S,
// the small part that differs between the GPU and CPU threads
// (backends/cuda/include/eagerpp/cuda/system.hpp, backends/omp/include/eagerpp/omp/system.hpp).
// What a system provides is the concept ep::detail::thrust_system at the end of this file, each
// member a row of EAGERPP_THRUST_SYSTEM_MEMBERS; thrust_backend<T, S> checks it first.
// g++ may leave a functor's call out of line in a kernel (a call per element, no vector loop):
// each transform instantiates several loops over its functor (ep::omp's write_n). The kernels'
// functors, and the larger element-wise ones, are inlined by force on the host.
#if defined(__GNUC__) && !defined(__CUDACC__)
#define EAGERPP_THRUST_INLINE [[gnu::always_inline]] inline
#else
#define EAGERPP_THRUST_INLINE
#endif

namespace ep::detail {

/// out[i] = g(i): for_n's body for functors that compute one element from its index.
template <class Out, class G>
struct write_fn {
  Out* out;
  G g;
  EAGERPP_THRUST_INLINE EAGERPP_HOST_DEVICE void operator()(std::int64_t i) const { out[i] = g(i); }
};
template <class Out, class G>
write_fn<Out, G> write_to(Out* out, G g) {
  return {out, g};
}

/// Where S::copy moves elements: within the system's memory, or between it and the host's (a copy
/// from or to the host is synchronous: the source may be reused, and the result read, on return).
enum class copy_kind { within, from_host, to_host };

/// Row-major C[b] = op(A[b]) op(B[b]) for `batch` blocks (A: n x k, B: k x m, C: n x m after op)
/// as the column-major BLAS call both systems make (cuBLAS has no other; OpenBLAS takes it too):
/// C^T = op(B)^T op(A)^T. A row-major block read column-major is its transpose, so the first
/// operand is B, passed as stored (no transpose flag) unless it is stored transposed, and likewise
/// A second.
struct gemm_layout {
  std::int64_t batch;
  int rows, cols, inner;                   // m, n, k: the column-major product is (m x k)(k x n)
  bool transpose_first, transpose_second;  // B's and A's transpose flags
  int ld_first, ld_second, ld_out;         // the leading dimensions of B, A and C
  std::int64_t stride_first, stride_second, stride_out;  // elements between blocks of B, A and C

  static gemm_layout of(std::int64_t batch, std::int64_t n, std::int64_t k, std::int64_t m,
                        bool transpose_a, bool transpose_b) {
    const auto ni = static_cast<int>(n), ki = static_cast<int>(k), mi = static_cast<int>(m);
    return {batch,
            mi,
            ni,
            ki,
            transpose_b,
            transpose_a,
            transpose_b ? ki : mi,
            transpose_a ? ni : ki,
            mi,
            k * m,
            n * k,
            n * m};
  }
};

/// Whether A is an ep::thrust_array (of any element type and memory).
template <class A>
inline constexpr bool is_thrust_array = false;
template <class T, class Memory>
inline constexpr bool is_thrust_array<ep::thrust_array<T, Memory>> = true;

// The arguments a system's members are checked with: functors of the shapes the kernels pass.
namespace system_probe {
struct index_fn {  // for_n's f(i)
  EAGERPP_HOST_DEVICE void operator()(std::int64_t /*i*/) const {}
};
struct element_fn {  // write_n's g(i)
  EAGERPP_HOST_DEVICE float operator()(std::int64_t /*i*/) const { return 0; }
};
struct row_fn {  // write_rows's g(r, j)
  EAGERPP_HOST_DEVICE float operator()(std::int64_t /*r*/, std::int64_t /*j*/) const { return 0; }
};
struct combine_fn {  // a reduction's op(a, b)
  EAGERPP_HOST_DEVICE float operator()(float a, float b) const { return a + b; }
};
struct guarded_fn {  // what guard runs
  int operator()() const { return 0; }
};
/// One member named like each optional member: in `declares<S>`, the name is ambiguous exactly
/// where S declares a member of that name, which tells one declared wrongly from one S lacks.
struct names {
  int write_rows, reduce_columns;
};
template <class S>
struct declares : S, names {};
}  // namespace system_probe

// The members of a Thrust system: X(member, required, expected, requirement). A required member
// must meet `requirement`; an optional one that S declares must meet it too (else S counts as
// lacking it, after the sentence). Each sentence names the member and what was expected.
// clang-format off
#define EAGERPP_THRUST_SYSTEM_MEMBERS(X)                                                           \
  X(array, true,                                                                                   \
    "template <class T> using array = ep::thrust_array<T, Memory>, the raw tensor of each dtype",  \
    requires is_thrust_array<typename S::template array<float>>;                                   \
    requires is_thrust_array<typename S::template array<bool>>)                                    \
  X(policy, true, "static auto policy(), Thrust's execution policy", S::policy())                  \
  X(for_n, true,                                                                                   \
    "template <class F> static void for_n(std::int64_t n, const F& f), f(i) for every i < n in "   \
    "any order",                                                                                   \
    S::for_n(n, system_probe::index_fn{}))                                                         \
  X(write_n, true,                                                                                 \
    "template <class T, class G> static void write_n(std::int64_t n, T* out, const G& g), "        \
    "out[i] = g(i) for every i < n",                                                               \
    S::write_n(n, out, system_probe::element_fn{}))                                                \
  X(copy, true,                                                                                    \
    "template <class T> static void copy(T* out, const T* in, std::int64_t n, "                    \
    "ep::detail::copy_kind kind, std::string_view op)",                                            \
    S::copy(out, in, n, copy_kind::within, op))                                                    \
  X(segmented_reduce, true,                                                                        \
    "template <class Out, class InIt, class Op, class Init> static void segmented_reduce(InIt in, " \
    "Out* out, std::int64_t segments, std::int64_t length, Op op, Init init, std::string_view op)",\
    S::segmented_reduce(in, out, n, n, system_probe::combine_fn{}, 0.0F, op))                       \
  X(gemm, true,                                                                                    \
    "template <class T> static void gemm(const T* a, const T* b, T* c, "                           \
    "const ep::detail::gemm_layout& g, std::string_view op) for float and double",                 \
    S::gemm(in, in, out, g, op); S::gemm(din, din, dout, g, op))                                   \
  X(guard, true,                                                                                   \
    "template <class F> static decltype(auto) guard(std::string_view op, F&& f), which returns "   \
    "f() and turns the system's exceptions into ep errors",                                        \
    { S::guard(op, system_probe::guarded_fn{}) } -> std::same_as<int>)                             \
  X(write_rows, false,                                                                             \
    "template <class T, class G> static void write_rows(std::int64_t rows, std::int64_t columns, " \
    "T* out, const G& g), out[r * columns + j] = g(r, j)",                                         \
    S::write_rows(n, n, out, system_probe::row_fn{}))                                              \
  X(reduce_columns, false,                                                                         \
    "template <class Out, class InIt, class Op, class Init> static void reduce_columns(InIt x, "   \
    "Out* out, std::int64_t outer, std::int64_t rows, std::int64_t columns, std::int64_t chunks, " \
    "Op op, Init init), out[(o * chunks + c) * columns + j] = init op x[(o * rows + r) * columns " \
    "+ j] op ... over the rows r of chunk c",                                                      \
    S::reduce_columns(in, out, n, n, n, n, system_probe::combine_fn{}, 0.0F))
// clang-format on

#define EAGERPP_SYSTEM_DECLARES_true(member) true
#define EAGERPP_SYSTEM_DECLARES_false(member) \
  (std::is_class_v<S> && !std::is_final_v<S> && !requires { &system_probe::declares<S>::member; })
#define EAGERPP_SYSTEM_CHECK(member, required, expected, ...)                                \
  static constexpr bool member##_meets =                                                     \
      requires(std::int64_t n, float* out, const float* in, double* dout, const double* din, \
               const gemm_layout& g, std::string_view op) {                                  \
    __VA_ARGS__;                                                                             \
  };                                                                                         \
  static_assert(!EAGERPP_SYSTEM_DECLARES_##required(member) || member##_meets,               \
                "ep::thrust_backend: the Thrust system lacks or misdeclares " #member        \
                "; expected " expected "; see \"A Thrust system\" in docs/backends.md");     \
  static constexpr bool member = member##_meets;

/// The members a Thrust system S has (EAGERPP_THRUST_SYSTEM_MEMBERS): `system_members<S>::for_n`
/// ... `::reduce_columns`, true where S has the member as the contract says. Naming any checks them
/// all: a required member missing or declared otherwise, or an optional one declared otherwise,
/// fails to compile with a sentence naming it, what was expected, and docs/backends.md's section
/// "A Thrust system".
template <class S>
struct system_members {
  EAGERPP_THRUST_SYSTEM_MEMBERS(EAGERPP_SYSTEM_CHECK)
  static constexpr bool value =
      array && policy && for_n && write_n && copy && segmented_reduce && gemm && guard;
};

#undef EAGERPP_SYSTEM_CHECK
#undef EAGERPP_SYSTEM_DECLARES_true
#undef EAGERPP_SYSTEM_DECLARES_false
#undef EAGERPP_THRUST_SYSTEM_MEMBERS

/// A system of the Thrust backend: every required member of EAGERPP_THRUST_SYSTEM_MEMBERS (ep::cuda's
/// cuda_system, ep::omp's omp_system).
template <class S>
concept thrust_system = system_members<S>::value;

}  // namespace ep::detail
