// Launch shapes from host code (include/cudaperf/analysis/launch_scan.hpp; rules in
// docs/analysis.md, "Launch shape").
//
// Not a C++ parser: a tokenizer, a brace-scope tracker, a statement-level recogniser of simple
// declarations (`[static] [constexpr|const] <integer type|dim3|auto> NAME = expr;`, `dim3 NAME(a, b)`,
// `#define NAME expr`) and a constant-expression evaluator. Whatever it does not understand is
// reported as unknown, with the reason; it never guesses.
#include "cudaperf/analysis/launch_scan.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <set>

namespace cudaperf::analysis {

namespace {

// ------------------------------------------------------------------------------------------------
// Tokens.

struct Tok {
  enum Kind { Ident, Number, String, Char, Punct } kind = Punct;
  std::string text;
  int line = 0;
};

struct Macro {
  std::string name;
  size_t pos = 0;          // index of the first main token after the directive
  bool undef = false;      // #undef NAME
  bool function_like = false;
  std::vector<Tok> body;
  int line = 0;
};

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

const char* const kPuncts3[] = {"<<<", ">>>", "<<=", ">>=", "...", "->*"};
const char* const kPuncts2[] = {"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*"};

// Tokenizes `src`; comments are dropped, string and character literals kept whole. With `macros`,
// preprocessor lines are read as directives (object-like #define and #undef recorded; the rest
// dropped); without, '#' is an ordinary punctuator (a macro body).
void lex(std::string_view src, int first_line, std::vector<Tok>& out, std::vector<Macro>* macros) {
  size_t i = 0, n = src.size();
  int line = first_line;
  bool line_start = true;
  auto push = [&](Tok::Kind k, size_t b, size_t e) { out.push_back({k, std::string(src.substr(b, e - b)), line}); };
  while (i < n) {
    char c = src[i];
    if (c == '\n') {
      ++line;
      line_start = true;
      ++i;
      continue;
    }
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
      continue;
    }
    if (c == '\\' && i + 1 < n && src[i + 1] == '\n') {  // a continued line outside a directive
      i += 2;
      ++line;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '/') {
      while (i < n && src[i] != '\n') ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && src[i + 1] == '*') {
      i += 2;
      while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
        if (src[i] == '\n') ++line;
        ++i;
      }
      i = std::min(n, i + 2);
      continue;
    }
    if (c == '#' && line_start && macros) {
      // The directive, with continuations joined and comments removed.
      int dline = line;
      std::string text;
      ++i;
      while (i < n && src[i] != '\n') {
        if (src[i] == '\\' && i + 1 < n && src[i + 1] == '\n') {
          text += ' ';
          i += 2;
          ++line;
          continue;
        }
        if (src[i] == '/' && i + 1 < n && src[i + 1] == '/') {
          while (i < n && src[i] != '\n') ++i;
          break;
        }
        if (src[i] == '/' && i + 1 < n && src[i + 1] == '*') {
          i += 2;
          while (i < n && !(src[i] == '*' && i + 1 < n && src[i + 1] == '/')) {
            if (src[i] == '\n') ++line;
            ++i;
          }
          i = std::min(n, i + 2);
          text += ' ';
          continue;
        }
        text += src[i++];
      }
      size_t p = 0;
      auto skip_ws = [&] {
        while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
      };
      auto word = [&] {
        size_t b = p;
        while (p < text.size() && ident_char(text[p])) ++p;
        return text.substr(b, p - b);
      };
      skip_ws();
      std::string directive = word();
      if (directive == "define" || directive == "undef") {
        skip_ws();
        Macro m;
        m.name = word();
        m.pos = out.size();
        m.line = dline;
        m.undef = directive == "undef";
        if (!m.name.empty()) {
          if (!m.undef && p < text.size() && text[p] == '(') {
            m.function_like = true;
          } else if (!m.undef) {
            lex(std::string_view(text).substr(p), dline, m.body, nullptr);
          }
          macros->push_back(std::move(m));
        }
      }
      continue;
    }
    line_start = false;
    size_t b = i;
    if (ident_start(c)) {
      while (i < n && ident_char(src[i])) ++i;
      // A string prefix (L, u8, R, u8R, ...) glued to a quote.
      std::string_view id = src.substr(b, i - b);
      if (i < n && src[i] == '"' && (id == "L" || id == "u" || id == "U" || id == "u8" || id == "R" || id == "LR" ||
                                     id == "uR" || id == "UR" || id == "u8R")) {
        if (id.back() == 'R') {  // raw string R"delim( ... )delim"
          size_t open = src.find('(', i);
          if (open == std::string_view::npos) {
            i = n;
          } else {
            std::string close = ")" + std::string(src.substr(i + 1, open - i - 1)) + "\"";
            size_t e = src.find(close, open);
            size_t end = e == std::string_view::npos ? n : e + close.size();
            for (size_t k = i; k < end; ++k)
              if (src[k] == '\n') ++line;
            i = end;
          }
          push(Tok::String, b, i);
          continue;
        }
        c = '"';  // fall through to the string below, keeping the prefix in the token
      } else {
        push(Tok::Ident, b, i);
        continue;
      }
    }
    if (c == '"' || c == '\'') {
      char q = c;
      while (i < n && src[i] != q) ++i;  // skip a prefix, if any
      ++i;
      while (i < n && src[i] != q && src[i] != '\n') i += (src[i] == '\\' && i + 1 < n) ? 2 : 1;
      i = std::min(n, i + 1);
      push(q == '"' ? Tok::String : Tok::Char, b, i);
      continue;
    }
    if (std::isdigit(static_cast<unsigned char>(c)) ||
        (c == '.' && i + 1 < n && std::isdigit(static_cast<unsigned char>(src[i + 1])))) {
      ++i;
      while (i < n) {
        char d = src[i];
        if (ident_char(d) || d == '.') {
          ++i;
        } else if (d == '\'' && i + 1 < n && ident_char(src[i + 1])) {
          ++i;  // digit separator
        } else if ((d == '+' || d == '-') && (src[i - 1] == 'e' || src[i - 1] == 'E' || src[i - 1] == 'p' ||
                                              src[i - 1] == 'P')) {
          ++i;
        } else {
          break;
        }
      }
      push(Tok::Number, b, i);
      continue;
    }
    size_t len = 1;
    for (const char* p : kPuncts3)
      if (src.substr(i, 3) == p) len = 3;
    if (len == 1)
      for (const char* p : kPuncts2)
        if (src.substr(i, 2) == p) len = 2;
    i += len;
    push(Tok::Punct, b, i);
  }
}

