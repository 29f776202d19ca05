// Constant expressions over tokens: the launch scan's evaluator.
#include <algorithm>
#include <cstdint>
#include <fmt/format.h>
#include <set>

#include "scanner.hpp"
#include "vocabulary.hpp"

namespace cudaperf::analysis::launch {

class Scanner::Parser {
 public:
  Parser(Scanner& s, const Ctx& c, size_t b, size_t e) : s_(s), c_(c), t_(*c.t), i_(b), e_(e) {}
  Val parse() {
    Val v = ternary();
    if (v.ok() && i_ < e_) return unknown(fmt::format("cannot read '{}'", join_tokens(t_, i_, e_)));
    return v;
  }

 private:
  Scanner& s_;
  const Ctx& c_;
  const std::vector<Tok>& t_;
  size_t i_, e_;

  bool at(const char* x) const { return i_ < e_ && t_[i_].text == x; }
  bool accept(const char* x) {
    if (!at(x)) return false;
    ++i_;
    return true;
  }

  Val ternary() {
    Val c = binary(0);
    if (!accept("?")) return c;
    Val a = ternary();
    if (!accept(":")) return unknown("malformed conditional expression");
    Val b = ternary();
    if (!c.ok()) {
      if (!a.ok()) return a;
      if (!b.ok()) return b;
      return unite(a, b, fmt::format("chosen at run time ({})", c.why));
    }
    bool any_true = std::any_of(c.v.begin(), c.v.end(), [](int64_t x) { return x != 0; });
    bool any_false = std::any_of(c.v.begin(), c.v.end(), [](int64_t x) { return x == 0; });
    if (any_true && !any_false) return a;
    if (any_false && !any_true) return b;
    if (!a.ok()) return a;
    if (!b.ok()) return b;
    return unite(a, b, c.why);
  }

  // Precedence levels, loosest first.
  static int level(const std::string& op) {
    static const std::vector<std::vector<std::string>> levels = {
        {"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", "<=", ">", ">="}, {"<<", ">>"}, {"+", "-"},
        {"*", "/", "%"}};
    for (size_t l = 0; l < levels.size(); ++l)
      for (const auto& o : levels[l])
        if (o == op) return static_cast<int>(l);
    return -1;
  }

  static std::optional<int64_t> apply(const std::string& op, int64_t x, int64_t y) {
    int64_t r = 0;
    if (op == "+") return __builtin_add_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
    if (op == "-") return __builtin_sub_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
    if (op == "*") return __builtin_mul_overflow(x, y, &r) ? std::nullopt : std::optional<int64_t>(r);
    if (op == "/") return y == 0 ? std::nullopt : std::optional<int64_t>(x / y);
    if (op == "%") return y == 0 ? std::nullopt : std::optional<int64_t>(x % y);
    if (op == "<<") return (y < 0 || y > 62 || x < 0 || x > (INT64_MAX >> y)) ? std::nullopt : std::optional<int64_t>(x << y);
    if (op == ">>") return (y < 0 || y > 63) ? std::nullopt : std::optional<int64_t>(x >> y);
    if (op == "<") return x < y;
    if (op == "<=") return x <= y;
    if (op == ">") return x > y;
    if (op == ">=") return x >= y;
    if (op == "==") return x == y;
    if (op == "!=") return x != y;
    if (op == "&") return x & y;
    if (op == "|") return x | y;
    if (op == "^") return x ^ y;
    if (op == "&&") return x && y;
    if (op == "||") return x || y;
    return std::nullopt;
  }

  Val binary(int min_level) {
    Val lhs = unary();
    while (i_ < e_) {
      const std::string op = t_[i_].text;
      int l = level(op);
      if (l < 0 || l < min_level) break;
      ++i_;
      Val rhs = binary(l + 1);
      if (!lhs.ok() || !rhs.ok()) {
        // Keep the first reason; a value a runtime name takes stays unknown.
        lhs = !lhs.ok() ? lhs : rhs;
        continue;
      }
      lhs = combine(lhs, rhs, [&](int64_t x, int64_t y) { return apply(op, x, y); }, op.c_str());
    }
    return lhs;
  }

