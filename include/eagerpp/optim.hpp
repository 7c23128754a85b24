// eagerpp - optimizers over parameter trees: sgd, adam, adamw, rmsprop, lbfgs; learning-rate
// schedules; gradient clipping by global norm
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::clamp, std::max, std::min
#include <cmath>        // std::abs, std::cos, std::pow, std::sqrt
#include <concepts>     // std::invocable
#include <cstdint>      // std::int64_t
#include <deque>        // std::deque
#include <functional>   // std::function, std::ref
#include <limits>       // std::numeric_limits
#include <numbers>      // std::numbers::pi
#include <optional>     // std::optional
#include <type_traits>  // std::decay_t
#include <utility>      // std::move, std::pair
#include <vector>       // std::vector

#include "eagerpp/autodiff/grad.hpp"
#include "eagerpp/fuse.hpp"
#include "eagerpp/tree.hpp"

/// Optimizers written once over the facade, so that they run on every backend (libtorch:
/// `torch::optim`, JAX: Optax). Each is a value holding its state, a tree of the parameters' shape
/// (moments, momentum buffers), and `step(params, grads)` returns the new parameters:
/// `params = opt.step(params, grads)`. Leaves that are not tensors (constants) pass through.
namespace ep::optim {

/// A learning rate as a function of the step number (0 for the first step): a constant, or any
/// callable `double(std::int64_t)` such as the schedules below (Optax: `Schedule`).
class schedule {
 public:
  schedule(double lr) : f_([lr](std::int64_t) { return lr; }) {}  // NOLINT: implicit by design
  template <class F>
  requires(std::invocable<const F&, std::int64_t> && !std::convertible_to<F, double>) schedule(F f)
      : f_(std::move(f)) {}  // NOLINT: implicit by design
  /// The learning rate of step `step`.
  double operator()(std::int64_t step) const { return f_(step); }