// ------------------------------------------------------------------------------------------------
// Small helpers.

const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "return", "if", "for", "while", "switch", "do", "else", "goto", "break", "continue", "throw", "delete", "new",
      "using", "typedef", "namespace", "template", "case", "default", "co_return", "co_yield", "co_await", "sizeof",
      "static_assert", "asm", "operator", "and", "or", "not", "public", "private", "protected", "try", "catch",
      "alignof", "decltype", "typeid", "this", "true", "false", "nullptr", "static_cast", "reinterpret_cast",
      "const_cast", "dynamic_cast"};
  return k;
}
bool is_keyword(const std::string& s) { return keywords().count(s) > 0; }

// Identifiers that may appear in the specifiers of an integer declaration.
const std::set<std::string>& integer_words() {
  static const std::set<std::string> k = {
      "unsigned", "signed", "int", "long", "short", "char", "bool", "size_t", "ssize_t", "ptrdiff_t", "int8_t",
      "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint", "auto", "std"};
  return k;
}
const std::set<std::string>& qualifier_words() {
  static const std::set<std::string> k = {"const", "constexpr", "static", "inline", "volatile", "register",
                                          "extern", "thread_local", "__device__", "__host__", "__constant__",
                                          "__shared__", "__managed__", "constinit", "consteval", "__restrict__"};
  return k;
}

// sizeof of builtin and CUDA vector types (x86-64 host, as nvcc compiles host code).
std::optional<int64_t> sizeof_type(const std::string& t) {
  static const std::vector<std::pair<std::string, int64_t>> table = {
      {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1}, {"int8_t", 1}, {"uint8_t", 1},
      {"short", 2}, {"short int", 2}, {"unsigned short", 2}, {"unsigned short int", 2}, {"int16_t", 2},
      {"uint16_t", 2}, {"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2}, {"int", 4}, {"unsigned", 4},
      {"unsigned int", 4}, {"signed", 4}, {"signed int", 4}, {"int32_t", 4}, {"uint32_t", 4}, {"float", 4},
      {"uint", 4}, {"long", 8}, {"long int", 8}, {"unsigned long", 8}, {"long long", 8}, {"long long int", 8},
      {"unsigned long long", 8}, {"unsigned long long int", 8}, {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8},
      {"std::size_t", 8}, {"ssize_t", 8}, {"ptrdiff_t", 8}, {"double", 8}, {"char2", 2}, {"uchar2", 2},
      {"char4", 4}, {"uchar4", 4}, {"short2", 4}, {"ushort2", 4}, {"short4", 8}, {"ushort4", 8}, {"int2", 8},
      {"uint2", 8}, {"int4", 16}, {"uint4", 16}, {"float2", 8}, {"float4", 16}, {"double2", 16},
      {"longlong2", 16}, {"ulonglong2", 16}, {"half2", 4}, {"__half2", 4}, {"__nv_bfloat162", 4}};
  for (const auto& [k, v] : table)
    if (k == t) return v;
  return std::nullopt;
}

// Canonical c++filt spelling of a builtin type, for matching template arguments; "" when unknown.
std::string canonical_type(const std::string& t) {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"float", "float"}, {"double", "double"}, {"int", "int"}, {"signed", "int"}, {"signed int", "int"},
      {"unsigned", "unsigned int"}, {"unsigned int", "unsigned int"}, {"char", "char"},
      {"signed char", "signed char"}, {"unsigned char", "unsigned char"}, {"short", "short"},
      {"short int", "short"}, {"unsigned short", "unsigned short"}, {"long", "long"}, {"long int", "long"},
      {"unsigned long", "unsigned long"}, {"long long", "long long"}, {"long long int", "long long"},
      {"unsigned long long", "unsigned long long"}, {"bool", "bool"}, {"__half", "__half"},
      {"half", "__half"}, {"__nv_bfloat16", "__nv_bfloat16"}};
  for (const auto& [k, v] : table)
    if (k == t) return v;
  return "";
}