  // A parenthesised builtin type at i_ ("(unsigned int)"): its text and the index after ')'.
  std::optional<std::pair<std::string, size_t>> type_in_parens(size_t i) const {
    if (i >= e_ || t_[i].text != "(") return std::nullopt;
    std::string ty;
    size_t k = i + 1;
    for (; k < e_ && t_[k].text != ")"; ++k) {
      const std::string& w = t_[k].text;
      if (w == "::" || w == "std") continue;
      bool word = integer_words().count(w) || w == "float" || w == "double" || w == "const" || sizeof_type(w);
      if (t_[k].kind != Tok::Ident || !word || w == "auto") return std::nullopt;
      if (w == "const") continue;
      ty += (ty.empty() ? "" : " ") + w;
    }
    if (k >= e_ || ty.empty()) return std::nullopt;
    return std::make_pair(ty, k + 1);
  }

  Val unary() {
    if (i_ >= e_) return unknown("an empty expression");
    const std::string& s = t_[i_].text;
    if (s == "-" || s == "+" || s == "~" || s == "!") {
      std::string op = s;
      ++i_;
      Val v = unary();
      if (!v.ok()) return v;
      std::set<int64_t> out;
      for (int64_t x : v.v) {
        if (op == "-") {
          if (x == INT64_MIN) return unknown("overflow");
          out.insert(-x);
        } else if (op == "+") {
          out.insert(x);
        } else if (op == "~") {
          out.insert(~x);
        } else {
          out.insert(!x);
        }
      }
      return {{out.begin(), out.end()}, v.why};
    }
    if (auto cast = type_in_parens(i_); cast && cast->second < e_) {  // (type) expr
      i_ = cast->second;
      return unary();
    }
    return postfix();
  }

  Val call_args(std::vector<Val>& args) {  // at '('
    ++i_;
    while (i_ < e_ && !at(")")) {
      args.push_back(ternary());
      if (!accept(",")) break;
    }
    if (!accept(")")) return unknown("malformed call");
    return single(0);
  }

