// eagerpp - the explicit instantiations a compiled library holds (fmt's model: header-only, or the
// instantiations compiled once): EAGERPP_INSTANTIATE(EXTERN, Backend) instantiates ep::Tensor<Backend>
// and its operators between two tensors (EXTERN empty: the library's sources, cmake/compiled.cpp.in)
// or declares that the library holds them (EXTERN `extern`: the backend headers, for the users of
// eagerpp::<backend>_compiled), so that no other translation unit compiles them again.
// SPDX-License-Identifier: MIT
#pragma once

#include "eagerpp/tensor.hpp"

/// The dtypes each compiled library holds: the floating ones, where the ops and their gradient
/// rules are. Other dtypes stay header-only (each translation unit compiles what it uses).
#define EAGERPP_COMPILED_DTYPES(X, EXTERN, backend) \
  X(EXTERN, backend<float>)                         \
  X(EXTERN, backend<double>)

// Every member of the class except the member templates (astype, to, the bool-only ops, the
// overloads taking a C++ scalar), and the operators whose result type is written in their
// declaration (+ - * %; `/` and the comparisons deduce theirs, so a translation unit using them
// compiles their few lines, which call the instantiated ops).
#define EAGERPP_INSTANTIATE(EXTERN, ...)               \
  EXTERN template class ::ep::Tensor<__VA_ARGS__>;     \
  EAGERPP_INSTANTIATE_OPERATOR(EXTERN, +, __VA_ARGS__) \
  EAGERPP_INSTANTIATE_OPERATOR(EXTERN, -, __VA_ARGS__) \
  EAGERPP_INSTANTIATE_OPERATOR(EXTERN, *, __VA_ARGS__) \
  EAGERPP_INSTANTIATE_OPERATOR(EXTERN, %, __VA_ARGS__)

#define EAGERPP_INSTANTIATE_OPERATOR(EXTERN, op, ...)                     \
  EXTERN template ::ep::Tensor<__VA_ARGS__> ep::operator op<__VA_ARGS__>( \
      const ::ep::Tensor<__VA_ARGS__>&, const ::ep::Tensor<__VA_ARGS__>&);
