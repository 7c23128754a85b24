// eagerpp - random numbers: ep::generator (Philox-4x32-10) and uniform / normal, equal on every
// backend
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cmath>        // std::log1p, std::sqrt, std::cos, std::sin, std::nextafter
#include <cstdint>      // std::uint32_t, std::uint64_t
#include <limits>       // std::numeric_limits
#include <numbers>      // std::numbers::pi
#include <string_view>  // std::string_view
#include <utility>      // std::swap
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/functions.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

/// A seeded, counter-based random generator (Philox-4x32-10, as in Random123, cuRAND and JAX).
/// The numbers depend only on the seed and on how many have been drawn before, never on the
/// backend: the same seed gives the same tensors on Eigen, xtensor and CUDA.
class generator {
 public:
  explicit generator(std::uint64_t seed = 0)
      : key_{static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32)} {}

  /// The next 4 random 32-bit words.
  std::array<std::uint32_t, 4> next4() {
    std::array<std::uint32_t, 4> ctr{static_cast<std::uint32_t>(counter_),
                                     static_cast<std::uint32_t>(counter_ >> 32), 0, 0};
    ++counter_;
    std::array<std::uint32_t, 2> key = key_;
    for (int round = 0; round < 10; ++round) {
      const std::uint64_t p0 = std::uint64_t{0xD2511F53} * ctr[0];
      const std::uint64_t p1 = std::uint64_t{0xCD9E8D57} * ctr[2];
      ctr = {static_cast<std::uint32_t>(p1 >> 32) ^ ctr[1] ^ key[0], static_cast<std::uint32_t>(p1),
             static_cast<std::uint32_t>(p0 >> 32) ^ ctr[3] ^ key[1],
             static_cast<std::uint32_t>(p0)};
      key[0] += 0x9E3779B9;
      key[1] += 0xBB67AE85;
    }
    return ctr;
  }

  /// `n` integers uniform in [0, range), without bias (rejection of the top partial block of
  /// 64-bit words), each from two words of the stream. `range` must be positive.
  std::vector<std::uint64_t> below(std::uint64_t range, std::int64_t n) {
    std::vector<std::uint64_t> out;
    out.reserve(static_cast<std::size_t>(n));
    const std::uint64_t limit =
        range == 0 ? 0 : (~std::uint64_t{0} - range + 1) % range;  // 2^64 mod range
    while (static_cast<std::int64_t>(out.size()) < n) {
      const auto w = next4();
      for (int k = 0; k < 4 && static_cast<std::int64_t>(out.size()) < n; k += 2) {
        const std::uint64_t x = (std::uint64_t{w[k]} << 32) | w[k + 1];
        if (x >= limit)
          out.push_back(x % range);  // the first `limit` values would favour small results
      }
    }
    return out;
  }

  /// `n` doubles uniform in [0, 1), 53 random bits each.
  std::vector<double> uniform01(std::int64_t n) {
    std::vector<double> out(static_cast<std::size_t>(n));
    for (std::size_t i = 0; i < out.size(); i += 2) {
      const auto w = next4();
      out[i] = to_unit(w[0], w[1]);
      if (i + 1 < out.size()) out[i + 1] = to_unit(w[2], w[3]);
    }
    return out;
  }

 private:
  static double to_unit(std::uint32_t hi, std::uint32_t lo) {
    const std::uint64_t bits = (std::uint64_t{hi} << 21) ^ (lo >> 11);  // 53 bits
    return static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
  }
  std::array<std::uint32_t, 2> key_;
  std::uint64_t counter_ = 0;
};

namespace detail {
template <class B>
Tensor<B> from_doubles(const std::vector<double>& v, const Shape& shape) {
  std::vector<typename B::value_type> data(v.begin(), v.end());
  return from_vector<B>(data, shape);
}
}  // namespace detail

/// Uniform samples in [low, high) of backend B (NumPy: `Generator.uniform`); floating B only.
namespace detail {
/// Under ep::vmap (B batched): `draw(s)` of the backend underneath for s = (n, shape...), n the
/// batch size, so that every example draws its own values from the generator's stream (the same
/// ones on every run and backend).
template <backend B, class Draw>
Tensor<B> draw_per_example(std::string_view op, const Shape& shape, Draw draw) {
  Shape s = shape;
  s.insert(0, vmap_batch_size<B>(op, shape));
  return Tensor<B>(typename B::raw_type{draw(s).raw()});
}
}  // namespace detail

template <backend B>
Tensor<B> uniform(generator& gen, const Shape& shape, double low = 0, double high = 1) {
  if constexpr (detail::batching_backend<B>) {
    return detail::draw_per_example<B>("uniform", shape, [&](const Shape& s) {
      return uniform<typename B::unbatched_backend>(gen, s, low, high);
    });
  }
  static_assert(floating_dtype<typename B::value_type>,
                "ep::uniform: needs a floating backend, e.g. ep::eigen<float>");
  if (!(low <= high))
    throw value_error(
        fmt::format("uniform: low {} is greater than high {}; expected low <= high", low, high));
  using T = typename B::value_type;
  auto u = gen.uniform01(shape.numel());
  // Rounding to T can reach `high` itself: keep such values just below it, so the range is [low,
  // high).
  const double below =
      low < high ? static_cast<double>(std::nextafter(static_cast<T>(high), static_cast<T>(low)))
                 : low;
  for (auto& x : u) {
    x = low + (high - low) * x;
    if (static_cast<T>(x) >= static_cast<T>(high) && low < high) x = below;
  }
  return detail::from_doubles<B>(u, shape);
}

