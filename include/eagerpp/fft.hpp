// eagerpp - the array API's fft extension: ep::fft::fft, ifft, fftn, ifftn, rfft, irfft, rfftn,
// irfftn, hfft, ihfft, fftfreq, rfftfreq, fftshift, ifftshift, differentiable
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::sqrt
#include <cstdint>      // std::int64_t
#include <optional>     // std::optional
#include <string_view>  // std::string_view
#include <type_traits>  // std::remove_cvref_t
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/axes.hpp"
#include "eagerpp/error.hpp"
#include "eagerpp/ops/array_api_manipulation.hpp"
#include "eagerpp/tensor.hpp"

// One backend primitive, `B::fft(raw, int axis, bool inverse)`: the unnormalized discrete Fourier
// transform of a complex tensor along one axis (inverse: the exponent's sign +), through the
// backend's FFT library; and an optional one, `B::rfft(raw, int axis)`, its first half for a real
// input by the library's real transform (rfft_backend). Every function below is written with them
// and the facade's ops, as NumPy defines them (numpy.fft: lengths cropped or zero-padded to n, the
// three norms, the Hermitian pairs), so each runs on every backend with the primitive and
// differentiates through the ops' rules; the primitive's own rule is the same transform of the
// cotangent (the DFT matrix is symmetric: JAX's transpose, docs/autodiff.md).
namespace ep {

namespace detail {

/// Whether backend B has the primitive.
template <class B>
concept fft_backend = requires(const typename B::raw_type& x) {
  { B::fft(x, 0, false) } -> std::same_as<typename B::raw_type>;
};

template <class Tn>
Tn fft_along(const Tn& x, int axis, bool inverse);

template <class Tn>
struct fft_rule : takes<Tn> {
  int axis;
  bool inverse;
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return fft_along(g, axis, inverse); }
};

/// The unnormalized DFT of complex x along `axis` (non-negative).
template <class Tn>
Tn fft_along(const Tn& x, int axis, bool inverse) {
  using B = typename Tn::backend_type;
  static_assert(
      fft_backend<B>,
      "ep::fft: the backend has no static fft(raw, int axis, bool inverse) for its complex "
      "dtypes; see \"Writing a backend\" in docs/backends.md");
  return make_result<Tn>([&] { return B::fft(x.raw(), axis, inverse); },
                         fft_rule<Tn>{{}, axis, inverse}, x);
}

/// Whether backend B has the optional real-input primitive `B::rfft(raw, int axis)`: the first
/// n / 2 + 1 points of the unnormalized DFT along `axis` of a real floating tensor, of the complex
/// dtype of its precision, by the library's real transform (about half a complex one's work).
/// rfft (and so rfftn and ihfft) use it where B has it, else a complex transform of the input.
template <class B>
concept rfft_backend = requires(const typename B::raw_type& x) {
  {B::rfft(x, 0)};
};

/// The rule of the real-input transform y = P F x (F the DFT of n points, P its first n / 2 + 1
/// rows): x̄ = Re(F Pᵀ ȳ), the cotangent zero-padded to n points and transformed (F is symmetric).
template <class Out, class In>
struct rfft_rule : takes<In> {
  int axis;
  std::int64_t n;
  In operator()(const Out& g, const Out&, const In&) const;
};

/// The first n / 2 + 1 points of the unnormalized DFT of real x along `axis` (non-negative).
template <class B>
auto rfft_along(const Tensor<B>& x, int axis) {
  using Out = typename Tensor<B>::template rebind<complex_of_t<typename B::value_type>>;
  return make_result<Out>([&] { return B::rfft(x.raw(), axis); },
                          rfft_rule<Out, Tensor<B>>{{}, axis, x.shape()[axis]}, x);
}

/// The complex dtype of an FFT of dtype T: T itself, or the complex dtype of a real floating T.
template <class T>
using fft_complex_t = std::conditional_t<complex_dtype<T>, T, complex_of_t<real_of_t<T>>>;

/// x as a complex tensor (a real floating one converted, differentiably).
template <class B>
auto as_complex(std::string_view op, const Tensor<B>& x) {
  using T = typename B::value_type;
  static_assert(inexact_dtype<T>,
                "ep::fft: needs a floating or complex tensor; convert with astype<float>() or "
                "astype<double>() first");
  if (x.ndim() == 0)
    throw value_error(fmt::format("{}: x is 0-dimensional; expected at least one axis", op));
  return x.template astype<fft_complex_t<T>>();
}

/// The normalization `norm` of a transform of n points: the factor of the forward transform
/// (inverse: of the inverse one).
inline double fft_scale(std::string_view op, std::string_view norm, std::int64_t n, bool inverse) {
  if (norm == "backward") return inverse ? 1.0 / static_cast<double>(n) : 1.0;
  if (norm == "forward") return inverse ? 1.0 : 1.0 / static_cast<double>(n);
  if (norm == "ortho") return 1.0 / std::sqrt(static_cast<double>(n));
  throw value_error(
      fmt::format("{}: norm \"{}\"; expected \"backward\", \"ortho\" or \"forward\"", op, norm));
}

/// hfft and ihfft: the other direction's normalization.
inline std::string_view swap_direction(std::string_view norm) {
  return norm == "backward" ? "forward" : norm == "forward" ? "backward" : norm;
}

/// x cropped or zero-padded along `axis` to n points (numpy.fft's `n`).
template <class Tn>
Tn fit_axis(std::string_view op, const Tn& x, int axis, std::int64_t n) {
  if (n < 1)
    throw value_error(fmt::format("{}: {} points along axis {}; expected at least 1", op, n, axis));
  const std::int64_t len = x.shape()[axis];
  if (n == len) return x;
  if (n < len) return slice_axis(x, axis, 0, n);
  Paddings p(static_cast<std::size_t>(x.ndim()), {0, 0});
  p[static_cast<std::size_t>(axis)] = {0, n - len};
  return x.pad(p);
}

template <class Out, class In>
In rfft_rule<Out, In>::operator()(const Out& g, const Out&, const In&) const {
  return fft_along(fit_axis("rfft", g, axis, n), axis, false).real();
}

/// x transformed along `axis` over n points (cropped or zero-padded) with `norm`: `along(fitted,
/// axis)` is the transform (fft_along, rfft_along), its result scaled as `norm` says.
template <class Tn, class Along>
auto transform_axis(std::string_view op, const Tn& x, int axis, std::optional<std::int64_t> n,
                    std::string_view norm, bool inverse, const Along& along) {
  const int a = normalize_axis(op, axis, x.shape());
  const Tn fitted = fit_axis(op, x, a, n.value_or(x.shape()[a]));
  const double scale = fft_scale(op, norm, fitted.shape()[a], inverse);
  const auto y = along(fitted, a);
  using R = real_of_t<typename std::remove_cvref_t<decltype(y)>::value_type>;
  return scale == 1.0 ? y : y * static_cast<R>(scale);
}

/// The complex transform of complex x along `axis` over n points with `norm`.
template <class Tn>
Tn c2c(std::string_view op, const Tn& x, int axis, std::optional<std::int64_t> n,
       std::string_view norm, bool inverse) {
  return transform_axis(op, x, axis, n, norm, inverse,
                        [inverse](const Tn& f, int a) { return fft_along(f, a, inverse); });
}

/// fftn's and rfftn's axes and lengths, paired (numpy.fft's `s` and `axes`): by default every
/// axis, or the last len(s) axes where only s is given.
struct fft_plan_axes {
  std::vector<int> axes;
  std::vector<std::optional<std::int64_t>> lengths;
};
inline fft_plan_axes plan_axes(std::string_view op, const Shape& shape,
                               const std::vector<std::int64_t>& s, const Axes& axes) {
  fft_plan_axes out;
  if (axes.all()) {
    const int k = s.empty() ? shape.size() : static_cast<int>(s.size());
    if (k > shape.size())
      throw value_error(
          fmt::format("{}: s has {} lengths for a tensor of shape {}; expected at "
                      "most one per axis",
                      op, s.size(), shape.str()));
    for (int i = shape.size() - k; i < shape.size(); ++i) out.axes.push_back(i);
  } else {
    for (int a : axes.list()) {
      const int b = normalize_axis(op, a, shape);
      for (int c : out.axes)
        if (c == b)
          throw value_error(
              fmt::format("{}: axis {} repeated in the axes; expected each once", op, a));
      out.axes.push_back(b);
    }
    if (!s.empty() && s.size() != out.axes.size())
      throw value_error(fmt::format("{}: s has {} lengths for {} axes; expected one per axis", op,
                                    s.size(), out.axes.size()));
  }
  for (std::size_t i = 0; i < out.axes.size(); ++i)
    out.lengths.push_back(s.empty() ? std::nullopt : std::optional<std::int64_t>(s[i]));
  return out;
}

/// c2c along the first `count` axes of `plan`, each over its length.
template <class Tn>
Tn c2c_axes(std::string_view op, Tn y, const fft_plan_axes& plan, std::size_t count,
            std::string_view norm, bool inverse) {
  for (std::size_t i = 0; i < count; ++i)
    y = c2c(op, y, plan.axes[i], plan.lengths[i], norm, inverse);
  return y;
}

/// fftn (ifftn where `inverse`) of x.
template <class B>
auto c2c_n(std::string_view op, const Tensor<B>& x, const std::vector<std::int64_t>& s,
           const Axes& axes, std::string_view norm, bool inverse) {
  const auto y = as_complex(op, x);
  const auto plan = plan_axes(op, y.shape(), s, axes);
  return c2c_axes(op, y, plan, plan.axes.size(), norm, inverse);
}

/// The Hermitian-symmetric spectrum of n points whose first n / 2 + 1 are x's (along `axis`, x
/// already of that length): x, then conj(x[n - k]) for k = n / 2 + 1 ... n - 1.
template <class Tn>
Tn hermitian_extend(const Tn& x, int axis, std::int64_t n) {
  const std::int64_t m = x.shape()[axis];
  const std::int64_t rest = n - m;  // n / 2 - 1 for even n, (n - 1) / 2 for odd
  if (rest == 0) return x;
  const Tn mirrored = slice_axis(x, axis, 1, 1 + rest).flip(axis).conj();
  return concatenate(std::vector<Tn>{x, mirrored}, axis);
}

/// [0, 1, ..., count - 1] / (d n) of backend B's dtype; with `wrap`, k - n in place of each k from
/// (n + 1) / 2 on (fftfreq's negative frequencies).
template <backend B>
Tensor<B> sample_frequencies(std::string_view op, std::int64_t n, double d, std::int64_t count,
                             bool wrap) {
  if (n < 1) throw value_error(fmt::format("{}: n = {}; expected n >= 1", op, n));
  using T = typename B::value_type;
  std::vector<T> v;
  for (std::int64_t k = 0; k < count; ++k)
    v.push_back(static_cast<T>(static_cast<double>(wrap && k >= (n + 1) / 2 ? k - n : k) /
                               (d * static_cast<double>(n))));
  return from_vector<B>(v, Shape{count});
}

}  // namespace detail