std::string join_tokens(const std::vector<Tok>& t, size_t b, size_t e) {
  std::string s;
  for (size_t i = b; i < e && i < t.size(); ++i) {
    const std::string& x = t[i].text;
    if (!s.empty()) {
      char p = s.back(), c = x.front();
      bool word = ident_char(p) && ident_char(c);
      bool tight = c == ',' || c == ')' || c == ']' || p == '(' || p == '[' || c == '(' || c == '[' || x == "::" ||
                   (s.size() >= 2 && s.compare(s.size() - 2, 2, "::") == 0) || c == '.' || p == '.' || x == "->";
      if (word || !tight) s += ' ';
    }
    s += x;
  }
  return s;
}

// A callee as written, without spaces except between words and after commas: "ns::k<128, true>".
std::string compact_tokens(const std::vector<Tok>& t, size_t b, size_t e) {
  std::string s;
  for (size_t i = b; i < e && i < t.size(); ++i) {
    const std::string& x = t[i].text;
    if (!s.empty() && ((ident_char(s.back()) && ident_char(x.front())) || s.back() == ',')) s += ' ';
    s += x;
  }
  return s;
}

std::string values_text(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + std::to_string(v[i]);
  return s;
}

// ------------------------------------------------------------------------------------------------
// Values: the set of integers an expression can take (a runtime condition between constants gives
// several), or why it is unknown.

constexpr size_t kMaxValues = 16;

struct Val {
  std::vector<int64_t> v;  // sorted, unique; empty: unknown
  std::string why;         // unknown: why; several values: what they depend on
  bool ok() const { return !v.empty(); }
};

Val unknown(std::string why) { return {{}, std::move(why)}; }
Val single(int64_t x) { return {{x}, ""}; }

Val combine(const Val& a, const Val& b, const std::function<std::optional<int64_t>(int64_t, int64_t)>& f,
            const char* what) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  std::set<int64_t> out;
  for (int64_t x : a.v)
    for (int64_t y : b.v) {
      auto r = f(x, y);
      if (!r) return unknown(fmt::format("{} is not defined for these values", what));
      out.insert(*r);
      if (out.size() > kMaxValues) return unknown("too many possible values");
    }
  Val r{{out.begin(), out.end()}, a.why.empty() ? b.why : a.why};
  return r;
}

Val unite(const Val& a, const Val& b, const std::string& why) {
  std::set<int64_t> out(a.v.begin(), a.v.end());
  out.insert(b.v.begin(), b.v.end());
  if (out.size() > kMaxValues) return unknown("too many possible values");
  return {{out.begin(), out.end()}, why};
}

std::optional<int64_t> parse_int_literal(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\''), s.end());
  while (!s.empty() && std::strchr("uUlLzZ", s.back())) s.pop_back();
  if (s.empty()) return std::nullopt;
  int base = 10;
  size_t p = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    p = 2;
  } else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    p = 2;
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    p = 1;
  }
  if (p >= s.size()) return std::nullopt;
  int64_t v = 0;
  for (; p < s.size(); ++p) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[p])));
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
    if (d >= base) return std::nullopt;
    if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) return std::nullopt;
  }
  return v;
}

// ------------------------------------------------------------------------------------------------
// Scopes and declarations.

struct Scope {
  int parent = -1;
  size_t header_begin = 0, header_end = 0;  // tokens before the '{' (function parameters, for-init, ...)
  size_t end = 0;                           // index of the closing '}'
};

struct Decl {
  enum Kind { Const, Mutable, Runtime } kind = Runtime;
  std::string name;
  size_t tok = 0;  // the name token
  int scope = 0;
  bool dim3 = false;
  bool has_init = false;
  std::vector<std::pair<size_t, size_t>> parts;  // initializer token ranges: one scalar, or dim3 components
  std::string why;                               // Runtime: what it is
};

class Scanner {
 public:
  explicit Scanner(std::string_view src) {
    lex(src, 1, toks_, &macros_);
    build();
  }
  std::vector<LaunchSite> launches();

 private:
  std::vector<Tok> toks_;
  std::vector<Macro> macros_;
  std::vector<Scope> scopes_;
  std::vector<int> tok_scope_;  // the (non-transparent) scope of each token
  std::vector<Decl> decls_;
  std::vector<std::string> active_macros_;
  int depth_ = 0;

  const std::string& text(size_t i) const {
    static const std::string empty;
    return i < toks_.size() ? toks_[i].text : empty;
  }
  bool is(size_t i, const char* s) const { return i < toks_.size() && toks_[i].text == s; }
  bool ident(size_t i) const { return i < toks_.size() && toks_[i].kind == Tok::Ident; }

  void build();
  bool brace_is_block(size_t brace, size_t stmt_begin) const;
  void statement(size_t b, size_t e, int scope);
  bool header_declares(int scope, const std::string& name) const;
  std::optional<std::string> modified(const Decl& d) const;
  size_t skip_balanced(size_t i, size_t e) const;

  // Evaluation over token ranges of `toks` (the main stream or a macro body), names looked up as
  // seen from main token `at` in scope `scope`.
  struct Ctx {
    const std::vector<Tok>* t;
    size_t at;
    int scope;
  };
  Val eval_range(const Ctx& c, size_t b, size_t e);
  Val eval_launch_value(const Ctx& c, size_t b, size_t e, bool allow_dim3);
  Val lookup(const Ctx& c, const std::string& name, bool allow_dim3);
  Val decl_value(const Decl& d, bool allow_dim3);
  Val macro_value(const Ctx& c, const Macro& m, bool allow_dim3);
  Val dim3_value(const std::vector<Val>& comps);

  class Parser;
};

