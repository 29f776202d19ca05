// Brace scopes and the declarations the launch scan recognises.
#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "scanner.hpp"
#include "vocabulary.hpp"

namespace cudaperf::analysis::launch {

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

}  // namespace cudaperf::analysis::launch
