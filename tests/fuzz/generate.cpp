// eagerpp - the differential fuzzer's generator, compiled once for every backend (the op table:
// ops.hpp; the C++ printer: to_cpp.cpp)
// SPDX-License-Identifier: MIT
#include "fuzz/generate.hpp"

#include <algorithm>  // std::max, std::shuffle, std::sort
#include <cmath>      // std::abs, std::isfinite, std::isnan, std::log, std::pow
#include <cstdint>    // std::int64_t, INT64_MIN
#include <limits>     // std::numeric_limits
#include <string>     // std::string
#include <vector>     // std::vector

#include "fuzz/ops.hpp"

namespace ep::fuzz {

/// The operands and parameters of one instruction on value `a`: a function per family of the op
/// table (args_UNARY ...) and one per op of the fuzzer's own (args_<name>), each of which fills
/// `ins`, adding the inputs it needs to `p`.
struct op_args {
  generator& g;
  program& p;
  int& a;
  instruction& ins;
  const value_info x;
  const int r;
  const bool bad;  // now and then an invalid argument: every backend must reject it alike

  int pick(int n) { return g.pick(n); }
  std::int64_t axis() { return r == 0 ? std::int64_t{0} : std::int64_t{pick(2 * r) - r}; }
  /// A new input operand (value numbers after it shift, `a` among them).
  int other(dtype t, const Shape& s) {
    const int b = g.add_input(p, g.random_input(t, s));
    if (b <= a) ++a;
    ins.args[0] = a;
    return b;
  }
  /// A new input operand holding `values` (indices, labels).
  void add_operand(const input& values) {
    ins.args.push_back(other(values.type, values.shape));
    p.inputs[static_cast<std::size_t>(ins.args.back())] = values;
  }

  // --- the families of the library's lists
  void args_UNARY() {}
  void args_OPERATOR() {
    Shape s = g.broadcastable(x.shape);
    if (bad && s.size() < max_rank) s.push_back(7);
    int b = -1;
    if (!g.grad_mode_ && pick(3) == 0) {  // an earlier value of the same dtype and shape, if any
      for (int i = static_cast<int>(g.info_.size()) - 1; i >= 0; --i)
        if (i != a && g.info_[static_cast<std::size_t>(i)].type == x.type &&
            g.info_[static_cast<std::size_t>(i)].shape == x.shape)
          b = i;
    }
    if (b < 0) b = other(x.type, s);
    ins.args.push_back(b);
    if (pick(2)) std::swap(ins.args[0], ins.args[1]);
  }
  void args_METHOD() { args_OPERATOR(); }
  void args_REDUCTION() {  // ints = {keepdims, axes...}
    ins.ints = {pick(2)};
    for (auto ax : g.random_axes(r, true)) ins.ints.push_back(ax);
  }
  void args_AXIS() {
    if (pick(3)) ins.ints = {bad ? r + 1 : axis()};
  }

  // --- element-wise ops of the fuzzer's own
  void args_clip() {
    const double lo = (pick(9) - 4) / 2.0;
    ins.reals = {lo, lo + pick(5) / 2.0};
  }
  void args_where() {  // the condition is a constant; x and y are both differentiated
    const int c = other(dtype::boolean, g.broadcastable(x.shape));
    const int y = other(x.type, g.broadcastable(x.shape));
    ins.args = {c, a, y};
  }
  void real_scalar() { ins.reals = {(pick(17) - 8) / 4.0}; }
  void args_add_scalar() { real_scalar(); }
  void args_rsubtract_scalar() { real_scalar(); }
  void args_multiply_scalar() { real_scalar(); }
  void args_divide_scalar() { real_scalar(); }
  void int_scalar() { ins.ints = {pick(7) - 3}; }
  void args_add_int() { int_scalar(); }
  void args_multiply_int() { int_scalar(); }
  void args_maximum_int() { int_scalar(); }
  void args_pow_scalar() { ins.reals = {static_cast<double>(pick(4)) / (pick(2) ? 1 : 2)}; }

