// expect: (constraint failure for .*requires +backend<Backend>|satisfaction of 'backend<|does not satisfy 'backend'|constraints not satisfied for class template 'Tensor' \[with Backend = int\])
// eagerpp - compile-fail: a type that is no backend as the B of ep::Tensor<B>; the concept ep::backend says why
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>

int main() {
  ep::Tensor<int>* t =
      nullptr;  // int is an element type, not a backend: ep::Tensor<ep::eigen<int>> is meant
  return t == nullptr ? 0 : 1;
}