 private:
  std::function<double(std::int64_t)> f_;
};

/// `lr` at every step (Optax: `constant_schedule`).
inline schedule constant(double lr) { return schedule(lr); }

/// `lr * gamma^(step / step_size)` (PyTorch: `StepLR`).
inline schedule step_decay(double lr, std::int64_t step_size, double gamma = 0.1) {
  return schedule([=](std::int64_t step) {
    return lr * std::pow(gamma, static_cast<double>(step / std::max<std::int64_t>(step_size, 1)));
  });
}

/// From `lr` down to `final_lr` along half a cosine over `total_steps`, then `final_lr` (Optax:
/// `cosine_decay_schedule`, PyTorch: `CosineAnnealingLR`).
inline schedule cosine(double lr, std::int64_t total_steps, double final_lr = 0) {
  return schedule([=](std::int64_t step) {
    const double t = std::min(1.0, static_cast<double>(step) /
                                       static_cast<double>(std::max<std::int64_t>(total_steps, 1)));
    return final_lr + 0.5 * (lr - final_lr) * (1 + std::cos(std::numbers::pi * t));
  });
}

/// `s` with a linear warm-up: `s(step) * (step + 1) / warmup_steps` for the first
/// `warmup_steps` steps, `s(step)` after (PyTorch: `LinearLR` chained with another schedule).
inline schedule warmup(schedule s, std::int64_t warmup_steps) {
  return schedule([s = std::move(s), warmup_steps](std::int64_t step) {
    const double r = step < warmup_steps
                         ? static_cast<double>(step + 1) / static_cast<double>(warmup_steps)
                         : 1.0;
    return s(step) * r;
  });
}

namespace detail {

/// The tree of zeros of `t`'s shapes (an optimizer's initial state).
template <class Tree>
Tree zeros_tree(const Tree& t) {
  return Tree(tree_map(
      [](const auto& leaf) {
        if constexpr (istensor<decltype(leaf)>) {
          return leaf.zeros_like();
        } else {
          return leaf;
        }
      },
      t));
}

/// `t` with the values of its tensor leaves computed. An optimizer's state is read again at the
/// next step: left as lazy expressions (the element-wise ops of large tensors are), each step's
/// state would be an expression over the previous steps', recomputed at every step.
template <class Tree>
Tree computed(Tree t) {
  tree_for_each_with_path(
      [](const tree_path&, const auto& leaf) {
        if constexpr (istensor<decltype(leaf)>) (void)leaf.raw();
      },
      t);
  return t;
}

/// The tree of `f(leaves...)` at the tensor leaves; other leaves are taken from the first tree.
/// With `Fused`, `f` is an element-wise update of its leaves and C++ scalars (the optimizers'
/// steps): on floating tensors it runs as `ep::fuse(f)`, one pass over the leaves with no
/// intermediate tensor, where the backend has a fused loop (the eager ops where it has none).
/// Without, `f` is called on the tensors (it may use other tensors).
template <bool Fused = true, class F, class Tree, class... Rest>
Tree map_tensors(F f, const Tree& t, const Rest&... rest) {
  return Tree(tree_map(
      [&f](const auto& leaf, const auto&... others) {
        if constexpr (istensor<decltype(leaf)>) {
          using Leaf = std::decay_t<decltype(leaf)>;
          if constexpr (Fused && floating_dtype<typename Leaf::value_type>)
            return Leaf(ep::fuse(std::ref(f))(leaf, others...));
          else
            return Leaf(f(leaf, others...));
        } else {
          return leaf;
        }
      },
      t, rest...));
}

/// sum(a * b) over the tensor leaves, read back as a double (L-BFGS).
template <class Tree>
double vdot(const Tree& a, const Tree& b) {
  double s = 0;
  tree_for_each_with_path(
      [&s](const tree_path&, const auto& x, const auto& y) {
        if constexpr (istensor<decltype(x)>) s += static_cast<double>((x * y).sum().item());
      },
      a, b);
  return s;
}

/// The largest |x| over the tensor leaves.
template <class Tree>
double max_abs(const Tree& a) {
  double m = 0;
  tree_for_each_with_path(
      [&m](const tree_path&, const auto& x) {
        if constexpr (istensor<decltype(x)>) {
          if (x.size() > 0) m = std::max(m, static_cast<double>(x.abs().max().item()));
        }
      },
      a);
  return m;
}

}  // namespace detail

/// The Euclidean norm of all the tensor leaves together, as a 0-d tensor of the leaves' type
/// (Optax: `global_norm`). The leaves must be of one tensor type.
template <class Tree>
auto global_norm(const Tree& tree) {
  using L = tree_leaf_t<Tree>;
  static_assert(istensor<L>, "ep::optim::global_norm: the leaves must be tensors of one type");
  std::optional<L> s;
  tree_for_each_with_path(
      [&s](const tree_path&, const L& x) {
        L q = x.square().sum();
        s = s.has_value() ? *s + q : q;
      },
      tree);
  if (!s.has_value())
    throw value_error("global_norm: the tree has no leaves; expected at least one tensor");
  return s->sqrt();
}

/// `tree` scaled by min(1, max_norm / (global_norm(tree) + 1e-6)), so that its global norm is at
/// most `max_norm` (Optax: `clip_by_global_norm`, PyTorch: `clip_grad_norm_`). The scale stays a
/// tensor: nothing is read back to the host. A tree without leaves comes back unchanged.
template <class Tree>
Tree clip_by_global_norm(const Tree& tree, double max_norm) {
  if (tree_size(tree) == 0) return tree;
  const auto scale = (max_norm / (global_norm(tree) + 1e-6)).minimum(1);
  return detail::map_tensors<false>([&](const auto& g) { return g * scale; }, tree);
}

/// Options of sgd (PyTorch's `torch.optim.SGD`, without dampening).
struct sgd_options {
  double momentum = 0;
  bool nesterov = false;
  double weight_decay = 0;
};

/// Stochastic gradient descent with optional momentum, Nesterov momentum and weight decay, as
/// PyTorch's `SGD`: g += wd p; b = momentum b + g; g = nesterov ? g + momentum b : b; p -= lr g.
template <class Tree>
class sgd {
 public:
  explicit sgd(const Tree& params, schedule lr = 0.01, sgd_options o = {})
      : lr_(std::move(lr)), o_(o), buffer_(detail::zeros_tree(params)) {}

