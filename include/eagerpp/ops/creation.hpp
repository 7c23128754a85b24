// eagerpp - conversion and creation ops of ep::Tensor
// SPDX-License-Identifier: MIT
#pragma once

#include <cmath>        // std::ceil
#include <concepts>     // std::same_as
#include <memory>       // std::unique_ptr
#include <string_view>  // std::string_view
#include <type_traits>  // std::conditional_t
#include <vector>       // std::vector

#include <fmt/format.h>

#include "eagerpp/memory.hpp"
#include "eagerpp/tensor.hpp"

namespace ep {

template <backend B>
auto Tensor<B>::item() const -> value_type {
  const Shape s = shape();
  if (s.numel() != 1)
    throw value_error(
        fmt::format("item: the tensor has shape {} ({} elements); expected exactly one element",
                    s.str(), s.numel()));
  value_type v{};
  B::to_data(raw(), &v);
  return v;
}

template <backend B>
auto Tensor<B>::to_vector() const -> std::vector<value_type> {
  const auto n = static_cast<std::size_t>(size());
  if constexpr (std::same_as<value_type, bool>) {  // std::vector<bool> packs bits: go through bytes
    std::unique_ptr<bool[]> tmp(new bool[n == 0 ? 1 : n]);
    B::to_data(raw(), tmp.get());
    return std::vector<bool>(tmp.get(), tmp.get() + n);
  } else {
    std::vector<value_type> out(n);
    if (n > 0) B::to_data(raw(), out.data());
    return out;
  }
}

namespace detail {
/// The gradient of a cast between inexact dtypes: g cast back to the input's dtype; from a real
/// input to a complex dtype, the real part of g (the real dtypes are a subspace of the complex).
template <class Out, class In>
struct astype_rule : takes<In> {
  In operator()(const Out& g, const Out&, const In&) const {
    using T = typename In::value_type;
    if constexpr (complex_dtype<typename Out::value_type> && !complex_dtype<T>)
      return g.real().template astype<T>();
    else
      return g.template astype<T>();
  }
};
}  // namespace detail

template <backend B>
template <ep::dtype U>
auto Tensor<B>::astype() const -> rebind<U> {
  using Out = rebind<U>;
  static_assert(!complex_dtype<value_type> || complex_dtype<U>,
                "ep::astype: a complex tensor converts only to a complex dtype; take its real(), "
                "imag() or abs() first");
  if constexpr (std::same_as<U, value_type>) {
    return *this;
  } else if constexpr (inexact_dtype<value_type> && inexact_dtype<U>) {
    return detail::make_result<Out>(detail::elementwise(&B::template astype<U>, *this),
                                    detail::astype_rule<Out, Tensor>{}, *this);
  } else {
    return detail::make_constant<Out>(detail::elementwise(&B::template astype<U>, *this));
  }
}

template <backend B>
Tensor<B> Tensor<B>::full(const Shape& shape, value_type value) const {
  for (auto d : shape)
    if (d < 0)
      throw value_error(
          fmt::format("full: negative extent in shape {}; expected extents >= 0", shape.str()));
  const detail::allocation_scope scope("full");               // names the op in a memory_error
  (void)detail::storage_elements(shape, sizeof(value_type));  // a shape past the address space
  return Tensor(B::full(shape, value));
}

template <backend B>
Tensor<B> Tensor<B>::zeros(const Shape& shape) const {
  return full(shape, value_type(0));
}

template <backend B>
Tensor<B> Tensor<B>::ones(const Shape& shape) const {
  return full(shape, value_type(1));
}

template <backend B>
Tensor<B> Tensor<B>::zeros_like() const {
  return full(shape(), value_type(0));
}

template <backend B>
Tensor<B> Tensor<B>::ones_like() const {
  return full(shape(), value_type(1));
}

template <backend B>
Tensor<B> Tensor<B>::full_like(value_type value) const {
  return full(shape(), value);
}

template <backend B>
Tensor<B> Tensor<B>::arange(double start, double stop, double step) const {
  if (step == 0) throw value_error("arange: step is 0; expected a non-zero step");
  const double n = std::ceil((stop - start) / step);
  const auto count = n > 0 ? static_cast<std::int64_t>(n) : std::int64_t{0};
  return Tensor(B::arange(static_cast<value_type>(start), static_cast<value_type>(step), count));
}

template <backend B>
Tensor<B> Tensor<B>::arange(double stop) const {
  return arange(0, stop, 1);
}

namespace detail {
/// Class labels for `classes` classes, checked: each in [0, classes). Throws ep::index_error
/// naming the op, the first label out of range, its position and the class count.
template <class I>
void check_labels(std::string_view op, const I& labels, std::int64_t classes) {
  if (labels.size() == 0) return;
  const auto all = all_examples(labels);
  if (all.min().item() >= 0 && all.max().item() < classes) return;
  const auto v = all.to_vector();
  for (std::size_t i = 0; i < v.size(); ++i)
    if (v[i] < 0 || v[i] >= classes)
      throw index_error(fmt::format(
          "{}: label {} at position {} is out of range for {} classes; expected 0 <= label < {}",
          op, v[i], i, classes, classes));
}
}  // namespace detail

template <backend B>
template <class I>
Tensor<B> Tensor<B>::onehot_like(const Tensor<I>& indices, value_type value) const {
  static_assert(numeric_dtype<typename I::value_type> && !floating_dtype<typename I::value_type>,
                "ep::onehot_like: the indices must be an integer tensor (int32 or int64)");
  const Shape s = shape();
  const Shape is = indices.shape();
  if (s.size() != 2 || is.size() != 1 || is[0] != s[0])
    throw value_error(fmt::format(
        "onehot_like: got a tensor of shape {} and indices of shape {}; expected (N, C) and (N,)",
        s.str(), is.str()));
  detail::check_labels("onehot_like", indices, s[1]);
  const auto classes = indices.arange(0, static_cast<double>(s[1])).reshape({1, s[1]});
  const auto hit = indices.reshape({s[0], 1}) == classes;
  return hit.where(full_like(value), zeros_like());
}

}  // namespace ep
