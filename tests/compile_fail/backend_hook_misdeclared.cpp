// expect: ep::map_reduce: the backend declares the optional hook map_reduce, but not as template <ep::detail::reduce_kind Reduce> static raw_type map_reduce\(ep::detail::map_kind, const raw_type&\) for the reductions sum, min and max \(a template argument, not a function argument\); see \\?"Optional hooks\\?" in docs/backends.md
// eagerpp - compile-fail: an optional hook declared with the wrong signature (map_reduce taking the
// reduction as a function argument); its concept (include/eagerpp/backend_hooks.hpp) names the hook
// in a sentence instead of taking it for absent
// SPDX-License-Identifier: MIT
#include <string_view>  // std::string_view

#include <eagerpp/eagerpp.hpp>
#include <eagerpp/eigen.hpp>

/// ep::eigen<float> with a map_reduce whose reduction is a function argument.
struct runtime_map_reduce : ep::eigen<float> {
  static constexpr std::string_view name = "runtime_map_reduce";
  static raw_type map_reduce(ep::detail::reduce_kind reduce, ep::detail::map_kind map,
                             const raw_type& x);
};

int main() {
  const ep::Tensor<runtime_map_reduce> x(runtime_map_reduce::full(ep::Shape{3}, 1.0F));
  return x.square().sum().item() == 3.0F ? 0 : 1;
}