  /// The parameters after one step with the gradients `grads` (of the parameters' structure).
  /// Throws ep::value_error naming the path where `grads` differs from the parameters.
  Tree step(const Tree& params, const Tree& grads) {
    const double lr = lr_(steps_++);
    const double mu = o_.momentum, wd = o_.weight_decay;
    Tree g = grads;
    if (wd != 0)
      g = detail::map_tensors([&](const auto& gi, const auto& p) { return gi + wd * p; }, grads,
                              params);
    if (mu == 0)
      return detail::map_tensors([&](const auto& p, const auto& gi) { return p - lr * gi; }, params,
                                 g);
    buffer_ = detail::computed(detail::map_tensors(
        [&](const auto& b, const auto& gi) { return mu * b + gi; }, buffer_, g));
    if (o_.nesterov)
      return detail::map_tensors(
          [&](const auto& p, const auto& gi, const auto& b) { return p - lr * (gi + mu * b); },
          params, g, buffer_);
    return detail::map_tensors([&](const auto& p, const auto& b) { return p - lr * b; }, params,
                               buffer_);
  }
  /// The momentum buffers, of the parameters' structure (zeros without momentum).
  [[nodiscard]] const Tree& momentum_buffer() const { return buffer_; }
  /// The number of steps taken.
  [[nodiscard]] std::int64_t steps() const { return steps_; }

 private:
  schedule lr_;
  sgd_options o_;
  Tree buffer_;
  std::int64_t steps_ = 0;
};

/// Options of adam and adamw (PyTorch's defaults; adamw's weight decay defaults to 0.01).
struct adam_options {
  double beta1 = 0.9;
  double beta2 = 0.999;
  double eps = 1e-8;
  double weight_decay = 0;
};

namespace detail {

/// Adam and AdamW: one implementation, the weight decay added to the gradient (Adam's L2) or
/// applied to the parameters (AdamW's decoupled decay).
template <class Tree, bool Decoupled>
class adam_base {
 public:
  explicit adam_base(const Tree& params, schedule lr, adam_options o)
      : lr_(std::move(lr)), o_(o), m_(zeros_tree(params)), v_(zeros_tree(params)) {}

  /// The parameters after one step with the gradients `grads`: m = b1 m + (1 - b1) g,
  /// v = b2 v + (1 - b2) g^2, p -= lr / (1 - b1^t) m / (sqrt(v) / sqrt(1 - b2^t) + eps), as
  /// PyTorch computes it. Throws ep::value_error naming the path where `grads` differs.
  Tree step(const Tree& params, const Tree& grads) {
    const double lr = lr_(steps_++);
    const auto t = static_cast<double>(steps_);
    const double b1 = o_.beta1, b2 = o_.beta2, eps = o_.eps, wd = o_.weight_decay;
    const double step_size = lr / (1 - std::pow(b1, t));
    const double root_bc2 = std::sqrt(1 - std::pow(b2, t));
    Tree g = grads;
    Tree p = params;
    if (wd != 0) {
      if constexpr (Decoupled) {
        p = map_tensors([&](const auto& x) { return x * (1 - lr * wd); }, params);
      } else {
        g = map_tensors([&](const auto& gi, const auto& x) { return gi + wd * x; }, grads, params);
      }
    }
    m_ = computed(
        map_tensors([&](const auto& m, const auto& gi) { return b1 * m + (1 - b1) * gi; }, m_, g));
    v_ = computed(map_tensors(
        [&](const auto& v, const auto& gi) { return b2 * v + (1 - b2) * gi.square(); }, v_, g));
    return map_tensors(
        [&](const auto& x, const auto& m, const auto& v) {
          return x - step_size * m / (v.sqrt() / root_bc2 + eps);
        },
        p, m_, v_);
  }
  /// The first and second moments, of the parameters' structure.
  [[nodiscard]] const Tree& first_moment() const { return m_; }
  [[nodiscard]] const Tree& second_moment() const { return v_; }
  /// The number of steps taken.
  [[nodiscard]] std::int64_t steps() const { return steps_; }

