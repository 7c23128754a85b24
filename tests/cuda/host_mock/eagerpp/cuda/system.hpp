// eagerpp - tests/cuda/host_mock: what eagerpp/cuda/cusolver.hpp takes from the real system.hpp,
// as host loops and copies
// SPDX-License-Identifier: MIT
#pragma once

#include <cstdint>      // std::int64_t
#include <cstring>      // std::memcpy
#include <string_view>  // std::string_view

#include "eagerpp/cuda/runtime.hpp"
#include "eagerpp/thrust/system.hpp"

namespace ep::detail {

struct cuda_system {
  template <class F>
  static void for_n(std::int64_t n, const F& f) {
    for (std::int64_t i = 0; i < n; ++i) f(i);
  }
  template <class T>
  static void copy(T* out, const T* in, std::int64_t n, copy_kind /*kind*/,
                   std::string_view /*op*/) {
    if (n > 0) std::memcpy(out, in, static_cast<std::size_t>(n) * sizeof(T));
  }
  template <class F>
  static decltype(auto) guard(std::string_view /*op*/, F&& f) {
    return f();
  }
};

}  // namespace ep::detail