size_t Scanner::skip_balanced(size_t i, size_t e) const {
  // toks_[i] is an opener; returns the index after its closer (or e).
  int depth = 0;
  for (; i < e; ++i) {
    const std::string& s = toks_[i].text;
    if (s == "(" || s == "[" || s == "{") ++depth;
    if (s == ")" || s == "]" || s == "}")
      if (--depth == 0) return i + 1;
  }
  return e;
}

bool Scanner::brace_is_block(size_t brace, size_t stmt_begin) const {
  if (brace == 0 || brace <= stmt_begin) return true;
  const Tok& p = toks_[brace - 1];
  if (p.text == ")" || p.text == ";" || p.text == "{" || p.text == "}" || p.text == ":" || p.text == "]")
    return true;
  if (p.kind == Tok::String) return true;  // extern "C" {
  bool type_head = false, arrow = false, closed = false;
  for (size_t i = stmt_begin; i < brace; ++i) {
    const std::string& s = toks_[i].text;
    if (s == "struct" || s == "class" || s == "union" || s == "enum" || s == "namespace") type_head = true;
    if (s == ")") closed = true;
    if (s == "->" && closed) arrow = true;
  }
  if (type_head || arrow) return true;
  if (p.kind == Tok::Ident) {
    static const std::set<std::string> block_after = {"else", "do", "try", "const", "noexcept", "override",
                                                      "final", "mutable"};
    return block_after.count(p.text) > 0;
  }
  return false;
}

void Scanner::build() {
  scopes_.push_back({-1, 0, 0, toks_.size()});
  tok_scope_.assign(toks_.size(), 0);
  struct Frame {
    char open;
    bool block;        // a '{' that opens a scope (or a transparent namespace / extern block)
    bool transparent;
    int scope;         // the scope in force inside
    size_t stmt_begin;
  };
  std::vector<Frame> stack;
  int scope = 0;
  size_t stmt_begin = 0;
  auto at_block_level = [&] { return stack.empty() || stack.back().block; };
  for (size_t i = 0; i < toks_.size(); ++i) {
    tok_scope_[i] = scope;
    const std::string& s = toks_[i].text;
    if (toks_[i].kind != Tok::Punct) continue;
    if (s == ";" && at_block_level()) {
      statement(stmt_begin, i, scope);
      stmt_begin = i + 1;
    } else if (s == "{") {
      if (at_block_level() && brace_is_block(i, stmt_begin)) {
        bool transparent = false;
        size_t h = stmt_begin;
        if (h < i && (is(h, "namespace") || (is(h, "inline") && is(h + 1, "namespace")) ||
                      (is(h, "extern") && h + 2 == i && toks_[h + 1].kind == Tok::String)))
          transparent = true;
        stack.push_back({'{', true, transparent, scope, stmt_begin});
        if (!transparent) {
          scopes_.push_back({scope, stmt_begin, i, toks_.size()});
          scope = static_cast<int>(scopes_.size()) - 1;
        }
        stmt_begin = i + 1;
      } else {
        stack.push_back({'{', false, false, scope, stmt_begin});
      }
    } else if (s == "(" || s == "[") {
      stack.push_back({s[0], false, false, scope, stmt_begin});
    } else if (s == ")" || s == "]" || s == "}") {
      char want = s == ")" ? '(' : s == "]" ? '[' : '{';
      // Tolerate unbalanced input: pop to the matching opener if there is one.
      auto it = std::find_if(stack.rbegin(), stack.rend(), [&](const Frame& f) { return f.open == want; });
      if (it == stack.rend()) continue;
      size_t keep = static_cast<size_t>(stack.rend() - it) - 1;
      while (stack.size() > keep + 1) stack.pop_back();
      Frame f = stack.back();
      stack.pop_back();
      if (f.block) {
        statement(stmt_begin, i, scope);  // a last statement without ';'
        if (!f.transparent) scopes_[scope].end = i;
        scope = f.scope;
        stmt_begin = i + 1;
      }
    }
  }
  if (stmt_begin < toks_.size()) statement(stmt_begin, toks_.size(), scope);
}

