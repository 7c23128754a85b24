// eagerpp - printing: fmt::format("{}", t) and std::cout << t, NumPy-style with elision
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::signbit, std::isnan
#include <complex>      // std::complex
#include <ostream>      // std::ostream
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep::detail {

/// Tensors with more elements than this print only the first and last 3 entries of each axis.
inline constexpr std::int64_t print_threshold = 1000;
inline constexpr std::int64_t print_edge = 3;

/// a+bj as Python prints a complex number (without its parentheses, as NumPy prints one in an
/// array): each part as `spec` formats it, the imaginary part with its sign (+nanj, -infj).
template <class F>
std::string format_complex(const std::complex<F>& z, std::string_view spec) {
  const F im = z.imag();
  const bool minus = std::signbit(im) && !std::isnan(im);
  return fmt::format(fmt::runtime(spec), z.real()) + (minus ? "-" : "+") +
         fmt::format(fmt::runtime(spec), minus ? -im : im) + "j";
}

template <class T>
std::string format_element(T v) {
  if constexpr (std::same_as<T, bool>) {
    return v ? "True" : "False";
  } else if constexpr (complex_dtype<T>) {
    return format_complex(v, "{}");
  } else {
    return fmt::format("{}", v);
  }
}

template <class T>
void format_values(std::string& out, const std::vector<T>& v, const Shape& s, const Shape& strides,
                   int axis, std::int64_t offset, bool elide) {
  if (axis == s.size()) {
    out += format_element<T>(v[static_cast<std::size_t>(offset)]);
    return;
  }
  out += '[';
  const std::int64_t n = s[axis];
  for (std::int64_t i = 0; i < n; ++i) {
    if (elide && n > 2 * print_edge && i == print_edge) {
      out += "...";
      i = n - print_edge - 1;
      out += axis + 1 == s.size() ? ", " : fmt::format(",\n{:{}}", "", axis + 1);
      continue;
    }
    format_values(out, v, s, strides, axis + 1, offset + i * strides[axis], elide);
    if (i + 1 < n) {
      out += axis + 1 == s.size()
                 ? ", "
                 : fmt::format(",{}{:{}}",
                               std::string(static_cast<std::size_t>(s.size() - axis - 1), '\n'), "",
                               axis + 1);
    }
  }
  out += ']';
}

/// `Tensor<eigen, float32>(shape=(2, 2), [[0, 1],\n [2, 3]])`.
template <class B>
std::string format_tensor(const Tensor<B>& t) {
  const Shape s = t.shape();
  const auto v = t.to_vector();
  std::string values;
  if (s.numel() == 0) {
    values = "[]";
  } else {
    format_values(values, v, s, strides_of(s), 0, 0, s.numel() > print_threshold);
  }
  return fmt::format("Tensor<{}, {}>(shape={}, {})", B::name, dtype_name<typename B::value_type>(),
                     s.str(), values);
}

}  // namespace ep::detail

/// `{}` prints the whole tensor; a format spec (`{:.1f}`, `{:>8}`) formats the number of a
/// one-element tensor (EagerPy: `f"{t.sum():.1f}"`), converted to double for a floating
/// presentation
/// (`f`, `e`, `g`, `%`, as Python does for an integer). Another tensor with a spec throws
/// fmt::format_error.
template <class B>
struct fmt::formatter<ep::Tensor<B>> {
  char spec_[32] = {};  // the spec after ':', e.g. ".1f"
  std::size_t size_ = 0;
  constexpr auto parse(fmt::format_parse_context& ctx) {
    auto it = ctx.begin();
    while (it != ctx.end() && *it != '}') {
      if (size_ + 1 == sizeof spec_) throw fmt::format_error("ep::Tensor: format spec too long");
      spec_[size_++] = *it++;
    }
    return it;
  }
  template <class Ctx>
  auto format(const ep::Tensor<B>& t, Ctx& ctx) const {
    const std::string_view spec(spec_, size_);
    if (spec.empty()) return fmt::format_to(ctx.out(), "{}", ep::detail::format_tensor(t));
    if (t.size() != 1)
      throw fmt::format_error(
          fmt::format("ep::Tensor: the format spec '{}' needs a one-element tensor; got shape {}",
                      spec, t.shape().str()));
    const auto v = t.to_vector()[0];
    const char type = spec.back();
    const bool floating = type == 'f' || type == 'F' || type == 'e' || type == 'E' || type == 'g' ||
                          type == 'G' || type == '%';
    if constexpr (ep::complex_dtype<typename B::value_type>) {  // each part, as Python does
      if (!floating)
        throw fmt::format_error(fmt::format(
            "ep::Tensor: the format spec '{}' of a complex number needs a floating presentation "
            "(f, e, g or %)",
            spec));
      return fmt::format_to(ctx.out(), "{}",
                            ep::detail::format_complex(v, fmt::format("{{:{}}}", spec)));
    } else if (floating)
      return fmt::format_to(ctx.out(), fmt::runtime(fmt::format("{{:{}}}", spec)),
                            static_cast<double>(v));
    else
      return fmt::format_to(ctx.out(), fmt::runtime(fmt::format("{{:{}}}", spec)), v);
  }
};

namespace ep {
/// Prints `t` as `fmt::format("{}", t)` does.
template <class B>
std::ostream& operator<<(std::ostream& os, const Tensor<B>& t) {
  return os << detail::format_tensor(t);
}
}  // namespace ep