  // --- shape
  void args_reshape() {  // a random factorization of the element count, one extent maybe -1
    std::int64_t n = x.shape.numel();
    std::vector<std::int64_t> s;
    if (n == 0) {
      s = {0, 1 + pick(3)};
    } else {
      for (int i = 0; i < 4 && n > 1; ++i) {
        std::vector<std::int64_t> divisors;
        for (std::int64_t d = 1; d <= n; ++d)
          if (n % d == 0) divisors.push_back(d);
        const auto d = divisors[static_cast<std::size_t>(pick(static_cast<int>(divisors.size())))];
        s.push_back(d);
        n /= d;
      }
      if (n > 1) s.push_back(n);
      if (!s.empty() && pick(3) == 0)
        s[static_cast<std::size_t>(pick(static_cast<int>(s.size())))] = -1;
    }
    if (bad) s.push_back(2);
    ins.ints = s;
  }
  void args_flatten() { ins.ints = {r == 0 ? 0 : axis(), r == 0 ? -1 : axis()}; }
  void args_transpose() {
    if (pick(3) == 0) return;
    std::vector<std::int64_t> perm;
    for (int i = 0; i < r; ++i) perm.push_back(i);
    std::shuffle(perm.begin(), perm.end(), g.rng_);
    if (bad && r > 0) perm[0] = r;
    ins.ints = perm;
  }
  void args_squeeze() {
    for (int i = 0; i < r; ++i)
      if ((x.shape[i] == 1 || bad) && pick(2)) ins.ints.push_back(i);
  }
  void args_expand_dims() { ins.ints = {pick(2 * r + 2) - r - 1}; }
  void args_broadcast_to() {
    std::vector<std::int64_t> s;
    if (r < 5 && pick(2)) s.push_back(pick(3));
    for (int i = 0; i < r; ++i) s.push_back(x.shape[i] == 1 ? pick(3) : x.shape[i]);
    if (bad) s.push_back(5);
    ins.ints = s;
  }
  void args_flip() { ins.ints = g.random_axes(r, true); }
  void args_tile() {
    for (int i = 0; i < r; ++i) ins.ints.push_back(pick(3));
    if (bad) ins.ints.push_back(1);
  }
  void args_pad() {  // ints = {reflect, before0, after0, before1, after1, ...}
    const bool reflect = !g.grad_mode_ && pick(3) == 0;
    ins.ints = {reflect ? 1 : 0};
    for (int i = 0; i < r; ++i) {
      ins.ints.push_back(pick(3));
      ins.ints.push_back(pick(3));
    }
    ins.reals = {static_cast<double>(pick(3))};
  }

  // --- indexing and selection
  void args_slice() {  // ints = {axis-prefix count, start, stop, step}; an omitted bound INT64_MIN
    if (r == 0) ins.op = "newaxis";
    const auto bound = [&] { return pick(3) == 0 ? INT64_MIN : std::int64_t{pick(11) - 5}; };
    std::int64_t step = pick(5) - 2;
    if (step == 0 && !bad) step = 1;
    ins.ints = {pick(3), bound(), bound(), step};
  }
  void args_integer() {
    if (r == 0 || (x.shape[0] == 0 && !bad)) {
      ins.op = "newaxis";
      return;
    }
    const std::int64_t n = x.shape[0];
    ins.ints = {bad ? n : pick(static_cast<int>(2 * std::max<std::int64_t>(n, 1))) - n};
  }
  void args_newaxis() {}
  void args_take() {  // x[index tensor], on the first axis or after one full slice
    const int ax = r >= 2 && pick(2) ? 1 : 0;
    const std::int64_t extent = r == 0 ? 1 : x.shape[ax];
    input idx = g.random_input(dtype::int64, g.random_shape(6));
    for (auto& v : idx.values)
      v = extent == 0 ? 0 : static_cast<double>(pick(static_cast<int>(2 * extent)) - extent);
    if (bad || (extent == 0 && !idx.values.empty())) {
      idx.values.push_back(static_cast<double>(extent));
      idx.shape = Shape{static_cast<std::int64_t>(idx.values.size())};
    }
    ins.ints = {ax};
    add_operand(idx);
  }
  void args_mask() {
    Shape s = x.shape;
    if (bad && s.size() < max_rank) s.push_back(1);
    ins.args.push_back(other(dtype::boolean, s));
  }
  void sort_axis() { ins.ints = {bad ? r : (r == 0 ? -1 : axis())}; }
  void args_sort() { sort_axis(); }
  void args_argsort() { sort_axis(); }
  void topk() {  // ints = {k, axis}
    const int ax = r == 0 ? -1 : static_cast<int>(axis());
    const std::int64_t extent = r == 0 ? 1 : x.shape[ax < 0 ? ax + r : ax];
    ins.ints = {bad ? extent + 1 : pick(static_cast<int>(extent) + 1), ax};
  }
  void args_topk_values() { topk(); }
  void args_topk_indices() { topk(); }
  void args_take_along_axis() {
    if (r == 0) {
      ins.op = "newaxis";
      return;
    }
    const int ax = pick(r);
    Shape s = x.shape;
    s[ax] = pick(4);
    input idx = g.random_input(dtype::int64, s);
    for (auto& v : idx.values) v = x.shape[ax] == 0 ? 0 : pick(static_cast<int>(x.shape[ax]));
    if (x.shape[ax] == 0 && !idx.values.empty()) idx.values[0] = bad ? 3 : 0;
    if (bad && !idx.values.empty()) idx.values[0] = static_cast<double>(x.shape[ax]);
    ins.ints = {ax};
    add_operand(idx);
  }