// Recognises a declaration of integers or dim3s in tokens [b, e) of `scope`.
void Scanner::statement(size_t b, size_t e, int scope) {
  // Labels and access specifiers.
  while (b + 1 < e && ident(b) && is(b + 1, ":") && !is(b + 2, ":")) b += 2;
  if (b >= e || !ident(b) || is_keyword(text(b))) return;
  std::vector<std::string> spec;
  bool pointer = false;
  size_t i = b;
  size_t name = e;
  while (i < e) {
    const Tok& t = toks_[i];
    if (t.kind == Tok::Ident) {
      bool stop = i + 1 >= e || is(i + 1, "=") || is(i + 1, "(") || is(i + 1, "{") || is(i + 1, "[") ||
                  is(i + 1, ",") || is(i + 1, ";") || (is(i + 1, ":") && !is(i + 2, ":"));
      if (stop && !spec.empty() && !qualifier_words().count(t.text) && !is_keyword(t.text)) {
        name = i;
        break;
      }
      if (is_keyword(t.text)) return;
      spec.push_back(t.text);
      ++i;
    } else if (t.text == "::") {
      spec.push_back("::");
      ++i;
    } else if (t.text == "*" || t.text == "&" || t.text == "&&") {
      if (spec.empty()) return;
      pointer = true;
      ++i;
    } else if (t.text == "<" && !spec.empty()) {  // template arguments of the type
      int depth = 0;
      for (; i < e; ++i) {
        if (is(i, "<")) ++depth;
        if (is(i, ">")) --depth;
        if (is(i, ">>")) depth -= 2;
        if (depth <= 0) break;
      }
      ++i;
      spec.push_back("<>");
    } else if (t.text == "[" && is(i + 1, "[")) {  // [[attributes]]
      i = skip_balanced(i, e);
    } else {
      return;
    }
  }
  if (name >= e) return;
  bool is_const = false, is_dim3 = false, integral = true, any_type = false;
  for (const auto& w : spec) {
    if (w == "const" || w == "constexpr") is_const = true;
    if (w == "dim3") {
      is_dim3 = true;
      any_type = true;
    } else if (integer_words().count(w) && w != "std") {
      any_type = true;
    } else if (!qualifier_words().count(w) && w != "std" && w != "::") {
      integral = false;
    }
  }
  if (!any_type) integral = false;
  const bool file_scope = scope == 0;
  // Declarators: NAME [= init | (init) | {init}] [, NAME ...]
  bool first = true;
  while (name < e) {
    bool ptr = pointer && first;
    first = false;
    Decl d;
    d.name = text(name);
    d.tok = name;
    d.scope = scope;
    size_t j = name + 1;
    if (is(j, "[")) {  // an array: not a launch value
      ptr = true;
      while (is(j, "[")) j = skip_balanced(j, e);
    }
    size_t init_b = j, init_e = j;
    bool paren_init = false, brace_init = false;
    if (is(j, "=")) {
      init_b = j + 1;
      init_e = init_b;
      while (init_e < e && !is(init_e, ",")) {
        if (is(init_e, "(") || is(init_e, "[") || is(init_e, "{"))
          init_e = skip_balanced(init_e, e);
        else
          ++init_e;
      }
    } else if (is(j, "(") || is(j, "{")) {
      paren_init = is(j, "(");
      brace_init = !paren_init;
      init_e = skip_balanced(j, e);
      init_b = j + 1;
      init_e = init_e > init_b ? init_e - 1 : init_b;  // inside the brackets
    }
    d.has_init = init_e > init_b;
    // dim3 through auto: `auto b = dim3(16, 16)`.
    bool dim3 = is_dim3 && !ptr;
    size_t ib = init_b, ie = init_e;
    if (!paren_init && !brace_init && d.has_init && is(ib, "dim3") && (is(ib + 1, "(") || is(ib + 1, "{")) &&
        skip_balanced(ib + 1, e) == ie) {
      dim3 = integral || is_dim3;
      ib += 2;
      ie -= 1;
      brace_init = true;
    } else if (dim3 && !paren_init && !brace_init && d.has_init && is(ib, "{") && skip_balanced(ib, e) == ie) {
      ib += 1;
      ie -= 1;
      brace_init = true;
    }
    d.dim3 = dim3;
    if (d.has_init) {
      if (dim3 && (paren_init || brace_init)) {
        size_t p = ib;
        for (size_t k = ib; k <= ie; ++k) {
          if (k == ie || is(k, ",")) {
            d.parts.push_back({p, k});
            p = k + 1;
          } else if (is(k, "(") || is(k, "[") || is(k, "{")) {
            k = skip_balanced(k, ie) - 1;
          }
        }
      } else {
        d.parts.push_back({ib, ie});
      }
    }
    if (ptr) {
      d.kind = Decl::Runtime;
      d.why = "a pointer, reference or array";
    } else if (!(integral || dim3)) {
      d.kind = Decl::Runtime;
      d.why = fmt::format("a variable of type '{}'", join_tokens(toks_, b, name));
    } else if (!d.has_init) {
      d.kind = Decl::Runtime;
      d.why = "declared without an initializer";
    } else if (is_const) {
      d.kind = Decl::Const;
    } else if (file_scope) {
      d.kind = Decl::Runtime;
      d.why = "a non-const variable at namespace scope";
    } else {
      d.kind = Decl::Mutable;
    }
    decls_.push_back(std::move(d));
    // The next declarator.
    size_t k = std::max(init_e, j);
    if (paren_init || (brace_init && !is(j, "="))) ++k;  // past ')' or '}'
    while (k < e && !is(k, ",")) {
      if (is(k, "(") || is(k, "[") || is(k, "{"))
        k = skip_balanced(k, e);
      else
        ++k;
    }
    if (k >= e) break;
    ++k;
    pointer = false;
    while (k < e && (is(k, "*") || is(k, "&") || is(k, "&&"))) {
      pointer = true;
      ++k;
    }
    first = true;
    name = ident(k) ? k : e;
  }
}

// Whether the tokens before scope `s`'s '{' declare `name` (a parameter, template parameter or
// for-init variable): NAME preceded by a type-like token and followed by , ) = > ; [ or :.
bool Scanner::header_declares(int s, const std::string& name) const {
  const Scope& sc = scopes_[s];
  for (size_t i = sc.header_begin; i < sc.header_end; ++i) {
    if (toks_[i].text != name || toks_[i].kind != Tok::Ident || i == sc.header_begin) continue;
    const Tok& p = toks_[i - 1];
    bool after_type = (p.kind == Tok::Ident && !is_keyword(p.text)) ||
                      ((p.text == "*" || p.text == "&" || p.text == "&&") && i >= 2 &&
                       toks_[i - 2].kind == Tok::Ident) ||
                      (p.text == ">" && i >= 2 && toks_[i - 2].kind == Tok::Ident && integer_words().count(toks_[i - 2].text));
    static const std::set<std::string> after = {",", ")", "=", ">", ";", "[", ":"};
    if (after_type && i + 1 < sc.header_end && after.count(toks_[i + 1].text)) return true;
  }
  return false;
}

