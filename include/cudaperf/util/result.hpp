// Result types for expected failures: a value, or a list of diagnostics a person can act on.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cudaperf {

// One problem, located in a file (line/column 0 when unknown).
struct Diagnostic {
  std::string file;
  int line = 0;
  int column = 0;
  std::string message;

  std::string to_string() const;  // "file:line:col: message"
};

template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Result(std::vector<Diagnostic> errors) : errors_(std::move(errors)) {}  // NOLINT
  Result(Diagnostic error) : errors_{std::move(error)} {}  // NOLINT

  bool ok() const { return value_.has_value(); }
  explicit operator bool() const { return ok(); }
  const T& value() const& { return *value_; }
  T& value() & { return *value_; }
  T&& value() && { return std::move(*value_); }
  const T* operator->() const { return &*value_; }
  T* operator->() { return &*value_; }
  const std::vector<Diagnostic>& errors() const { return errors_; }

 private:
  std::optional<T> value_;
  std::vector<Diagnostic> errors_;
};

}  // namespace cudaperf
