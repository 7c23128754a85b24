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
  /// The message; the same override serves std::exception::what(), so `e.what()` works on either
  /// base.
  [[nodiscard]] virtual const char* what() const noexcept = 0;
};

namespace detail {
/// An ep::error that is also the standard exception `Std` (std::invalid_argument,
/// std::runtime_error), so that code catching the standard one still does.
template <class Std>
class standard_error : public Std, public error {
 public:
  explicit standard_error(const std::string& msg) : Std(msg) {}
  [[nodiscard]] const char* what() const noexcept override { return Std::what(); }
};
}  // namespace detail

/// Bad arguments: shapes that do not broadcast, axes out of range, wrong sizes (NumPy's
/// ValueError).
struct value_error : detail::standard_error<std::invalid_argument> {
  using standard_error::standard_error;
};

/// An index out of range (NumPy's IndexError).
struct index_error : detail::standard_error<std::invalid_argument> {
  using standard_error::standard_error;
};

/// A failure of the device or the runtime beneath a backend (CUDA errors, no device).
struct device_error : detail::standard_error<std::runtime_error> {
  using standard_error::standard_error;
};

/// A matrix a decomposition cannot take: not positive definite (cholesky), singular (solve, inv)
/// (NumPy's LinAlgError).
struct linalg_error : detail::standard_error<std::runtime_error> {
  using standard_error::standard_error;
};

/// A failure reading or writing a file (`.npy`).
struct io_error : detail::standard_error<std::runtime_error> {
  using standard_error::standard_error;
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