namespace fft {

/// The discrete Fourier transform along `axis` over n points (x cropped or zero-padded; x's length
/// by default), scaled by `norm`: "backward" (none), "ortho" (1/sqrt(n)) or "forward" (1/n)
/// (array API and NumPy: `fft.fft`). A real floating x is converted to the complex dtype of its
/// precision.
template <backend B>
auto fft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
         std::string_view norm = "backward") {
  return detail::c2c("fft", detail::as_complex("fft", x), axis, n, norm, false);
}

/// The inverse of fft: "backward" scales it by 1/n (array API and NumPy: `fft.ifft`).
template <backend B>
auto ifft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
          std::string_view norm = "backward") {
  return detail::c2c("ifft", detail::as_complex("ifft", x), axis, n, norm, true);
}

/// fft over several axes, s[i] points along axes[i] (every axis by default; the last len(s) where
/// only s is given), the norm's factor that of all the points (array API: `fft.fftn`).
template <backend B>
auto fftn(const Tensor<B>& x, const std::vector<std::int64_t>& s = {}, const Axes& axes = {},
          std::string_view norm = "backward") {
  return detail::c2c_n("fftn", x, s, axes, norm, false);
}

/// The inverse of fftn (array API: `fft.ifftn`).
template <backend B>
auto ifftn(const Tensor<B>& x, const std::vector<std::int64_t>& s = {}, const Axes& axes = {},
           std::string_view norm = "backward") {
  return detail::c2c_n("ifftn", x, s, axes, norm, true);
}

