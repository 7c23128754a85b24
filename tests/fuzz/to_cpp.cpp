// eagerpp - the differential fuzzer's C++ printer: a program as the code that reproduces it
// SPDX-License-Identifier: MIT
#include <algorithm>  // std::min
#include <cstddef>    // std::size_t, std::ptrdiff_t
#include <cstdint>    // std::int64_t, INT64_MIN
#include <string>     // std::string
#include <vector>     // std::vector

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "fuzz/generate.hpp"  // in

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

std::string expression(const instruction& ins) {
  const std::string& op = ins.op;
  auto v = [&](std::size_t i) { return fmt::format("v{}", ins.args.at(i)); };
  auto I = [&](std::size_t i) { return ins.ints.at(i); };
  auto R =
      [&](std::size_t i) {  // a double literal: x * 0.0 is float64 for an integer x, x * 0 is not
        const std::string r = fmt::format("{:.17g}", ins.reals.at(i));
        return r.find_first_of(".en") == std::string::npos ? r + ".0" : r;
      };
  if (in(op, {"abs",    "sign",  "sqrt",  "square",   "exp",     "log",     "log2",
              "log10",  "log1p", "sin",   "cos",      "tan",     "arcsin",  "arccos",
              "arctan", "sinh",  "cosh",  "tanh",     "arcsinh", "arccosh", "arctanh",
              "round",  "ceil",  "floor", "negative", "isnan",   "isinf",   "logical_not"}))
    return fmt::format("{}.{}()", v(0), op);
  if (op == "clip") return fmt::format("{}.clip({}, {})", v(0), R(0), R(1));
  const std::pair<const char*, const char*> infix[] = {
      {"add", "+"},         {"subtract", "-"},  {"multiply", "*"},
      {"divide", "/"},      {"mod", "%"},       {"less", "<"},
      {"less_equal", "<="}, {"greater", ">"},   {"greater_equal", ">="},
      {"equal", "=="},      {"not_equal", "!="}};
  for (const auto& [name, sym] : infix)
    if (op == name) return fmt::format("{} {} {}", v(0), sym, v(1));
  if (in(op, {"pow", "minimum", "maximum", "floordiv", "logical_and", "logical_or", "matmul"}))
    return fmt::format("{}.{}({})", v(0), op, v(1));
  if (op == "where") return fmt::format("{}.where({}, {})", v(0), v(1), v(2));
  if (op == "add_scalar") return fmt::format("{} + {}", v(0), R(0));
  if (op == "rsubtract_scalar") return fmt::format("{} - {}", R(0), v(0));
  if (op == "multiply_scalar") return fmt::format("{} * {}", v(0), R(0));
  if (op == "divide_scalar") return fmt::format("{} / {}", v(0), R(0));
  if (op == "add_int") return fmt::format("{} + {}", v(0), I(0));
  if (op == "multiply_int") return fmt::format("{} * {}", v(0), I(0));
  if (op == "pow_scalar") return fmt::format("{}.pow({})", v(0), R(0));
  if (op == "maximum_int") return fmt::format("{}.maximum({})", v(0), I(0));
  if (in(op, {"sum", "prod", "mean", "min", "max", "all", "any", "logsumexp"}))
    return fmt::format("{}.{}({}, {})", v(0), op, axes_arg(ins.ints, 1), I(0) != 0);
  if (in(op, {"argmin", "argmax", "cumsum"}))
    return ins.ints.empty() ? fmt::format("{}.{}()", v(0), op)
                            : fmt::format("{}.{}({})", v(0), op, I(0));
  if (op == "reshape") return fmt::format("{}.reshape(ep::Shape{{{}}})", v(0), ints_list(ins.ints));
  if (op == "flatten") return fmt::format("{}.flatten({}, {})", v(0), I(0), I(1));
  if (op == "transpose")
    return ins.ints.empty()
               ? fmt::format("{}.transpose()", v(0))
               : fmt::format("{}.transpose(std::vector<int>{{{}}})", v(0), ints_list(ins.ints));
  if (op == "squeeze" || op == "flip")
    return ins.ints.empty() ? fmt::format("{}.{}()", v(0), op)
                            : fmt::format("{}.{}({})", v(0), op, axes_arg(ins.ints, 0));
  if (op == "expand_dims") return fmt::format("{}.expand_dims({})", v(0), I(0));
  if (op == "broadcast_to")
    return fmt::format("{}.broadcast_to(ep::Shape{{{}}})", v(0), ints_list(ins.ints));
  if (op == "tile")
    return fmt::format("{}.tile(std::vector<std::int64_t>{{{}}})", v(0), ints_list(ins.ints));
  if (op == "pad") {
    std::string pads;
    for (std::size_t i = 1; i + 1 < ins.ints.size(); i += 2)
      pads += fmt::format("{{{}, {}}}, ", ins.ints[i], ins.ints[i + 1]);
    return fmt::format("{}.pad(ep::Paddings{{{}}}, \"{}\", {})", v(0), pads,
                       I(0) ? "reflect" : "constant", R(0));
  }
  if (op == "slice") {
    const std::string s = fmt::format("ep::slice({}, {}, {})", bound(I(1)), bound(I(2)), I(3));
    if (I(0) == 0) return fmt::format("{}({})", v(0), s);
    return fmt::format("{}({}, {})", v(0), I(0) == 1 ? "ep::slice()" : "ep::ellipsis", s);
  }
  if (op == "integer") return fmt::format("{}({})", v(0), I(0));
  if (op == "newaxis") return fmt::format("{}(ep::newaxis, ep::ellipsis)", v(0));
  if (op == "take")
    return I(0) == 0 ? fmt::format("{}({})", v(0), v(1))
                     : fmt::format("{}(ep::slice(), {})", v(0), v(1));
  if (op == "mask") return fmt::format("{}[{}]", v(0), v(1));
  if (op == "sort" || op == "argsort" || op == "softmax" || op == "log_softmax")
    return fmt::format("{}.{}({})", v(0), op, I(0));
  if (op == "topk_values" || op == "topk_indices")
    return fmt::format("{}.topk({}, true, {}).{}", v(0), I(0), I(1),
                       op == "topk_values" ? "first" : "second");
  if (op == "take_along_axis") return fmt::format("{}.take_along_axis({}, {})", v(0), v(1), I(0));
  if (op == "crossentropy") return fmt::format("{}.crossentropy({})", v(0), v(1));
  if (op == "astype")
    return fmt::format("{}.astype<{}>()", v(0), cpp_type(static_cast<dtype>(I(0))));
  return "/* unknown op " + op + " */";
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
