// eagerpp - the differential fuzzer's program generator (backend-neutral)
// SPDX-License-Identifier: MIT
#pragma once

#include <cstddef>  // std::size_t
#include <cstdint>  // std::uint64_t
#include <random>   // std::mt19937_64
#include <vector>   // std::vector

#include "fuzz/program.hpp"

namespace ep::fuzz {

/// What the generator knows of a value: its dtype and shape (from the reference backend), how
/// exactly backends must agree on it, and its magnitude.
struct value_info {
  dtype type;
  Shape shape;
  /// 0: exact (correctly rounded arithmetic on exact inputs, integers, moved elements): equal on
  /// every backend; 1: inexact (a libm function, a sum in some order): within the ulp bound of the
  /// comparer, relative to `scale`; 2: not comparable element-wise (a jump, e.g. floor or a
  /// comparison, of an inexact value): only the dtype, shape and errors are compared.
  int tag = 0;
  double scale = 0;    // the magnitude of the terms whose rounding errors reach this value
  double max_abs = 0;  // of its finite elements
  bool has_nan = false;
};

/// Random valid programs, grown one instruction at a time and run on a reference backend after
/// each, so that every operand's shape is known without a shape inference of its own: an
/// instruction that fails is dropped, or (now and then) kept as the program's invalid end.
class generator {
 public:
  /// `size_scale` multiplies the most elements a program's first input may have (48, 12 in
  /// gradient mode): larger tensors span many blocks of the fused runs (block_grain elements).
  generator(const interpreter& reference, std::uint64_t seed, int size_scale = 1);
  /// The next program: forward (every dtype and op family) or, in gradient mode, a smooth function
  /// of one float64 input.
  program next(bool grad_mode);
  /// How exactly the backends must agree on each value of the last program (inputs first).
  [[nodiscard]] const std::vector<value_info>& info() const { return info_; }

 private:
  double uniform();
  int pick(int n);
  Shape random_shape(int max_numel);
  input random_input(dtype t, const Shape& s);
  Shape broadcastable(const Shape& s);
  int add_input(program& p, const input& in);
  static double max_abs(const std::vector<double>& v);
  std::vector<std::int64_t> random_axes(int rank, bool allow_none);
  [[nodiscard]] std::vector<std::size_t> candidates(dtype t) const;
  instruction random_instruction(program& p, int& a);
  bool try_instruction(program& p, bool& ended);
  [[nodiscard]] value_info describe(const instruction& ins, const value& v) const;
  [[nodiscard]] int result_tag(const instruction& ins, const value& result) const;
  [[nodiscard]] bool may_overflow(const instruction& ins) const;
  [[nodiscard]] bool smooth_at(const instruction& ins, const outcome& o) const;
  static bool distinct(const instruction& ins, const outcome& o);

  friend struct op_args;  // the arguments of each op (generate.cpp)

  const interpreter& ref_;
  std::mt19937_64 rng_;
  bool grad_mode_ = false;
  int size_scale_ = 1;
  std::vector<value_info> info_;
};

}  // namespace ep::fuzz