/// The fft of a real floating x, its first n / 2 + 1 points (the others are their conjugates)
/// (array API: `fft.rfft`).
template <backend B>
auto rfft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
          std::string_view norm = "backward") {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::fft::rfft: needs a real floating tensor; of a complex one, use fft");
  if constexpr (detail::rfft_backend<B>) {
    if (x.ndim() == 0) throw value_error("rfft: x is 0-dimensional; expected at least one axis");
    return detail::transform_axis("rfft", x, axis, n, norm, false, [](const Tensor<B>& f, int a) {
      return detail::rfft_along(f, a);
    });
  } else {
    const auto full = detail::c2c("rfft", detail::as_complex("rfft", x), axis, n, norm, false);
    const int a = detail::normalize_axis("rfft", axis, x.shape());
    return detail::slice_axis(full, a, 0, full.shape()[a] / 2 + 1);
  }
}

/// The inverse of rfft: n real points (2 (m - 1) by default, m the length along `axis`) from the
/// first n / 2 + 1 points of a Hermitian spectrum (array API: `fft.irfft`); the imaginary parts of
/// the points that must be real (the first, and the middle one for even n) are ignored.
template <backend B>
auto irfft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
           std::string_view norm = "backward") {
  const auto z = detail::as_complex("irfft", x);
  const int a = detail::normalize_axis("irfft", axis, z.shape());
  const std::int64_t points = n.value_or(2 * (z.shape()[a] - 1));
  if (points < 1)
    throw value_error(fmt::format(
        "irfft: {} output points along axis {} (of an input of shape {}); expected at least 1",
        points, a, z.shape().str()));
  const auto half = detail::fit_axis("irfft", z, a, points / 2 + 1);
  return detail::c2c("irfft", detail::hermitian_extend(half, a, points), a, points, norm, true)
      .real();
}