  // --- linear algebra, nn, conversion
  void args_matmul() {  // x of shape (..., n, k) (a vector if rank 1) times (..., k, m)
    Shape s;
    if (r == 1) {
      s = pick(2) ? Shape{x.shape[0]} : Shape{x.shape[0], 1 + pick(3)};
    } else if (r >= 2) {
      for (int i = pick(2) ? 0 : r - 2; i < r - 2; ++i) s.push_back(pick(3) == 0 ? 1 : x.shape[i]);
      s.push_back(x.shape[r - 1]);
      s.push_back(pick(4));
    }
    if (bad && s.size() > 0) s[s.size() - (s.size() >= 2 ? 2 : 1)] += 1;
    ins.args.push_back(other(x.type, s));
  }
  void args_softmax() { sort_axis(); }
  void args_log_softmax() { sort_axis(); }
  void args_crossentropy() {
    if (r != 2 || x.shape[1] == 0) {
      ins.op = "log_softmax";
      ins.ints = {-1};
      return;
    }
    input labels = g.random_input(dtype::int64, Shape{x.shape[0]});
    for (auto& v : labels.values) v = pick(static_cast<int>(x.shape[1]));
    add_operand(labels);
  }
  void args_astype() { ins.ints = {pick(5)}; }

  using maker = void (op_args::*)();
  /// The function of each row of the op table, in its order.
  static const std::vector<maker>& makers() {
#define EAGERPP_FUZZ_MAKER_UNARY(name) &op_args::args_UNARY
#define EAGERPP_FUZZ_MAKER_OPERATOR(name) &op_args::args_OPERATOR
#define EAGERPP_FUZZ_MAKER_METHOD(name) &op_args::args_METHOD
#define EAGERPP_FUZZ_MAKER_REDUCTION(name) &op_args::args_REDUCTION
#define EAGERPP_FUZZ_MAKER_AXIS(name) &op_args::args_AXIS
#define EAGERPP_FUZZ_MAKER_OTHER(name) &op_args::args_##name
#define EAGERPP_FUZZ_ROW(FAMILY, name, DTYPES, spelled) EAGERPP_FUZZ_MAKER_##FAMILY(name),
    static const std::vector<maker> all = {EAGERPP_FUZZ_OPS};
#undef EAGERPP_FUZZ_ROW
#undef EAGERPP_FUZZ_MAKER_UNARY
#undef EAGERPP_FUZZ_MAKER_OPERATOR
#undef EAGERPP_FUZZ_MAKER_METHOD
#undef EAGERPP_FUZZ_MAKER_REDUCTION
#undef EAGERPP_FUZZ_MAKER_AXIS
#undef EAGERPP_FUZZ_MAKER_OTHER
    return all;
  }
};

generator::generator(const interpreter& reference, std::uint64_t seed, int size_scale)
    : ref_(reference), rng_(seed), size_scale_(size_scale < 1 ? 1 : size_scale) {}

double generator::uniform() { return std::uniform_real_distribution<double>(0, 1)(rng_); }
int generator::pick(int n) {
  return n <= 0 ? 0 : static_cast<int>(rng_() % static_cast<std::uint64_t>(n));
}

Shape generator::random_shape(int max_numel) {
  for (;;) {
    Shape s;
    const int rank = pick(6);
    for (int i = 0; i < rank; ++i) s.push_back(pick(20) == 0 ? 0 : 1 + pick(3 + size_scale_));
    if (s.numel() <= max_numel) return s;
  }
}

input generator::random_input(dtype t, const Shape& s) {
  input in{t, s, {}};
  const auto n = s.numel();
  for (std::int64_t i = 0; i < n; ++i) {
    if (grad_mode_)
      in.values.push_back(std::uniform_real_distribution<double>(-2, 2)(rng_));
    else if (is_floating(t))
      in.values.push_back((pick(33) - 16) / 4.0);
    else if (is_integer(t))
      in.values.push_back(pick(11) - 5);
    else
      in.values.push_back(pick(2));
  }
  return in;
}

/// A shape that broadcasts with `s`: trailing axes kept, some set to 1, leading ones dropped.
Shape generator::broadcastable(const Shape& s) {
  Shape out;
  const int drop = pick(s.size() + 1);
  for (int i = drop; i < s.size(); ++i) out.push_back(pick(3) == 0 ? 1 : s[i]);
  if (pick(8) == 0 && out.size() < 5) out.insert(0, 1 + pick(2));
  return out;
}

int generator::add_input(program& p, const input& in) {
  // Inputs come before every instruction's value: renumber the operands of the code.
  const int at = static_cast<int>(p.inputs.size());
  p.inputs.push_back(in);
  for (auto& ins : p.code)
    for (auto& a : ins.args)
      if (a >= at) ++a;
  info_.insert(info_.begin() + at, value_info{in.type, in.shape, 0, 0, max_abs(in.values)});
  return at;
}

double generator::max_abs(const std::vector<double>& v) {
  double m = 0;
  for (double x : v)
    if (std::isfinite(x)) m = std::max(m, std::abs(x));
  return m;
}

std::vector<std::int64_t> generator::random_axes(int rank, bool allow_none) {
  std::vector<std::int64_t> axes;
  if (rank == 0 || (allow_none && pick(3) == 0)) return axes;
  const int n = 1 + pick(rank);
  std::vector<int> all(static_cast<std::size_t>(rank));
  for (int i = 0; i < rank; ++i) all[static_cast<std::size_t>(i)] = i;
  std::shuffle(all.begin(), all.end(), rng_);
  for (int i = 0; i < n; ++i)
    axes.push_back(all[static_cast<std::size_t>(i)] - (pick(2) ? rank : 0));
  if (pick(40) == 0)
    axes.push_back(rank + pick(2));  // out of range: every backend must reject it alike
  return axes;
}

/// The ops a value of dtype `t` may go through, as indices of the op table, in its order (a seed
/// gives the same programs): those that take `t` or, in gradient mode, the differentiable ones.
std::vector<std::size_t> generator::candidates(dtype t) const {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < ops().size(); ++i) {
    const op& o = ops()[i];
    if (grad_mode_ ? (o.traits.flags & grad) != 0 && o.admits(dtype::float64) : o.admits(t))
      out.push_back(i);
  }
  return out;
}