 private:
  schedule lr_;
  adam_options o_;
  Tree m_, v_;
  std::int64_t steps_ = 0;
};

}  // namespace detail

/// Adam (Kingma and Ba; PyTorch: `torch.optim.Adam`, weight decay as an L2 term).
template <class Tree>
class adam : public detail::adam_base<Tree, false> {
 public:
  explicit adam(const Tree& params, schedule lr = 1e-3, adam_options o = {})
      : detail::adam_base<Tree, false>(params, std::move(lr), o) {}
};

/// AdamW (Loshchilov and Hutter; PyTorch: `torch.optim.AdamW`): p *= 1 - lr wd, then Adam.
template <class Tree>
class adamw : public detail::adam_base<Tree, true> {
 public:
  explicit adamw(const Tree& params, schedule lr = 1e-3, adam_options o = {.weight_decay = 0.01})
      : detail::adam_base<Tree, true>(params, std::move(lr), o) {}
};

/// Options of rmsprop (PyTorch's `torch.optim.RMSprop`, not centered).
struct rmsprop_options {
  double alpha = 0.99;
  double eps = 1e-8;
  double momentum = 0;
  double weight_decay = 0;
};

/// RMSprop as PyTorch's: g += wd p; v = alpha v + (1 - alpha) g^2; with momentum
/// b = momentum b + g / (sqrt(v) + eps), p -= lr b; else p -= lr g / (sqrt(v) + eps).
template <class Tree>
class rmsprop {
 public:
  explicit rmsprop(const Tree& params, schedule lr = 0.01, rmsprop_options o = {})
      : lr_(std::move(lr)), o_(o), v_(detail::zeros_tree(params)), buffer_(v_) {}

  /// The parameters after one step with the gradients `grads`.
  Tree step(const Tree& params, const Tree& grads) {
    const double lr = lr_(steps_++);
    const double alpha = o_.alpha, eps = o_.eps, mu = o_.momentum, wd = o_.weight_decay;
    Tree g = grads;
    if (wd != 0)
      g = detail::map_tensors([&](const auto& gi, const auto& x) { return gi + wd * x; }, grads,
                              params);
    v_ = detail::computed(detail::map_tensors(
        [&](const auto& v, const auto& gi) { return alpha * v + (1 - alpha) * gi.square(); }, v_,
        g));
    if (mu == 0)
      return detail::map_tensors([&](const auto& x, const auto& gi,
                                     const auto& v) { return x - lr * gi / (v.sqrt() + eps); },
                                 params, g, v_);
    buffer_ = detail::computed(
        detail::map_tensors([&](const auto& b, const auto& gi,
                                const auto& v) { return mu * b + gi / (v.sqrt() + eps); },
                            buffer_, g, v_));
    return detail::map_tensors([&](const auto& x, const auto& b) { return x - lr * b; }, params,
                               buffer_);
  }
  /// The running mean of the squared gradients, of the parameters' structure.
  [[nodiscard]] const Tree& square_average() const { return v_; }
  [[nodiscard]] std::int64_t steps() const { return steps_; }

 private:
  schedule lr_;
  rmsprop_options o_;
  Tree v_, buffer_;
  std::int64_t steps_ = 0;
};

/// Options of lbfgs; the defaults are SciPy's L-BFGS-B's (`maxcor`, `pgtol`, `ftol`).
struct lbfgs_options {
  int history = 10;                                 // pairs (s, y) kept
  double tolerance_grad = 1e-5;                     // stop when max |g| <= this
  double tolerance_change = 2.220446049250313e-09;  // stop when the relative decrease of f is below
  double c1 = 1e-4;                                 // strong Wolfe: sufficient decrease
  double c2 = 0.9;                                  // strong Wolfe: curvature
  int max_linesearch = 25;                          // evaluations per line search
};

/// What lbfgs::minimize returns.
template <class Tree>
struct lbfgs_result {
  Tree params;
  double value = 0;
  int iterations = 0;
  int evaluations = 0;
  bool converged = false;
};

/// L-BFGS (Nocedal and Wright, Algorithm 7.4, the two-loop recursion) with a strong-Wolfe line
/// search by cubic interpolation (their Algorithms 3.5 and 3.6, as PyTorch's `LBFGS` with
/// `line_search_fn="strong_wolfe"`), over a tree of parameters. `f(params)` returns a scalar
/// tensor; gradients come from ep::value_and_grad. Its state is the last point with its value and
/// gradient, and the pairs (s, y) of the parameters' structure.
template <class Tree>
class lbfgs {
 public:
  explicit lbfgs(lbfgs_options o = {}) : o_(o) {}