/// rfft along the last of `axes`, then fft along the others (array API: `fft.rfftn`).
template <backend B>
auto rfftn(const Tensor<B>& x, const std::vector<std::int64_t>& s = {}, const Axes& axes = {},
           std::string_view norm = "backward") {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::fft::rfftn: needs a real floating tensor; of a complex one, use fftn");
  if (x.ndim() == 0) throw value_error("rfftn: x is 0-dimensional; expected at least one axis");
  const auto plan = detail::plan_axes("rfftn", x.shape(), s, axes);
  if (plan.axes.empty()) throw value_error("rfftn: no axes; expected at least one");
  return detail::c2c_axes("rfftn", rfft(x, plan.lengths.back(), plan.axes.back(), norm), plan,
                          plan.axes.size() - 1, norm, false);
}

/// The inverse of rfftn: ifft along all but the last of `axes`, then irfft along the last (s[-1]
/// real points, 2 (m - 1) by default) (array API: `fft.irfftn`).
template <backend B>
auto irfftn(const Tensor<B>& x, const std::vector<std::int64_t>& s = {}, const Axes& axes = {},
            std::string_view norm = "backward") {
  const auto y = detail::as_complex("irfftn", x);
  const auto plan = detail::plan_axes("irfftn", y.shape(), s, axes);
  if (plan.axes.empty()) throw value_error("irfftn: no axes; expected at least one");
  return irfft(detail::c2c_axes("irfftn", y, plan, plan.axes.size() - 1, norm, true),
               plan.lengths.back(), plan.axes.back(), norm);
}

/// The fft of a Hermitian-symmetric signal given by its first half: n real points (2 (m - 1) by
/// default) (array API: `fft.hfft`; irfft of conj(x) with the other direction's norm).
template <backend B>
auto hfft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
          std::string_view norm = "backward") {
  (void)detail::fft_scale("hfft", norm, 1, false);  // rejects an unknown norm
  return irfft(detail::as_complex("hfft", x).conj(), n, axis, detail::swap_direction(norm));
}

/// The inverse of hfft: the first n / 2 + 1 points of the inverse fft of a real x (array API:
/// `fft.ihfft`; conj(rfft(x)) with the other direction's norm).
template <backend B>
auto ihfft(const Tensor<B>& x, std::optional<std::int64_t> n = std::nullopt, int axis = -1,
           std::string_view norm = "backward") {
  (void)detail::fft_scale("ihfft", norm, 1, false);
  return rfft(x, n, axis, detail::swap_direction(norm)).conj();
}

/// The sample frequencies of an fft of n points spaced d apart: [0, 1, ..., (n - 1) / 2,
/// -(n / 2), ..., -1] / (d n) (array API: `fft.fftfreq`), of backend B's dtype (floating).
template <backend B>
Tensor<B> fftfreq(std::int64_t n, double d = 1.0) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::fft::fftfreq: needs a floating backend, e.g. ep::eigen<double>");
  return detail::sample_frequencies<B>("fftfreq", n, d, n, true);
}

/// The sample frequencies of an rfft of n points: [0, 1, ..., n / 2] / (d n) (array API:
/// `fft.rfftfreq`).
template <backend B>
Tensor<B> rfftfreq(std::int64_t n, double d = 1.0) {
  static_assert(floating_dtype<typename B::value_type>,
                "ep::fft::rfftfreq: needs a floating backend, e.g. ep::eigen<double>");
  return detail::sample_frequencies<B>("rfftfreq", n, d, n / 2 + 1, false);
}

/// x rolled by n / 2 along each of `axes` (every axis by default), the zero frequency moved to the
/// middle (array API: `fft.fftshift`).
template <backend B>
Tensor<B> fftshift(const Tensor<B>& x, const Axes& axes = {}) {
  Tensor<B> y = x;
  for (int a : detail::normalize_axes("fftshift", axes, x.shape()))
    y = roll(y, y.shape()[a] / 2, a);
  return y;
}

/// The inverse of fftshift: rolled by -(n / 2) (array API: `fft.ifftshift`).
template <backend B>
Tensor<B> ifftshift(const Tensor<B>& x, const Axes& axes = {}) {
  Tensor<B> y = x;
  for (int a : detail::normalize_axes("ifftshift", axes, x.shape()))
    y = roll(y, -(y.shape()[a] / 2), a);
  return y;
}

}  // namespace fft
}  // namespace ep
