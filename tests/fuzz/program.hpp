// eagerpp - the differential fuzzer's programs and results, in a backend-neutral form
// SPDX-License-Identifier: MIT
//
// A program is a list of inputs (dtype, shape, values) and of instructions, each an op name with
// the indices of its operands (values are numbered: inputs first, then one per instruction) and
// small integer and real parameters. It is interpreted by one interpreter per backend
// (backend_<name>.cpp, through interpret.hpp), which returns every value in this neutral form:
// elements as double (and int64 for integer dtypes), the shape, the dtype, or the ep::error thrown.
// The generator, the comparer and the driver (fuzz.cpp) are compiled once, for every backend.
#pragma once

#include <cstdint>     // std::int64_t
#include <functional>  // std::function
#include <string>      // std::string
#include <vector>      // std::vector

#include <eagerpp/shape.hpp>

namespace ep::fuzz {

/// The five dtypes the fuzzer generates (its interpreter's any tensor holds these only).
enum class dtype { float32, float64, int32, int64, boolean };

inline const char* dtype_name(dtype d) {
  constexpr const char* names[] = {"float32", "float64", "int32", "int64", "bool"};
  return names[static_cast<int>(d)];
}
inline bool is_floating(dtype d) { return d == dtype::float32 || d == dtype::float64; }
inline bool is_integer(dtype d) { return d == dtype::int32 || d == dtype::int64; }

struct input {
  dtype type;
  Shape shape;
  std::vector<double> values;  // C order, exactly representable in `type`
};

struct instruction {
  std::string op;
  std::vector<int> args;           // value numbers of the operands
  std::vector<std::int64_t> ints;  // axes, extents, flags, k, ...
  std::vector<double> reals;       // scalars, clip bounds
};

struct program {
  std::vector<input> inputs;
  std::vector<instruction> code;
  /// Gradient mode: the program is f(inputs[0]); the last value, summed, is the loss.
  bool grad = false;
  /// The block size of its fused runs (interpret.hpp's run_fused): 256, 512 or 1024 bytes by its
  /// length, so that blocks of one and of several grains both run.
  [[nodiscard]] std::int64_t fused_block_bytes() const {
    return std::int64_t{256} << (code.size() % 3);
  }
};

/// One value as a backend computed it.
struct value {
  dtype type = dtype::float64;
  Shape shape;
  std::vector<double> f;        // every element as double
  std::vector<std::int64_t> i;  // every element as int64 (integer and bool dtypes only)
};

/// What a backend made of a program: every value up to the first error, and that error's type
/// ("value_error", "index_error", "memory_error", other ep::error, or "not an ep::error").
struct outcome {
  std::vector<value> values;  // inputs, then one per instruction that ran
  int failed_at = -1;         // the instruction that threw, or -1
  std::string error_type;
  std::string error_message;
  // gradient mode: the loss and its gradient with respect to inputs[0]
  double loss = 0;
  std::vector<double> grad;
};

/// A backend's interpreter: runs `p` (in gradient mode: value_and_grad of its loss).
struct interpreter {
  std::string name;  // the backend family: ep::<name>
  std::function<outcome(const program&)> run;
  /// Whether `run` is the family's fused run (interpret.hpp's run_fused: every element-wise result
  /// lazy, small blocks, values read after the last instruction).
  bool fused = false;
  [[nodiscard]] std::string label() const { return fused ? name + " (fused)" : name; }
};

/// The interpreters linked into this program (each backend_<name>.cpp adds its own at start-up).
/// Inline: a typed-suite binary that holds an interpreter (tests/fuzz/CMakeLists.txt) links nothing
/// else of the fuzzer.
inline std::vector<interpreter>& interpreters() {
  static std::vector<interpreter> all;
  return all;
}

struct registrar {
  explicit registrar(interpreter i) { interpreters().push_back(std::move(i)); }
};

/// `p` as a C++ function that reproduces it on backend family `family` (e.g. "ep::eigen").
std::string to_cpp(const program& p, const std::string& family);

}  // namespace ep::fuzz
