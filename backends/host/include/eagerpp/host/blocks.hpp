// eagerpp - lazy element-wise expressions evaluated in cache-sized blocks: the one fusion mechanism
// of the host backends (Eigen, xtensor, OpenMP)
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>  // std::min, std::max, std::all_of, std::copy_n
#include <any>        // std::any, std::any_cast
#include <atomic>     // std::atomic
#include <concepts>   // std::convertible_to
#include <cstdint>    // std::int64_t
#include <memory>     // std::shared_ptr, std::make_shared
#include <mutex>      // std::mutex, std::lock_guard
#include <optional>   // std::optional
#include <span>       // std::span
#include <tuple>      // std::tuple, std::apply
#include <utility>    // std::move, std::pair

#include "eagerpp/detail/fusion.hpp"
#include "eagerpp/ops/reductions.hpp"
#include "eagerpp/shape.hpp"
#include "eagerpp/storage.hpp"

namespace ep::detail {

// A picture of the evaluation. `y = (-x * x).exp() * x.sin() + 1` with x of 10^6 floats builds,
// op by op, a tree of six nodes (negative, multiply, exp, sin, multiply, add) whose leaves are x's
// buffer and the 0-d 1; nothing is computed. When y's values are needed (raw(), a reduction, a
// shape op, printing...), one buffer of 10^6 floats is allocated for y and filled block by block:
// for the block of elements [0, 4096), every node calls its backend kernel (the same B::exp that
// the eager op calls on the whole tensor) on rank-1 views of its inputs' blocks [0, 4096), from
// the leaves up; the intermediate blocks of 4096 floats stay in L1/L2 (the evaluation's scratch
// buffers, block_context::scratch), and the last op writes straight into y's buffer. Then the
// block [4096, 8192), and so on: x is read once and y written once, where the eager ops read and
// write a whole tensor six times each. A reduction of a lazy tensor (`y.sum()`, `y.max(1)`)
// reduces each block as it is computed and never writes y at all.

// The defaults of fusion_settings. Results with fewer than min_size elements are computed at once:
// the bookkeeping of an expression (a node, a shared state, the block loop) costs about what a pass
// over 10^4 floats costs (benchmarks/fusion_bench.cpp). A block holds at most block_bytes bytes per
// node, so that the block of the op running and the blocks of its inputs stay in the L1 and L2
// caches of current x86-64 and ARM64 cores.

/// Blocks start at multiples of this many elements and every block but the last holds a multiple
/// of it: each ends at a whole number of SIMD packets, so a block runs exactly the instructions
/// that the same elements run in a whole-tensor kernel (whose scalar tail is the tensor's last
/// elements only), and its results are the same (a transcendental function's SIMD and scalar
/// versions can differ in the last bits).
inline constexpr std::int64_t block_grain = 64;

/// The elements of a block of T of at most `bytes` bytes: a multiple of block_grain, at least one
/// grain.
template <class T>
constexpr std::int64_t block_elements(std::int64_t bytes) {
  return std::max<std::int64_t>(
      block_grain, bytes / static_cast<std::int64_t>(sizeof(T)) / block_grain * block_grain);
}

/// An expression that grew past this many nodes is computed before the next op takes it in, which
/// bounds the recursion of a block evaluation and the inputs a loop like `x = x * 0.9 + 1` keeps.
inline constexpr int max_lazy_nodes = 24;

/// Runs `fn(first, last)` over the block indices [0, count): in one call, or, on a backend with the
/// optional hook `B::parallel_blocks(count, fn)` (ep::omp: its OpenMP threads), over contiguous
/// ranges on several threads at once. Each call evaluates its range with its own block_context.
template <class B, class Fn>
void for_blocks(std::int64_t count, const Fn& fn) {
  if constexpr (parallel_blocks_backend<B>) {
    B::parallel_blocks(count, fn);
  } else {
    fn(std::int64_t{0}, count);
  }
}

/// The first element of a host backend's native tensor (the backends' raw types have data(); the
/// hook share_host is the fallback, at the cost of a shared pointer).
template <class B>
const typename B::value_type* host_data(const typename B::raw_type& x) {
  if constexpr (requires {
                  { x.data() } -> std::convertible_to<const typename B::value_type*>;
                })
    return x.data();
  else
    return B::share_host(x).get();
}

/// The state of one evaluation: which nodes are used by more than one node of the expression, and
/// the last block each of those computed, so that a value used twice is computed once per block;
/// and the memory the intermediate blocks are computed into.
/// One per evaluation (on the evaluating thread's stack): the nodes themselves stay immutable.
/// Fixed arrays, not containers: an expression has at most max_lazy_nodes nodes, so at most that
/// many distinct nodes and live blocks (and a full array only costs speed: an unrecorded node is
/// computed once per use, an unserved block goes to the allocator).
class block_context {
 public:
  /// A context whose scratch blocks hold `block_bytes` bytes (the evaluation's fusion_settings).
  explicit block_context(std::int64_t block_bytes) : block_bytes_(block_bytes) {}

