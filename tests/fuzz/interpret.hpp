// eagerpp - the differential fuzzer's interpreter: runs a neutral program on one backend family
// SPDX-License-Identifier: MIT
//
// Included by backend_<name>.cpp, one per backend, which instantiates it for that family only (no
// translation unit instantiates every backend) and by default joins the backend's typed-suite TU,
// which instantiates the same ops (EAGERPP_FUZZ_IN_SUITES, tests/fuzz/CMakeLists.txt). Values are
// ep::basic_any_tensor over the one family, so an op is written once here and instantiated only
// for the dtypes it admits.
#pragma once

#include <cstdint>    // std::int32_t, std::int64_t
#include <exception>  // std::exception
#include <stdexcept>  // std::logic_error
#include <string>     // std::string
#include <typeinfo>   // typeid
#include <utility>    // std::move
#include <vector>     // std::vector

#include <eagerpp/any.hpp>
#include <eagerpp/eagerpp.hpp>

#include "fuzz/program.hpp"

namespace ep::fuzz {

template <template <class> class F>
class machine {
 public:
  /// Over the fuzzer's five dtypes only (program.hpp), so that each op is instantiated for those.
  using any = basic_any_tensor<any_backends<F>,
                               any_dtypes<float, double, std::int32_t, std::int64_t, bool>>;
  template <class T>
  using tensor = Tensor<F<T>>;

  static outcome run(const program& p) { return p.grad ? run_grad(p) : run_values(p, false); }

  /// `p` with every element-wise result of a lazy dtype an expression (ep::fusion_scope with
  /// min_size 0) evaluated in blocks of 256, 512 or 1024 bytes by the program's length (64, 128
  /// or 256 floats: one or several grains; a block of doubles may be larger than the evaluation's
  /// scratch memory and come from the allocator), and its values read only after the last
  /// instruction, the last first: chains grow across instructions, up to the node bound, and are
  /// evaluated whole, over many blocks, with their shared nodes. The values must be those of
  /// run(): element-wise ones the same, reductions of expressions (blocks summed in another
  /// order) within the comparer's bounds.
  static outcome run_fused(const program& p) {
    const fusion_scope scope({.min_size = 0, .block_bytes = p.fused_block_bytes()});
    return p.grad ? run_grad(p) : run_values(p, true);
  }

 private:
  static outcome run_values(const program& p, bool read_last) {
    outcome out;
    std::vector<any> vals;
    try {
      for (const auto& in : p.inputs) vals.push_back(make(in));
    } catch (const std::exception& e) {
      out.failed_at = -2;
      out.error_type = "input";
      out.error_message = e.what();
      return out;
    }
    for (const auto& v : vals) out.values.push_back(to_value(v));
    for (std::size_t k = 0; k < p.code.size(); ++k) {
      try {
        vals.push_back(exec(p.code[k], vals));
        if (!read_last) out.values.push_back(to_value(vals.back()));
      } catch (...) {
        record_error(out, static_cast<int>(k));
        break;
      }
    }
    if (read_last) {
      const std::size_t first = p.inputs.size();
      std::vector<value> computed(vals.size() - first);
      try {
        for (std::size_t k = vals.size(); k-- > first;) computed[k - first] = to_value(vals[k]);
      } catch (...) {
        record_error(out, -3);  // an error while computing values: every error is the op's, eagerly
        return out;
      }
      for (auto& v : computed) out.values.push_back(std::move(v));
    }
    return out;
  }

  static void record_error(outcome& out, int at) {
    out.failed_at = at;
    try {
      throw;
    } catch (const memory_error& e) {
      out.error_type = "memory_error";
      out.error_message = e.what();
    } catch (const value_error& e) {
      out.error_type = "value_error";
      out.error_message = e.what();
    } catch (const index_error& e) {
      out.error_type = "index_error";
      out.error_message = e.what();
    } catch (const error& e) {
      out.error_type = "ep::error";
      out.error_message = e.what();
    } catch (const std::exception& e) {
      out.error_type = std::string("not an ep::error: ") + typeid(e).name();
      out.error_message = e.what();
    }
  }