/// One random instruction on value `a`; may add inputs (operands of the op) to `p`.
instruction generator::random_instruction(program& p, int& a) {
  const value_info x = info_[static_cast<std::size_t>(a)];
  const auto choices = candidates(x.type);
  std::size_t k = choices[static_cast<std::size_t>(pick(static_cast<int>(choices.size())))];
  // now and then an op of another dtype: every backend must reject it alike
  if (!grad_mode_ && pick(40) == 0)
    k = static_cast<std::size_t>(pick(static_cast<int>(ops().size())));
  instruction ins;
  ins.op = std::string(ops()[k].name);
  ins.args = {a};
  op_args args{*this, p, a, ins, x, x.shape.size(), pick(30) == 0};
  (args.*op_args::makers()[k])();
  return ins;
}

/// The accuracy class of the result of `ins` on operands of the given classes.
int generator::result_tag(const instruction& ins, const value& result) const {
  int tag = 0;
  for (int a : ins.args) tag = std::max(tag, info_[static_cast<std::size_t>(a)].tag);
  const unsigned flags = op_named(ins.op).traits.flags;
  const bool floating = is_floating(result.type), inexact_result = floating && (flags & inexact);
  if (tag == 0) return inexact_result ? 1 : 0;  // else correctly rounded, exact, or moved
  if (tag == 1 && floating && (flags & keeps)) return inexact_result ? 2 : 1;
  return 2;  // a discontinuous op (floor, comparisons, arg*, casts) of an inexact value, or error
             // growth
}

