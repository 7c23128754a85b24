// expect: ep::cumsum: the backend has no static cumsum\(raw, int axis\)
// eagerpp - compile-fail: a backend missing one function the facade calls; the contract of its family
// (ep::reduction_backend, include/eagerpp/backend.hpp) names the function in a sentence
// SPDX-License-Identifier: MIT
#include <string_view>  // std::string_view

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

/// ep::eigen<float> with its cumsum hidden: a backend that forgot one function.
struct no_cumsum : ep::eigen<float> {
  static constexpr std::string_view name = "no_cumsum";
  static void cumsum() = delete;  // hides eigen<float>::cumsum(raw, int axis)
};

int main() {
  const ep::Tensor<no_cumsum> x(no_cumsum::full(ep::Shape{3}, 1.0F));
  return x.size() == 3 ? 0 : 1;
}