  struct entry {
    const void* node = nullptr;
    int uses = 0;
    std::int64_t begin = -1;  // of the block held in `value`, -1 for none
    std::any value;
  };
  /// Counts one more use of `node`; true on its first.
  bool use(const void* node) {
    if (entry* e = find(node)) return ++e->uses, false;
    if (entries_ < capacity) entry_[entries_++] = entry{node, 1, -1, {}};
    return true;
  }
  /// Once every use is counted: forgets the nodes used once, so that shared() looks through the
  /// shared ones only (it is asked for every node of every block).
  void counted() {
    int kept = 0;
    for (int i = 0; i < entries_; ++i)
      if (entry_[i].uses > 1) entry_[kept++] = std::move(entry_[i]);
    entries_ = kept;
  }
  /// The memo of `node` if it has several uses in this evaluation, else nullptr.
  entry* shared(const void* node) { return find(node); }

  /// Where the next op's result block of `bytes` bytes (at most block_bytes) goes: a buffer of this
  /// evaluation that no live block holds (the blocks that hold one share its owner). An op's block
  /// lives until the op that reads it has run, so a few buffers serve a whole expression, block
  /// after block, and stay in cache; no block goes through the allocator.
  /// nullptr for a larger block (the allocator's, then).
  output_target* scratch(std::size_t bytes) {
    if (bytes > static_cast<std::size_t>(block_bytes_)) return nullptr;
    output_target* free = nullptr;
    for (int i = 0; i < targets_ && free == nullptr; ++i)
      if (target_[i].owner.use_count() == 1) free = &target_[i];
    if (free == nullptr) {
      if (targets_ == capacity) return nullptr;
      std::shared_ptr<storage_block> memory = allocate_storage<storage_block>(
          (static_cast<std::size_t>(block_bytes_) + sizeof(storage_block) - 1) /
          sizeof(storage_block));
      void* data = memory.get();
      free = &target_[targets_++];
      *free = output_target{std::move(memory), data, 0};
    }
    free->bytes = bytes;
    return free;
  }

 private:
  static constexpr int capacity = max_lazy_nodes;
  entry* find(const void* node) {
    for (int i = 0; i < entries_; ++i)
      if (entry_[i].node == node) return &entry_[i];
    return nullptr;
  }
  entry entry_[capacity];
  output_target target_[capacity];  // targets handed out stay where they are
  int entries_ = 0;
  int targets_ = 0;
  std::int64_t block_bytes_;
};

/// A tensor of backend B whose value is an expression over other tensors, computed on first use.
/// Immutable once made; its value is computed once, by the first thread that asks, the others wait.
template <class B>
class lazy_expr {
 public:
  using raw_type = typename B::raw_type;
  using value_type = typename B::value_type;

  lazy_expr(Shape shape, int nodes, bool row_views, bool exact_tails)
      : shape_(std::move(shape)),
        size_(shape_.numel()),
        nodes_(nodes),
        row_views_(row_views),
        exact_tails_(exact_tails) {}
  lazy_expr(const lazy_expr&) = delete;
  lazy_expr& operator=(const lazy_expr&) = delete;
  virtual ~lazy_expr() = default;

