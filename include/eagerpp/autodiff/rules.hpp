// eagerpp - the rule table and the backward walk of a tape: the gradient rules are compiled here,
// where a gradient is taken, for the floating tensor types the walk can meet
// SPDX-License-Identifier: MIT
#pragma once

#include <array>        // std::array
#include <cstddef>      // std::size_t
#include <stdexcept>    // std::logic_error
#include <tuple>        // std::tuple, std::apply
#include <type_traits>  // std::is_same_v
#include <utility>      // std::move
#include <vector>       // std::vector

#include "eagerpp/autodiff/tape.hpp"
#include "eagerpp/norms.hpp"  // l2_rule
#include "eagerpp/tensor.hpp"

namespace ep::detail {

/// The gradient of a watched input's copy (value_and_grad's watch_one): g itself.
template <class Tn>
struct identity_rule : takes<Tn> {
  Tn operator()(const Tn& g, const Tn&, const Tn&) const { return g; }
};

template <class T>
inline constexpr bool is_vector = false;
template <class T>
inline constexpr bool is_vector<std::vector<T>> = true;

/// One recorded step of rule `Rule` with output `Out`: the gradient of each input from the
/// incoming gradient of the output, added to the inputs' gradients.
template <class Rule, class Out>
void run_rule(recorded& r, grad_map& grads) {
  auto& rec = static_cast<rule_record<Rule, Out>&>(r);
  auto it = grads.find(rec.out.node());
  if (it == grads.end()) return;
  const Out g = incoming_gradient<Rule>(it->second, rec.out);
  if constexpr (is_vector<typename Rule::inputs>) {
    auto gs = rec.rule(g, rec.out, rec.in);
    for (std::size_t i = 0; i < rec.in.size(); ++i)
      accumulate(grads, rec.in[i].node(), std::move(gs[i]));
  } else {
    std::apply(
        [&](const auto&... in) {
          if constexpr (reads_needed<Rule>) {
            accumulate_inputs(grads, rec.needed, rec.rule(g, rec.out, rec.needed, in...), in...);
          } else {
            accumulate_inputs(grads, rec.needed, rec.rule(g, rec.out, in...), in...);
          }
        },
        rec.in);
  }
}

/// The backward step of each rule for tensor type `Tn`, one static function per rule_id, defined
/// out of the class so that the compiled libraries can instantiate them once
/// (detail/instantiate.hpp: `extern template struct rule_steps<...>` elsewhere).
template <class Tn>
struct rule_steps {
#define EAGERPP_RULE_STEP(name) static void name(recorded& r, grad_map& grads);
#define EAGERPP_UNARY_RULE_STEP(name, dtypes, grad) EAGERPP_RULE_STEP(name)
  EAGERPP_TAPE_RULES(EAGERPP_RULE_STEP)
  EAGERPP_UNARY_OPS(EAGERPP_UNARY_RULE_STEP)
#undef EAGERPP_UNARY_RULE_STEP
#undef EAGERPP_RULE_STEP
};
#define EAGERPP_RULE_STEP(name)                             \
  template <class Tn>                                       \
  void rule_steps<Tn>::name(recorded& r, grad_map& grads) { \
    run_rule<name##_rule<Tn>, Tn>(r, grads);                \
  }
#define EAGERPP_UNARY_RULE_STEP(name, dtypes, grad) EAGERPP_RULE_STEP(name)
EAGERPP_TAPE_RULES(EAGERPP_RULE_STEP)
EAGERPP_UNARY_OPS(EAGERPP_UNARY_RULE_STEP)
#undef EAGERPP_UNARY_RULE_STEP
#undef EAGERPP_RULE_STEP

/// The rule table of tensor type `Tn`: one entry per rule_id, in its order.
#define EAGERPP_RULE_ENTRY(name) &rule_steps<Tn>::name,
#define EAGERPP_UNARY_RULE_ENTRY(name, dtypes, grad) EAGERPP_RULE_ENTRY(name)
template <class Tn>
inline constexpr std::array rule_table{EAGERPP_TAPE_RULES(EAGERPP_RULE_ENTRY)
                                           EAGERPP_UNARY_OPS(EAGERPP_UNARY_RULE_ENTRY)};
#undef EAGERPP_UNARY_RULE_ENTRY
#undef EAGERPP_RULE_ENTRY

/// The tensor types whose rules a walk instantiates.
template <class... Tn>
struct tensor_types {};

/// Both floating tensor types of each backend in a parameter structure: a function of floating
/// inputs may compute in the other precision on its way (astype), never on another backend (ep::to
/// records nothing).
template <class X>
struct walk_types;
template <class B>
struct walk_types<Tensor<B>> {
  using type = tensor_types<Tensor<typename B::template rebind<float>>,
                            Tensor<typename B::template rebind<double>>>;
};
template <class B>
struct walk_types<std::vector<Tensor<B>>> : walk_types<Tensor<B>> {};
template <class... Bs>
struct walk_types<std::tuple<Tensor<Bs>...>> {
  using type = tensor_types<Tensor<typename Bs::template rebind<float>>...,
                            Tensor<typename Bs::template rebind<double>>...>;
};

/// Runs one step backwards: a closure itself, a rule through the table of its tensor type.
template <class... Tn>
void run_step(const tape::step& s, grad_map& grads, tensor_types<Tn...>) {
  if (s.run != nullptr) {
    s.run(*s.data, grads);
    return;
  }
  const bool ran = ((s.type == &type_tag<Tn> &&
                     (rule_table<Tn>[static_cast<std::size_t>(s.rule)](*s.data, grads), true)) ||
                    ...);
  if (!ran)
    throw std::logic_error(
        "eagerpp: a recorded op ran on a tensor type that the gradient's inputs cannot reach "
        "(another backend); this is a bug of eagerpp");
}

/// Walks tape `t` backwards, from the gradients already in `grads`, for inputs of structure X.
template <class X>
void walk_backwards(const tape& t, grad_map& grads) {
  for (auto step = t.steps.rbegin(); step != t.steps.rend(); ++step)
    run_step(*step, grads, typename walk_types<X>::type{});
}

}  // namespace ep::detail