// For a non-const local: where the scope modifies it (assignment, ++/--, address taken, passed
// whole to a function that might take a reference), if anywhere.
std::optional<std::string> Scanner::modified(const Decl& d) const {
  size_t end = scopes_[d.scope].end;
  static const std::set<std::string> assign = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "|=", "^=",
                                               "++", "--"};
  for (size_t i = d.tok + 1; i < end && i < toks_.size(); ++i) {
    if (toks_[i].kind != Tok::Ident || toks_[i].text != d.name) continue;
    const std::string& prev = text(i - 1);
    if (prev == "." || prev == "->" || prev == "::") continue;
    const std::string& next = text(i + 1);
    int line = toks_[i].line;
    if (assign.count(next)) return fmt::format("assigned at line {}", line);
    if (next == "." && assign.count(text(i + 3))) return fmt::format("assigned at line {}", line);
    if (prev == "++" || prev == "--") return fmt::format("modified at line {}", line);
    if (prev == "&" && i >= 2) {
      const Tok& pp = toks_[i - 2];
      bool binary = pp.kind == Tok::Ident || pp.kind == Tok::Number || pp.text == ")" || pp.text == "]";
      if (!binary || pp.text == "return") return fmt::format("its address is taken at line {}", line);
    }
    if ((prev == "(" || prev == ",") && (next == ")" || next == ",")) {
      // The enclosing '(' (or '<<<', a launch configuration).
      int depth = 0;
      size_t k = i;
      bool call = false;
      while (k-- > 0) {
        const std::string& s = toks_[k].text;
        if (s == ")" || s == "]" || s == "}") ++depth;
        if (s == "<<<" || s == ";" || s == "{") break;
        if (s == "(" || s == "[") {
          if (depth-- == 0) {
            call = s == "(" && k > 0 && toks_[k - 1].kind == Tok::Ident && !is_keyword(toks_[k - 1].text);
            break;
          }
        }
      }
      if (call) return fmt::format("passed to {}() at line {}, which may take it by reference", text(k - 1), line);
    }
  }
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------------
// Evaluation.

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

Val Scanner::macro_value(const Ctx& c, const Macro& m, bool allow_dim3) {
  if (m.function_like) return unknown(fmt::format("'{}' is a function-like macro", m.name));
  if (std::find(active_macros_.begin(), active_macros_.end(), m.name) != active_macros_.end())
    return unknown(fmt::format("macro '{}' refers to itself", m.name));
  active_macros_.push_back(m.name);
  Ctx mc{&m.body, c.at, c.scope};
  Val v = m.body.empty() ? unknown(fmt::format("macro '{}' is empty", m.name))
                         : eval_launch_value(mc, 0, m.body.size(), allow_dim3);
  active_macros_.pop_back();
  return v;
}

Val Scanner::decl_value(const Decl& d, bool allow_dim3) {
  const std::string where = fmt::format("'{}' (line {})", d.name, toks_[d.tok].line);
  if (d.kind == Decl::Runtime) return unknown(fmt::format("{} is {}", where, d.why));
  if (d.kind == Decl::Mutable)
    if (auto m = modified(d)) return unknown(fmt::format("{} is not const and is {}", where, *m));
  if (d.dim3 && !allow_dim3) return unknown(fmt::format("{} is a dim3 used in arithmetic", where));
  Ctx c{&toks_, d.tok, d.scope};
  Val v;
  if (d.dim3) {
    std::vector<Val> comps;
    for (const auto& [b, e] : d.parts) {
      comps.push_back(eval_range(c, b, e));
      if (!comps.back().ok()) {
        v = comps.back();
        break;
      }
    }
    if (comps.size() == d.parts.size() && comps.back().ok()) v = dim3_value(comps);
  } else if (d.parts.size() != 1) {
    return unknown(fmt::format("{} has no single initializer", where));
  } else {
    v = eval_launch_value(c, d.parts[0].first, d.parts[0].second, allow_dim3);
  }
  if (!v.ok()) {  // name the variable, then the root cause
    const std::string sep = " because ";
    size_t p = v.why.rfind(sep);
    std::string root = p == std::string::npos ? v.why : v.why.substr(p + sep.size());
    v.why = fmt::format("{} is not a compile-time constant{}{}", where, sep, root);
  }
  return v;
}

Val Scanner::lookup(const Ctx& c, const std::string& name, bool allow_dim3) {
  if (++depth_ > 64) {
    --depth_;
    return unknown("definitions nested too deeply");
  }
  struct Guard {
    int& d;
    ~Guard() { --d; }
  } guard{depth_};
  // The preprocessor first: the object-like macros in force at `at` (several only under #if
  // branches; they are all possible).
  std::vector<const Macro*> defs;
  for (const auto& m : macros_) {
    if (m.name != name || m.pos > c.at) continue;
    if (m.undef)
      defs.clear();
    else
      defs.push_back(&m);
  }
  if (!defs.empty()) {
    Val v = macro_value(c, *defs.front(), allow_dim3);
    for (size_t k = 1; k < defs.size() && v.ok(); ++k) {
      Val w = macro_value(c, *defs[k], allow_dim3);
      if (!w.ok()) return w;
      v = unite(v, w, fmt::format("'{}' is defined differently in #if branches", name));
    }
    return v;
  }
  // Variables, innermost scope first.
  for (int s = c.scope; s >= 0; s = scopes_[s].parent) {
    std::vector<const Decl*> here;
    for (const auto& d : decls_)
      if (d.scope == s && d.name == name && d.tok < c.at) here.push_back(&d);
    if (!here.empty()) {
      Val v = decl_value(*here.front(), allow_dim3);
      for (size_t k = 1; k < here.size() && v.ok(); ++k) {
        Val w = decl_value(*here[k], allow_dim3);
        if (!w.ok()) return w;
        v = unite(v, w, fmt::format("'{}' is declared more than once (#if branches?)", name));
      }
      return v;
    }
    if (s > 0 && header_declares(s, name))
      return unknown(fmt::format("'{}' is a parameter (line {})", name, toks_[scopes_[s].header_end].line));
  }
  return unknown(fmt::format("'{}' has no definition in this file", name));
}