  [[nodiscard]] const Shape& shape() const noexcept { return shape_; }
  [[nodiscard]] std::int64_t size() const noexcept { return size_; }
  /// The nodes of the expression (shared ones counted once per use: an upper bound).
  [[nodiscard]] int nodes() const noexcept { return nodes_; }
  /// Whether a leaf's block is a view of memory rather than a copy when the block lies within one
  /// row (the last axis): the evaluation then aligns its blocks to rows (lazy_gather).
  [[nodiscard]] bool row_views() const noexcept { return row_views_; }
  /// Whether every op of the expression is tail_exact (detail/fusion.hpp): its blocks may then end
  /// inside a SIMD packet and still give the eager values.
  [[nodiscard]] bool exact_tails() const noexcept { return exact_tails_; }
  /// Whether the value was computed already (a consumer then reads it instead of the expression).
  [[nodiscard]] bool computed() const noexcept { return done_.load(std::memory_order_acquire); }

  /// The value, computed by the first caller block by block into one buffer. (A mutex and an
  /// atomic flag, not std::call_once: a computed value read again costs one acquire load, several
  /// times less than std::call_once's check.)
  const raw_type& value() const {
    if (!done_.load(std::memory_order_acquire)) {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (!done_.load(std::memory_order_relaxed)) {
        std::shared_ptr<value_type> out =
            allocate_storage<value_type>(static_cast<std::size_t>(size_));
        write(out, 0, strides_of(shape_));
        value_.emplace(B::from_host_shared(std::move(out), shape_));
        done_.store(true, std::memory_order_release);
      }
    }
    return *value_;
  }

  /// Computes the value into memory the caller owns, block by block, without keeping it: the
  /// element at C-order index (i_0, ..., i_{r-1}) goes to `out[offset + sum_d i_d * strides[d]]`,
  /// where the last stride is 1 (a C-order buffer of the shape: offset 0 and its strides; the
  /// interior of a padded buffer: `pad` of an expression, lazy_pad).
  void write(const std::shared_ptr<value_type>& out, std::int64_t offset,
             const Shape& strides) const {
    const int rank = shape_.size();
    const std::int64_t row = rank == 0 ? 1 : shape_[rank - 1];
    const bool dense = offset == 0 && strides == strides_of(shape_);
    const std::int64_t bytes = thread_fusion().block_bytes;
    // One op over computed inputs has no intermediate to keep in cache: its kernel runs once, on
    // the whole tensor, as it would eagerly.
    const std::int64_t step = nodes_ == 1 && dense && !row_views_
                                  ? std::max<std::int64_t>(size_, 1)
                                  : block_elements<value_type>(bytes);
    constexpr std::int64_t grain = block_grain;
    // Blocks within rows where a leaf's block is then a view (row_views) or where the rows are
    // apart in `out`: a block of a row goes straight to its place. Rows shorter than a quarter
    // block keep whole blocks (a block per short row would cost more than the copies it saves).
    const bool by_rows = rank >= 2 && row >= step / 4 && (row_views_ || !dense);
    // Block i is [begin, end). Every block starts at a multiple of the grain and every block but
    // the last has a whole number of grains (the same values as the eager kernel: block_grain),
    // unless every op is tail_exact: then a row's blocks are its elements in blocks of at most
    // `step`. Otherwise row r's slots are its whole grains [a, b) in blocks of at most `step`,
    // then the elements [b, next row's a) across the row's end, under two grains (gathered).
    const bool ends_anywhere = by_rows && exact_tails_;
    const auto ceil_grain = [](std::int64_t e) { return (e + grain - 1) / grain * grain; };
    const std::int64_t slots = by_rows ? (row + step - 1) / step + (ends_anywhere ? 0 : 1) : 1;
    const std::int64_t count = by_rows ? size_ / row * slots : (size_ + step - 1) / step;
    const auto bounds = [&](std::int64_t i) -> std::pair<std::int64_t, std::int64_t> {
      if (!by_rows) return {i * step, std::min(size_, (i + 1) * step)};
      const std::int64_t r = slots == 1 ? i : i / slots;  // a row per block: no division
      const std::int64_t j = i - r * slots;
      if (ends_anywhere)
        return {r * row + j * step, std::min((r + 1) * row, r * row + (j + 1) * step)};
      const std::int64_t a = ceil_grain(r * row);
      const std::int64_t b = (r + 1) * row / grain * grain;
      if (j + 1 < slots) return {a + j * step, std::min(b, a + (j + 1) * step)};
      return {std::max(a, b), std::min(size_, ceil_grain((r + 1) * row))};
    };
    // The place of element `e` (C order) in `out`.
    const auto place = [&](std::int64_t e) {
      std::int64_t at = offset;
      for (int d = rank - 1; d > 0 && e != 0; --d) {
        at += e % shape_[d] * strides[d];
        e /= shape_[d];
      }
      return rank == 0 ? at : at + e * strides[0];  // e < shape_[0]: no division for axis 0
    };
    for_blocks<B>(count, [&](std::int64_t first, std::int64_t last) {
      block_context ctx = context(bytes);
      // Each block's last op writes into `out` where its kernel allocates its result once, of the
      // block's size (the backends' element-wise kernels do); otherwise its block is copied there.
      output_target into{out, nullptr, 0};
      for (std::int64_t i = first; i < last; ++i) {
        const auto [begin, end] = bounds(i);
        const std::int64_t len = end - begin;
        if (len <= 0) continue;
        if (dense || begin / row == (end - 1) / row) {  // contiguous in `out`
          value_type* to = out.get() + (dense ? begin : place(begin));
          into.data = to;
          into.bytes = static_cast<std::size_t>(len) * sizeof(value_type);
          const raw_type b = block(ctx, begin, len, &into);
          if (host_data<B>(b) != to) B::to_data(b, to);
        } else {  // across rows that are apart in `out`: copied row by row
          const std::shared_ptr<value_type> b = B::share_host(block(ctx, begin, len));
          for (std::int64_t k = 0; k < len;) {
            const std::int64_t n = std::min(len - k, row - (begin + k) % row);
            std::copy_n(b.get() + k, n, out.get() + place(begin + k));
            k += n;
          }
        }
      }
    });
  }

