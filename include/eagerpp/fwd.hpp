// eagerpp - forward declarations and the scalar types a tensor may hold
// SPDX-License-Identifier: MIT
#pragma once

#include <concepts>     // std::same_as
#include <cstdint>      // std::int32_t, std::int64_t
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_floating_point_v

namespace ep {

namespace detail {
template <class...>
inline constexpr bool always_false = false;
}  // namespace detail

/// The element types every backend supports: float, double, int32_t, int64_t and bool.
template <class T>
concept dtype = std::same_as<T, float> || std::same_as<T, double> || std::same_as<T, std::int32_t> ||
                std::same_as<T, std::int64_t> || std::same_as<T, bool>;

/// float or double.
template <class T>
concept floating_dtype = dtype<T> && std::is_floating_point_v<T>;

/// An arithmetic element type: every dtype but bool.
template <class T>
concept numeric_dtype = dtype<T> && !std::same_as<T, bool>;

/// NumPy's name of a dtype: "float32", "float64", "int32", "int64", "bool".
template <dtype T>
constexpr std::string_view dtype_name() noexcept {
  if constexpr (std::same_as<T, float>) return "float32";
  else if constexpr (std::same_as<T, double>) return "float64";
  else if constexpr (std::same_as<T, std::int32_t>) return "int32";
  else if constexpr (std::same_as<T, std::int64_t>) return "int64";
  else return "bool";
}

}  // namespace ep
