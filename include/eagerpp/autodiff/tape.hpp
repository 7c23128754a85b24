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
#include <type_traits>    // std::is_empty_v, std::conditional_t
#include <unordered_map>  // std::unordered_map
#include <unordered_set>  // std::unordered_set
#include <utility>        // std::move, std::exchange, std::index_sequence
#include <vector>         // std::vector

#include "eagerpp/fwd.hpp"

namespace ep::detail {

/// Identifies a tensor recorded on a tape; 0 means "on no tape".
using node_id = std::uint64_t;

inline node_id new_node_id() noexcept {
  static std::atomic<node_id> next{1};
  return next.fetch_add(1, std::memory_order_relaxed);
}

/// Tag of the Tensor constructor that calls a computation of the native tensor (make_output).
struct computed_t {
  explicit computed_t() = default;
};

/// The tape's and the facade's access to what ep::Tensor keeps private (it befriends this struct),
/// so that its public members are its documented API: the node a tensor has on the tapes, the
/// constructors that compute its native tensor in place, and the facade's views of its shape and
/// of its lazy state. Tests that check these reach them here too.
struct tensor_access {
  /// The node of `t` on the active tapes (0 when it is recorded on none).
  template <class Tn>
  static node_id node(const Tn& t) noexcept {
    return t.node_;
  }
  /// Gives `t`, an op's output being recorded, its node.
  template <class Tn>
  static void set_node(Tn& t, node_id id) noexcept {
    t.node_ = id;
  }
  /// The tensor Out holding what `compute()` returns, constructed in place (a native tensor, or an
  /// element-wise call or deferrable that a blocked backend may keep as an expression).
  template <class Out, class F>
  static Out computed(F& compute) {
    return Out(computed_t{}, compute);
  }
  /// `t`'s shape as its backend gives it: a reference where the native tensor holds an ep::Shape
  /// (Eigen), else a value; the facade's checks read it on every op, with no copy.
  template <class Tn>
  static decltype(auto) shape_ref(const Tn& t) {
    return t.shape_ref();
  }
  /// Whether `t` is an element-wise expression whose value is not computed yet (detail/fusion.hpp).
  template <class Tn>
  static bool is_lazy(const Tn& t) noexcept {
    return t.is_lazy();
  }
};

/// Gradients by node, type-erased because one function may mix dtypes (astype) on its way.
using grad_map = std::unordered_map<node_id, std::any>;

/// What a step of the tape holds: the values its gradient reads (an io_record, rule_record or
/// list_record of a rule, or a closure_record), behind one virtual destructor.
struct recorded {
  virtual ~recorded() = default;
};

/// One `value_and_grad` call's record: the nodes that depend on its input, and one backward step
/// per op, in execution order (a linear tape needs no graph sort: walk it backwards).
struct tape {
  std::unordered_set<node_id> watched;
  /// One recorded op: the values its gradient reads and the backward step that reads them (an
  /// op's rule, run_rule, or a closure of custom_gradient and checkpoint). What is compiled per
  /// op is the rule: the records of rules that capture nothing are shared by signature.
  struct step {
    std::unique_ptr<recorded> data;
    void (*run)(recorded&, grad_map&) = nullptr;
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
/// the node's (what a reduction hands to an `elementwise` rule, see takes); their sum broadcasts
/// too.
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

/// The base of a gradient rule: the type of the op's differentiable inputs and their number. A
/// rule is a class template over the op's output tensor type `Tn`, named `<op>_rule`, holding what
/// the op captured (axes, shapes, index tensors), whose `operator()(g, out, in...)`
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
template <class In, std::size_t N = 1>
struct takes {
  using input = In;
  static constexpr std::size_t arity = N;
};
/// The base of the rule of an op over a list of tensors (concatenate): `operator()(g, out, ins)`
/// returns one gradient per input, as a std::vector.
template <class In>
struct takes_list {
  using input = In;
  static constexpr std::size_t arity = 0;  // any number
};

template <class Rule>
inline constexpr bool elementwise_rule = requires {
  requires Rule::elementwise;
};
template <class Rule>
inline constexpr bool reads_needed = requires {
  requires Rule::reads_needed;
};

/// A gradient rule (derived from takes or takes_list), as opposed to a closure.
template <class Rule>
inline constexpr bool is_rule = requires {
  typename Rule::input;
  Rule::arity;
};

/// The values a rule reads: the output and the inputs (io_record), and what the rule captured
/// (rule_record). Rules that capture nothing (most) share the io_record of their signature, so that
/// an op compiles no record type of its own.
template <class Out, class In, std::size_t N>
struct io_record : recorded {
  io_record(const Out& o, needed_grads<N> n, const std::array<const In*, N>& i)
      : out(o), needed(n), in(copies(i, std::make_index_sequence<N>{})) {}
  Out out;
  needed_grads<N> needed;
  std::array<In, N> in;