  /// A context for evaluating this expression's blocks (block()) of at most `block_bytes` bytes
  /// per node, with its shared nodes counted.
  [[nodiscard]] block_context context(std::int64_t block_bytes) const {
    block_context ctx(block_bytes);
    ctx.use(this);
    count_uses(ctx);
    ctx.counted();
    return ctx;
  }

  /// Elements [begin, begin + len) of the value in C order, as a rank-1 native tensor; with `into`,
  /// the op's kernel may write them into that memory (output_target), which the result then views.
  raw_type block(block_context& ctx, std::int64_t begin, std::int64_t len,
                 output_target* into = nullptr) const {
    if (computed()) return view(B::share_host(*value_), begin, len);
    if (block_context::entry* memo = ctx.shared(this)) {
      if (memo->begin != begin) {
        if (auto* held = std::any_cast<raw_type>(&memo->value))
          *held = compute_block(ctx, begin, len, nullptr);  // no new std::any holder per block
        else
          memo->value = compute_block(ctx, begin, len, nullptr);
        memo->begin = begin;
      }
      return std::any_cast<const raw_type&>(memo->value);
    }
    return compute_block(ctx, begin, len, into);
  }

  /// Elements [begin, begin + len) of `data` as a rank-1 native tensor, sharing them.
  static raw_type view(const std::shared_ptr<value_type>& data, std::int64_t begin,
                       std::int64_t len) {
    return B::from_host_shared(std::shared_ptr<value_type>(data, data.get() + begin), Shape(len));
  }

  /// Counts, in `ctx`, the uses of the expressions this one reads.
  virtual void count_uses(block_context& ctx) const = 0;

  /// The map this node applies, if it is a unary op a backend reduction can take in (map_reduce).
  [[nodiscard]] virtual std::optional<map_kind> map() const noexcept { return std::nullopt; }
  /// For a node with a map(): the block of its input (the same dtype and elements as this block).
  virtual raw_type map_input_block(block_context& ctx, std::int64_t begin, std::int64_t len) const {
    return block(ctx, begin, len);
  }
  /// For a node with a map(): whether its input is computed (a block of it is a view, not work),
  /// so that a reduction may take the whole input as one block.
  [[nodiscard]] virtual bool map_input_computed() const noexcept { return false; }

