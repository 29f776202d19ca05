// Recursive-descent parser and checked evaluator for integer size expressions.
#include "cudaperf/task/expr.hpp"

#include <cctype>
#include <fmt/format.h>
#include <limits>
#include <vector>

namespace cudaperf::task {

struct Expr::Node {
  enum class Kind { Number, Name, Neg, Binary, Call } kind;
  int64_t number = 0;
  std::string name;  // identifier, function name, or operator
  std::vector<std::shared_ptr<const Node>> kids;
};

namespace {

using NodePtr = std::shared_ptr<const Expr::Node>;
using Node = Expr::Node;

struct ParseError {
  std::string message;
};

class Parser {
 public:
  explicit Parser(std::string_view s) : s_(s) {}

  NodePtr parse_all() {
    NodePtr n = parse_sum();
    skip_ws();
    if (pos_ != s_.size()) fail(fmt::format("unexpected '{}'", s_[pos_]));
    return n;
  }

 private:
  static constexpr int kMaxDepth = 64;
  std::string_view s_;
  size_t pos_ = 0;
  int depth_ = 0;

  [[noreturn]] void fail(const std::string& what) const {
    throw ParseError{fmt::format("{} at column {} of '{}'", what, pos_ + 1, s_)};
  }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  static NodePtr make(Node::Kind k, std::string name, std::vector<NodePtr> kids, int64_t num = 0) {
    auto n = std::make_shared<Node>();
    n->kind = k;
    n->name = std::move(name);
    n->kids = std::move(kids);
    n->number = num;
    return n;
  }
  struct DepthGuard {
    Parser& p;
    explicit DepthGuard(Parser& parser) : p(parser) {
      if (++p.depth_ > kMaxDepth) p.fail("expression nested too deeply");
    }
    ~DepthGuard() { --p.depth_; }
  };

  NodePtr parse_sum() {
    DepthGuard g(*this);
    NodePtr lhs = parse_product();
    for (;;) {
      if (eat('+')) lhs = make(Node::Kind::Binary, "+", {lhs, parse_product()});
      else if (eat('-')) lhs = make(Node::Kind::Binary, "-", {lhs, parse_product()});
      else return lhs;
    }
  }
  NodePtr parse_product() {
    NodePtr lhs = parse_unary();
    for (;;) {
      if (eat('*')) lhs = make(Node::Kind::Binary, "*", {lhs, parse_unary()});
      else if (eat('/')) lhs = make(Node::Kind::Binary, "/", {lhs, parse_unary()});
      else if (eat('%')) lhs = make(Node::Kind::Binary, "%", {lhs, parse_unary()});
      else return lhs;
    }
  }
  NodePtr parse_unary() {
    DepthGuard g(*this);
    if (eat('-')) return make(Node::Kind::Neg, "-", {parse_unary()});
    if (eat('+')) return parse_unary();
    return parse_primary();
  }
  NodePtr parse_primary() {
    skip_ws();
    if (pos_ >= s_.size()) fail("expression ends early");
    char c = s_[pos_];
    if (c == '(') {
      ++pos_;
      NodePtr inner = parse_sum();
      if (!eat(')')) fail("missing ')'");
      return inner;
    }
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int d = s_[pos_] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - d) / 10) fail("number too large");
        v = v * 10 + d;
        ++pos_;
      }
      if (pos_ < s_.size() && (s_[pos_] == '.' || s_[pos_] == 'e' || s_[pos_] == 'E'))
        fail("only integers are allowed in size expressions");
      return make(Node::Kind::Number, "", {}, v);
    }
    if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
      size_t start = pos_;
      while (pos_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_'))
        ++pos_;
      std::string id(s_.substr(start, pos_ - start));
      if (eat('(')) {
        std::vector<NodePtr> args;
        if (!eat(')')) {
          do args.push_back(parse_sum());
          while (eat(','));
          if (!eat(')')) fail(fmt::format("missing ')' after arguments of {}", id));
        }
        size_t want = (id == "log2") ? 1 : 2;
        bool known = id == "min" || id == "max" || id == "cdiv" || id == "pow" || id == "log2";
        if (!known) fail(fmt::format("unknown function '{}' (known: min, max, cdiv, log2, pow)", id));
        if (args.size() != want)
          fail(fmt::format("{} takes {} argument(s), got {}", id, want, args.size()));
        return make(Node::Kind::Call, id, std::move(args));
      }
      return make(Node::Kind::Name, id, {});
    }
    fail(fmt::format("unexpected '{}'", c));
  }
};

