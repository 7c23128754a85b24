// eagerpp - the differential fuzzer's generator, compiled once for every backend (the C++ printer:
// to_cpp.cpp)
// SPDX-License-Identifier: MIT
#include "fuzz/generate.hpp"

#include <algorithm>         // std::max, std::shuffle
#include <cmath>             // std::abs, std::isfinite, std::log
#include <cstdint>           // std::int64_t, INT64_MIN
#include <initializer_list>  // std::initializer_list
#include <limits>            // std::numeric_limits
#include <string>            // std::string
#include <vector>            // std::vector

namespace ep::fuzz {

bool in(const std::string& op, std::initializer_list<const char*> ops) {
  for (const char* o : ops)
    if (op == o) return true;
  return false;
}

namespace {

using names = std::vector<std::string>;

/// The lists in `parts`, one after the other.
names join(std::initializer_list<names> parts) {
  names out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

/// Ops whose floating result is not correctly rounded (libm or vectorized approximations, or sums
/// in an order each backend picks): from exact operands they give an inexact value.
bool rounds_differently(const std::string& op) {
  return in(op, {"exp",        "log",       "log2",    "log10",       "log1p",        "sin",
                 "cos",        "tan",       "arcsin",  "arccos",      "arctan",       "sinh",
                 "cosh",       "tanh",      "arcsinh", "arccosh",     "arctanh",      "pow",
                 "pow_scalar", "logsumexp", "softmax", "log_softmax", "crossentropy", "sum",
                 "prod",       "mean",      "cumsum",  "matmul"});
}

/// Ops that keep an inexact value's relative error about the same (no cancellation, no jump).
bool keeps_accuracy(const std::string& op) {
  return in(op, {"abs",
                 "negative",
                 "square",
                 "multiply",
                 "multiply_scalar",
                 "multiply_int",
                 "minimum",
                 "maximum",
                 "maximum_int",
                 "clip",
                 "where",
                 "reshape",
                 "flatten",
                 "transpose",
                 "squeeze",
                 "expand_dims",
                 "broadcast_to",
                 "flip",
                 "tile",
                 "pad",
                 "slice",
                 "integer",
                 "newaxis",
                 "take",
                 "mask",
                 "sort",
                 "topk_values",
                 "take_along_axis",
                 "min",
                 "max",
                 "sqrt",
                 "exp",
                 "sin",
                 "cos",
                 "tanh",
                 "arctan"});
}

}  // namespace

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

/// One random instruction on value `a`; may add inputs (operands of the op) to `p`.
instruction generator::random_instruction(program& p, int& a) {
  const value_info x = info_[static_cast<std::size_t>(a)];
  const int r = x.shape.size();
  auto axis = [&] { return r == 0 ? std::int64_t{0} : std::int64_t{pick(2 * r) - r}; };
  instruction ins;
  ins.args = {a};
  auto other = [&](dtype t, const Shape& s) {
    const int b = add_input(p, random_input(t, s));
    if (b <= a) ++a;
    ins.args[0] = a;
    return b;
  };
  // The ops a value of each dtype may go through, in a fixed order (a seed gives the same
  // programs): the segments that several dtypes share are written once.
  const names binary = {"add",     "subtract", "multiply", "divide", "pow",
                        "minimum", "maximum",  "floordiv", "mod",    "less"};
  const names scalars = {"add_scalar",    "rsubtract_scalar", "multiply_scalar",
                         "divide_scalar", "add_int",          "multiply_int"};
  const names shape = {"reshape",      "flatten", "transpose", "squeeze", "expand_dims",
                       "broadcast_to", "flip",    "tile",      "pad",     "slice",
                       "integer",      "newaxis", "take",      "mask"};
  const names sorting = {"sort",         "argsort",         "topk_values",
                         "topk_indices", "take_along_axis", "matmul"};
  names ops;
  if (grad_mode_) {
    ops = {"exp",
           "sin",
           "cos",
           "tanh",
           "square",
           "negative",
           "multiply",
           "add",
           "subtract",
           "sum",
           "mean",
           "logsumexp",
           "softmax",
           "log_softmax",
           "matmul",
           "reshape",
           "transpose",
           "expand_dims",
           "squeeze",
           "broadcast_to",
           "flip",
           "tile",
           "pad",
           "slice",
           "take",
           "max",
           "min",
           "sort",
           "abs",
           "sqrt",
           "log",
           "divide",
           "crossentropy",
           "take_along_axis",
           "where",
           "maximum",
           "cumsum",
           "prod",
           "multiply_scalar",
           "arctan",
           "topk_values",
           "newaxis",
           "integer"};
  } else if (is_floating(x.type)) {
    ops = join({{"abs",    "sign",  "sqrt",  "square",   "exp",     "log",     "log2",
                 "log10",  "log1p", "sin",   "cos",      "tan",     "arcsin",  "arccos",
                 "arctan", "sinh",  "cosh",  "tanh",     "arcsinh", "arccosh", "arctanh",
                 "round",  "ceil",  "floor", "negative", "clip",    "isnan",   "isinf"},
                binary,
                {"less_equal", "greater", "greater_equal", "equal", "not_equal", "where"},
                scalars,
                {"pow_scalar", "maximum_int", "sum", "prod", "mean", "min", "max", "logsumexp",
                 "argmin", "argmax", "cumsum"},
                shape,
                sorting,
                {"softmax", "log_softmax", "crossentropy", "astype"}});
  } else if (is_integer(x.type)) {
    ops = join({{"abs", "sign", "square", "negative", "clip"},
                binary,
                {"greater_equal", "equal", "not_equal", "where"},
                scalars,
                {"maximum_int", "sum", "prod", "min", "max", "argmin", "argmax", "cumsum"},
                shape,
                sorting,
                {"astype", "round", "floor", "ceil", "isnan"}});
  } else {
    ops = join({{"logical_not", "logical_and", "logical_or", "equal", "not_equal", "where", "all",
                 "any", "sum", "cumsum"},
                shape,
                {"take_along_axis", "astype", "argmax"}});
  }
  ins.op = ops[static_cast<std::size_t>(pick(static_cast<int>(ops.size())))];
  const std::string& op = ins.op;
  const bool bad =
      pick(30) == 0;  // now and then an invalid argument: every backend must reject it alike
  if (in(op, {"add", "subtract", "multiply", "divide", "pow", "minimum", "maximum", "floordiv",
              "mod", "less", "less_equal", "greater", "greater_equal", "equal", "not_equal",
              "logical_and", "logical_or"})) {
    Shape s = broadcastable(x.shape);
    if (bad && s.size() < max_rank) s.push_back(7);
    int b = -1;
    if (!grad_mode_ &&
        pick(3) == 0) {  // an earlier value of the same dtype and shape, if there is one
      for (int i = static_cast<int>(info_.size()) - 1; i >= 0; --i)
        if (i != a && info_[static_cast<std::size_t>(i)].type == x.type &&
            info_[static_cast<std::size_t>(i)].shape == x.shape)
          b = i;
    }
    if (b < 0) b = other(x.type, s);
    ins.args.push_back(b);
    if (pick(2)) std::swap(ins.args[0], ins.args[1]);
  } else if (op == "where") {
    const int c = other(dtype::boolean, broadcastable(x.shape));
    const int y = other(x.type, broadcastable(x.shape));
    ins.args = {c, a, y};
  } else if (in(op, {"add_scalar", "rsubtract_scalar", "multiply_scalar", "divide_scalar"})) {
    ins.reals = {(pick(17) - 8) / 4.0};
  } else if (op == "pow_scalar") {
    ins.reals = {static_cast<double>(pick(4)) / (pick(2) ? 1 : 2)};
  } else if (in(op, {"add_int", "multiply_int", "maximum_int"})) {
    ins.ints = {pick(7) - 3};
  } else if (op == "clip") {
    const double lo = (pick(9) - 4) / 2.0;
    ins.reals = {lo, lo + pick(5) / 2.0};
  } else if (in(op, {"sum", "prod", "mean", "min", "max", "all", "any", "logsumexp"})) {
    ins.ints = {pick(2)};
    for (auto ax : random_axes(r, true)) ins.ints.push_back(ax);
  } else if (in(op, {"argmin", "argmax", "cumsum"})) {
    if (pick(3)) ins.ints = {bad ? r + 1 : axis()};
  } else if (op == "reshape") {
    // a random factorization of the element count, one extent maybe -1
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
  } else if (op == "flatten") {
    ins.ints = {r == 0 ? 0 : axis(), r == 0 ? -1 : axis()};
  } else if (op == "transpose") {
    if (pick(3)) {
      std::vector<std::int64_t> perm;
      for (int i = 0; i < r; ++i) perm.push_back(i);
      std::shuffle(perm.begin(), perm.end(), rng_);
      if (bad && r > 0) perm[0] = r;
      ins.ints = perm;
    }
  } else if (op == "squeeze") {
    for (int i = 0; i < r; ++i)
      if ((x.shape[i] == 1 || bad) && pick(2)) ins.ints.push_back(i);
  } else if (op == "expand_dims") {
    ins.ints = {pick(2 * r + 2) - r - 1};
  } else if (op == "broadcast_to") {
    std::vector<std::int64_t> s;
    if (r < 5 && pick(2)) s.push_back(pick(3));
    for (int i = 0; i < r; ++i) s.push_back(x.shape[i] == 1 ? pick(3) : x.shape[i]);
    if (bad) s.push_back(5);
    ins.ints = s;
  } else if (op == "flip") {
    ins.ints = random_axes(r, true);
  } else if (op == "tile") {
    for (int i = 0; i < r; ++i) ins.ints.push_back(pick(3));
    if (bad) ins.ints.push_back(1);
  } else if (op == "pad") {
    const bool reflect = !grad_mode_ && pick(3) == 0;
    ins.ints = {reflect ? 1 : 0};
    for (int i = 0; i < r; ++i) {
      ins.ints.push_back(pick(3));
      ins.ints.push_back(pick(3));
    }
    ins.reals = {static_cast<double>(pick(3))};
  } else if (op == "slice") {
    if (r == 0) ins.op = "newaxis";
    const auto bound = [&] { return pick(3) == 0 ? INT64_MIN : std::int64_t{pick(11) - 5}; };
    std::int64_t step = pick(5) - 2;
    if (step == 0 && !bad) step = 1;
    ins.ints = {pick(3), bound(), bound(), step};
  } else if (op == "integer") {
    ins.ints = {r == 0 ? 0
                       : (bad ? x.shape[0]
                              : pick(static_cast<int>(2 * std::max<std::int64_t>(x.shape[0], 1))) -
                                    x.shape[0])};
    if (r == 0 || (x.shape[0] == 0 && !bad)) ins.op = "newaxis";
  } else if (op == "take") {
    const int ax = r >= 2 && pick(2) ? 1 : 0;
    const std::int64_t extent = r == 0 ? 1 : x.shape[ax];
    input idx = random_input(dtype::int64, random_shape(6));
    for (auto& v : idx.values)
      v = extent == 0 ? 0 : static_cast<double>(pick(static_cast<int>(2 * extent)) - extent);
    if (bad || (extent == 0 && !idx.values.empty()))
      idx.values.push_back(static_cast<double>(extent)),
          idx.shape = Shape{static_cast<std::int64_t>(idx.values.size())};
    ins.ints = {ax};
    ins.args.push_back(other(dtype::int64, idx.shape));
    p.inputs[static_cast<std::size_t>(ins.args[1])] = idx;
  } else if (op == "mask") {
    Shape s = x.shape;
    if (bad && s.size() < max_rank) s.push_back(1);
    ins.args.push_back(other(dtype::boolean, s));
  } else if (in(op, {"sort", "argsort", "softmax", "log_softmax"})) {
    ins.ints = {bad ? r : (r == 0 ? -1 : axis())};
  } else if (in(op, {"topk_values", "topk_indices"})) {
    const int ax = r == 0 ? -1 : static_cast<int>(axis());
    const std::int64_t extent = r == 0 ? 1 : x.shape[ax < 0 ? ax + r : ax];
    ins.ints = {bad ? extent + 1 : pick(static_cast<int>(extent) + 1), ax};
  } else if (op == "take_along_axis") {
    if (r == 0) {
      ins.op = "newaxis";
    } else {
      const int ax = pick(r);
      Shape s = x.shape;
      s[ax] = pick(4);
      input idx = random_input(dtype::int64, s);
      for (auto& v : idx.values) v = x.shape[ax] == 0 ? 0 : pick(static_cast<int>(x.shape[ax]));
      if (x.shape[ax] == 0 && !idx.values.empty()) idx.values[0] = bad ? 3 : 0;
      if (bad && !idx.values.empty()) idx.values[0] = static_cast<double>(x.shape[ax]);
      ins.ints = {ax};
      ins.args.push_back(other(dtype::int64, s));
      p.inputs[static_cast<std::size_t>(ins.args[1])] = idx;
    }
  } else if (op == "matmul") {
    // x of shape (..., n, k) (a vector if rank 1) times (..., k, m)
    Shape s;
    if (r == 0) {
      s = Shape{};
    } else if (r == 1) {
      s = pick(2) ? Shape{x.shape[0]} : Shape{x.shape[0], 1 + pick(3)};
    } else {
      for (int i = pick(2) ? 0 : r - 2; i < r - 2; ++i) s.push_back(pick(3) == 0 ? 1 : x.shape[i]);
      s.push_back(x.shape[r - 1]);
      s.push_back(pick(4));
    }
    if (bad && s.size() > 0) s[s.size() - (s.size() >= 2 ? 2 : 1)] += 1;
    ins.args.push_back(other(x.type, s));
  } else if (op == "crossentropy") {
    if (r != 2 || x.shape[1] == 0) {
      ins.op = "log_softmax";
      ins.ints = {-1};
    } else {
      input labels = random_input(dtype::int64, Shape{x.shape[0]});
      for (auto& v : labels.values) v = pick(static_cast<int>(x.shape[1]));
      ins.args.push_back(other(dtype::int64, labels.shape));
      p.inputs[static_cast<std::size_t>(ins.args[1])] = labels;
    }
  } else if (op == "astype") {
    ins.ints = {pick(5)};
  }
  if (grad_mode_ &&
      op == "where") {  // the condition is a constant; x and y are both differentiated
  }
  return ins;
}

/// The accuracy class of the result of `ins` on operands of the given classes.
int generator::result_tag(const instruction& ins, const value& result) const {
  int tag = 0;
  for (int a : ins.args) tag = std::max(tag, info_[static_cast<std::size_t>(a)].tag);
  const bool floating = is_floating(result.type);
  if (tag == 0) {
    if (floating && rounds_differently(ins.op)) return 1;
    return 0;  // correctly rounded element-wise arithmetic, exact integers, moves of elements
  }
  if (tag == 1 && floating && keeps_accuracy(ins.op)) return rounds_differently(ins.op) ? 2 : 1;
  return 2;  // a discontinuous op (floor, comparisons, arg*, casts) of an inexact value, or error
             // growth
}

/// Whether `ins` could overflow an integer (undefined behaviour in C++, a wrap in NumPy): such
/// programs are not generated.
bool generator::may_overflow(const instruction& ins) const {
  const auto& x = info_[static_cast<std::size_t>(ins.args[0])];
  if (!is_integer(x.type) && !(ins.op == "astype")) return false;
  const double limit = x.type == dtype::int32 ? 1e9 : 1e17;
  const double m = x.max_abs;
  const double n = static_cast<double>(std::max<std::int64_t>(x.shape.numel(), 1));
  auto m2 = [&] {
    return ins.args.size() > 1 ? info_[static_cast<std::size_t>(ins.args[1])].max_abs : 0.0;
  };
  const std::string& op = ins.op;
  if (op == "astype") {  // float to integer: out of range is undefined
    if (!is_floating(x.type) || ins.ints[0] < 2 || ins.ints[0] > 3) return false;
    return x.max_abs > 2e9 || x.tag == 2 || x.has_nan;
  }
  if (op == "multiply") return m * m2() > limit;
  if (op == "square") return m * m > limit;
  if (op == "multiply_int") return m * 3 > limit;
  if (in(op, {"add", "subtract"})) return m + m2() > limit;
  if (in(op, {"add_int"})) return m + 3 > limit;
  if (in(op, {"sum", "cumsum"})) return m * n > limit;
  if (op == "prod") return std::pow(std::max(m, 1.0), n) > limit;
  if (op == "pow") return std::pow(std::max(m, 1.0), std::max(m2(), 1.0)) > limit;
  if (op == "matmul") return m * m2() * n > limit;
  if (op == "negative" || op == "abs") return false;
  return false;
}

program generator::next(bool grad_mode) {
  grad_mode_ = grad_mode;
  program p;
  p.grad = false;
  info_.clear();
  const dtype first = grad_mode ? dtype::float64 : static_cast<dtype>(pick(5));
  add_input(p, random_input(first, random_shape((grad_mode ? 12 : 48) * size_scale_)));
  const int length = 1 + pick(grad_mode ? 5 : 8);
  for (int step = 0; step < length; ++step) {
    bool added = false;
    for (int attempt = 0; attempt < 12 && !added; ++attempt) {
      const program saved = p;
      const auto saved_info = info_;
      // operand: the latest value mostly, else any
      int a = static_cast<int>(info_.size()) - 1;
      if (pick(3) == 0) a = pick(static_cast<int>(info_.size()));
      if (grad_mode && info_[static_cast<std::size_t>(a)].type != dtype::float64)
        a = static_cast<int>(info_.size()) - 1;
      if (grad_mode && info_[static_cast<std::size_t>(a)].type != dtype::float64) break;
      instruction ins = random_instruction(p, a);
      if (may_overflow(ins)) {
        p = saved;
        info_ = saved_info;
        continue;
      }
      p.code.push_back(ins);
      const outcome o = ref_.run(p);
      if (o.failed_at < 0) {
        const value& v = o.values.back();
        if (grad_mode && (v.type != dtype::float64 || !smooth_at(ins, o))) {
          p = saved;
          info_ = saved_info;
          continue;
        }
        value_info vi{v.type, v.shape, result_tag(ins, v), 0, max_abs(v.f)};
        for (double f : v.f) vi.has_nan |= std::isnan(f);
        // the scale of rounding errors in the result: its operands' magnitudes times the terms
        // summed
        double scale = vi.max_abs;
        for (int a2 : ins.args) scale = std::max(scale, info_[static_cast<std::size_t>(a2)].scale);
        if (in(ins.op, {"sum", "mean", "cumsum", "matmul", "prod", "logsumexp", "softmax",
                        "log_softmax", "crossentropy"})) {
          double m = 1;
          for (int a2 : ins.args) m *= std::max(1.0, info_[static_cast<std::size_t>(a2)].max_abs);
          scale = std::max(scale,
                           m * static_cast<double>(std::max<std::int64_t>(
                                   1, info_[static_cast<std::size_t>(ins.args[0])].shape.numel())));
        }
        vi.scale = scale;
        // A floating prod whose partial products can leave the dtype's range gives what the order
        // of multiplying decides: 0 * inf = NaN, or 0, where one lane holds the zero factor and
        // another overflowed (a float32 prod of 245 factors up to 45.6 with a zero: NaN on ep::omp,
        // 0 on Eigen). IEEE arithmetic has no one right answer there, as for inf - inf: dtype and
        // shape only.
        if (ins.op == "prod" && is_floating(v.type)) {
          const auto& x = info_[static_cast<std::size_t>(ins.args[0])];
          const double largest = v.type == dtype::float32 ? std::numeric_limits<float>::max()
                                                          : std::numeric_limits<double>::max();
          if (static_cast<double>(x.shape.numel()) * std::log(std::max(1.0, x.max_abs)) >=
              std::log(largest))
            vi.tag = 2;
        }
        info_.push_back(vi);
        added = true;
      } else if (!grad_mode && o.failed_at == static_cast<int>(p.code.size()) - 1 &&
                 o.error_type != "" && pick(4) == 0) {
        return p;  // an invalid program: it ends at its error, which every backend must throw alike
      } else {
        p = saved;
        info_ = saved_info;
      }
    }
  }
  if (grad_mode) {
    while (!p.code.empty() && info_.back().type != dtype::float64) {
      p.code.pop_back();
      info_.pop_back();
    }
    p.grad = true;
  }
  return p;
}

/// In gradient mode: whether the op is smooth around its operands' values (no kink within reach of
/// the finite differences: |x| of abs, ties of max, sort and maximum, sqrt and log near 0).
bool generator::smooth_at(const instruction& ins, const outcome& o) const {
  const std::size_t base = 0;
  (void)base;
  auto vals = [&](int arg) -> const std::vector<double>& {
    return o.values[static_cast<std::size_t>(ins.args[static_cast<std::size_t>(arg)])].f;
  };
  const std::string& op = ins.op;
  // prod's gradient is prod / x_i (ops/reductions.hpp: NaN where x_i == 0, a documented limit)
  if (in(op, {"abs", "sqrt", "log", "prod"})) {
    for (double v : vals(0))
      if (std::abs(v) < 0.05 || ((op == "sqrt" || op == "log") && v <= 0)) return false;
  }
  // sin and cos of a large operand oscillate faster than central differences resolve: sin(exp(x^4))
  // at x = 1.915 has the gradient 9378647.97, where the difference quotients at h = 1e-6 and
  // h = 1e-7 are 348305.9 and 4399497.8
  if (op == "sin" || op == "cos") {
    for (double v : vals(0))
      if (std::abs(v) > 100) return false;
  }
  if (op == "divide") {
    for (double v : vals(1))
      if (std::abs(v) < 0.2) return false;
  }
  if (in(op, {"max", "min", "sort", "topk_values", "maximum"})) {
    // no two values within 1e-3 of each other (ties make the gradient a choice)
    std::vector<double> v = vals(0);
    if (op == "maximum") v.insert(v.end(), vals(1).begin(), vals(1).end());
    std::sort(v.begin(), v.end());
    for (std::size_t i = 1; i < v.size(); ++i)
      if (v[i] - v[i - 1] < 1e-3) return false;
  }
  for (double v : o.values.back().f)
    if (!std::isfinite(v) || std::abs(v) > 1e6) return false;
  return true;
}

}  // namespace ep::fuzz