 protected:
  /// The block, computed from the inputs' blocks; the op's own result allocation may go `into`.
  virtual raw_type compute_block(block_context& ctx, std::int64_t begin, std::int64_t len,
                                 output_target* into) const = 0;

 private:
  Shape shape_;
  std::int64_t size_;
  int nodes_;
  bool row_views_;
  bool exact_tails_;
  mutable std::mutex mutex_;
  mutable std::optional<raw_type> value_;
  mutable std::atomic<bool> done_{false};
};

/// The facade's access to a tensor's expression.
struct lazy_access {
  /// The expression `t`'s values are, if it is lazy (nullptr otherwise).
  template <class Tn>
  static const auto& expr(const Tn& t) noexcept {
    return t.lazy_;
  }
};

/// How a node reads one input tensor `Tn` (of backend Tn::backend_type, possibly another dtype):
/// the input's own expression while it is not computed, rank-1 views of its elements once it is,
/// or, for a one-element input that broadcasts, that element as a 0-d tensor for every block.
template <class Tn>
class lazy_input {
 public:
  using backend_type = typename Tn::backend_type;
  using raw_type = typename Tn::raw_type;
  using value_type = typename Tn::value_type;

  lazy_input(const Tn& t, std::int64_t out_size) {
    const auto& expr = lazy_access::expr(t);
    if (t.size() != out_size) {
      scalar_.emplace(backend_type::reshape(t.raw(), Shape{}));
    } else if (expr && !expr->computed()) {
      expr_ = expr;
    } else {
      data_ = backend_type::share_host(t.raw());
    }
  }

  [[nodiscard]] int nodes() const noexcept { return expr_ ? expr_->nodes() : 0; }
  [[nodiscard]] bool row_views() const noexcept { return expr_ && expr_->row_views(); }
  [[nodiscard]] bool exact_tails() const noexcept { return !expr_ || expr_->exact_tails(); }
  /// Whether the input's elements are computed: its blocks are views of them.
  [[nodiscard]] bool computed() const noexcept { return data_ != nullptr; }

  void count_uses(block_context& ctx) const {
    if (expr_ && ctx.use(expr_.get())) expr_->count_uses(ctx);
  }

  raw_type block(block_context& ctx, std::int64_t begin, std::int64_t len) const {
    if (scalar_) return *scalar_;
    if (expr_) return expr_->block(ctx, begin, len);
    return lazy_expr<backend_type>::view(data_, begin, len);
  }

 private:
  std::shared_ptr<const lazy_expr<backend_type>> expr_;
  std::shared_ptr<value_type> data_;
  std::optional<raw_type> scalar_;
};

/// One element-wise op as a node: `f(blocks of the inputs...)` is the block of the result. `f` is
/// the op's backend function (e.g. `&B::add`), the same function the eager path calls on whole
/// tensors; as a function pointer, one node type serves every op of one signature.
template <class B, class F, class... In>
class lazy_op final : public lazy_expr<B> {
 public:
  using raw_type = typename B::raw_type;

  lazy_op(Shape shape, std::optional<map_kind> map, bool exact_tail, const F& f,
          lazy_input<In>... in)
      : lazy_expr<B>(std::move(shape), 1 + (0 + ... + in.nodes()), (false || ... || in.row_views()),
                     (exact_tail && ... && in.exact_tails())),
        f_(f),
        in_(std::move(in)...),
        map_(map) {}

  void count_uses(block_context& ctx) const override {
    std::apply([&](const auto&... i) { (i.count_uses(ctx), ...); }, in_);
  }

  [[nodiscard]] std::optional<map_kind> map() const noexcept override { return map_; }
  [[nodiscard]] bool map_input_computed() const noexcept override {
    if constexpr (sizeof...(In) == 1) {
      return std::get<0>(in_).computed();
    } else {
      return false;
    }
  }
  raw_type map_input_block(block_context& ctx, std::int64_t begin,
                           std::int64_t len) const override {
    if constexpr (sizeof...(In) == 1 && (std::same_as<typename In::raw_type, raw_type> && ...)) {
      return std::get<0>(in_).block(ctx, begin, len);
    } else {
      return lazy_expr<B>::block(ctx, begin, len);
    }
  }

