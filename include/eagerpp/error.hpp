// eagerpp - the exception hierarchy: every runtime error derives from ep::error
// SPDX-License-Identifier: MIT
#pragma once

#include <stdexcept>  // std::invalid_argument, std::runtime_error
#include <string>     // std::string

namespace ep {

/// Root of every exception eagerpp throws; `catch (const ep::error&)` catches them all.
/// Messages are shaped `<op>: <problem> (<facts>); expected <...>`.
class error {
 public:
  virtual ~error() = default;
  /// The message; the same override serves std::exception::what(), so `e.what()` works on either base.
  [[nodiscard]] virtual const char* what() const noexcept = 0;
};

/// Bad arguments: shapes that do not broadcast, axes out of range, wrong sizes (NumPy's ValueError).
class value_error : public std::invalid_argument, public error {
 public:
  explicit value_error(const std::string& msg) : std::invalid_argument(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return std::invalid_argument::what(); }
};

/// An index out of range (NumPy's IndexError).
class index_error : public std::invalid_argument, public error {
 public:
  explicit index_error(const std::string& msg) : std::invalid_argument(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return std::invalid_argument::what(); }
};

/// A failure of the device or the runtime beneath a backend (CUDA errors, no device).
class device_error : public std::runtime_error, public error {
 public:
  explicit device_error(const std::string& msg) : std::runtime_error(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return std::runtime_error::what(); }
};

/// A failure reading or writing a file (`.npy`).
class io_error : public std::runtime_error, public error {
 public:
  explicit io_error(const std::string& msg) : std::runtime_error(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return std::runtime_error::what(); }
};

}  // namespace ep
