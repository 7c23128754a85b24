// eagerpp - the differential fuzzer's C++ printer: a program as the code that reproduces it
// SPDX-License-Identifier: MIT
#include <algorithm>    // std::min
#include <cstddef>      // std::size_t, std::ptrdiff_t
#include <cstdint>      // std::int64_t, INT64_MIN
#include <string>       // std::string
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fuzz/ops.hpp"

namespace ep::fuzz {

namespace {

const char* cpp_type(dtype t) {
  constexpr const char* names[] = {"float", "double", "std::int32_t", "std::int64_t", "bool"};
  return names[static_cast<int>(t)];
}

std::string ints_list(const std::vector<std::int64_t>& v, std::size_t from = 0) {
  std::vector<std::int64_t> w(v.begin() + static_cast<std::ptrdiff_t>(std::min(from, v.size())),
                              v.end());
  return fmt::format("{}", fmt::join(w, ", "));
}

std::string axes_arg(const std::vector<std::int64_t>& v, std::size_t from) {
  if (v.size() <= from) return "ep::Axes{}";
  return fmt::format("ep::Axes(std::vector<int>{{{}}})", ints_list(v, from));
}

std::string bound(std::int64_t b) { return b == INT64_MIN ? "std::nullopt" : std::to_string(b); }

/// One instruction's operands and parameters, as C++.
struct call {
  const instruction& in;
  [[nodiscard]] std::string v(std::size_t i) const { return fmt::format("v{}", in.args.at(i)); }
  [[nodiscard]] std::int64_t I(std::size_t i) const { return in.ints.at(i); }
  /// A double literal: x * 0.0 is float64 for an integer x, x * 0 is not.
  [[nodiscard]] std::string R(std::size_t i) const {
    const std::string r = fmt::format("{:.17g}", in.reals.at(i));
    return r.find_first_of(".en") == std::string::npos ? r + ".0" : r;
  }
  [[nodiscard]] std::string ints() const { return ints_list(in.ints); }
  /// `x.name()` without operands, `x.name(axes)` with.
  [[nodiscard]] std::string axes_or_none(std::string_view name) const {
    return in.ints.empty() ? fmt::format("{}.{}()", v(0), name)
                           : fmt::format("{}.{}({})", v(0), name, axes_arg(in.ints, 0));
  }
};
using print_fn = std::string (*)(const call&, std::string_view spelled);

// --- the families of the library's lists
std::string print_UNARY(const call& c, std::string_view f) {
  return fmt::format("{}.{}()", c.v(0), f);
}
std::string print_OPERATOR(const call& c, std::string_view f) {
  return fmt::format("{} {} {}", c.v(0), f, c.v(1));
}
std::string print_METHOD(const call& c, std::string_view f) {
  return fmt::format("{}.{}({})", c.v(0), f, c.v(1));
}
std::string print_REDUCTION(const call& c, std::string_view f) {  // ints = {keepdims, axes...}
  return fmt::format("{}.{}({}, {})", c.v(0), f, axes_arg(c.in.ints, 1), c.I(0) != 0);
}
std::string print_AXIS(const call& c, std::string_view f) {
  return c.in.ints.empty() ? fmt::format("{}.{}()", c.v(0), f)
                           : fmt::format("{}.{}({})", c.v(0), f, c.I(0));
}

// --- element-wise ops of the fuzzer's own
std::string print_clip(const call& c, std::string_view) {
  return fmt::format("{}.clip({}, {})", c.v(0), c.R(0), c.R(1));
}
std::string print_where(const call& c, std::string_view) {
  return fmt::format("{}.where({}, {})", c.v(0), c.v(1), c.v(2));
}
std::string print_add_scalar(const call& c, std::string_view) {
  return fmt::format("{} + {}", c.v(0), c.R(0));
}
std::string print_rsubtract_scalar(const call& c, std::string_view) {
  return fmt::format("{} - {}", c.R(0), c.v(0));
}
std::string print_multiply_scalar(const call& c, std::string_view) {
  return fmt::format("{} * {}", c.v(0), c.R(0));
}
std::string print_divide_scalar(const call& c, std::string_view) {
  return fmt::format("{} / {}", c.v(0), c.R(0));
}
std::string print_add_int(const call& c, std::string_view) {
  return fmt::format("{} + {}", c.v(0), c.I(0));
}
std::string print_multiply_int(const call& c, std::string_view) {
  return fmt::format("{} * {}", c.v(0), c.I(0));
}
std::string print_pow_scalar(const call& c, std::string_view) {
  return fmt::format("{}.pow({})", c.v(0), c.R(0));
}
std::string print_maximum_int(const call& c, std::string_view) {
  return fmt::format("{}.maximum({})", c.v(0), c.I(0));
}

// --- shape
std::string print_reshape(const call& c, std::string_view) {
  return fmt::format("{}.reshape(ep::Shape{{{}}})", c.v(0), c.ints());
}
std::string print_flatten(const call& c, std::string_view) {
  return fmt::format("{}.flatten({}, {})", c.v(0), c.I(0), c.I(1));
}
std::string print_transpose(const call& c, std::string_view) {
  return c.in.ints.empty() ? fmt::format("{}.transpose()", c.v(0))
                           : fmt::format("{}.transpose(std::vector<int>{{{}}})", c.v(0), c.ints());
}
std::string print_squeeze(const call& c, std::string_view) { return c.axes_or_none("squeeze"); }
std::string print_expand_dims(const call& c, std::string_view) {
  return fmt::format("{}.expand_dims({})", c.v(0), c.I(0));
}
std::string print_broadcast_to(const call& c, std::string_view) {
  return fmt::format("{}.broadcast_to(ep::Shape{{{}}})", c.v(0), c.ints());
}
std::string print_flip(const call& c, std::string_view) { return c.axes_or_none("flip"); }
std::string print_tile(const call& c, std::string_view) {
  return fmt::format("{}.tile(std::vector<std::int64_t>{{{}}})", c.v(0), c.ints());
}
std::string print_pad(const call& c, std::string_view) {
  std::string pads;
  for (std::size_t i = 1; i + 1 < c.in.ints.size(); i += 2)
    pads += fmt::format("{{{}, {}}}, ", c.in.ints[i], c.in.ints[i + 1]);
  return fmt::format("{}.pad(ep::Paddings{{{}}}, \"{}\", {})", c.v(0), pads,
                     c.I(0) ? "reflect" : "constant", c.R(0));
}

// --- indexing and selection
std::string print_slice(const call& c, std::string_view) {
  const std::string s = fmt::format("ep::slice({}, {}, {})", bound(c.I(1)), bound(c.I(2)), c.I(3));
  if (c.I(0) == 0) return fmt::format("{}({})", c.v(0), s);
  return fmt::format("{}({}, {})", c.v(0), c.I(0) == 1 ? "ep::slice()" : "ep::ellipsis", s);
}
std::string print_integer(const call& c, std::string_view) {
  return fmt::format("{}({})", c.v(0), c.I(0));
}
std::string print_newaxis(const call& c, std::string_view) {
  return fmt::format("{}(ep::newaxis, ep::ellipsis)", c.v(0));
}
std::string print_take(const call& c, std::string_view) {
  return c.I(0) == 0 ? fmt::format("{}({})", c.v(0), c.v(1))
                     : fmt::format("{}(ep::slice(), {})", c.v(0), c.v(1));
}
std::string print_mask(const call& c, std::string_view) {
  return fmt::format("{}[{}]", c.v(0), c.v(1));
}
std::string print_axis_op(const call& c, std::string_view name) {
  return fmt::format("{}.{}({})", c.v(0), name, c.I(0));
}
std::string print_sort(const call& c, std::string_view) { return print_axis_op(c, "sort"); }
std::string print_argsort(const call& c, std::string_view) { return print_axis_op(c, "argsort"); }
std::string print_topk_values(const call& c, std::string_view) {
  return fmt::format("{}.topk({}, true, {}).first", c.v(0), c.I(0), c.I(1));
}
std::string print_topk_indices(const call& c, std::string_view) {
  return fmt::format("{}.topk({}, true, {}).second", c.v(0), c.I(0), c.I(1));
}
std::string print_take_along_axis(const call& c, std::string_view) {
  return fmt::format("{}.take_along_axis({}, {})", c.v(0), c.v(1), c.I(0));
}

// --- linear algebra, nn, conversion
std::string print_matmul(const call& c, std::string_view) {
  return fmt::format("{}.matmul({})", c.v(0), c.v(1));
}
std::string print_softmax(const call& c, std::string_view) { return print_axis_op(c, "softmax"); }
std::string print_log_softmax(const call& c, std::string_view) {
  return print_axis_op(c, "log_softmax");
}
std::string print_crossentropy(const call& c, std::string_view) {
  return fmt::format("{}.crossentropy({})", c.v(0), c.v(1));
}
std::string print_astype(const call& c, std::string_view) {
  return fmt::format("{}.astype<{}>()", c.v(0), cpp_type(static_cast<dtype>(c.I(0))));
}

/// The printer of each row of the op table (ops.hpp), in its order, and the row's spelling.
struct printer {
  print_fn print;
  std::string_view spelled;
};
const std::vector<printer>& printers() {
#define EAGERPP_FUZZ_PRINT_UNARY(f) print_UNARY
#define EAGERPP_FUZZ_PRINT_OPERATOR(f) print_OPERATOR
#define EAGERPP_FUZZ_PRINT_METHOD(f) print_METHOD
#define EAGERPP_FUZZ_PRINT_REDUCTION(f) print_REDUCTION
#define EAGERPP_FUZZ_PRINT_AXIS(f) print_AXIS
#define EAGERPP_FUZZ_PRINT_OTHER(f) print_##f
#define EAGERPP_FUZZ_ROW(FAMILY, name, DTYPES, spelled) \
  {EAGERPP_FUZZ_PRINT_##FAMILY(spelled), #spelled},
  static const std::vector<printer> all = {EAGERPP_FUZZ_OPS};
#undef EAGERPP_FUZZ_ROW
#undef EAGERPP_FUZZ_PRINT_UNARY
#undef EAGERPP_FUZZ_PRINT_OPERATOR
#undef EAGERPP_FUZZ_PRINT_METHOD
#undef EAGERPP_FUZZ_PRINT_REDUCTION
#undef EAGERPP_FUZZ_PRINT_AXIS
#undef EAGERPP_FUZZ_PRINT_OTHER
  return all;
}

std::string expression(const instruction& ins) {
  const printer& p = printers()[op_index(ins.op)];
  return p.print(call{ins}, p.spelled);
}

}  // namespace

std::string to_cpp(const program& p, const std::string& family) {
  std::string s = fmt::format(
      "// eagerpp fuzz reproducer: on {} (compare with another backend family)\n", family);
  s += fmt::format("template <template <class> class F = {}>\nvoid reproduce() {{\n", family);
  const std::size_t first = p.grad ? 1 : 0;
  for (std::size_t i = first; i < p.inputs.size(); ++i) {
    const auto& in = p.inputs[i];
    std::vector<std::string> vals;
    for (double v : in.values) vals.push_back(fmt::format("{:.17g}", v));
    if (in.type == dtype::boolean)
      s += fmt::format(
          "  const auto v{} = ep::from_vector<F<bool>>(std::vector<bool>{{{}}}, "
          "ep::Shape{{{}}});\n",
          i, fmt::join(vals, ", "),
          ints_list(std::vector<std::int64_t>(in.shape.begin(), in.shape.end())));
    else
      s += fmt::format("  const auto v{} = ep::from_vector<F<{}>>({{{}}}, ep::Shape{{{}}});\n", i,
                       cpp_type(in.type), fmt::join(vals, ", "),
                       ints_list(std::vector<std::int64_t>(in.shape.begin(), in.shape.end())));
  }
  std::string body;
  const std::string indent = p.grad ? "    " : "  ";
  for (std::size_t k = 0; k < p.code.size(); ++k)
    body +=
        fmt::format("{}const auto v{} = {};\n", indent, p.inputs.size() + k, expression(p.code[k]));
  if (!p.grad) {
    s += body;
    for (std::size_t k = 0; k < p.code.size(); ++k)
      s += fmt::format("  fmt::print(\"v{0} = {{}}\\n\", v{0});\n", p.inputs.size() + k);
  } else {
    const auto& x = p.inputs[0];
    std::vector<std::string> vals;
    for (double v : x.values) vals.push_back(fmt::format("{:.17g}", v));
    s += fmt::format("  const auto x = ep::from_vector<F<double>>({{{}}}, ep::Shape{{{}}});\n",
                     fmt::join(vals, ", "),
                     ints_list(std::vector<std::int64_t>(x.shape.begin(), x.shape.end())));
    s += "  auto [loss, grad] = ep::value_and_grad([&](const ep::Tensor<F<double>>& v0) {\n" + body;
    s += fmt::format("    return v{}.sum();\n  }}, x);\n", p.inputs.size() + p.code.size() - 1);
    s += "  fmt::print(\"loss = {}\\ngrad = {}\\n\", loss, grad);\n";
  }
  return s + "}\n";
}

}  // namespace ep::fuzz