std::vector<LaunchSite> Scanner::launches() {
  std::vector<LaunchSite> out;
  for (size_t i = 0; i < toks_.size(); ++i) {
    if (toks_[i].text != "<<<" || toks_[i].kind != Tok::Punct) continue;
    LaunchSite site;
    site.line = toks_[i].line;
    // The callee: NAME, ns::NAME, NAME<args>.
    size_t k = i;
    size_t targs_b = 0, targs_e = 0;
    if (k > 0 && (is(k - 1, ">") || is(k - 1, ">>"))) {
      int depth = 0;
      size_t j = k;
      targs_e = k - 1;
      while (j-- > 0) {
        const std::string& s = toks_[j].text;
        if (s == ">") ++depth;
        if (s == ">>") depth += 2;
        if (s == "<") --depth;
        if (s == ";" || s == "{" || s == "}") break;
        if (depth == 0) break;
      }
      if (depth != 0 || j == 0) continue;
      targs_b = j + 1;
      k = j;
      site.templated = true;
    }
    if (k == 0 || !ident(k - 1)) continue;
    size_t nb = k - 1;
    while (nb >= 2 && is(nb - 1, "::") && ident(nb - 2)) nb -= 2;
    site.base = text(k - 1);
    site.kernel = compact_tokens(toks_, nb, site.templated ? targs_e + 1 : k);
    Ctx c{&toks_, i, tok_scope_[i]};
    if (site.templated) {
      size_t p = targs_b;
      int depth = 0;
      for (size_t j = targs_b; j <= targs_e; ++j) {
        const std::string& s = j < targs_e ? toks_[j].text : std::string(",");
        if (depth == 0 && s == ",") {
          TemplateArg a;
          std::string ty = join_tokens(toks_, p, j);
          if (!canonical_type(ty).empty()) {
            a.kind = TemplateArg::Type;
            a.text = canonical_type(ty);
          } else {
            Val v = eval_range(c, p, j);
            if (v.v.size() == 1) {
              a.kind = TemplateArg::Number;
              a.number = v.v[0];
            }
          }
          a.text = a.kind == TemplateArg::Type ? a.text : ty;
          site.template_args.push_back(a);
          p = j + 1;
          continue;
        }
        if (s == "(" || s == "<" || s == "[") ++depth;
        if (s == ")" || s == ">" || s == "]") --depth;
      }
    }
    // The configuration: args up to the matching '>>>'.
    std::vector<std::pair<size_t, size_t>> args;
    size_t p = i + 1, j = i + 1;
    int depth = 0;
    for (; j < toks_.size(); ++j) {
      const std::string& s = toks_[j].text;
      if (depth == 0 && (s == ">>>" || s == ",")) {
        args.push_back({p, j});
        p = j + 1;
        if (s == ">>>") break;
        continue;
      }
      if (s == "(" || s == "[" || s == "{") ++depth;
      if (s == ")" || s == "]" || s == "}") --depth;
      if (s == ";" || depth < 0) break;
    }
    if (j >= toks_.size() || toks_[j].text != ">>>") continue;  // not a launch after all
    if (args.size() < 2) {
      site.block.why = "the launch has fewer than two configuration arguments";
    } else {
      site.block.expr = join_tokens(toks_, args[1].first, args[1].second);
      Val v = eval_launch_value(c, args[1].first, args[1].second, true);
      site.block.values = v.v;
      site.block.why = v.why;
    }
    if (args.size() < 3) {
      site.dynamic_smem.expr = "";
      site.dynamic_smem.values = {0};
    } else {
      site.dynamic_smem.expr = join_tokens(toks_, args[2].first, args[2].second);
      Val v = eval_launch_value(c, args[2].first, args[2].second, false);
      site.dynamic_smem.values = v.v;
      site.dynamic_smem.why = v.why;
    }
    for (LaunchValue* lv : {&site.block, &site.dynamic_smem}) {
      if (lv->values.size() > 1)
        lv->why = fmt::format("one of {}{}", values_text(lv->values), lv->why.empty() ? "" : ": " + lv->why);
      else if (lv->values.size() == 1)
        lv->why.clear();
    }
    out.push_back(std::move(site));
  }
  return out;
}

// ------------------------------------------------------------------------------------------------
// Matching a kernel's demangled name.

struct KernelName {
  std::string base;
  bool templated = false;
  std::vector<TemplateArg> args;
};