void collect_names(const Node& n, std::set<std::string>& out) {
  if (n.kind == Node::Kind::Name) out.insert(n.name);
  for (const auto& k : n.kids) collect_names(*k, out);
}

struct EvalError {
  std::string message;
};


int64_t eval_node(const Node& n, const Expr::Env& env) {
  switch (n.kind) {
    case Node::Kind::Number:
      return n.number;
    case Node::Kind::Name: {
      auto it = env.find(n.name);
      if (it == env.end()) throw EvalError{fmt::format("unknown name '{}'", n.name)};
      return it->second;
    }
    case Node::Kind::Neg: {
      int64_t v = eval_node(*n.kids[0], env);
      if (v == std::numeric_limits<int64_t>::min()) throw EvalError{"integer overflow in negation"};
      return -v;
    }
    case Node::Kind::Binary: {
      int64_t a = eval_node(*n.kids[0], env), b = eval_node(*n.kids[1], env), r = 0;
      switch (n.name[0]) {
        case '+':
          if (__builtin_add_overflow(a, b, &r)) throw EvalError{"integer overflow in addition"};
          return r;
        case '-':
          if (__builtin_sub_overflow(a, b, &r)) throw EvalError{"integer overflow in subtraction"};
          return r;
        case '*':
          if (__builtin_mul_overflow(a, b, &r)) throw EvalError{"integer overflow in multiplication"};
          return r;
        case '/':
        case '%':
          if (b == 0) throw EvalError{n.name[0] == '/' ? "division by zero" : "modulo by zero"};
          if (a == std::numeric_limits<int64_t>::min() && b == -1)
            throw EvalError{"integer overflow in division"};
          return n.name[0] == '/' ? a / b : a % b;
      }
      break;
    }
    case Node::Kind::Call: {
      int64_t a = eval_node(*n.kids[0], env);
      if (n.name == "log2") {
        if (a <= 0) throw EvalError{fmt::format("log2 of non-positive value {}", a)};
        return 63 - __builtin_clzll(static_cast<unsigned long long>(a));
      }
      int64_t b = eval_node(*n.kids[1], env);
      if (n.name == "min") return a < b ? a : b;
      if (n.name == "max") return a > b ? a : b;
      if (n.name == "cdiv") {
        if (b <= 0) throw EvalError{fmt::format("cdiv by non-positive value {}", b)};
        if (a < 0) throw EvalError{"cdiv of a negative value"};
        return a / b + (a % b != 0);
      }
      if (n.name == "pow") {
        if (b < 0) throw EvalError{"pow with negative exponent"};
        if (a == 0) return b == 0 ? 1 : 0;
        if (a == 1) return 1;
        if (a == -1) return (b % 2 == 0) ? 1 : -1;
        int64_t r = 1;  // |a| >= 2: overflows within 63 steps
        for (int64_t i = 0; i < b; ++i)
          if (__builtin_mul_overflow(r, a, &r)) throw EvalError{"integer overflow in pow"};
        return r;
      }
      break;
    }
  }
  throw EvalError{"malformed expression"};
}

}  // namespace

std::set<std::string> Expr::names() const {
  std::set<std::string> out;
  if (root_) collect_names(*root_, out);
  return out;
}

std::variant<int64_t, std::string> Expr::eval(const Env& env) const {
  if (!root_) return std::string("empty expression");
  try {
    return eval_node(*root_, env);
  } catch (const EvalError& e) {
    return fmt::format("{} in '{}'", e.message, text_);
  }
}

std::variant<Expr, std::string> parse_expr(std::string_view text) {
  try {
    Parser p(text);
    NodePtr root = p.parse_all();
    return Expr(std::move(root), std::string(text));
  } catch (const ParseError& e) {
    return e.message;
  }
}

}  // namespace cudaperf::task
