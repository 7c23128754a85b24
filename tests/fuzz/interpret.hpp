// eagerpp - the differential fuzzer's interpreter: runs a neutral program on one backend family
// SPDX-License-Identifier: MIT
//
// Included by backend_<name>.cpp, one per backend, which instantiates it for that family only (no
// translation unit instantiates every backend) and by default joins the backend's typed-suite TU,
// which instantiates the same ops (EAGERPP_FUZZ_IN_SUITES, tests/fuzz/CMakeLists.txt). Values are
// ep::basic_any_tensor over the one family, so an op is written once here and instantiated only
// for the dtypes it admits. An instruction runs the function of its op's row in the op table
// (ops.hpp): the row's spelling for the ops of the library's lists, exec_<name> for the fuzzer's own.
#pragma once

#include <cstddef>    // std::size_t, std::ptrdiff_t
#include <cstdint>    // std::int32_t, std::int64_t, INT64_MIN
#include <exception>  // std::exception
#include <optional>   // std::optional
#include <string>     // std::string
#include <typeinfo>   // typeid
#include <utility>    // std::move
#include <vector>     // std::vector

#include <eagerpp/any.hpp>
#include <eagerpp/eagerpp.hpp>

#include "fuzz/ops.hpp"
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

  /// One instruction's operands (values numbered as in the program) and parameters.
  struct call {
    const instruction& in;
    const std::vector<any>& v;
    [[nodiscard]] const any& arg(std::size_t i) const {
      return v.at(static_cast<std::size_t>(in.args.at(i)));
    }
    [[nodiscard]] const any& x() const { return arg(0); }
    [[nodiscard]] std::int64_t I(std::size_t i) const { return in.ints.at(i); }
    [[nodiscard]] int axis(std::size_t i) const { return static_cast<int>(in.ints.at(i)); }
    [[nodiscard]] double R(std::size_t i) const { return in.reals.at(i); }
    /// The axes from ints[from...]: none means all axes.
    [[nodiscard]] Axes axes(std::size_t from) const {
      if (in.ints.size() <= from) return Axes{};
      return Axes(
          std::vector<int>(in.ints.begin() + static_cast<std::ptrdiff_t>(from), in.ints.end()));
    }
    [[nodiscard]] Shape shape() const { return Shape(in.ints.begin(), in.ints.end()); }
    /// f(t) for the static tensor t that x holds, if K admits its dtype.
    template <detail::any_kind K, class Fn>
    any visit(Fn&& f) const {
      return x().template visit<K, any>(in.op, std::forward<Fn>(f));
    }
  };
  using exec_fn = any (*)(const call&);
  static constexpr auto every = any::every, numeric = any::numeric, floating = any::floating;

  template <class T>
  static const tensor<T>& as(const any& a) {
    return a.template as<F<T>>();
  }

  static any exec(const instruction& in, const std::vector<any>& v) {
    return executors()[op_index(in.op)](call{in, v});
  }

  /// The function of each row of the op table (ops.hpp), in its order: the families' spelled by
  /// the row, the fuzzer's own ops' exec_<name>.
  static const std::vector<exec_fn>& executors() {
#define EAGERPP_FUZZ_EXEC_UNARY(f) [](const call& c) -> any { return c.x().f(); }
#define EAGERPP_FUZZ_EXEC_OPERATOR(f) [](const call& c) -> any { return c.x() f c.arg(1); }
#define EAGERPP_FUZZ_EXEC_METHOD(f) [](const call& c) -> any { return c.x().f(c.arg(1)); }
#define EAGERPP_FUZZ_EXEC_REDUCTION(f) \
  [](const call& c) -> any { return c.x().f(c.axes(1), c.I(0) != 0); }
#define EAGERPP_FUZZ_EXEC_AXIS(f) \
  [](const call& c) -> any { return c.in.ints.empty() ? c.x().f() : c.x().f(c.axis(0)); }
#define EAGERPP_FUZZ_EXEC_OTHER(f) &exec_##f
#define EAGERPP_FUZZ_ROW(FAMILY, name, DTYPES, spelled) EAGERPP_FUZZ_EXEC_##FAMILY(spelled),
    static const std::vector<exec_fn> all = {EAGERPP_FUZZ_OPS};
#undef EAGERPP_FUZZ_ROW
#undef EAGERPP_FUZZ_EXEC_UNARY
#undef EAGERPP_FUZZ_EXEC_OPERATOR
#undef EAGERPP_FUZZ_EXEC_METHOD
#undef EAGERPP_FUZZ_EXEC_REDUCTION
#undef EAGERPP_FUZZ_EXEC_AXIS
#undef EAGERPP_FUZZ_EXEC_OTHER
    return all;
  }

  // --- element-wise ops of the fuzzer's own
  static any exec_clip(const call& c) { return c.x().clip(c.R(0), c.R(1)); }
  static any exec_where(const call& c) { return c.x().where(c.arg(1), c.arg(2)); }
  static any exec_add_scalar(const call& c) { return c.x() + c.R(0); }
  static any exec_rsubtract_scalar(const call& c) { return c.R(0) - c.x(); }
  static any exec_multiply_scalar(const call& c) { return c.x() * c.R(0); }
  static any exec_divide_scalar(const call& c) { return c.x() / c.R(0); }
  static any exec_add_int(const call& c) { return c.x() + c.I(0); }
  static any exec_multiply_int(const call& c) { return c.x() * c.I(0); }
  static any exec_pow_scalar(const call& c) {
    return c.template visit<numeric>([&](const auto& t) -> any { return t.pow(c.R(0)); });
  }
  static any exec_maximum_int(const call& c) {
    return c.template visit<numeric>(
        [&](const auto& t) -> any { return t.maximum(static_cast<int>(c.I(0))); });
  }

  // --- shape
  static any exec_reshape(const call& c) { return c.x().reshape(c.shape()); }
  static any exec_flatten(const call& c) { return c.x().flatten(c.axis(0), c.axis(1)); }
  static any exec_transpose(const call& c) {
    if (c.in.ints.empty()) return c.x().transpose();
    return c.x().transpose(std::vector<int>(c.in.ints.begin(), c.in.ints.end()));
  }
  static any exec_squeeze(const call& c) {
    return c.in.ints.empty() ? c.x().squeeze() : c.x().squeeze(c.axes(0));
  }
  static any exec_expand_dims(const call& c) { return c.x().expand_dims(c.axis(0)); }
  static any exec_broadcast_to(const call& c) { return c.x().broadcast_to(c.shape()); }
  static any exec_flip(const call& c) {
    return c.in.ints.empty() ? c.x().flip() : c.x().flip(c.axes(0));
  }
  static any exec_tile(const call& c) {
    return c.template visit<every>([&](const auto& t) -> any { return t.tile(c.in.ints); });
  }
  static any exec_pad(const call& c) {  // ints = {reflect, before0, after0, before1, after1, ...}
    return c.template visit<every>([&](const auto& t) -> any {
      Paddings p;
      for (std::size_t i = 1; i + 1 < c.in.ints.size(); i += 2)
        p.emplace_back(c.in.ints[i], c.in.ints[i + 1]);
      using T = typename std::remove_cvref_t<decltype(t)>::value_type;
      return t.pad(p, c.I(0) != 0 ? "reflect" : "constant",
                   static_cast<T>(c.in.reals.empty() ? 0 : c.R(0)));
    });
  }

  // --- indexing and selection
  static any exec_slice(const call& c) {  // ints = {axis-prefix count, start, stop, step}
    return c.template visit<every>([&](const auto& t) -> any {
      auto bound = [](std::int64_t b) {  // an omitted bound is INT64_MIN
        return b == INT64_MIN ? std::optional<std::int64_t>() : std::optional(b);
      };
      const ep::slice s(bound(c.I(1)), bound(c.I(2)), c.I(3));
      switch (c.I(0)) {
        case 0:
          return t(s);
        case 1:
          return t(ep::slice(), s);
        default:
          return t(ep::ellipsis, s);
      }
    });
  }
  static any exec_integer(const call& c) {
    return c.template visit<every>([&](const auto& t) -> any { return t(c.I(0)); });
  }
  static any exec_newaxis(const call& c) {
    return c.template visit<every>(
        [](const auto& t) -> any { return t(ep::newaxis, ep::ellipsis); });
  }
  static any exec_take(const call& c) {  // x[index tensor], on the first axis or after one slice
    return c.template visit<every>([&](const auto& t) -> any {
      const auto& idx = as<std::int64_t>(c.arg(1));
      return c.I(0) == 0 ? t(idx) : t(ep::slice(), idx);
    });
  }
  static any exec_mask(const call& c) {
    return c.template visit<every>([&](const auto& t) -> any { return t[as<bool>(c.arg(1))]; });
  }
  static any exec_sort(const call& c) {
    return c.template visit<numeric>([&](const auto& t) -> any { return t.sort(c.axis(0)); });
  }
  static any exec_argsort(const call& c) {
    return c.template visit<numeric>([&](const auto& t) -> any { return t.argsort(c.axis(0)); });
  }
  static any exec_topk_values(const call& c) {
    return c.template visit<numeric>(
        [&](const auto& t) -> any { return t.topk(c.I(0), true, c.axis(1)).first; });
  }
  static any exec_topk_indices(const call& c) {
    return c.template visit<numeric>(
        [&](const auto& t) -> any { return t.topk(c.I(0), true, c.axis(1)).second; });
  }
  static any exec_take_along_axis(const call& c) {
    return c.template visit<every>([&](const auto& t) -> any {
      return t.take_along_axis(as<std::int64_t>(c.arg(1)), c.axis(0));
    });
  }

  // --- linear algebra, nn, conversion
  static any exec_matmul(const call& c) { return c.x().matmul(c.arg(1)); }
  static any exec_softmax(const call& c) { return c.x().softmax(c.axis(0)); }
  static any exec_log_softmax(const call& c) { return c.x().log_softmax(c.axis(0)); }
  static any exec_crossentropy(const call& c) {
    return c.template visit<floating>(
        [&](const auto& t) -> any { return t.crossentropy(as<std::int64_t>(c.arg(1))); });
  }
  static any exec_astype(const call& c) {  // ints = {dtype}
    return c.template visit<every>([&](const auto& t) -> any {
      switch (static_cast<dtype>(c.I(0))) {
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
  }
};

}  // namespace ep::fuzz