/// Normal samples with `mean` and `stddev` of backend B (Box-Muller on Philox); floating B only.
template <backend B>
Tensor<B> normal(generator& gen, const Shape& shape, double mean = 0, double stddev = 1) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::normal: needs a floating backend, e.g. ep::eigen<float>");
  if constexpr (detail::batching_backend<B>) {
    return detail::draw_per_example<B>("normal", shape, [&](const Shape& s) {
      return normal<typename B::unbatched_backend>(gen, s, mean, stddev);
    });
  }
  if (stddev < 0)
    throw value_error(fmt::format("normal: stddev {} is negative; expected stddev >= 0", stddev));
  const std::int64_t n = shape.numel();
  auto u = gen.uniform01(n + (n % 2));
  std::vector<double> z(static_cast<std::size_t>(n));
  for (std::size_t i = 0; i < z.size(); i += 2) {
    const double r = std::sqrt(-2.0 * std::log1p(-u[i]));  // 1 - u in (0, 1]: no log(0)
    const double t = 2.0 * std::numbers::pi * u[i + 1];
    z[i] = mean + stddev * r * std::cos(t);
    if (i + 1 < z.size()) z[i + 1] = mean + stddev * r * std::sin(t);
  }
  return detail::from_doubles<B>(z, shape);
}

/// EagerPy's forms: the tensor supplies the backend and dtype.
template <backend B>
Tensor<B> uniform(generator& gen, const Tensor<B>&, const Shape& shape, double low = 0,
                  double high = 1) {
  return uniform<B>(gen, shape, low, high);
}
template <backend B>
Tensor<B> normal(generator& gen, const Tensor<B>&, const Shape& shape, double mean = 0,
                 double stddev = 1) {
  return normal<B>(gen, shape, mean, stddev);
}

/// Integers uniform in [low, high) of an integer backend B (NumPy: `Generator.integers`,
/// `randint`), the same on every backend for the same seed. Throws ep::value_error unless low <
/// high.
template <backend B>
Tensor<B> randint(generator& gen, std::int64_t low, std::int64_t high, const Shape& shape) {
  static_assert(integer_dtype<typename B::value_type>,
                "ep::randint: needs an integer backend, e.g. ep::eigen<std::int64_t>; use "
                "ep::uniform for floats");
  if constexpr (detail::batching_backend<B>) {
    return detail::draw_per_example<B>("randint", shape, [&](const Shape& s) {
      return randint<typename B::unbatched_backend>(gen, low, high, s);
    });
  }
  using T = typename B::value_type;
  if (!(low < high))
    throw value_error(
        fmt::format("randint: low {} is not below high {}; expected low < high", low, high));
  if (low < std::numeric_limits<T>::min() || high - 1 > std::numeric_limits<T>::max())
    throw value_error(fmt::format("randint: [{}, {}) does not fit {}", low, high, dtype_name<T>()));
  for (auto d : shape)
    if (d < 0)
      throw value_error(
          fmt::format("randint: negative extent in shape {}; expected extents >= 0", shape.str()));
  const auto u =
      gen.below(static_cast<std::uint64_t>(high) - static_cast<std::uint64_t>(low), shape.numel());
  std::vector<T> data(u.size());
  for (std::size_t i = 0; i < u.size(); ++i)
    data[i] = static_cast<T>(static_cast<std::uint64_t>(low) + u[i]);
  return from_vector<B>(data, shape);
}

/// A random permutation of 0, ..., n-1 as an int64 tensor of B's backend (NumPy:
/// `Generator.permutation(n)`), by Fisher-Yates on the generator's stream: the same on every
/// backend.
template <backend B>
Tensor<typename B::template rebind<std::int64_t>> permutation(generator& gen, std::int64_t n) {
  if (n < 0) throw value_error(fmt::format("permutation: got n = {}; expected n >= 0", n));
  std::vector<std::int64_t> p(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) p[static_cast<std::size_t>(i)] = i;
  for (std::int64_t i = n - 1; i > 0; --i) {
    const auto j = static_cast<std::int64_t>(gen.below(static_cast<std::uint64_t>(i + 1), 1)[0]);
    std::swap(p[static_cast<std::size_t>(i)], p[static_cast<std::size_t>(j)]);
  }
  return from_vector<typename B::template rebind<std::int64_t>>(p, Shape(n));
}

/// `x` with its first axis shuffled (NumPy: `Generator.permutation(x)`); differentiable like
/// indexing.
template <backend B>
Tensor<B> permutation(generator& gen, const Tensor<B>& x) {
  if (x.ndim() == 0)
    throw value_error("permutation: got a 0-d tensor; expected at least one axis to shuffle");
  return x[permutation<B>(gen, x.shape()[0])];
}

}  // namespace ep
