// eagerpp - linear algebra ops of ep::Tensor: matmul
// SPDX-License-Identifier: MIT
#pragma once

#include <numeric>  // std::iota

#include <fmt/format.h>

#include "eagerpp/tensor.hpp"

namespace ep {

namespace detail {
/// The last two axes swapped.
template <class Tn>
Tn swap_last(const Tn& x) {
  std::vector<int> perm(static_cast<std::size_t>(x.ndim()));
  std::iota(perm.begin(), perm.end(), 0);
  std::swap(perm[perm.size() - 1], perm[perm.size() - 2]);
  return x.transpose(perm);
}

/// matmul of operands of rank >= 2 with equal batch axes: one backend call and its gradient.
template <class Tn>
Tn matmul_batched(const Tn& a, const Tn& b) {
  using B = typename Tn::backend_type;
  return make_result<Tn>(
      B::matmul(a.raw(), b.raw()),
      [](const Tn& g, const Tn&, const Tn& x, const Tn& y) {
        return std::tuple{matmul_batched(g, swap_last(y)), matmul_batched(swap_last(x), g)};
      },
      a, b);
}
}  // namespace detail

template <backend B>
Tensor<B> Tensor<B>::matmul(const Tensor& other) const {
  static_assert(numeric_dtype<value_type>, "ep::matmul: needs numeric tensors, not bool");
  const Shape sa = shape();
  const Shape sb = other.shape();
  if (sa.size() == 0 || sb.size() == 0)
    throw value_error(fmt::format("matmul: operands of shapes {} and {} include a 0-d tensor; expected rank >= 1", sa.str(),
                                  sb.str()));
  // NumPy: a 1-D left operand is a row vector, a 1-D right operand a column vector, removed after.
  const Tensor a = sa.size() == 1 ? reshape({1, sa[0]}) : *this;
  const Tensor b = sb.size() == 1 ? other.reshape({sb[0], 1}) : other;
  const Shape pa = a.shape();
  const Shape pb = b.shape();
  if (pa.back() != pb[pb.size() - 2])
    throw value_error(fmt::format("matmul: inner dimensions differ for shapes {} and {}; expected {} == {}", sa.str(), sb.str(),
                                  pa.back(), pb[pb.size() - 2]));
  const Shape batch_a(pa.begin(), pa.end() - 2);
  const Shape batch_b(pb.begin(), pb.end() - 2);
  Shape batch = broadcast_shapes(batch_a, batch_b, "matmul");
  Shape fa = batch, fb = batch;
  fa.push_back(pa[pa.size() - 2]);
  fa.push_back(pa.back());
  fb.push_back(pb[pb.size() - 2]);
  fb.push_back(pb.back());
  Tensor r = detail::matmul_batched(a.broadcast_to(fa), b.broadcast_to(fb));
  if (sa.size() == 1 || sb.size() == 1) {
    Shape out = batch;
    if (sa.size() > 1) out.push_back(pa[pa.size() - 2]);
    if (sb.size() > 1) out.push_back(pb.back());
    r = r.reshape(out);
  }
  return r;
}

/// The matrix product `a @ b` (NumPy: `matmul`); batch axes broadcast.
template <backend B>
Tensor<B> matmul(const Tensor<B>& a, const Tensor<B>& b) {
  return a.matmul(b);
}

}  // namespace ep
