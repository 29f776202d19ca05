// The launch scanner over one source file: tokens, brace scopes, the declarations it recognises,
// and the evaluation of launch arguments. Its parts: declarations.cpp (scopes and declarations),
// lookup.cpp (what a name means at a point), evaluator.cpp (constant expressions), launches.cpp
// (the <<<...>>> sites).
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "cudaperf/analysis/launch_scan.hpp"
#include "tokens.hpp"
#include "values.hpp"

namespace cudaperf::analysis::launch {

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

}  // namespace cudaperf::analysis::launch