  Val postfix() {
    const Tok& t = t_[i_];
    if (t.kind == Tok::Number) {
      ++i_;
      auto v = parse_int_literal(t.text);
      if (!v) return unknown(fmt::format("'{}' is not an integer literal", t.text));
      return single(*v);
    }
    if (t.kind == Tok::Char) {
      ++i_;
      if (t.text.size() == 3 && t.text[0] == '\'') return single(static_cast<unsigned char>(t.text[1]));
      return unknown(fmt::format("character literal {}", t.text));
    }
    if (t.text == "(") {
      ++i_;
      Val v = ternary();
      if (!accept(")")) return v.ok() ? unknown("unbalanced parentheses") : v;
      return v;
    }
    if (t.kind != Tok::Ident) return unknown(fmt::format("cannot read '{}'", t.text));
    if (t.text == "true" || t.text == "false") {
      ++i_;
      return single(t.text == "true");
    }
    if (t.text == "sizeof") {
      ++i_;
      if (auto ty = type_in_parens(i_)) {
        i_ = ty->second;
        if (auto sz = sizeof_type(ty->first)) return single(*sz);
        return unknown(fmt::format("sizeof({}) is not in the table of builtin types", ty->first));
      }
      if (at("(")) {
        size_t close = i_;
        int depth = 0;
        for (; close < e_; ++close) {
          if (t_[close].text == "(") ++depth;
          if (t_[close].text == ")" && --depth == 0) break;
        }
        std::string what = join_tokens(t_, i_ + 1, close);
        if (close - i_ == 2 && t_[i_ + 1].kind == Tok::Ident)
          if (auto sz = sizeof_type(t_[i_ + 1].text)) {
            i_ = close + 1;
            return single(*sz);
          }
        i_ = std::min(e_, close + 1);
        return unknown(fmt::format("sizeof({}) is not a builtin or CUDA vector type", what));
      }
      return unknown("sizeof without parentheses");
    }
    if (t.text == "static_cast" && i_ + 1 < e_ && t_[i_ + 1].text == "<") {
      size_t k = i_ + 2;
      while (k < e_ && t_[k].text != ">") ++k;
      i_ = k + 1;
      if (!at("(")) return unknown("malformed static_cast");
      ++i_;
      Val v = ternary();
      if (!accept(")")) return v.ok() ? unknown("malformed static_cast") : v;
      return v;
    }
    // A (possibly qualified) name.
    size_t b = i_;
    std::string name = t.text;
    ++i_;
    while (at("::") && i_ + 1 < e_ && t_[i_ + 1].kind == Tok::Ident) {
      name += "::" + t_[i_ + 1].text;
      i_ += 2;
    }
    if (at("(")) {
      std::vector<Val> args;
      Val ok = call_args(args);
      if (!ok.ok()) return ok;
      if ((name == "min" || name == "max" || name == "std::min" || name == "std::max") && args.size() == 2) {
        bool mx = name.find("max") != std::string::npos;
        return combine(args[0], args[1],
                       [&](int64_t x, int64_t y) { return std::optional<int64_t>(mx ? std::max(x, y) : std::min(x, y)); },
                       name.c_str());
      }
      return unknown(fmt::format("'{}' calls {}(), which is not evaluated", join_tokens(t_, b, i_), name));
    }
    if (at(".") || at("->") || at("[")) {
      size_t k = i_ + (at("[") ? 0 : 2);
      return unknown(fmt::format("'{}' is not a compile-time constant", join_tokens(t_, b, std::min(k, e_))));
    }
    if (name.find("::") != std::string::npos) return unknown(fmt::format("qualified name '{}' is not followed", name));
    return s_.lookup(c_, name, false);
  }
};

Val Scanner::eval_range(const Ctx& c, size_t b, size_t e) {
  if (b >= e) return unknown("an empty expression");
  if (++depth_ > 64) {
    --depth_;
    return unknown("definitions nested too deeply");
  }
  Parser p(*this, c, b, e);
  Val v = p.parse();
  --depth_;
  return v;
}

Val Scanner::dim3_value(const std::vector<Val>& comps) {
  if (comps.empty() || comps.size() > 3) return unknown("a dim3 needs 1 to 3 components");
  Val v = single(1);
  for (const auto& x : comps) v = combine(v, x, [](int64_t a, int64_t b) -> std::optional<int64_t> {
           int64_t r;
           return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional<int64_t>(r);
         }, "*");
  return v;
}

// A launch argument: a scalar expression, `dim3(a, b, c)` / `dim3{...}`, or a name bound to a dim3.
Val Scanner::eval_launch_value(const Ctx& c, size_t b, size_t e, bool allow_dim3) {
  const auto& t = *c.t;
  while (e - b >= 2 && t[b].text == "(" && t[e - 1].text == ")") {  // (expr)
    int depth = 0;
    bool outer = true;
    for (size_t k = b; k < e; ++k) {
      if (t[k].text == "(") ++depth;
      if (t[k].text == ")" && --depth == 0 && k + 1 < e) outer = false;
    }
    if (!outer) break;
    ++b;
    --e;
  }
  if (allow_dim3 && e - b >= 3 && t[b].text == "dim3" && (t[b + 1].text == "(" || t[b + 1].text == "{")) {
    std::vector<Val> comps;
    size_t p = b + 2;
    int depth = 0;
    for (size_t k = b + 2; k < e; ++k) {
      const std::string& s = t[k].text;
      if (depth == 0 && (s == "," || k + 1 == e)) {
        comps.push_back(eval_range(c, p, k));
        p = k + 1;
        continue;
      }
      if (s == "(" || s == "[" || s == "{") ++depth;
      if (s == ")" || s == "]" || s == "}") --depth;
    }
    for (const auto& x : comps)
      if (!x.ok()) return x;
    return dim3_value(comps);
  }
  if (allow_dim3 && e - b == 1 && t[b].kind == Tok::Ident) return lookup(c, t[b].text, true);
  return eval_range(c, b, e);
}

}  // namespace cudaperf::analysis::launch
