// Integer size expressions used by task.toml: lengths, cost models, distribution arguments.
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <variant>

namespace cudaperf::task {

// A parsed expression. Cheap to copy (shared immutable tree).
class Expr {
 public:
  struct Node;
  Expr() = default;
  explicit Expr(std::shared_ptr<const Node> root, std::string text)
      : root_(std::move(root)), text_(std::move(text)) {}

  bool empty() const { return root_ == nullptr; }
  const std::string& text() const { return text_; }
  // Every identifier the expression refers to.
  std::set<std::string> names() const;

  using Env = std::map<std::string, int64_t, std::less<>>;
  // Evaluates with 64-bit checked arithmetic; on failure returns the message
  // ("division by zero in 'n/k'", "unknown name 'q'", "overflow in ...").
  std::variant<int64_t, std::string> eval(const Env& env) const;

 private:
  std::shared_ptr<const Node> root_;
  std::string text_;
};

// Parses `text`; on failure returns a message with the column of the problem.
std::variant<Expr, std::string> parse_expr(std::string_view text);

}  // namespace cudaperf::task
