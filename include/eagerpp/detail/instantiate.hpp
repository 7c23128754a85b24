// eagerpp - EAGERPP_INSTANTIATE(EXTERN, Backend): the explicit instantiation of ep::Tensor<Backend>
// and of its operators between two tensors (EXTERN empty: backends/<backend>/src/compiled.cpp, the
// compiled library's one source), or its declaration (EXTERN `extern`: the backend headers, for the
// users of eagerpp::<backend>_compiled), so that no other translation unit compiles them again
// SPDX-License-Identifier: MIT
#pragma once

#include "eagerpp/tensor.hpp"

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