/// Whether `ins` could overflow an integer (undefined behaviour in C++, a wrap in NumPy): such
/// programs are not generated.
bool generator::may_overflow(const instruction& ins) const {
  const auto& x = info_[static_cast<std::size_t>(ins.args[0])];
  const growth how = op_named(ins.op).traits.growth;
  if (how == growth::cast) {  // float to integer: out of range is undefined
    if (!is_floating(x.type) || ins.ints[0] < 2 || ins.ints[0] > 3) return false;
    return x.max_abs > 2e9 || x.tag == 2 || x.has_nan;
  }
  if (!is_integer(x.type)) return false;
  const double limit = x.type == dtype::int32 ? 1e9 : 1e17;
  const double m = x.max_abs;
  const double m2 = ins.args.size() > 1 ? info_[static_cast<std::size_t>(ins.args[1])].max_abs : 0;
  const double n = static_cast<double>(std::max<std::int64_t>(x.shape.numel(), 1));
  switch (how) {
    case growth::sum:
      return m + m2 > limit;
    case growth::plus_three:
      return m + 3 > limit;
    case growth::product:
      return m * m2 > limit;
    case growth::times_three:
      return m * 3 > limit;
    case growth::square:
      return m * m > limit;
    case growth::count:
      return m * n > limit;
    case growth::power_count:
      return std::pow(std::max(m, 1.0), n) > limit;
    case growth::power:
      return std::pow(std::max(m, 1.0), std::max(m2, 1.0)) > limit;
    case growth::matmul:
      return m * m2 * n > limit;
    default:
      return false;
  }
}

/// What the generator knows of `v`, the result of `ins`.
value_info generator::describe(const instruction& ins, const value& v) const {
  value_info vi{v.type, v.shape, result_tag(ins, v), 0, max_abs(v.f)};
  for (double f : v.f) vi.has_nan |= std::isnan(f);
  // the scale of rounding errors in the result: its operands' magnitudes times the terms summed
  double scale = vi.max_abs;
  for (int a : ins.args) scale = std::max(scale, info_[static_cast<std::size_t>(a)].scale);
  const auto& x = info_[static_cast<std::size_t>(ins.args[0])];
  if (op_named(ins.op).traits.flags & sums) {
    double m = 1;
    for (int a : ins.args) m *= std::max(1.0, info_[static_cast<std::size_t>(a)].max_abs);
    scale = std::max(scale, m * static_cast<double>(std::max<std::int64_t>(1, x.shape.numel())));
  }
  vi.scale = scale;
  // A floating prod whose partial products can leave the dtype's range gives what the order of
  // multiplying decides: 0 * inf = NaN, or 0, where one lane holds the zero factor and another
  // overflowed (a float32 prod of 245 factors up to 45.6 with a zero: NaN on ep::omp, 0 on Eigen).
  // IEEE arithmetic has no one right answer there, as for inf - inf: dtype and shape only.
  // A subnormal result (nextafter from 0) is read differently by the libraries' vector math (Eigen's
  // log2 takes 1.4e-45 for 2^-126, xtensor's gives -149): what follows from it, dtype and shape.
  if (is_floating(v.type)) {
    const double smallest = v.type == dtype::float32 ? std::numeric_limits<float>::min()
                                                     : std::numeric_limits<double>::min();
    for (double f : v.f) vi.tag = f != 0 && std::abs(f) < smallest ? 2 : vi.tag;
  }
  if (op_named(ins.op).traits.flags & nan_sign) {
    for (int a : ins.args) vi.tag = info_[static_cast<std::size_t>(a)].has_nan ? 2 : vi.tag;
  }
  if (ins.op == "prod" && is_floating(v.type)) {
    const double largest = v.type == dtype::float32 ? std::numeric_limits<float>::max()
                                                    : std::numeric_limits<double>::max();
    if (static_cast<double>(x.shape.numel()) * std::log(std::max(1.0, x.max_abs)) >=
        std::log(largest))
      vi.tag = 2;
  }
  return vi;
}