  /// One iteration from `params`: a direction from the two-loop recursion, a strong-Wolfe line
  /// search along it; returns the new parameters. `params` should be what the last step returned
  /// (its value and gradient are reused), or the starting point.
  template <class F>
  Tree step(F&& f, const Tree& params) {
    if (!x_.has_value()) evaluate_at(f, params);
    if (converged_) return *x_;
    const Tree& x = *x_;
    const Tree& g = *g_;
    // The two-loop recursion: d = -H g, with H_0 = (s'y / y'y) I from the newest pair.
    Tree q = g;
    std::vector<double> alpha(history_.size());
    for (std::size_t i = history_.size(); i-- > 0;) {
      alpha[i] = history_[i].rho * detail::vdot(history_[i].s, q);
      const double a = alpha[i];
      q = detail::map_tensors([a](const auto& qi, const auto& yi) { return qi - a * yi; }, q,
                              history_[i].y);
    }
    const double gamma =
        history_.empty()
            ? 1.0
            : 1.0 / (history_.back().rho * detail::vdot(history_.back().y, history_.back().y));
    Tree r = detail::map_tensors([gamma](const auto& qi) { return gamma * qi; }, q);
    for (std::size_t i = 0; i < history_.size(); ++i) {
      const double c = alpha[i] - history_[i].rho * detail::vdot(history_[i].y, r);
      r = detail::map_tensors([c](const auto& ri, const auto& si) { return ri + c * si; }, r,
                              history_[i].s);
    }
    Tree d = detail::map_tensors([](const auto& ri) { return -ri; }, r);
    double gtd = detail::vdot(g, d);
    if (!(gtd < 0)) {  // not a descent direction: restart from steepest descent
      history_.clear();
      d = detail::map_tensors([](const auto& gi) { return -gi; }, g);
      gtd = detail::vdot(g, d);
    }
    // The first step of the first iteration: min(1, 1 / |g|_1), as PyTorch's.
    double t = 1.0;
    if (iterations_ == 0) {
      double l1 = 0;
      tree_for_each_with_path(
          [&l1](const tree_path&, const auto& gi) {
            if constexpr (istensor<decltype(gi)>) l1 += static_cast<double>(gi.abs().sum().item());
          },
          g);
      t = std::min(1.0, 1.0 / std::max(l1, 1e-300));
    }
    const double f_old = f_;
    line_search(f, x, d, t, gtd);
    ++iterations_;
    // Stopping tests of SciPy's L-BFGS-B: the largest gradient component, the relative decrease.
    if (detail::max_abs(*g_) <= o_.tolerance_grad) converged_ = true;
    if ((f_old - f_) / std::max({std::abs(f_old), std::abs(f_), 1.0}) <= o_.tolerance_change)
      converged_ = true;
    return *x_;
  }

  /// Iterates from `x0` until converged or `max_iterations` iterations.
  template <class F>
  lbfgs_result<Tree> minimize(F&& f, const Tree& x0, int max_iterations = 100) {
    Tree x = x0;
    while (iterations_ < max_iterations && !converged_) x = step(f, x);
    if (!x_.has_value()) evaluate_at(f, x0);
    return {*x_, f_, iterations_, evaluations_, converged_};
  }

  [[nodiscard]] int iterations() const { return iterations_; }
  [[nodiscard]] int evaluations() const { return evaluations_; }
  [[nodiscard]] bool converged() const { return converged_; }

