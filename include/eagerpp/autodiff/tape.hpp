// eagerpp - the tape: thread-local linear records of ops, active inside value_and_grad and jacobian
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>      // std::find
#include <any>            // std::any
#include <array>          // std::array
#include <atomic>         // std::atomic
#include <concepts>       // std::same_as
#include <cstddef>        // std::size_t
#include <cstdint>        // std::uint64_t
#include <memory>         // std::unique_ptr
#include <tuple>          // std::tuple, std::apply
#include <type_traits>    // std::is_floating_point_v
#include <unordered_map>  // std::unordered_map
#include <unordered_set>  // std::unordered_set
#include <utility>        // std::move, std::exchange
#include <vector>         // std::vector

namespace ep::detail {

/// Identifies a tensor recorded on a tape; 0 means "on no tape".
using node_id = std::uint64_t;

inline node_id new_node_id() noexcept {
  static std::atomic<node_id> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

/// Gradients by node, type-erased because one function may mix dtypes (astype) on its way.
using grad_map = std::unordered_map<node_id, std::any>;

/// One `value_and_grad` call's record: the nodes that depend on its input, and one backward step
/// per op, in execution order (a linear tape needs no graph sort: walk it backwards).
struct tape {
  std::unordered_set<node_id> watched;
  /// One recorded op's backward step: a move-only callable behind one virtual call. Every op
  /// records its own lambda type, so what is compiled per op is kept small: no copy or
  /// type-query machinery (std::function's), and the vector's growth is compiled once, for `step`.
  class step {
   public:
    template <class F>
    explicit step(F f) : impl_(std::make_unique<model<F>>(std::move(f))) {}
    void operator()(grad_map& grads) const { impl_->run(grads); }

   private:
    struct callable {
      virtual ~callable() = default;
      virtual void run(grad_map& grads) = 0;
    };
    template <class F>
    struct model final : callable {
      explicit model(F&& g) : f(std::move(g)) {}
      void run(grad_map& grads) override { f(grads); }
      F f;
    };
    std::unique_ptr<callable> impl_;
  };
  std::vector<step> steps;
};

/// The active tapes of this thread, innermost last. Empty outside `value_and_grad`, so recording
/// costs one thread-local load and a branch.
inline std::vector<tape*>& active_tapes() noexcept {
  thread_local std::vector<tape*> tapes;
  return tapes;
}

/// How many tapes are active on this thread, kept beside active_tapes(): every op reads it, and a
/// trivially destructible thread_local is one load, without the guard of the vector's.
inline std::size_t& active_tape_count() noexcept {
  thread_local std::size_t count = 0;
  return count;
}

/// Makes `t` the innermost active tape for its lifetime (RAII; also when `f` throws).
class tape_scope {
 public:
  explicit tape_scope(tape& t) {
    active_tapes().push_back(&t);
    ++active_tape_count();
  }
  ~tape_scope() { release(); }
  tape_scope(const tape_scope&) = delete;
  tape_scope& operator=(const tape_scope&) = delete;
  void release() noexcept {
    if (!released_) {
      active_tapes().pop_back();
      --active_tape_count();
    }
    released_ = true;
  }

 private:
  bool released_ = false;
};

/// Suspends every active tape for its lifetime: ops run inside are recorded nowhere (the forward
/// pass of custom_gradient and of checkpoint, and the values of norms::l2 and crossentropy, which
/// record one op with their own gradient instead). stop_gradient needs none: it wraps the values
/// in a tensor that is on no tape.
class no_record_scope {
 public:
  no_record_scope() : saved_count_(std::exchange(active_tape_count(), 0)) {
    saved_.swap(active_tapes());
  }
  ~no_record_scope() {
    saved_.swap(active_tapes());
    active_tape_count() = saved_count_;
  }
  no_record_scope(const no_record_scope&) = delete;
  no_record_scope& operator=(const no_record_scope&) = delete;

 private:
  std::size_t saved_count_;
  std::vector<tape*> saved_;
};

/// Adds `g` to the gradient of node `id`. Gradients may be stored at a shape that broadcasts to
/// the node's (see elementwise_vjp); their sum broadcasts too.
template <class Tensor>
void accumulate(grad_map& grads, node_id id, Tensor g) {
  if (id == 0) return;
  auto [it, inserted] = grads.try_emplace(id);
  if (inserted) {
    it->second = std::move(g);
  } else {
    it->second = std::any_cast<const Tensor&>(it->second) + g;
  }
}

/// Which inputs of a recorded op lie on the tape being walked, in argument order. Only their
/// gradients are accumulated.
template <std::size_t N>
struct needed_grads {
  std::array<bool, N> input;
  bool operator[](std::size_t i) const { return input[i]; }
};

/// `V` is the wrapper `W` around some vjp (vjp_with_needed, elementwise_vjp).
template <class V, template <class> class W>
inline constexpr bool wraps = false;
template <class F, template <class> class W>
inline constexpr bool wraps<W<F>, W> = true;

/// A vjp called as `vjp(g, out, needed, in...)`, so that it can skip the gradients nobody reads
/// (matmul's gradient for a constant operand costs as much as the product); every other vjp is
/// called as `vjp(g, out, in...)`.
template <class F>
struct vjp_with_needed {
  F f;
};
// Deduction guides: clang before 17 (the libFuzzer target's clang 14) has no C++20 aggregate CTAD.
template <class F>
vjp_with_needed(F) -> vjp_with_needed<F>;

/// A vjp that accepts an incoming gradient of any shape that broadcasts to its output's, and still
/// returns its input's full shape: an element-wise `g * f'(x)`. A reduction's vjp hands back its
/// gradient unbroadcast (shape (1, ..., 1) for a full sum), and only where the next vjp is not
/// marked so is it materialized at full size: the backward pass of `x.square().sum()` then reads x
/// once, `x * (2 * g)`, instead of writing a broadcast copy of g first.
template <class F>
struct elementwise_vjp {
  F f;
};
template <class F>
elementwise_vjp(F) -> elementwise_vjp<F>;

/// The gradient of `out` as stored (possibly still to be broadcast), at `out`'s full shape unless
/// the vjp takes it as it is.
template <class Vjp, class Out>
Out incoming_gradient(const std::any& stored, const Out& out) {
  const Out& g = std::any_cast<const Out&>(stored);
  if constexpr (!wraps<Vjp, elementwise_vjp>) {
    if (g.shape() != out.shape()) return g.broadcast_to(out.shape());
  }
  return g;
}

template <class Out, class Vjp, class... In>
void record_on_tapes(Out& out, const Vjp& vjp, const In&... in) {
  for (tape* t : active_tapes()) {
    const needed_grads<sizeof...(In)> needed{
        {(in.node() != 0 && t->watched.contains(in.node()))...}};
    if (std::find(needed.input.begin(), needed.input.end(), true) == needed.input.end()) continue;
    if (out.node() == 0) out.set_node(new_node_id());
    t->watched.insert(out.node());
    t->steps.push_back(tape::step([out, vjp, needed, in...](grad_map& grads) {
      auto it = grads.find(out.node());
      if (it == grads.end()) return;
      const Out g = incoming_gradient<Vjp>(it->second, out);
      auto input_grads = [&] {
        if constexpr (wraps<Vjp, vjp_with_needed>) {
          return vjp.f(g, out, needed, in...);
        } else if constexpr (wraps<Vjp, elementwise_vjp>) {
          return vjp.f(g, out, in...);
        } else {
          return vjp(g, out, in...);
        }
      }();
      if constexpr (sizeof...(In) == 1) {
        if (needed[0]) (accumulate(grads, in.node(), std::move(input_grads)), ...);
      } else {
        std::apply(
            [&](auto&... gs) {
              std::size_t i = 0;
              ((needed[i++] ? accumulate(grads, in.node(), std::move(gs)) : void()), ...);
            },
            input_grads);
      }
    }));
  }
}

/// Tag of the Tensor constructor that calls a computation of the native tensor (make_output).
struct computed_t {
  explicit computed_t() = default;
};

/// A callable that computes a native tensor of type R (a backend call wrapped in a lambda).
template <class F, class R>
concept computes = requires(F& f) {
  { f() } -> std::same_as<R>;
};

/// The tensor Out holding `raw`: a native tensor, moved in, or a computation of one, called here so
/// that its result is constructed in the tensor's place, with no move (an Eigen array moves its
/// shape with it, which costs as much as a small op's arithmetic).
template <class Out, class Raw>
Out make_output(Raw&& raw) {
  if constexpr (computes<Raw, typename Out::raw_type>) {
    return Out(computed_t{}, raw);
  } else {
    return Out(std::forward<Raw>(raw));
  }
}

/// Wraps a backend result (a native tensor, or a computation of one: make_output) as the output of
/// an op and, when a tape is active and some input is recorded on it, records the op's
/// vector-Jacobian product `vjp(g, out, in...)`, which returns the
/// gradient of each input (a tuple for several inputs), written with facade ops so that it runs on
/// every backend and can itself be differentiated. Only floating outputs are ever recorded, and
/// vjps are generic lambdas, so their bodies are never instantiated for integer or bool tensors.
template <class Out, class Raw, class Vjp, class... In>
Out make_result(Raw&& raw, const Vjp& vjp, const In&... in) {
  Out out = make_output<Out>(std::forward<Raw>(raw));
  if constexpr (std::is_floating_point_v<typename Out::value_type>) {
    if (active_tape_count() != 0) [[unlikely]]
      record_on_tapes(out, vjp, in...);
  }
  return out;
}

/// The result of an op with no gradient (integer and bool outputs, creation).
template <class Out, class Raw>
Out make_constant(Raw&& raw) {
  return make_output<Out>(std::forward<Raw>(raw));
}

}  // namespace ep::detail

namespace ep::detail {

/// `make_result` for ops over a list of tensors (concatenate): `vjp(g, out, ins)` returns one
/// gradient per input, as a std::vector.
template <class Out, class Raw, class Vjp>
Out make_result_n(Raw&& raw, const Vjp& vjp, const std::vector<Out>& ins) {
  Out out = make_output<Out>(std::forward<Raw>(raw));
  if constexpr (std::is_floating_point_v<typename Out::value_type>) {
    if (active_tape_count() == 0) [[likely]]
      return out;
    for (tape* t : active_tapes()) {
      bool depends = false;
      for (const Out& in : ins)
        depends = depends || (in.node() != 0 && t->watched.contains(in.node()));
      if (!depends) continue;
      if (out.node() == 0) out.set_node(new_node_id());
      t->watched.insert(out.node());
      t->steps.push_back(tape::step([out, vjp, ins](grad_map& grads) {
        auto it = grads.find(out.node());
        if (it == grads.end()) return;
        const Out g = incoming_gradient<Vjp>(it->second, out);
        std::vector<Out> input_grads = vjp(g, out, ins);
        for (std::size_t i = 0; i < ins.size(); ++i)
          accumulate(grads, ins[i].node(), std::move(input_grads[i]));
      }));
    }
  }
  return out;
}

}  // namespace ep::detail