 protected:
  raw_type compute_block(block_context& ctx, std::int64_t begin, std::int64_t len,
                         output_target* into) const override {
    // The inputs' blocks are computed as call_into's arguments, before its output_scope opens, and
    // bound to its reference parameters as they are (no move of a native tensor).
    return std::apply(
        [&](const auto&... i) { return call_into(ctx, len, into, i.block(ctx, begin, len)...); },
        in_);
  }

 private:
  /// f_(blocks...) into `into`, or else (the inputs' blocks computed: the scratch buffers they hold
  /// are taken) into the evaluation's scratch memory.
  template <class... Blocks>
  raw_type call_into(block_context& ctx, std::int64_t len, output_target* into,
                     const Blocks&... blocks) const {
    if (into == nullptr)
      into = ctx.scratch(static_cast<std::size_t>(len) * sizeof(typename B::value_type));
    const output_scope scope(into);
    return f_(blocks...);
  }

  F f_;
  std::tuple<lazy_input<In>...> in_;
  std::optional<map_kind> map_;
};

/// A strided slice of a computed tensor as an expression: a leaf of the element-wise expressions
/// that read it, whose blocks gather their elements (rows of the slice copied into the block, in
/// cache), so that the slice is never written whole (a stencil's shifted slices of a grid).
template <class B>
class lazy_gather final : public lazy_expr<B> {
 public:
  using raw_type = typename B::raw_type;
  using value_type = typename B::value_type;

  lazy_gather(const raw_type& x, const Shape& in, const Shape& start, const Shape& step,
              const Shape& out)
      : lazy_expr<B>(out, 1, step[out.size() - 1] == 1, true),
        data_(B::share_host(x)),
        rank_(out.size()) {
    std::int64_t stride = 1;
    for (int d = rank_ - 1; d >= 0; --d) {
      base_ += start[d] * stride;
      jump_[d] = step[d] * stride;
      extent_[d] = out[d];
      stride *= in[d];
    }
  }

  void count_uses(block_context& /*ctx*/) const override {}

 protected:
  raw_type compute_block(block_context& ctx, std::int64_t begin, std::int64_t len,
                         output_target* into) const override {
    // The source offset of the block's first element, then runs along the last axis.
    std::int64_t index[max_rank] = {};
    std::int64_t from = base_;
    std::int64_t rest = begin;
    for (std::int64_t d = rank_ - 1; d > 0; --d) {
      index[d] = rest % extent_[d];
      rest /= extent_[d];
      from += index[d] * jump_[d];
    }
    index[0] = rest;  // < extent_[0]: no division for the first axis
    from += rest * jump_[0];
    const int last = rank_ - 1;
    if (jump_[last] == 1 && index[last] + len <= extent_[last])  // within one row: a view
      return lazy_expr<B>::view(data_, from, len);
    std::shared_ptr<value_type> block;
    {
      const output_scope scope(
          into != nullptr ? into : ctx.scratch(static_cast<std::size_t>(len) * sizeof(value_type)));
      block = allocate_storage<value_type>(static_cast<std::size_t>(len));
    }
    const value_type* source = data_.get();
    value_type* to = block.get();
    for (std::int64_t done = 0; done < len;) {
      const std::int64_t run = std::min(len - done, extent_[last] - index[last]);
      if (jump_[last] == 1) {
        std::copy_n(source + from, run, to + done);
      } else {
        for (std::int64_t k = 0; k < run; ++k) to[done + k] = source[from + k * jump_[last]];
      }
      done += run;
      from += run * jump_[last];
      index[last] += run;
      for (int d = last; d > 0 && index[d] == extent_[d]; --d) {  // carry into the outer axes
        from += jump_[d - 1] - extent_[d] * jump_[d];
        index[d] = 0;
        ++index[d - 1];
      }
    }
    return B::from_host_shared(std::move(block), Shape(len));
  }