 private:
  template <std::size_t... K>
  static std::array<In, N> copies(const std::array<const In*, N>& i, std::index_sequence<K...>) {
    return {*i[K]...};
  }
};
template <class Rule, class Out>
struct rule_record final : io_record<Out, typename Rule::input, Rule::arity> {
  rule_record(const Rule& r, const Out& o, needed_grads<Rule::arity> n,
              const std::array<const typename Rule::input*, Rule::arity>& i)
      : io_record<Out, typename Rule::input, Rule::arity>(o, n, i), rule(r) {}
  Rule rule;
};
/// The record of a rule over a list of inputs (concatenate).
template <class Rule, class Out>
struct list_record final : recorded {
  list_record(const Rule& r, const Out& o, const std::vector<Out>& i) : rule(r), out(o), in(i) {}
  Rule rule;
  Out out;
  std::vector<Out> in;
};
/// What a step of `Rule` holds.
template <class Rule, class Out>
using record_of = std::conditional_t<
    Rule::arity == 0, list_record<Rule, Out>,
    std::conditional_t<std::is_empty_v<Rule>, io_record<Out, typename Rule::input, Rule::arity>,
                       rule_record<Rule, Out>>>;

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
    if (needed[0]) (accumulate(grads, tensor_access::node(in), std::forward<Grads>(gs)), ...);
  } else {
    std::apply(
        [&](auto&... g) {
          std::size_t i = 0;
          ((needed[i++] ? accumulate(grads, tensor_access::node(in), std::move(g)) : void()), ...);
        },
        gs);
  }
}

/// One recorded step of rule `Rule` with output `Out`: the gradient of each input from the
/// incoming gradient of the output, added to the inputs' gradients.
template <class Rule, class Out>
void run_rule(recorded& r, grad_map& grads) {
  auto& rec = static_cast<record_of<Rule, Out>&>(r);
  auto it = grads.find(tensor_access::node(rec.out));
  if (it == grads.end()) return;
  const Out g = incoming_gradient<Rule>(it->second, rec.out);
  const Rule& rule = [&]() -> const Rule& {
    if constexpr (std::is_empty_v<Rule>) {
      static constexpr Rule stateless{};  // what a rule that captures nothing has recorded
      return stateless;
    } else {
      return rec.rule;
    }
  }();
  if constexpr (Rule::arity == 0) {
    auto gs = rule(g, rec.out, rec.in);
    for (std::size_t i = 0; i < rec.in.size(); ++i)
      accumulate(grads, tensor_access::node(rec.in[i]), std::move(gs[i]));
  } else {
    [&]<std::size_t... K>(std::index_sequence<K...>) {
      if constexpr (reads_needed<Rule>) {
        accumulate_inputs(grads, rec.needed, rule(g, rec.out, rec.needed, rec.in[K]...),
                          rec.in[K]...);
      } else {
        accumulate_inputs(grads, rec.needed, rule(g, rec.out, rec.in[K]...), rec.in[K]...);
      }
    }
    (std::make_index_sequence<Rule::arity>{});
  }
}

/// Runs the steps of tape `t` backwards, from the gradients already in `grads`.
inline void walk_backwards(const tape& t, grad_map& grads) {
  for (auto step = t.steps.rbegin(); step != t.steps.rend(); ++step) step->run(*step->data, grads);
}

/// Records a step running `run` on every active tape on which some input depends, holding `state`
/// (a rule that captures something) or only the output and the inputs (`std::nullptr_t`). One
/// instantiation serves every rule of one signature that captures nothing.
template <class Out, class In, std::size_t N, class State>
void record_rule(Out& out, void (*run)(recorded&, grad_map&), const State& state,
                 const std::array<const In*, N>& in) {
  for (tape* t : active_tapes()) {
    needed_grads<N> needed{};
    bool any = false;
    for (std::size_t i = 0; i < N; ++i) {
      needed.input[i] =
          tensor_access::node(*in[i]) != 0 && t->watched.contains(tensor_access::node(*in[i]));
      any = any || needed.input[i];
    }
    if (!any) continue;
    if (tensor_access::node(out) == 0) tensor_access::set_node(out, new_node_id());
    t->watched.insert(tensor_access::node(out));
    tape::step s;
    if constexpr (std::is_same_v<State, std::nullptr_t>) {
      s.data = std::make_unique<io_record<Out, In, N>>(out, needed, in);
    } else {
      s.data = std::make_unique<rule_record<State, Out>>(state, out, needed, in);
    }
    s.run = run;
    t->steps.push_back(std::move(s));
  }
}

/// Records `out = op(in...)` on every active tape on which some input depends: a step naming the
/// rule (record_rule), or, for a callable that is not a rule (custom_gradient's `backward`,
/// checkpoint's), a closure compiled here that calls it as `vjp(g, out, in...)`.
template <class Out, class Rule, class... In>
void record_on_tapes(Out& out, const Rule& rule, const In&... in) {
  if constexpr (is_rule<Rule>) {
    using Input = typename Rule::input;
    static_assert(sizeof...(In) == Rule::arity && (std::is_same_v<In, Input> && ...),
                  "eagerpp: a rule's `takes<In, N>` must name the type and number of its op's "
                  "inputs");
    const std::array<const Input*, sizeof...(In)> ins{&in...};
    if constexpr (std::is_empty_v<Rule>) {
      record_rule(out, &run_rule<Rule, Out>, nullptr, ins);
    } else {
      record_rule(out, &run_rule<Rule, Out>, rule, ins);
    }
  } else {
    for (tape* t : active_tapes()) {
      const needed_grads<sizeof...(In)> needed{
          {(tensor_access::node(in) != 0 && t->watched.contains(tensor_access::node(in)))...}};
      if (std::find(needed.input.begin(), needed.input.end(), true) == needed.input.end()) continue;
      if (tensor_access::node(out) == 0) tensor_access::set_node(out, new_node_id());
      t->watched.insert(tensor_access::node(out));
      auto f = [out, vjp = rule, needed, in...](grad_map& grads) {
        auto it = grads.find(tensor_access::node(out));
        if (it == grads.end()) return;
        const Out g = incoming_gradient<void>(it->second, out);
        accumulate_inputs(grads, needed, vjp(g, out, in...), in...);
      };
      using F = decltype(f);
      tape::step s;
      s.data = std::make_unique<closure_record<F>>(std::move(f));
      s.run = [](recorded& r, grad_map& grads) { static_cast<closure_record<F>&>(r).f(grads); };
      t->steps.push_back(std::move(s));
    }
  }
}

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
    return tensor_access::computed<Out>(raw);
  } else {
    return Out(std::forward<Raw>(raw));
  }
}

/// Wraps a backend result (a native tensor, or a computation of one: make_output) as the output of
/// an op and, when a tape is active and some input is recorded on it, records the op's gradient
/// rule (record_on_tapes). Only floating and complex outputs are ever recorded.
template <class Out, class Raw, class Vjp, class... In>
Out make_result(Raw&& raw, const Vjp& vjp, const In&... in) {
  Out out = make_output<Out>(std::forward<Raw>(raw));
  if constexpr (inexact_dtype<typename Out::value_type>) {
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
  if constexpr (inexact_dtype<typename Out::value_type>) {
    if (active_tape_count() == 0) [[likely]]
      return out;
    for (tape* t : active_tapes()) {
      bool depends = false;
      for (const Out& in : ins)
        depends = depends ||
                  (tensor_access::node(in) != 0 && t->watched.contains(tensor_access::node(in)));
      if (!depends) continue;
      if (tensor_access::node(out) == 0) tensor_access::set_node(out, new_node_id());
      t->watched.insert(tensor_access::node(out));
      tape::step s;
      s.data = std::make_unique<list_record<Rule, Out>>(rule, out, ins);
      s.run = &run_rule<Rule, Out>;
      t->steps.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace ep::detail