 private:
  struct pair {
    Tree s, y;
    double rho;
  };

  template <class F>
  void evaluate_at(F& f, const Tree& x) {
    auto [value, grad] = value_and_grad(f, x);
    ++evaluations_;
    x_ = x;
    f_ = static_cast<double>(value.item());
    g_ = std::move(grad);
    if (detail::max_abs(*g_) <= o_.tolerance_grad) converged_ = true;
  }

  /// Cubic interpolation of the minimum between (x1, f1, g1) and (x2, f2, g2), within [lo, hi]
  /// (Nocedal and Wright, eq. 3.59); the midpoint where the cubic has no minimum.
  static double cubic_min(double x1, double f1, double g1, double x2, double f2, double g2,
                          double lo, double hi) {
    const double d1 = g1 + g2 - 3 * (f1 - f2) / (x1 - x2);
    const double d2_square = d1 * d1 - g1 * g2;
    if (d2_square >= 0) {
      const double d2 = std::sqrt(d2_square);
      const double m = x1 <= x2 ? x2 - (x2 - x1) * ((g2 + d2 - d1) / (g2 - g1 + 2 * d2))
                                : x1 - (x1 - x2) * ((g1 + d2 - d1) / (g1 - g2 + 2 * d2));
      if (std::isfinite(m)) return std::clamp(m, lo, hi);
    }
    return (lo + hi) / 2;
  }

  /// A trial step of the line search: x = x0 + t d, f(x), its gradient g and g . d.
  struct point {
    double t, f, gtd;
    Tree x, g;
  };

  /// The line search's bracket and the points it keeps: (lo_t, lo_f, lo_g) and (hi_t, hi_f, hi_g)
  /// the step, value and slope at the bracket's ends, `prev` the last step before the bracket
  /// (t = 0 is (f0, gtd0) without a point), `best` a Wolfe point once found.
  struct line_state {
    double f0, gtd0;
    std::optional<point> prev{}, best{}, lo_pt{};
    double t_prev = 0, f_prev = f0, gtd_prev = gtd0;
    int evals = 0;
    double lo_t = 0, lo_f = f0, lo_g = gtd0, hi_t = 0, hi_f = 0, hi_g = 0;
    bool bracketed = false;
  };

  /// f and its gradient at x0 + step d, counted.
  template <class F>
  point probe(F& f, const Tree& x0, const Tree& d, double step) {
    Tree x = detail::map_tensors([step](const auto& xi, const auto& di) { return xi + step * di; },
                                 x0, d);
    auto [value, grad] = value_and_grad(f, x);
    ++evaluations_;
    const double gtd = detail::vdot(grad, d);
    return point{step, static_cast<double>(value.item()), gtd, std::move(x), std::move(grad)};
  }

  /// Bracketing (Nocedal and Wright, Algorithm 3.5): steps growing from t until one satisfies the
  /// strong Wolfe conditions (st.best) or an interval holding one is found (st.bracketed).
  template <class F>
  void bracket(F& f, const Tree& x0, const Tree& d, double t, line_state& st) {
    while (st.evals < o_.max_linesearch) {
      point p = probe(f, x0, d, t);
      ++st.evals;
      if (p.f > st.f0 + o_.c1 * t * st.gtd0 || (st.evals > 1 && p.f >= st.f_prev)) {
        st.lo_t = st.t_prev, st.lo_f = st.f_prev, st.lo_g = st.gtd_prev, st.lo_pt = st.prev;
        st.hi_t = p.t, st.hi_f = p.f, st.hi_g = p.gtd;
        st.bracketed = true;
        return;
      }
      if (std::abs(p.gtd) <= -o_.c2 * st.gtd0) {
        st.best = std::move(p);
        return;
      }
      if (p.gtd >= 0) {
        st.hi_t = st.t_prev, st.hi_f = st.f_prev, st.hi_g = st.gtd_prev;
        st.lo_t = p.t, st.lo_f = p.f, st.lo_g = p.gtd, st.lo_pt = std::move(p);
        st.bracketed = true;
        return;
      }
      const double next = cubic_min(st.t_prev, st.f_prev, st.gtd_prev, t, p.f, p.gtd,
                                    t + 0.01 * (t - st.t_prev), t * 10);
      st.t_prev = t, st.f_prev = p.f, st.gtd_prev = p.gtd;
      st.prev = std::move(p);
      t = next;
    }
  }