 private:
  std::shared_ptr<value_type> data_;
  int rank_;
  std::int64_t base_ = 0;
  std::int64_t jump_[max_rank] = {};
  std::int64_t extent_[max_rank] = {};
};

template <class B>
std::shared_ptr<const lazy_expr<B>> lazy_slice(const typename B::raw_type& x, const Shape& in,
                                               const Shape& start, const Shape& step,
                                               const Shape& out) {
  if constexpr (!lazy_dtype<typename B::value_type>) {
    return nullptr;
  } else {
    if (below_lazy_size(out.numel()) || out.size() == 0) [[likely]]
      return nullptr;
    return std::make_shared<const lazy_gather<B>>(x, in, start, step, out);
  }
}

/// `pad` of an expression held by `x` alone (the rule of reduce_blocks): the padded buffer gets its
/// border filled with `value` and the expression written into its interior, block by block, without
/// x's value being computed first (a stencil's update padded back to the grid). std::nullopt where
/// x is not such an expression.
template <class Tn>
std::optional<typename Tn::raw_type> lazy_pad(const Tn& x, std::span<const std::int64_t> before,
                                              std::span<const std::int64_t> after,
                                              typename Tn::value_type value) {
  using B = typename Tn::backend_type;
  using T = typename Tn::value_type;
  const auto& e = lazy_access::expr(x);
  if (!e || e->computed() || e.use_count() > 1) return std::nullopt;
  const Shape& in = e->shape();
  const int rank = in.size();
  if (rank == 0) return std::nullopt;
  Shape out = in;
  for (int d = 0; d < rank; ++d) out[d] = in[d] + before[d] + after[d];
  const Shape strides = strides_of(out);
  std::int64_t offset = 0;
  for (int d = 0; d < rank; ++d) offset += before[d] * strides[d];
  std::shared_ptr<T> data = allocate_storage<T>(static_cast<std::size_t>(out.numel()));
  // The border: the rows (along the last axis) outside the interior, and both ends of the others.
  const std::int64_t row = out[rank - 1];
  const std::int64_t rows = row == 0 ? 0 : out.numel() / row;
  for (std::int64_t r = 0; r < rows; ++r) {
    T* line = data.get() + r * row;
    bool inside = true;
    for (std::int64_t d = rank - 2, rest = r; d >= 0 && inside; --d) {
      const std::int64_t i = rest % out[d];
      rest /= out[d];
      inside = i >= before[d] && i < before[d] + in[d];
    }
    if (!inside) {
      std::fill_n(line, row, value);
    } else {
      std::fill_n(line, before[rank - 1], value);
      std::fill_n(line + before[rank - 1] + in[rank - 1], after[rank - 1], value);
    }
  }
  e->write(data, offset, strides);
  return B::from_host_shared(std::move(data), out);
}

/// Copies the elements of `x` (C order, shape `xs`) that lie outside the box `start[d] <= i_d <
/// start[d] + out[d]` into `data`, row by row: the rest of the copy is about to be overwritten.
template <class T>
void copy_outside_box(const T* x, const Shape& xs, const Shape& start, const Shape& out, T* data) {
  const int rank = xs.size();
  const std::int64_t row = xs[rank - 1];
  const std::int64_t rows = row == 0 ? 0 : xs.numel() / row;
  const std::int64_t a = start[rank - 1];
  const std::int64_t b = a + out[rank - 1];
  for (std::int64_t r = 0; r < rows; ++r) {
    bool inside = true;
    std::int64_t rest = r;
    for (int d = rank - 2; d >= 0; --d) {
      const std::int64_t i = rest % xs[d];
      rest /= xs[d];
      inside = inside && i >= start[d] && i < start[d] + out[d];
    }
    const T* from = x + r * row;
    T* to = data + r * row;
    if (!inside) {
      std::copy_n(from, row, to);
    } else {
      std::copy_n(from, a, to);
      std::copy_n(from + b, row - b, to + b);
    }
  }
}

template <class Tn>
typename Tn::raw_type host_strided_update(const Tn& x, const Shape& start, const Shape& step,
                                          const Shape& out, const Tn& v) {
  using B = typename Tn::backend_type;
  using T = typename Tn::value_type;
  const Shape& xs = x.shape();
  const int rank = xs.size();
  std::shared_ptr<T> data = allocate_storage<T>(static_cast<std::size_t>(xs.numel()));
  // Every element of the region is written below: a box region (steps of 1) copies only what lies
  // outside it, so that updating a grid's interior reads and writes the grid once, as pad does.
  if (out.numel() == 0 || rank == 0 ||
      !std::all_of(step.begin(), step.end(), [](std::int64_t s) { return s == 1; })) {
    B::to_data(x.raw(), data.get());
  } else {
    const std::shared_ptr<T> elements = B::share_host(x.raw());
    copy_outside_box(elements.get(), xs, start, out, data.get());
  }
  if (out.numel() == 0) return B::from_host_shared(std::move(data), xs);
  const Shape x_strides = strides_of(xs);
  Shape strides = x_strides;  // of the region, in the copy
  std::int64_t offset = 0;
  for (int d = 0; d < rank; ++d) {
    offset += start[d] * x_strides[d];
    strides[d] = step[d] * x_strides[d];
  }
  const std::int64_t unit = rank == 0 ? 1 : strides[rank - 1];
  if constexpr (lazy_dtype<T>) {
    const auto& e = lazy_access::expr(v);
    if (e && !e->computed() && e.use_count() == 1 && unit == 1 && e->shape() == out) {
      e->write(data, offset, strides);
      return B::from_host_shared(std::move(data), xs);
    }
  }
  const std::shared_ptr<T> values = B::share_host(v.raw());
  const std::int64_t row = rank == 0 ? 1 : out[rank - 1];
  const std::int64_t rows = out.numel() / row;
  for (std::int64_t r = 0; r < rows; ++r) {
    std::int64_t at = offset;
    std::int64_t rest = r;
    for (int d = rank - 2; d >= 0; --d) {
      at += rest % out[d] * strides[d];
      rest /= out[d];
    }
    const T* from = values.get() + r * row;
    T* to = data.get() + at;
    if (unit == 1) {
      std::copy_n(from, row, to);
    } else {
      for (std::int64_t k = 0; k < row; ++k) to[k * unit] = from[k];
    }
  }
  return B::from_host_shared(std::move(data), xs);
}

/// The lazy expression of an element-wise op's result, or nullptr when it is to be computed now:
/// when its dtypes are not lazy_dtype, when it is small (fusion_settings::min_size), when an input
/// is stretched by broadcasting (other than a one-element input: a block of the result is then not
/// a block of the input), or when the expression would grow past max_lazy_nodes (its inputs are
/// then computed first).
template <class B, class F, class... In>
std::shared_ptr<const lazy_expr<B>> lazy_elementwise(const elementwise_call<F, In...>& call) {
  if constexpr (!(lazy_dtype<typename B::value_type> && ... &&
                  (lazy_dtype<typename In::value_type> &&
                   blocked_backend<typename In::backend_type>))) {
    return nullptr;
  } else {
    return std::apply(
        [&](const In&... in) -> std::shared_ptr<const lazy_expr<B>> {
          if (below_lazy_size(std::max({in.size()...}))) [[likely]]
            return nullptr;
          // The result's shape: the inputs' shapes broadcast (checked by the op already).
          Shape shape;
          bool first = true;
          ((shape = first ? Shape(tensor_access::shape_ref(in))
                          : broadcast_shapes(shape, tensor_access::shape_ref(in), "op"),
            first = false),
           ...);
          const std::int64_t n = shape.numel();
          if (!((in.size() == n || in.size() == 1) && ...)) return nullptr;
          const auto pending = [n](const auto& t) {
            const auto& e = lazy_access::expr(t);
            return t.size() == n && e && !e->computed() ? e->nodes() : 0;
          };
          if (1 + (0 + ... + pending(in)) > max_lazy_nodes) return nullptr;
          return std::make_shared<const lazy_op<B, F, In...>>(
              std::move(shape), call.map, call.exact_tail, call.f, lazy_input<In>(in, n)...);
        },
        call.in);
  }
}

}  // namespace ep::detail
