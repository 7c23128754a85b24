// expect: ep::thrust_backend: the Thrust system lacks or misdeclares copy; expected template <class T> static void copy\(T\* out, const T\* in, std::int64_t n, ep::detail::copy_kind kind, std::string_view op\); see \\?"A Thrust system\\?" in docs/backends.md
// eagerpp - compile-fail: a Thrust system whose required member copy has the wrong signature; the
// system's contract (ep::detail::thrust_system, backends/thrust/include/eagerpp/thrust/system.hpp)
// names the member in a sentence
// SPDX-License-Identifier: MIT
#include <cstdint>  // std::int64_t

#include <eagerpp/omp.hpp>

/// ep::omp's system with a copy that takes neither the copy's kind nor the op's name.
struct copy_without_kind : ep::detail::omp_system {
  template <class T>
  static void copy(T* out, const T* in, std::int64_t n);
};

int main() {
  using B = ep::detail::thrust_backend<float, copy_without_kind>;
  const B::raw_type x = B::full(ep::Shape{3}, 1.0F);
  return B::shape(x).numel() == 3 ? 0 : 1;
}