  /// Zoom (Algorithm 3.6): the bracket shrinks around a Wolfe point, found or not within the
  /// budget.
  template <class F>
  void zoom(F& f, const Tree& x0, const Tree& d, line_state& st) {
    while (!st.best.has_value() && st.bracketed && st.evals < o_.max_linesearch) {
      const double a = std::min(st.lo_t, st.hi_t), b = std::max(st.lo_t, st.hi_t);
      double tz = cubic_min(st.lo_t, st.lo_f, st.lo_g, st.hi_t, st.hi_f, st.hi_g, a, b);
      if (std::min(b - tz, tz - a) < 0.1 * (b - a)) tz = (a + b) / 2;  // safeguard: bisect
      if ((b - a) * detail::max_abs(d) < 1e-12) break;                 // the bracket has collapsed
      point p = probe(f, x0, d, tz);
      ++st.evals;
      if (p.f > st.f0 + o_.c1 * tz * st.gtd0 || p.f >= st.lo_f) {
        st.hi_t = p.t, st.hi_f = p.f, st.hi_g = p.gtd;
      } else {
        if (std::abs(p.gtd) <= -o_.c2 * st.gtd0) {
          st.best = std::move(p);
          break;
        }
        if (p.gtd * (st.hi_t - st.lo_t) >= 0) {
          st.hi_t = st.lo_t, st.hi_f = st.lo_f, st.hi_g = st.lo_g;
        }
        st.lo_t = p.t, st.lo_f = p.f, st.lo_g = p.gtd, st.lo_pt = std::move(p);
      }
    }
  }

  /// Moves the state (x, f, g) to `best` and records the pair (s, y) of the step from (x0, g0).
  void accept(point& best, const Tree& x0, const Tree& g0) {
    // Computed once: each pair is read by the next `history` iterations' two-loop recursions.
    Tree s = detail::computed(
        detail::map_tensors([](const auto& xn, const auto& xo) { return xn - xo; }, best.x, x0));
    Tree y = detail::computed(
        detail::map_tensors([](const auto& gn, const auto& go) { return gn - go; }, best.g, g0));
    const double sy = detail::vdot(s, y);
    if (sy > 1e-10) {  // keep the pair only if it keeps H positive definite (PyTorch's test)
      history_.push_back({std::move(s), std::move(y), 1.0 / sy});
      if (static_cast<int>(history_.size()) > o_.history) history_.pop_front();
    }
    x_ = std::move(best.x);
    f_ = best.f;
    g_ = std::move(best.g);
  }

  /// A step t along d satisfying the strong Wolfe conditions; moves the state (x, f, g) there and
  /// records the pair (s, y).
  template <class F>
  void line_search(F& f, const Tree& x0, const Tree& d, double t, double gtd0) {
    const Tree g0 = *g_;
    line_state st{f_, gtd0};
    bracket(f, x0, d, t, st);
    zoom(f, x0, d, st);
    if (!st.best.has_value()) {  // no Wolfe point within the budget: the lowest point seen
      if (st.lo_pt.has_value() && st.lo_pt->f < st.f0)
        st.best = st.lo_pt;
      else if (st.prev.has_value() && st.prev->f < st.f0)
        st.best = st.prev;
    }
    if (!st.best.has_value()) {  // no decrease along d: at the minimum to machine precision
      converged_ = true;
      return;
    }
    accept(*st.best, x0, g0);
  }

  lbfgs_options o_;
  std::optional<Tree> x_, g_;
  double f_ = 0;
  std::deque<pair> history_;
  int iterations_ = 0, evaluations_ = 0;
  bool converged_ = false;
};

}  // namespace ep::optim
