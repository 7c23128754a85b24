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

#include "eagerpp/ops/unary_list.hpp"

namespace ep::detail {

/// Identifies a tensor recorded on a tape; 0 means "on no tape".
using node_id = std::uint64_t;

inline node_id new_node_id() noexcept {
  static std::atomic<node_id> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

/// Gradients by node, type-erased because one function may mix dtypes (astype) on its way.
using grad_map = std::unordered_map<node_id, std::any>;

// The gradient rules of the facade's ops, one row each: `name_rule<Tn>` is defined beside its op;
// the rule table (autodiff/rules.hpp) has one entry per row, in this order. Unary ops have theirs
// from ops/unary_list.hpp.
// clang-format off
#define EAGERPP_TAPE_RULES(X)                                                                   \
  X(identity) X(negative) X(clip) X(add) X(subtract) X(multiply) X(divide) X(mod) X(floordiv)  \
  X(power) X(minmax) X(where) X(astype) X(matmul) X(inv) X(slogdet) X(reshape) X(transpose)    \
  X(broadcast_to) X(flip) X(slice_axis) X(pad) X(concatenate) X(sum) X(prod) X(extremum)       \
  X(cumsum) X(take) X(put_add) X(put) X(strided_slice) X(sort) X(crossentropy) X(l2)
// clang-format on

/// Which rule a step runs: its row in EAGERPP_TAPE_RULES, then the unary ops'.
enum class rule_id : std::uint16_t {
#define EAGERPP_RULE_ID(name) name,
#define EAGERPP_UNARY_RULE_ID(name, dtypes, grad) name,
  EAGERPP_TAPE_RULES(EAGERPP_RULE_ID) EAGERPP_UNARY_OPS(EAGERPP_UNARY_RULE_ID)
#undef EAGERPP_UNARY_RULE_ID
#undef EAGERPP_RULE_ID
};

/// What a step of the tape holds: the values its gradient reads (a rule_record or a
/// closure_record), behind one virtual destructor.
struct recorded {
  virtual ~recorded() = default;
};

/// One `value_and_grad` call's record: the nodes that depend on its input, and one backward step
/// per op, in execution order (a linear tape needs no graph sort: walk it backwards).
struct tape {
  std::unordered_set<node_id> watched;
  /// One recorded op. An op of the facade records which gradient rule it ran (`rule`, an index in
  /// the rule table) and for which tensor type (`type`), with the values the rule reads; the walk
  /// (autodiff/rules.hpp) looks the rule up, so that the rules are compiled only where a gradient
  /// is taken, not in every translation unit that calls an op. custom_gradient and checkpoint
  /// record a closure instead (`run`), compiled where they are called.
  struct step {
    std::unique_ptr<recorded> data;
    void (*run)(recorded&, grad_map&) = nullptr;  // a closure's backward step, or null for a rule
    const void* type = nullptr;                   // &type_tag<Out> of a rule's output
    rule_id rule{};
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
/// the node's (an `elementwise` rule's input, takes); their sum broadcasts too.
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

/// The base of a gradient rule: the types of the op's differentiable inputs, in argument order. A
/// rule is a class template over the op's output tensor type `Tn` (listed in EAGERPP_TAPE_RULES)
/// holding what the op captured (axes, shapes, index tensors), whose `operator()(g, out, in...)`
/// returns the gradient of each input (a tuple for several), written with facade ops so that it
/// runs on every backend and can itself be differentiated. It may also declare
/// - `static constexpr bool elementwise = true`: it accepts an incoming gradient of any shape that
///   broadcasts to its output's and still returns its input's full shape (an element-wise
///   `g * f'(x)`). A reduction's rule hands back its gradient unbroadcast (shape (1, ..., 1) for a
///   full sum), and only where the next rule is not marked so is it materialized at full size: the
///   backward pass of `x.square().sum()` then reads x once, `x * (2 * g)`, instead of writing a
///   broadcast copy of g first;
/// - `static constexpr bool reads_needed = true`: it is called as `(g, out, needed, in...)` so
///   that it can skip the gradients nobody reads (matmul's gradient for a constant operand costs
///   as much as the product), returning a placeholder (the input itself) for those.
template <class... In>
struct takes {
  using inputs = std::tuple<In...>;
};
/// The base of the rule of an op over a list of tensors (concatenate): `operator()(g, out, ins)`
/// returns one gradient per input, as a std::vector.
template <class In>
struct takes_list {
  using inputs = std::vector<In>;
};

template <class Rule>
inline constexpr bool elementwise_rule = requires {
  requires Rule::elementwise;
};
template <class Rule>
inline constexpr bool reads_needed = requires {
  requires Rule::reads_needed;
};

template <class Rule>
inline constexpr bool is_rule = false;
template <class Rule>
inline constexpr rule_id rule_id_of{};
#define EAGERPP_DECLARE_RULE(name)                       \
  template <class Tn>                                    \
  struct name##_rule;                                    \
  template <class Tn>                                    \
  inline constexpr bool is_rule<name##_rule<Tn>> = true; \
  template <class Tn>                                    \
  inline constexpr rule_id rule_id_of<name##_rule<Tn>> = rule_id::name;
#define EAGERPP_DECLARE_UNARY_RULE(name, dtypes, grad) EAGERPP_DECLARE_RULE(name)
EAGERPP_TAPE_RULES(EAGERPP_DECLARE_RULE)
EAGERPP_UNARY_OPS(EAGERPP_DECLARE_UNARY_RULE)
#undef EAGERPP_DECLARE_UNARY_RULE
#undef EAGERPP_DECLARE_RULE

/// A distinct address per type: which tensor type a step's rule runs on.
template <class T>
inline constexpr char type_tag = 0;

/// The values a rule reads: the rule (with what the op captured), the output and the inputs.
template <class Rule, class Out, class Inputs = typename Rule::inputs>
struct rule_record;
template <class Rule, class Out, class... In>
struct rule_record<Rule, Out, std::tuple<In...>> final : recorded {
  rule_record(const Rule& r, const Out& o, needed_grads<sizeof...(In)> n, const In&... i)
      : rule(r), out(o), needed(n), in(i...) {}
  Rule rule;
  Out out;
  needed_grads<sizeof...(In)> needed;
  std::tuple<In...> in;
};
template <class Rule, class Out, class In>
struct rule_record<Rule, Out, std::vector<In>> final : recorded {
  rule_record(const Rule& r, const Out& o, const std::vector<In>& i) : rule(r), out(o), in(i) {}
  Rule rule;
  Out out;
  std::vector<In> in;
};

/// A closure's backward step (custom_gradient, checkpoint).
template <class F>
struct closure_record final : recorded {
  explicit closure_record(F g) : f(std::move(g)) {}
  F f;
};

/// The gradient of `out` as stored (possibly still to be broadcast), at `out`'s full shape unless
/// the rule takes it as it is.
template <class Rule, class Out>
Out incoming_gradient(const std::any& stored, const Out& out) {
  const Out& g = std::any_cast<const Out&>(stored);
  if constexpr (!elementwise_rule<Rule>) {
    if (g.shape() != out.shape()) return g.broadcast_to(out.shape());
  }
  return g;
}

/// Adds the gradients `gs` (one tensor for one input, a tuple for several) to those of the
/// inputs that the tape needs.
template <std::size_t N, class Grads, class... In>
void accumulate_inputs(grad_map& grads, const needed_grads<N>& needed, Grads&& gs,
                       const In&... in) {
  if constexpr (sizeof...(In) == 1) {
    if (needed[0]) (accumulate(grads, in.node(), std::forward<Grads>(gs)), ...);
  } else {
    std::apply(
        [&](auto&... g) {
          std::size_t i = 0;
          ((needed[i++] ? accumulate(grads, in.node(), std::move(g)) : void()), ...);
        },
        gs);
  }
}

/// Records `out = op(in...)` on every active tape on which some input depends: a step naming the
/// rule (rule_record), or, for a callable that is not a rule (custom_gradient's `backward`,
/// checkpoint's), a closure compiled here that calls it as `vjp(g, out, in...)`.
template <class Out, class Rule, class... In>
void record_on_tapes(Out& out, const Rule& rule, const In&... in) {
  for (tape* t : active_tapes()) {
    const needed_grads<sizeof...(In)> needed{
        {(in.node() != 0 && t->watched.contains(in.node()))...}};
    if (std::find(needed.input.begin(), needed.input.end(), true) == needed.input.end()) continue;
    if (out.node() == 0) out.set_node(new_node_id());
    t->watched.insert(out.node());
    tape::step s;
    if constexpr (is_rule<Rule>) {
      static_assert(std::same_as<typename Rule::inputs, std::tuple<In...>>,
                    "eagerpp: a rule's `takes<...>` must list the types of the op's inputs");
      s.data = std::make_unique<rule_record<Rule, Out>>(rule, out, needed, in...);
      s.type = &type_tag<Out>;
      s.rule = rule_id_of<Rule>;
    } else {
      auto f = [out, vjp = rule, needed, in...](grad_map& grads) {
        auto it = grads.find(out.node());
        if (it == grads.end()) return;
        const Out g = incoming_gradient<void>(it->second, out);
        accumulate_inputs(grads, needed, vjp(g, out, in...), in...);
      };
      using F = decltype(f);
      s.data = std::make_unique<closure_record<F>>(std::move(f));
      s.run = [](recorded& r, grad_map& grads) { static_cast<closure_record<F>&>(r).f(grads); };
    }
    t->steps.push_back(std::move(s));
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
/// an op and, when a tape is active and some input is recorded on it, records the op's gradient
/// rule (record_on_tapes). Only floating outputs are ever recorded.
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

/// `make_result` for ops over a list of tensors (concatenate), whose rule takes a list
/// (takes_list).
template <class Out, class Raw, class Rule>
Out make_result_n(Raw&& raw, const Rule& rule, const std::vector<Out>& ins) {
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
      tape::step s;
      s.data = std::make_unique<rule_record<Rule, Out>>(rule, out, ins);
      s.type = &type_tag<Out>;
      s.rule = rule_id_of<Rule>;
      t->steps.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace ep::detail
