// expect: ep::fuse: sum is not element-wise; a fused function may use element-wise ops only
// eagerpp - compile-fail: a reduction inside a function given to ep::fuse names the op in one
// sentence (the packet type a fused function sees has no sum)
// SPDX-License-Identifier: MIT
#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>
#include <eagerpp/fuse.hpp>

int main() {
  const auto x = ep::ones<ep::eigen<float>>({4});
  const auto f = [](const auto& t) { return t / t.sum(); };
  auto y = ep::fuse(f)(x);
  (void)y;
  return 0;
}
