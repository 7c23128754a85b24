// eagerpp - DLPack exchange: ep::to_dlpack(t) and ep::from_dlpack<B>(m), sharing memory with
// PyTorch, NumPy, JAX, ...
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max
#include <cstddef>      // std::size_t
#include <cstdint>      // std::int64_t, std::uintptr_t
#include <cstring>      // std::memcpy
#include <memory>       // std::shared_ptr, std::unique_ptr
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <type_traits>  // std::is_same_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include <dlpack/dlpack.h>
#include <fmt/format.h>

#include "eagerpp/error.hpp"
#include "eagerpp/tensor.hpp"
#include "eagerpp/to.hpp"  // ep::shares_host_memory

namespace ep {

/// The DLPack type code eagerpp gives bool: kDLBool (6) of DLPack 0.8 and later, written as a
/// number because Debian's DLPack (0.6) predates it. PyTorch 2 uses it too; bool is stored in 8
/// bits.
inline constexpr std::uint8_t dlpack_bool_code = 6;

/// The DLPack data type of dtype T: {kDLFloat, 32, 1} for float, {kDLInt, 64, 1} for int64_t,
/// {kDLUInt, 8, 1} for uint8_t, {kDLComplex, 64, 1} for complex64, ...
template <dtype T>
constexpr DLDataType dlpack_dtype() noexcept {
  if constexpr (std::is_same_v<T, bool>)
    return DLDataType{dlpack_bool_code, 8, 1};
  else if constexpr (floating_dtype<T>)
    return DLDataType{kDLFloat, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
  else if constexpr (complex_dtype<T>)  // both parts, interleaved: 64 bits for complex64
    return DLDataType{kDLComplex, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
  else if constexpr (std::is_unsigned_v<T>)
    return DLDataType{kDLUInt, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
  else
    return DLDataType{kDLInt, static_cast<std::uint8_t>(8 * sizeof(T)), 1};
}

/// Whether DLPack can exchange backend B's memory: host backends that share their C-order elements
/// (ep::shares_host_memory: Eigen and xtensor) exchange CPU memory (kDLCPU).
template <class B>
concept dlpack_exchangeable = backend<B> && shares_host_memory<B, B>;

namespace detail {

/// What a DLManagedTensor from ep::to_dlpack owns: the elements (kept alive), its shape and
/// strides.
template <class T>
struct dlpack_context {
  std::shared_ptr<T> elements;
  std::vector<std::int64_t> shape, strides;
  DLManagedTensor managed{};
};

inline std::string dlpack_dtype_str(DLDataType t) {
  return fmt::format("(code {}, bits {}, lanes {})", static_cast<int>(t.code),
                     static_cast<int>(t.bits), static_cast<int>(t.lanes));
}

/// Copies the strided elements of `t` (strides in elements, possibly negative) into `out`, C order.
inline void dlpack_gather(const DLTensor& t, std::size_t item, unsigned char* out) {
  const auto* base = static_cast<const unsigned char*>(t.data) + t.byte_offset;
  const int n = t.ndim;
  std::vector<std::int64_t> index(static_cast<std::size_t>(n), 0);
  std::int64_t total = 1;
  for (int d = 0; d < n; ++d) total *= t.shape[d];
  for (std::int64_t k = 0; k < total; ++k) {
    std::int64_t offset = 0;
    for (int d = 0; d < n; ++d) offset += index[static_cast<std::size_t>(d)] * t.strides[d];
    std::memcpy(out + static_cast<std::size_t>(k) * item,
                base + offset * static_cast<std::int64_t>(item), item);
    for (int d = n - 1; d >= 0; --d) {  // the next index in C order
      if (++index[static_cast<std::size_t>(d)] < t.shape[d]) break;
      index[static_cast<std::size_t>(d)] = 0;
    }
  }
}

/// Whether `t` is C-contiguous: no strides, or strides that match the compact row-major ones (any
/// stride of an axis of extent 1 is ignored, as NumPy and PyTorch do; a tensor with no element is).
inline bool dlpack_c_contiguous(const DLTensor& t) {
  if (t.strides == nullptr) return true;
  std::int64_t expected = 1;
  for (int d = t.ndim - 1; d >= 0; --d) {
    if (t.shape[d] == 0) return true;
    if (t.shape[d] != 1 && t.strides[d] != expected) return false;
    expected *= t.shape[d];
  }
  return true;
}

}  // namespace detail

/// A DLPack tensor sharing `t`'s elements (PyTorch: `torch.utils.dlpack.to_dlpack`; NumPy's
/// `__dlpack__`). It keeps them alive until its deleter runs, which the consumer calls once (e.g.
/// `at::fromDLPack` does when its tensor dies); until then `t` may die. Strides are given
/// explicitly (C order), byte_offset is 0, the device is kDLCPU. eagerpp tensors are immutable: a
/// consumer that writes through the pointer changes every eagerpp tensor sharing those elements. (A
/// one-element Eigen tensor holds its element inline: it is exported as a shared copy.) Throws what
/// allocation throws.
template <dlpack_exchangeable B>
DLManagedTensor* to_dlpack(const Tensor<B>& t) {
  using T = typename B::value_type;
  const Shape shape = t.shape();
  auto ctx = std::make_unique<detail::dlpack_context<T>>();
  ctx->elements = B::share_host(t.raw());
  ctx->shape.assign(shape.begin(), shape.end());
  ctx->strides.assign(ctx->shape.size(), 1);
  for (int d = static_cast<int>(ctx->shape.size()) - 2; d >= 0; --d)
    ctx->strides[static_cast<std::size_t>(d)] =
        ctx->strides[static_cast<std::size_t>(d) + 1] *
        std::max<std::int64_t>(ctx->shape[static_cast<std::size_t>(d) + 1], 1);
  DLTensor& dl = ctx->managed.dl_tensor;
  dl.data =
      const_cast<void*>(static_cast<const void*>(ctx->elements.get()));  // DLPack has no const
  dl.device = DLDevice{kDLCPU, 0};
  dl.ndim = static_cast<int>(ctx->shape.size());
  dl.dtype = dlpack_dtype<T>();
  dl.shape = ctx->shape.data();
  dl.strides = ctx->strides.data();
  dl.byte_offset = 0;
  ctx->managed.manager_ctx = ctx.get();
  ctx->managed.deleter = [](DLManagedTensor* self) {
    delete static_cast<detail::dlpack_context<T>*>(self->manager_ctx);
  };
  return &ctx.release()->managed;
}

/// A tensor of backend B over the DLPack tensor `m`, which it consumes (PyTorch: `from_dlpack`).
/// C-contiguous elements of B's dtype in CPU memory are wrapped without a copy (strides may be
/// absent or compact, byte_offset anything that keeps elements aligned for T) and `m`'s deleter
/// runs when the last tensor sharing them dies; other strides (negative ones too) or a misaligned
/// byte_offset are copied into a new C-order buffer and the deleter runs before it returns. Throws
/// ep::value_error naming the mismatch for a null `m`, a negative extent, a dtype other than B's
/// (code, bits and lanes), or a device other than kDLCPU; then `m` is not consumed and the caller
/// still owns it.
template <dlpack_exchangeable B>
Tensor<B> from_dlpack(DLManagedTensor* m) {
  using T = typename B::value_type;
  if (m == nullptr)
    throw value_error("from_dlpack: the DLManagedTensor is null; expected one from a to_dlpack");
  const DLTensor& dl = m->dl_tensor;
  const DLDataType want = dlpack_dtype<T>();
  if (dl.dtype.code != want.code || dl.dtype.bits != want.bits || dl.dtype.lanes != want.lanes)
    throw value_error(fmt::format("from_dlpack: dtype {} does not match ep::{}<{}>; expected {} {}",
                                  detail::dlpack_dtype_str(dl.dtype), B::name, dtype_name<T>(),
                                  dtype_name<T>(), detail::dlpack_dtype_str(want)));
  if (dl.device.device_type != kDLCPU)
    throw value_error(fmt::format(
        "from_dlpack: device type {} (device {}) cannot be read by ep::{}<{}>; expected "
        "CPU memory (kDLCPU = {})",
        static_cast<int>(dl.device.device_type), dl.device.device_id, B::name, dtype_name<T>(),
        static_cast<int>(kDLCPU)));
  if (dl.ndim < 0 || (dl.ndim > 0 && dl.shape == nullptr))
    throw value_error(fmt::format(
        "from_dlpack: ndim {} without a shape; expected ndim >= 0 and a shape", dl.ndim));
  Shape shape;
  for (int d = 0; d < dl.ndim; ++d) {
    if (dl.shape[d] < 0)
      throw value_error(fmt::format(
          "from_dlpack: extent {} of axis {} is negative; expected extents >= 0", dl.shape[d], d));
  }
  shape = Shape(dl.shape, dl.shape + dl.ndim);

  // From here on `m` is ours: `owner` runs its deleter once, when the last holder of it dies.
  std::shared_ptr<void> owner(static_cast<void*>(m), [](void* p) {
    auto* managed = static_cast<DLManagedTensor*>(p);
    if (managed->deleter != nullptr) managed->deleter(managed);
  });
  auto* first = static_cast<unsigned char*>(dl.data) + dl.byte_offset;
  const bool aligned = reinterpret_cast<std::uintptr_t>(first) % alignof(T) == 0;
  if (shape.numel() > 0 && aligned && detail::dlpack_c_contiguous(dl))
    return Tensor<B>(B::from_host_shared(
        std::shared_ptr<T>(std::move(owner), reinterpret_cast<T*>(first)), shape));
  const auto n = static_cast<std::size_t>(shape.numel());
  std::unique_ptr<T[]> copy(new T[n == 0 ? 1 : n]);  // not std::vector: vector<bool> has no data()
  if (n > 0) {
    if (detail::dlpack_c_contiguous(dl))
      std::memcpy(copy.get(), first, n * sizeof(T));
    else
      detail::dlpack_gather(dl, sizeof(T), reinterpret_cast<unsigned char*>(copy.get()));
  }
  owner.reset();  // the deleter runs here
  return Tensor<B>(B::from_data(copy.get(), shape));
}

template <backend B>
requires(!dlpack_exchangeable<B>) DLManagedTensor* to_dlpack(const Tensor<B>&) {
  static_assert(detail::always_false<B>,
                "ep::to_dlpack: only host backends that share their elements (ep::eigen, "
                "ep::xtensor) exchange "
                "memory through DLPack; copy the tensor to one first, e.g. ep::to<ep::eigen>(t)");
  return nullptr;
}

template <backend B>
requires(!dlpack_exchangeable<B>) Tensor<B> from_dlpack(DLManagedTensor*) {
  static_assert(detail::always_false<B>,
                "ep::from_dlpack<B>: only host backends that share their elements (ep::eigen, "
                "ep::xtensor) wrap "
                "DLPack memory; read it with one of them and convert with ep::to<B>(t)");
  throw value_error("from_dlpack: unreachable");  // the static_assert above fails first
}

}  // namespace ep