KernelName parse_demangled(std::string_view n) {
  std::string s(n);
  if (s.rfind("void ", 0) == 0) s = s.substr(5);
  // Cut at the first '(' outside template brackets, except "(anonymous namespace)".
  std::string name;
  int depth = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '(' && s.compare(i, 21, "(anonymous namespace)") == 0) {
      name += "(anonymous namespace)";
      i += 20;
      continue;
    }
    if (c == '<') ++depth;
    if (c == '>') --depth;
    if (c == '(' && depth == 0) break;
    name += c;
  }
  KernelName k;
  size_t lt = std::string::npos;
  depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {  // the first '<' at depth 0 after the last '::'
    if (name[i] == '<' && depth++ == 0 && lt == std::string::npos) lt = i;
    if (name[i] == '>') --depth;
    if (depth == 0 && name.compare(i, 2, "::") == 0) lt = std::string::npos;
  }
  std::string head = lt == std::string::npos ? name : name.substr(0, lt);
  size_t colons = head.rfind("::");
  k.base = colons == std::string::npos ? head : head.substr(colons + 2);
  while (!k.base.empty() && k.base.back() == ' ') k.base.pop_back();
  if (lt != std::string::npos) {
    k.templated = true;
    size_t close = name.rfind('>');
    std::string inner = close > lt ? name.substr(lt + 1, close - lt - 1) : "";
    std::vector<std::string> parts;
    std::string cur;
    depth = 0;
    for (char c : inner) {
      if (c == '<' || c == '(') ++depth;
      if (c == '>' || c == ')') --depth;
      if (c == ',' && depth == 0) {
        parts.push_back(cur);
        cur.clear();
      } else {
        cur += c;
      }
    }
    parts.push_back(cur);
    for (std::string p : parts) {
      while (!p.empty() && p.front() == ' ') p.erase(p.begin());
      while (!p.empty() && p.back() == ' ') p.pop_back();
      TemplateArg a;
      a.text = p;
      std::string num = p;
      if (!num.empty() && num.front() == '(') {  // (char)65
        size_t e = num.find(')');
        num = e == std::string::npos ? "" : num.substr(e + 1);
      }
      bool neg = !num.empty() && num.front() == '-';
      if (neg) num = num.substr(1);
      if (p == "true" || p == "false") {
        a.kind = TemplateArg::Number;
        a.number = p == "true";
      } else if (auto v = parse_int_literal(num); v && !num.empty() && std::isdigit(static_cast<unsigned char>(num[0]))) {
        a.kind = TemplateArg::Number;
        a.number = neg ? -*v : *v;
      } else if (!canonical_type(p).empty()) {
        a.kind = TemplateArg::Type;
        a.text = canonical_type(p);
      }
      k.args.push_back(a);
    }
  }
  return k;
}

bool may_launch(const LaunchSite& s, const KernelName& k) {
  if (s.base != k.base) return false;
  if (!s.templated) return true;  // arguments deduced or defaulted
  if (!k.templated) return false;
  for (size_t i = 0; i < s.template_args.size() && i < k.args.size(); ++i) {
    const auto& a = s.template_args[i];
    const auto& b = k.args[i];
    if (a.kind == TemplateArg::Unknown || b.kind == TemplateArg::Unknown) continue;
    if (a.kind != b.kind) return false;
    if (a.kind == TemplateArg::Number && a.number != b.number) return false;
    if (a.kind == TemplateArg::Type && a.text != b.text) return false;
  }
  return true;
}

// One value for the kernel from its sites, or why not.
std::optional<int64_t> resolve(const std::vector<const LaunchSite*>& sites, LaunchValue LaunchSite::*field,
                               const char* what, const char* plural, std::string& note) {
  if (sites.empty()) {
    note = "no launch of this kernel in the file";
    return std::nullopt;
  }
  std::vector<const LaunchSite*> unknown_sites;
  std::set<int64_t> values;
  for (const auto* s : sites) {
    const LaunchValue& v = s->*field;
    if (!v.known())
      unknown_sites.push_back(s);
    else
      values.insert(v.values[0]);
  }
  if (!unknown_sites.empty()) {
    const LaunchSite* s = unknown_sites.front();
    const LaunchValue& v = s->*field;
    note = fmt::format("{} '{}' at line {}: {}", what, v.expr, s->line, v.why);
    if (unknown_sites.size() > 1) note += fmt::format(" (and {} more launch(es) not resolved)", unknown_sites.size() - 1);
    return std::nullopt;
  }
  if (values.size() > 1) {
    std::string list;
    for (const auto* s : sites)
      list += fmt::format("{}{} (line {})", list.empty() ? "" : ", ", (s->*field).values[0], s->line);
    note = fmt::format("launched with different {}: {}", plural, list);
    return std::nullopt;
  }
  note.clear();
  return *values.begin();
}

}  // namespace

std::vector<LaunchSite> scan_launches(std::string_view source) {
  Scanner s(source);
  return s.launches();
}

KernelLaunchShape launch_shape_for(const std::vector<LaunchSite>& sites, std::string_view demangled_name) {
  KernelLaunchShape k;
  KernelName name = parse_demangled(demangled_name);
  for (const auto& s : sites)
    if (may_launch(s, name)) k.sites.push_back(&s);
  k.block_size = resolve(k.sites, &LaunchSite::block, "block size", "block sizes", k.block_note);
  k.dynamic_smem = resolve(k.sites, &LaunchSite::dynamic_smem, "dynamic shared memory", "dynamic shared memory sizes",
                           k.smem_note);
  return k;
}

}  // namespace cudaperf::analysis
