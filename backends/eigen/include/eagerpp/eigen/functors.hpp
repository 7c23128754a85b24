// eagerpp - scalar functors of the Eigen backend over NumPy's rules (floor_divide, mod, integer power)
// SPDX-License-Identifier: MIT
#pragma once

#include "eagerpp/detail/numpy_math.hpp"

namespace ep::detail {

/// Division: IEEE for floats; for integers C++ truncation, with x / 0 == 0 and no overflow trap.
template <class T>
struct eigen_divide_op {
  T operator()(T a, T b) const noexcept { return numpy::divide(a, b); }
};

/// NumPy floor_divide (ep::detail::numpy::floor_divide).
template <class T>
struct eigen_floor_divide_op {
  T operator()(T a, T b) const noexcept { return numpy::floor_divide(a, b); }
};

/// NumPy remainder (ep::detail::numpy::mod).
template <class T>
struct eigen_mod_op {
  T operator()(T a, T b) const noexcept { return numpy::mod(a, b); }
};

/// Integer power (ep::detail::numpy::int_power).
template <class T>
struct eigen_int_power_op {
  T operator()(T a, T b) const noexcept { return numpy::int_power(a, b); }
};

}  // namespace ep::detail
