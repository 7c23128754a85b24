// eagerpp - static checks: the concepts and the result types of the facade, as static_asserts only
// SPDX-License-Identifier: MIT
//
// It lives here rather than in tests/core/ so that it builds beside the compile-fail cases; the
// ctest `static_checks` passes when this file compiles. Every backend that is linked in is checked.
#include <concepts>     // std::same_as, std::copyable
#include <cstdint>      // std::int32_t, std::int64_t
#include <string>       // std::string
#include <type_traits>  // std::is_nothrow_move_constructible_v, std::is_convertible_v
#include <utility>      // std::declval
#include <vector>       // std::vector

#include <eagerpp/eagerpp.hpp>
#if __has_include(<eagerpp/eigen.hpp>)
#include <eagerpp/eigen.hpp>
#define EAGERPP_CHECK_EIGEN 1
#endif
#if __has_include(<eagerpp/xtensor.hpp>)
#include <eagerpp/xtensor.hpp>
#define EAGERPP_CHECK_XTENSOR 1
#endif

namespace {

// --- element types --------------------------------------------------------------------------
static_assert(ep::dtype<float> && ep::dtype<double> && ep::dtype<std::int32_t> &&
              ep::dtype<std::int64_t> && ep::dtype<bool> && ep::dtype<std::int8_t> &&
              ep::dtype<std::int16_t> && ep::dtype<std::uint8_t> && ep::dtype<std::uint16_t> &&
              ep::dtype<std::uint32_t> && ep::dtype<std::uint64_t>);
static_assert(!ep::dtype<char> && !ep::dtype<long double> && !ep::dtype<std::string>);
static_assert(ep::unsigned_dtype<std::uint8_t> && !ep::unsigned_dtype<std::int8_t> &&
              !ep::unsigned_dtype<bool> && !ep::unsigned_dtype<float>);
static_assert(!ep::dtype<const float> && !ep::dtype<float&>);
static_assert(ep::floating_dtype<float> && ep::floating_dtype<double>);
static_assert(!ep::floating_dtype<std::int32_t> && !ep::floating_dtype<std::int64_t> &&
              !ep::floating_dtype<bool>);
static_assert(ep::numeric_dtype<float> && ep::numeric_dtype<std::int64_t> &&
              !ep::numeric_dtype<bool>);
static_assert(ep::dtype_name<float>() == "float32" && ep::dtype_name<double>() == "float64" &&
              ep::dtype_name<std::int32_t>() == "int32" &&
              ep::dtype_name<std::int64_t>() == "int64" && ep::dtype_name<bool>() == "bool" &&
              ep::dtype_name<std::int8_t>() == "int8" &&
              ep::dtype_name<std::int16_t>() == "int16" &&
              ep::dtype_name<std::uint8_t>() == "uint8" &&
              ep::dtype_name<std::uint16_t>() == "uint16" &&
              ep::dtype_name<std::uint32_t>() == "uint32" &&
              ep::dtype_name<std::uint64_t>() == "uint64");
static_assert(std::is_same_v<ep::sum_dtype_t<bool>, std::int64_t> &&
              std::is_same_v<ep::sum_dtype_t<std::int8_t>, std::int64_t> &&
              std::is_same_v<ep::sum_dtype_t<std::uint16_t>, std::uint64_t> &&
              std::is_same_v<ep::sum_dtype_t<std::uint32_t>, std::uint32_t> &&
              std::is_same_v<ep::sum_dtype_t<std::int32_t>, std::int32_t> &&
              std::is_same_v<ep::sum_dtype_t<float>, float>);

// --- what is not a backend -----------------------------------------------------------------------
struct not_a_backend {};
static_assert(!ep::backend<int>);
static_assert(!ep::backend<float>);
static_assert(!ep::backend<not_a_backend>);
static_assert(!ep::backend<std::vector<float>>);
static_assert(!ep::istensor<int> && !ep::istensor<std::vector<float>>);

// --- one backend B for value type T ----------------------------------------------------------
template <template <class> class Backend>
constexpr bool check_backend() {
  using B = Backend<float>;
  using T = ep::Tensor<B>;
  static_assert(ep::backend<B> && ep::backend<Backend<double>> &&
                ep::backend<Backend<std::int32_t>> && ep::backend<Backend<std::int64_t>> &&
                ep::backend<Backend<bool>>);
  static_assert(std::same_as<typename T::value_type, float>);
  static_assert(std::same_as<typename T::backend_type, B>);
  static_assert(T::dtype() == "float32");
  static_assert(std::same_as<typename B::template rebind<double>, Backend<double>>);

  // Tensors are regular values: copyable, cheaply movable, and recognized by istensor.
  static_assert(std::copyable<T>);
  static_assert(std::is_nothrow_move_constructible_v<T>);
  static_assert(ep::istensor<T> && ep::istensor<const T&> && !ep::istensor<typename B::raw_type>);
  // ... but not made from a raw tensor by accident.
  static_assert(!std::is_convertible_v<typename B::raw_type, T>);
  static_assert(std::is_constructible_v<T, typename B::raw_type>);
  // Its public members are its documented API: the tape's node, the in-place construction and the
  // facade's views are reached through ep::detail::tensor_access only.
  struct compute_raw {
    typename B::raw_type operator()() const;
  };
  static_assert(!requires(T & t) { t.set_node(1); });
  static_assert(!requires(const T& t) { t.node(); });
  static_assert(!requires(const T& t) { t.shape_ref(); });
  static_assert(!requires(const T& t) { t.is_lazy(); });
  static_assert(!std::is_constructible_v<T, ep::detail::computed_t, compute_raw&>);

  // The host backends' optional hooks, found by their concepts (include/eagerpp/backend_hooks.hpp).
  static_assert(ep::detail::host_sharing_backend<B> && ep::detail::blocked_backend<B> &&
                ep::detail::map_reducible<B> && !ep::detail::map_reducible<Backend<bool>>);

  // Comparisons give bool tensors of the same backend.
  using Bool = ep::Tensor<Backend<bool>>;
  static_assert(std::same_as<typename T::bool_tensor, Bool>);
  static_assert(std::same_as<decltype(std::declval<T>() < std::declval<T>()), Bool>);
  static_assert(std::same_as<decltype(std::declval<T>() >= 1.0f), Bool>);
  static_assert(std::same_as<decltype(std::declval<T>() == std::declval<T>()), Bool>);
  static_assert(std::same_as<decltype(std::declval<T>() != 0), Bool>);
  static_assert(std::same_as<decltype(std::declval<T>().isnan()), Bool>);

  // argmin and argmax give int64 tensors; reductions and element-wise ops keep the type.
  using Index = ep::Tensor<Backend<std::int64_t>>;
  static_assert(std::same_as<typename T::index_tensor, Index>);
  static_assert(std::same_as<decltype(std::declval<T>().argmax()), Index>);
  static_assert(std::same_as<decltype(std::declval<T>().argmax(0)), Index>);
  static_assert(std::same_as<decltype(std::declval<T>().argmin(-1)), Index>);
  static_assert(std::same_as<decltype(std::declval<T>().sum()), T>);
  static_assert(std::same_as<decltype(std::declval<T>().mean(0, true)), T>);
  static_assert(std::same_as<decltype(std::declval<T>().exp()), T>);
  static_assert(std::same_as<decltype(std::declval<T>().item()), float>);
  static_assert(std::same_as<decltype(std::declval<T>().template astype<double>()),
                             ep::Tensor<Backend<double>>>);
  static_assert(std::same_as<decltype(std::declval<T>().matmul(std::declval<T>())), T>);
  return true;
}

#ifdef EAGERPP_CHECK_EIGEN
static_assert(check_backend<ep::eigen>());
#endif
#ifdef EAGERPP_CHECK_XTENSOR
static_assert(check_backend<ep::xtensor>());
#endif
#if defined(EAGERPP_CHECK_EIGEN) && defined(EAGERPP_CHECK_XTENSOR)
static_assert(!std::same_as<ep::Tensor<ep::eigen<float>>, ep::Tensor<ep::xtensor<float>>>);
#endif

}  // namespace

int main() { return 0; }
