// What a name means at a point of the file: a macro, a declaration in an enclosing scope, a
// parameter, or nothing; and whether a non-const local is modified.
#include <algorithm>
#include <fmt/format.h>
#include <set>

#include "scanner.hpp"
#include "vocabulary.hpp"

namespace cudaperf::analysis::launch {

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

}  // namespace cudaperf::analysis::launch
