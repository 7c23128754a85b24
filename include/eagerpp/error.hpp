// eagerpp - the exception hierarchy: every runtime error derives from ep::error
// SPDX-License-Identifier: MIT
#pragma once

#include <new>        // std::bad_alloc
#include <stdexcept>  // std::invalid_argument, std::runtime_error
#include <string>     // std::string
#include <utility>    // std::move

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

/// Memory that cannot be allocated: a byte count past the address space, or more than the system
/// gives. Also a std::bad_alloc, so that code catching the standard exception still does.
class memory_error : public std::bad_alloc, public error {
 public:
  explicit memory_error(std::string msg) : msg_(std::move(msg)) {}
  [[nodiscard]] const char* what() const noexcept override { return msg_.c_str(); }

 private:
  std::string msg_;
};

}  // namespace ep