/// Grows `p` by one instruction (up to 12 attempts); false when none was added. Sets `ended` where
/// the program is to end at the invalid instruction just added.
bool generator::try_instruction(program& p, bool& ended) {
  for (int attempt = 0; attempt < 12; ++attempt) {
    const program saved = p;
    const auto saved_info = info_;
    // operand: the latest value mostly, else any
    int a = static_cast<int>(info_.size()) - 1;
    if (pick(3) == 0) a = pick(static_cast<int>(info_.size()));
    if (grad_mode_ && info_[static_cast<std::size_t>(a)].type != dtype::float64)
      a = static_cast<int>(info_.size()) - 1;
    if (grad_mode_ && info_[static_cast<std::size_t>(a)].type != dtype::float64) return false;
    instruction ins = random_instruction(p, a);
    if (!may_overflow(ins)) {
      p.code.push_back(ins);
      const outcome o = ref_.run(p);
      if (o.failed_at < 0) {
        const value& v = o.values.back();
        if (!grad_mode_ || (v.type == dtype::float64 && smooth_at(ins, o))) {
          info_.push_back(describe(ins, v));
          return true;
        }
      } else if (!grad_mode_ && o.failed_at == static_cast<int>(p.code.size()) - 1 &&
                 o.error_type != "" && pick(4) == 0) {
        ended = true;  // an invalid program: it ends at its error, which every backend must throw
        return true;   // alike
      }
    }
    p = saved;
    info_ = saved_info;
  }
  return false;
}

program generator::next(bool grad_mode) {
  grad_mode_ = grad_mode;
  program p;
  info_.clear();
  const dtype first = grad_mode ? dtype::float64 : static_cast<dtype>(pick(5));
  add_input(p, random_input(first, random_shape((grad_mode ? 12 : 48) * size_scale_)));
  const int length = 1 + pick(grad_mode ? 5 : 8);
  bool ended = false;
  for (int step = 0; step < length; ++step)
    if (try_instruction(p, ended) && ended) return p;
  if (grad_mode) {
    while (!p.code.empty() && info_.back().type != dtype::float64) {
      p.code.pop_back();
      info_.pop_back();
    }
    p.grad = true;
  }
  return p;
}

/// In gradient mode: whether the op is smooth around its operands' values (its domain, ops.hpp:
/// no kink, pole or end of the domain within reach of the finite differences).
bool generator::smooth_at(const instruction& ins, const outcome& o) const {
  auto vals = [&](std::size_t arg) -> const std::vector<double>& {
    return o.values[static_cast<std::size_t>(ins.args[arg])].f;
  };
  auto all = [&](std::size_t arg, auto ok) {
    return std::all_of(vals(arg).begin(), vals(arg).end(), ok);
  };
  bool smooth = true;
  switch (op_named(ins.op).traits.domain) {
    case domain::nonzero:
      smooth = all(0, [](double v) { return std::abs(v) >= 0.05; });
      break;
    case domain::positive:
      smooth = all(0, [](double v) { return v >= 0.05; });
      break;
    case domain::above_minus_one:
      smooth = all(0, [](double v) { return v >= -0.95; });
      break;
    case domain::inside_unit:
      smooth = all(0, [](double v) { return std::abs(v) <= 0.95; });
      break;
    case domain::at_least_one:
      smooth = all(0, [](double v) { return v >= 1.05; });
      break;
    // sin and cos of a large operand oscillate faster than central differences resolve:
    // sin(exp(x^4)) at x = 1.915 has the gradient 9378647.97, where the difference quotients at
    // h = 1e-6 and h = 1e-7 are 348305.9 and 4399497.8
    case domain::moderate:
      smooth = all(0, [](double v) { return std::abs(v) <= 100; });
      break;
    case domain::divisor:
      smooth = all(1, [](double v) { return std::abs(v) >= 0.2; });
      break;
    case domain::distinct:
      smooth = distinct(ins, o);
      break;
    default:
      break;
  }
  return smooth && std::all_of(o.values.back().f.begin(), o.values.back().f.end(),
                               [](double v) { return std::isfinite(v) && std::abs(v) <= 1e6; });
}

/// No two values of the operands within 1e-3 of each other (ties make the gradient a choice).
bool generator::distinct(const instruction& ins, const outcome& o) {
  std::vector<double> v;
  for (int a : ins.args) {
    const auto& f = o.values[static_cast<std::size_t>(a)].f;
    v.insert(v.end(), f.begin(), f.end());
  }
  std::sort(v.begin(), v.end());
  for (std::size_t i = 1; i < v.size(); ++i)
    if (v[i] - v[i - 1] < 1e-3) return false;
  return true;
}

}  // namespace ep::fuzz