  /// Gradient mode: value_and_grad of sum(last value) with respect to inputs[0] (float64), the
  /// other inputs constants.
  static outcome run_grad(const program& p) {
    outcome out;
    try {
      std::vector<any> consts;
      for (std::size_t i = 1; i < p.inputs.size(); ++i) consts.push_back(make(p.inputs[i]));
      const auto x = make(p.inputs[0]).template as<F<double>>();
      auto [loss, g] = ep::value_and_grad(
          [&](const tensor<double>& t) {
            std::vector<any> vals;
            vals.push_back(any(t));
            for (const auto& c : consts) vals.push_back(c);
            for (const auto& ins : p.code) vals.push_back(exec(ins, vals));
            return vals.back().template as<F<double>>().sum();
          },
          x);
      out.loss = loss.item();
      out.grad = g.to_vector();
    } catch (...) {
      record_error(out, 0);
    }
    return out;
  }

  template <class T>
  static any from(const input& in) {
    std::vector<T> v;
    v.reserve(in.values.size());
    for (double x : in.values) v.push_back(static_cast<T>(x));
    return any(ep::from_vector<F<T>>(v, in.shape));
  }

  static any make(const input& in) {
    switch (in.type) {
      case dtype::float32:
        return from<float>(in);
      case dtype::float64:
        return from<double>(in);
      case dtype::int32:
        return from<std::int32_t>(in);
      case dtype::int64:
        return from<std::int64_t>(in);
      default:
        return from<bool>(in);
    }
  }

  static value to_value(const any& a) {
    value v;
    v.shape = a.shape();
    std::visit(
        [&](const auto& t) {
          using T = typename std::remove_cvref_t<decltype(t)>::value_type;
          if constexpr (std::same_as<T, float>)
            v.type = dtype::float32;
          else if constexpr (std::same_as<T, double>)
            v.type = dtype::float64;
          else if constexpr (std::same_as<T, std::int32_t>)
            v.type = dtype::int32;
          else if constexpr (std::same_as<T, std::int64_t>)
            v.type = dtype::int64;
          else
            v.type = dtype::boolean;
          for (auto x : t.to_vector()) {
            v.f.push_back(static_cast<double>(x));
            if constexpr (!floating_dtype<T>) v.i.push_back(static_cast<std::int64_t>(x));
          }
        },
        a.variant());
    return v;
  }

  /// The axes of a reduction from ints[from...]: none means all axes.
  static Axes axes_of(const std::vector<std::int64_t>& ints, std::size_t from) {
    if (ints.size() <= from) return Axes{};
    return Axes(std::vector<int>(ints.begin() + static_cast<std::ptrdiff_t>(from), ints.end()));
  }

  static Shape shape_of(const std::vector<std::int64_t>& ints, std::size_t from = 0) {
    return Shape(ints.begin() + static_cast<std::ptrdiff_t>(from), ints.end());
  }

  template <class T>
  static const tensor<T>& as(const any& a) {
    return a.template as<F<T>>();
  }

