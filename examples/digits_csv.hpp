// eagerpp examples - the handwritten digits of examples/data/digits.csv, read by the examples that
// use them (mlp_digits, pca_digits, per_example_grads), and the options their training takes
// SPDX-License-Identifier: MIT
#pragma once

#include <algorithm>    // std::max
#include <cstdint>      // std::int64_t
#include <cstdlib>      // std::strtol, std::strtod
#include <fstream>      // std::ifstream
#include <sstream>      // std::istringstream
#include <stdexcept>    // std::runtime_error
#include <string>       // std::string, std::getline
#include <string_view>  // std::string_view
#include <vector>       // std::vector

#include <fmt/format.h>

namespace digits_csv {

constexpr std::int64_t pixels = 64;

/// The images (row-major, n x 64, grey levels 0..16) and their labels 0..9.
struct table {
  std::vector<int> grey;
  std::vector<std::int64_t> labels;
  [[nodiscard]] std::int64_t size() const { return static_cast<std::int64_t>(labels.size()); }
};

/// Reads the CSV (one image a line: 64 grey levels 0..16, then the label 0..9). Throws a
/// std::runtime_error, its message starting with `program`, naming the file and the line for a
/// missing or malformed file, or one of no more than `at_least` images.
inline table read(const std::string& path, std::string_view program, std::int64_t at_least) {
  std::ifstream in(path);
  if (!in)
    throw std::runtime_error(
        fmt::format("{}: cannot open the data file '{}'; pass its path with --data "
                    "(the repository ships it as examples/data/digits.csv)",
                    program, path));
  table d;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty()) continue;
    std::istringstream fields(line);
    std::string field;
    std::vector<long> values;
    while (std::getline(fields, field, ',')) {
      char* end = nullptr;
      const long v = std::strtol(field.c_str(), &end, 10);
      if (field.empty() || *end != '\0' || v < 0 || v > 16)
        throw std::runtime_error(
            fmt::format("{}: the data file '{}' is corrupt: line {} has the field '{}'; "
                        "expected integers 0..16",
                        program, path, number, field));
      values.push_back(v);
    }
    if (values.size() != pixels + 1 || values.back() > 9)
      throw std::runtime_error(
          fmt::format("{}: the data file '{}' is corrupt: line {} has {} fields ending "
                      "in {}; expected 64 grey levels and a label 0..9",
                      program, path, number, values.size(), values.empty() ? -1 : values.back()));
    for (std::int64_t i = 0; i < pixels; ++i)
      d.grey.push_back(static_cast<int>(values[static_cast<std::size_t>(i)]));
    d.labels.push_back(values.back());
  }
  if (d.size() <= at_least)
    throw std::runtime_error(
        fmt::format("{}: the data file '{}' is corrupt: it holds {} images; expected more than {}",
                    program, path, d.size(), at_least));
  return d;
}

/// The options of the examples that train on the digits, each with the example's own defaults.
struct training_options {
  std::string data;
  int epochs = 1;
  double min_accuracy = 0;
};

/// Reads argv[i] if it is `--data <csv>`, `--epochs <n>` or `--min-accuracy <fraction>` (moving i
/// to its value) and returns true; false for any other argument, which the example reads itself.
inline bool read_training_option(int argc, char** argv, int& i, training_options& o) {
  const std::string_view a = argv[i];
  if (i + 1 >= argc) return false;
  if (a == "--data") {
    o.data = argv[++i];
  } else if (a == "--epochs") {
    o.epochs = std::max(1, static_cast<int>(std::strtol(argv[++i], nullptr, 10)));
  } else if (a == "--min-accuracy") {
    o.min_accuracy = std::strtod(argv[++i], nullptr);
  } else {
    return false;
  }
  return true;
}

}  // namespace digits_csv