  static any exec(const instruction& in, const std::vector<any>& v) {
    const std::string& op = in.op;
    const auto& x = v.at(static_cast<std::size_t>(in.args.at(0)));
    auto arg = [&](std::size_t i) -> const any& {
      return v.at(static_cast<std::size_t>(in.args.at(i)));
    };
    auto I = [&](std::size_t i) { return in.ints.at(i); };
    auto R = [&](std::size_t i) { return in.reals.at(i); };
    constexpr auto every = any::every, numeric = any::numeric, floating = any::floating,
                   boolean = any::boolean;
    (void)boolean;
    // --- element-wise, unary
    if (op == "abs") return x.abs();
    if (op == "sign") return x.sign();
    if (op == "sqrt") return x.sqrt();
    if (op == "square") return x.square();
    if (op == "exp") return x.exp();
    if (op == "log") return x.log();
    if (op == "log2") return x.log2();
    if (op == "log10") return x.log10();
    if (op == "log1p") return x.log1p();
    if (op == "sin") return x.sin();
    if (op == "cos") return x.cos();
    if (op == "tan") return x.tan();
    if (op == "arcsin") return x.arcsin();
    if (op == "arccos") return x.arccos();
    if (op == "arctan") return x.arctan();
    if (op == "sinh") return x.sinh();
    if (op == "cosh") return x.cosh();
    if (op == "tanh") return x.tanh();
    if (op == "arcsinh") return x.arcsinh();
    if (op == "arccosh") return x.arccosh();
    if (op == "arctanh") return x.arctanh();
    if (op == "round") return x.round();
    if (op == "ceil") return x.ceil();
    if (op == "floor") return x.floor();
    if (op == "negative") return x.negative();
    if (op == "clip") return x.clip(R(0), R(1));
    if (op == "isnan") return x.isnan();
    if (op == "isinf") return x.isinf();
    if (op == "logical_not") return x.logical_not();
    // --- element-wise, binary and with a scalar
    if (op == "add") return x + arg(1);
    if (op == "subtract") return x - arg(1);
    if (op == "multiply") return x * arg(1);
    if (op == "divide") return x / arg(1);
    if (op == "pow") return x.pow(arg(1));
    if (op == "minimum") return x.minimum(arg(1));
    if (op == "maximum") return x.maximum(arg(1));
    if (op == "floordiv")
      return x.template binary<numeric>(op, arg(1),
                                        [](const auto& a, const auto& b) { return a.floordiv(b); });
    if (op == "mod")
      return x.template binary<numeric>(op, arg(1),
                                        [](const auto& a, const auto& b) { return a % b; });
    if (op == "less") return x < arg(1);
    if (op == "less_equal") return x <= arg(1);
    if (op == "greater") return x > arg(1);
    if (op == "greater_equal") return x >= arg(1);
    if (op == "equal") return x == arg(1);
    if (op == "not_equal") return x != arg(1);
    if (op == "logical_and") return x.logical_and(arg(1));
    if (op == "logical_or") return x.logical_or(arg(1));
    if (op == "where") return x.where(arg(1), arg(2));
    if (op == "add_scalar") return x + R(0);
    if (op == "rsubtract_scalar") return R(0) - x;
    if (op == "multiply_scalar") return x * R(0);
    if (op == "divide_scalar") return x / R(0);
    if (op == "add_int") return x + I(0);
    if (op == "multiply_int") return x * I(0);
    if (op == "pow_scalar")
      return x.template visit<numeric, any>(op, [&](const auto& t) -> any { return t.pow(R(0)); });
    if (op == "maximum_int")
      return x.template visit<numeric, any>(
          op, [&](const auto& t) -> any { return t.maximum(static_cast<int>(I(0))); });
    // --- reductions: ints = {keepdims, axes...}
    if (op == "sum") return x.sum(axes_of(in.ints, 1), I(0) != 0);
    if (op == "prod") return x.prod(axes_of(in.ints, 1), I(0) != 0);
    if (op == "mean") return x.mean(axes_of(in.ints, 1), I(0) != 0);
    if (op == "min") return x.min(axes_of(in.ints, 1), I(0) != 0);
    if (op == "max") return x.max(axes_of(in.ints, 1), I(0) != 0);
    if (op == "all") return x.all(axes_of(in.ints, 1), I(0) != 0);
    if (op == "any") return x.any(axes_of(in.ints, 1), I(0) != 0);
    if (op == "logsumexp") return x.logsumexp(axes_of(in.ints, 1), I(0) != 0);
    if (op == "argmin") return in.ints.empty() ? x.argmin() : x.argmin(static_cast<int>(I(0)));
    if (op == "argmax") return in.ints.empty() ? x.argmax() : x.argmax(static_cast<int>(I(0)));
    if (op == "cumsum") return in.ints.empty() ? x.cumsum() : x.cumsum(static_cast<int>(I(0)));
    // --- shape
    if (op == "reshape") return x.reshape(shape_of(in.ints));
    if (op == "flatten") return x.flatten(static_cast<int>(I(0)), static_cast<int>(I(1)));
    if (op == "transpose") {
      if (in.ints.empty()) return x.transpose();
      return x.transpose(std::vector<int>(in.ints.begin(), in.ints.end()));
    }
    if (op == "squeeze") return in.ints.empty() ? x.squeeze() : x.squeeze(axes_of(in.ints, 0));
    if (op == "expand_dims") return x.expand_dims(static_cast<int>(I(0)));
    if (op == "broadcast_to") return x.broadcast_to(shape_of(in.ints));
    if (op == "flip") return in.ints.empty() ? x.flip() : x.flip(axes_of(in.ints, 0));
    if (op == "tile")
      return x.template visit<every, any>(op,
                                          [&](const auto& t) -> any { return t.tile(in.ints); });
    if (op == "pad")  // ints = {reflect, before0, after0, before1, after1, ...}
      return x.template visit<every, any>(op, [&](const auto& t) -> any {
        Paddings p;
        for (std::size_t i = 1; i + 1 < in.ints.size(); i += 2)
          p.emplace_back(in.ints[i], in.ints[i + 1]);
        using T = typename std::remove_cvref_t<decltype(t)>::value_type;
        return t.pad(p, in.ints[0] != 0 ? "reflect" : "constant",
                     static_cast<T>(in.reals.empty() ? 0 : R(0)));
      });
    // --- indexing and selection
    if (op ==
        "slice")  // ints = {axis-prefix count, start, stop, step}; an omitted bound is INT64_MIN
      return x.template visit<every, any>(op, [&](const auto& t) -> any {
        auto bound = [](std::int64_t b) {
          return b == INT64_MIN ? std::optional<std::int64_t>() : std::optional(b);
        };
        const ep::slice s(bound(I(1)), bound(I(2)), I(3));
        switch (I(0)) {
          case 0:
            return t(s);
          case 1:
            return t(ep::slice(), s);
          default:
            return t(ep::ellipsis, s);
        }
      });
    if (op == "integer")
      return x.template visit<every, any>(op, [&](const auto& t) -> any { return t(I(0)); });
    if (op == "newaxis")
      return x.template visit<every, any>(
          op, [&](const auto& t) -> any { return t(ep::newaxis, ep::ellipsis); });
    if (op == "take")  // x[index tensor], on the first axis or after one full slice
      return x.template visit<every, any>(op, [&](const auto& t) -> any {
        const auto& idx = as<std::int64_t>(arg(1));
        return I(0) == 0 ? t(idx) : t(ep::slice(), idx);
      });
    if (op == "mask")
      return x.template visit<every, any>(
          op, [&](const auto& t) -> any { return t[as<bool>(arg(1))]; });
    if (op == "sort")
      return x.template visit<numeric, any>(
          op, [&](const auto& t) -> any { return t.sort(static_cast<int>(I(0))); });
    if (op == "argsort")
      return x.template visit<numeric, any>(
          op, [&](const auto& t) -> any { return t.argsort(static_cast<int>(I(0))); });
    if (op == "topk_values" || op == "topk_indices")
      return x.template visit<numeric, any>(op, [&](const auto& t) -> any {
        auto [values, indices] = t.topk(I(0), true, static_cast<int>(I(1)));
        if (op == "topk_values") return values;
        return indices;
      });
    if (op == "take_along_axis")
      return x.template visit<every, any>(op, [&](const auto& t) -> any {
        return t.take_along_axis(as<std::int64_t>(arg(1)), static_cast<int>(I(0)));
      });
    // --- linear algebra and nn
    if (op == "matmul") return x.matmul(arg(1));
    if (op == "softmax") return x.softmax(static_cast<int>(I(0)));
    if (op == "log_softmax") return x.log_softmax(static_cast<int>(I(0)));
    if (op == "crossentropy")
      return x.template visit<floating, any>(
          op, [&](const auto& t) -> any { return t.crossentropy(as<std::int64_t>(arg(1))); });
    // --- conversion: ints = {dtype}
    if (op == "astype")
      return x.template visit<every, any>(op, [&](const auto& t) -> any {
        switch (static_cast<dtype>(I(0))) {
          case dtype::float32:
            return t.template astype<float>();
          case dtype::float64:
            return t.template astype<double>();
          case dtype::int32:
            return t.template astype<std::int32_t>();
          case dtype::int64:
            return t.template astype<std::int64_t>();
          default:
            return t.template astype<bool>();
        }
      });
    throw std::logic_error("fuzz: unknown op " + op);
  }
};

}  // namespace ep::fuzz
