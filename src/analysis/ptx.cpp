// A hand-written reader for nvcc -ptx output.
//
// Two passes: a lexer turns the text into statements (instruction or directive text ending at ';',
// labels, scope braces, and the newline-terminated directives .version/.target/.address_size/.loc/
// .file), then a parser builds the module: functions with their instructions, blocks and CFG.
#include "cudaperf/analysis/ptx.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

namespace cudaperf::analysis {
namespace {

constexpr size_t kMaxErrors = 20;

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.' || c == '%';
}

std::string trim(const std::string& s) {
  size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b])) != 0) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1])) != 0) --e;
  return s.substr(b, e - b);
}

bool starts_with(const std::string& s, const std::string& p) { return s.compare(0, p.size(), p) == 0; }

// Splits on whitespace and commas (commas dropped), keeping quoted strings and bracketed groups whole.
std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  bool in_str = false;
  for (char c : s) {
    if (in_str) {
      cur += c;
      if (c == '"') in_str = false;
      continue;
    }
    if (c == '"') { in_str = true; cur += c; continue; }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
    if (depth == 0 && (std::isspace(static_cast<unsigned char>(c)) != 0 || c == ',')) {
      if (!cur.empty()) out.push_back(cur);
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Parses a non-negative decimal integer; nullopt unless the whole string is digits (and fits).
std::optional<long long> to_int(const std::string& s) {
  if (s.empty() || s.size() > 17) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// ---------------------------------------------------------------------------------------------
// Lexer

struct Stmt {
  enum Kind { Text, Label, Open, Close } kind = Text;
  std::string text;     // statement text without the ';' (Text), label name (Label)
  int line = 0;         // line of its first character
  bool semicolon = false;  // Text ended with ';'
};

class Lexer {
 public:
  Lexer(const std::string& src, std::vector<Diagnostic>& errs, const std::string& file)
      : s_(src), errs_(errs), file_(file) {}

  std::vector<Stmt> run() {
    while (i_ < s_.size() && errs_.size() < kMaxErrors) step();
    if (inner_depth_ > 0) error(cur_line_, "unbalanced '{' in an operand: end of input before its '}'");
    else if (!trim(cur_).empty()) error(cur_line_, "unterminated statement at end of input (missing ';'): '" +
                                                     shorten(trim(cur_)) + "'");
    return std::move(out_);
  }

 private:
  static std::string shorten(const std::string& t) { return t.size() > 60 ? t.substr(0, 57) + "..." : t; }

  void error(int line, const std::string& msg) {
    if (errs_.size() < kMaxErrors) errs_.push_back(Diagnostic{file_, line, 0, msg});
  }

  void append(char c) {
    if (trim(cur_).empty() && std::isspace(static_cast<unsigned char>(c)) == 0) {
      cur_.clear();
      cur_line_ = line_;
    }
    cur_ += c;
  }

  void emit_text(bool semicolon) {
    std::string t = trim(cur_);
    cur_.clear();
    if (t.empty()) return;
    out_.push_back(Stmt{Stmt::Text, t, cur_line_, semicolon});
  }

  // Directives that end at the end of their line rather than at ';'.
  bool line_directive() const {
    std::string t = trim(cur_);
    for (const char* d : {".version", ".target", ".address_size", ".loc", ".file"}) {
      std::string ds = d;
      if (starts_with(t, ds) && (t.size() == ds.size() || std::isspace(static_cast<unsigned char>(t[ds.size()])) != 0))
        return true;
    }
    return false;
  }

  bool is_function_header(const std::string& t) const {
    for (const auto& w : words(t))
      if (w == ".entry" || w == ".func") return true;
    return false;
  }

  void skip_comment_or_string_aware_block() {
    // Skips a .section { ... } body (balanced braces), keeping line numbers right.
    int depth = 1;
    int start = line_;
    while (i_ < s_.size() && depth > 0) {
      char c = s_[i_];
      if (c == '\n') ++line_;
      if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
        while (i_ < s_.size() && s_[i_] != '\n') ++i_;
        continue;
      }
      if (c == '{') ++depth;
      if (c == '}') --depth;
      ++i_;
    }
    if (depth > 0) error(start, "unterminated .section block (missing '}')");
  }

  void step() {
    char c = s_[i_];
    if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '/') {
      while (i_ < s_.size() && s_[i_] != '\n') ++i_;
      return;
    }
    if (c == '/' && i_ + 1 < s_.size() && s_[i_ + 1] == '*') {
      int start = line_;
      size_t end = s_.find("*/", i_ + 2);
      if (end == std::string::npos) {
        error(start, "unterminated /* comment");
        i_ = s_.size();
        return;
      }
      for (size_t k = i_; k < end; ++k)
        if (s_[k] == '\n') ++line_;
      i_ = end + 2;
      append(' ');
      return;
    }
    if (c == '"') {
      int start = line_;
      size_t k = i_ + 1;
      while (k < s_.size() && s_[k] != '"' && s_[k] != '\n') ++k;
      if (k >= s_.size() || s_[k] != '"') {
        error(start, "unterminated string literal");
        i_ = k;
        return;
      }
      for (size_t j = i_; j <= k; ++j) append(s_[j]);
      i_ = k + 1;
      return;
    }
    ++i_;
    if (c == '\n') {
      if (inner_depth_ == 0 && line_directive()) emit_text(false);
      else append(' ');
      ++line_;
      return;
    }
    if (c == '\r' || c == '\t') { append(' '); return; }
    if (c == '\0') { error(line_, "NUL byte in the PTX text"); return; }
    if (inner_depth_ > 0) {
      if (c == ';') {
        error(cur_line_, "unbalanced '{' in an operand (';' before its '}')");
        inner_depth_ = 0;
        emit_text(true);
        return;
      }
      if (c == '{') ++inner_depth_;
      if (c == '}') --inner_depth_;
      append(c);
      return;
    }
    switch (c) {
      case ';':
        emit_text(true);
        return;
      case '{': {
        std::string t = trim(cur_);
        if (t.empty()) {
          out_.push_back(Stmt{Stmt::Open, "", line_, false});
        } else if (starts_with(t, ".section")) {
          cur_.clear();
          skip_comment_or_string_aware_block();
        } else if (is_function_header(t)) {
          emit_text(false);
          out_.push_back(Stmt{Stmt::Open, "", line_, false});
        } else {
          inner_depth_ = 1;  // a vector operand or an initializer: part of the statement
          append(c);
        }
        return;
      }
      case '}': {
        if (!trim(cur_).empty()) {
          error(cur_line_, "missing ';' before '}': '" + shorten(trim(cur_)) + "'");
          emit_text(false);
        }
        out_.push_back(Stmt{Stmt::Close, "", line_, false});
        return;
      }
      case ':': {
        std::string t = trim(cur_);
        bool next_colon = i_ < s_.size() && s_[i_] == ':';
        bool ident = !t.empty() && t[0] != '.' && t[0] != '%' && t.back() != ':';
        for (char ch : t) ident = ident && is_ident_char(ch) && ch != '%';
        if (ident && !next_colon) {
          out_.push_back(Stmt{Stmt::Label, t, cur_line_, false});
          cur_.clear();
          return;
        }
        append(c);
        return;
      }
      default:
        append(c);
    }
  }

  const std::string& s_;
  std::vector<Diagnostic>& errs_;
  const std::string& file_;
  size_t i_ = 0;
  int line_ = 1;
  std::string cur_;
  int cur_line_ = 1;
  int inner_depth_ = 0;
  std::vector<Stmt> out_;
};

// ---------------------------------------------------------------------------------------------
// Parser

const std::set<std::string> kStateSpaces = {".shared", ".global", ".const", ".local"};

// Splits operands at top-level commas (brackets, braces and parentheses nest).
std::vector<std::string> split_operands(const std::string& s, bool& ok) {
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  ok = true;
  for (char c : s) {
    if (c == '[' || c == '{' || c == '(') ++depth;
    if (c == ']' || c == '}' || c == ')') {
      if (--depth < 0) ok = false;
    }
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
      continue;
    }
    cur += c;
  }
  if (depth != 0) ok = false;
  std::string last = trim(cur);
  if (!last.empty() || !out.empty()) out.push_back(last);
  for (auto& o : out) {
    if (o.empty()) ok = false;
    // a statement split over lines: runs of whitespace inside an operand become one space
    std::string n;
    for (char c : o) {
      bool sp = std::isspace(static_cast<unsigned char>(c)) != 0;
      if (sp && !n.empty() && n.back() == ' ') continue;
      n += sp ? ' ' : c;
    }
    o = n;
  }
  return out;
}

class Parser {
 public:
  Parser(std::vector<Stmt> st, std::vector<Diagnostic>& errs, const std::string& file)
      : st_(std::move(st)), errs_(errs), file_(file) {}

  PtxModule run() {
    while (k_ < st_.size() && errs_.size() < kMaxErrors) module_stmt();
    return std::move(m_);
  }

 private:
  void error(int line, const std::string& msg) {
    if (errs_.size() < kMaxErrors) errs_.push_back(Diagnostic{file_, line, 0, msg});
  }

  static std::string shorten(const std::string& t) { return t.size() > 60 ? t.substr(0, 57) + "..." : t; }

  std::optional<PtxVariable> variable(const std::string& text, int line) {
    auto w = words(text);
    PtxVariable v;
    v.ptx_line = line;
    size_t i = 0;
    for (; i < w.size(); ++i) {
      const std::string& t = w[i];
      if (kStateSpaces.count(t) != 0) v.space = t;
      else if (t == ".extern") v.is_extern = true;
      else if (t == ".align" && i + 1 < w.size()) v.align = static_cast<int>(to_int(w[++i]).value_or(0));
      else if (t == ".visible" || t == ".weak" || t == ".common" || t == ".ptr" || t == ".v2" || t == ".v4" ||
               t == ".v8" || starts_with(t, ".attribute"))
        continue;
      else if (!t.empty() && t[0] == '.') v.type = t;
      else break;
    }
    if (v.space.empty() || i >= w.size()) return std::nullopt;
    std::string decl = w[i];
    size_t eq = decl.find('=');
    if (eq != std::string::npos) decl = decl.substr(0, eq);
    size_t br = decl.find('[');
    v.name = trim(decl.substr(0, br));
    long long elem = declared_type_bytes(v.type);
    long long count = 1;
    bool unsized = false;
    while (br != std::string::npos) {
      size_t close = decl.find(']', br);
      if (close == std::string::npos) break;
      std::string n = trim(decl.substr(br + 1, close - br - 1));
      if (n.empty()) unsized = true;
      else count *= to_int(n).value_or(0);
      br = decl.find('[', close);
    }
    v.bytes = unsized ? 0 : elem * count;
    return v;
  }

  static long long declared_type_bytes(const std::string& t) {  // ".f32" -> 4
    if (t.size() < 3) return 0;
    std::string n;
    for (char c : t)
      if (c >= '0' && c <= '9') n += c;
    if (t == ".pred") return 1;
    auto bits = to_int(n).value_or(0);
    return bits / 8;
  }

  void module_stmt() {
    const Stmt& s = st_[k_];
    switch (s.kind) {
      case Stmt::Close:
        error(s.line, "unbalanced '}' outside any function");
        ++k_;
        return;
      case Stmt::Label:
        error(s.line, "label '" + s.text + "' outside any function");
        ++k_;
        return;
      case Stmt::Open:
        error(s.line, "'{' outside any function");
        skip_scope();
        return;
      case Stmt::Text:
        break;
    }
    auto w = words(s.text);
    if (w.empty()) {
      error(s.line, "unexpected '" + shorten(s.text) + "' outside any function");
      ++k_;
      return;
    }
    bool header = false;
    for (const auto& x : w) header = header || x == ".entry" || x == ".func";
    if (header) {
      if (s.semicolon) { ++k_; return; }  // a prototype: .extern .func f(...);
      function();
      return;
    }
    ++k_;
    const std::string& d = w[0];
    if (d == ".version") {
      if (w.size() < 2) error(s.line, ".version without a number");
      else m_.version = w[1];
    } else if (d == ".target") {
      if (w.size() < 2) error(s.line, ".target without an architecture");
      else m_.target = w[1];
    } else if (d == ".address_size") {
      if (w.size() >= 2) m_.address_size = static_cast<int>(to_int(w[1]).value_or(0));
    } else if (d == ".file") {
      if (w.size() < 3 || !to_int(w[1])) {
        error(s.line, "malformed .file directive: '" + shorten(s.text) + "'");
      } else {
        std::string p = w[2];
        if (p.size() >= 2 && p.front() == '"' && p.back() == '"') p = p.substr(1, p.size() - 2);
        m_.files[static_cast<int>(*to_int(w[1]))] = p;
      }
    } else if (d[0] == '.') {
      for (const auto& x : w)
        if (kStateSpaces.count(x) != 0) {
          if (auto v = variable(s.text, s.line)) m_.globals.push_back(*v);
          break;
        }
      // other module-level directives (.extern, .pragma, .alias, ...) are accepted and ignored
    } else {
      error(s.line, "unexpected '" + shorten(s.text) + "' outside any function");
    }
  }

  // Skips an Open ... matching Close.
  void skip_scope() {
    int depth = 0;
    int start = st_[k_].line;
    for (; k_ < st_.size(); ++k_) {
      if (st_[k_].kind == Stmt::Open) ++depth;
      if (st_[k_].kind == Stmt::Close && --depth == 0) { ++k_; return; }
    }
    error(start, "'{' without a matching '}'");
  }

  void parse_header(const Stmt& s, PtxKernel& f) {
    const std::string& t = s.text;
    f.ptx_line = s.line;
    auto w = words(t);
    size_t i = 0;
    while (i < w.size() && w[i] != ".entry" && w[i] != ".func") ++i;
    f.is_entry = i < w.size() && w[i] == ".entry";
    ++i;
    if (!f.is_entry && i < w.size() && w[i][0] == '(') ++i;  // return value parameters
    if (i >= w.size()) { error(s.line, "function header without a name"); return; }
    std::string nm = w[i];
    std::string params;
    size_t paren = nm.find('(');
    if (paren != std::string::npos) {  // "name(params)" written without a space
      params = nm.substr(paren);
      nm = nm.substr(0, paren);
    } else if (i + 1 < w.size() && w[i + 1][0] == '(') {
      params = w[++i];
    }
    f.name = nm;
    if (nm.empty() || !(std::isalpha(static_cast<unsigned char>(nm[0])) != 0 || nm[0] == '_' || nm[0] == '$')) {
      error(s.line, "bad function name '" + shorten(nm) + "'");
    }
    if (!params.empty()) {
      if (params.back() != ')') error(s.line, "unbalanced parentheses in the parameter list of " + nm);
      std::string inner = params.substr(1, params.size() >= 2 ? params.size() - 2 : 0);
      bool ok = true;
      for (const auto& p : split_operands(inner, ok)) {
        auto pw = words(p);
        if (pw.empty()) continue;
        std::string pname = pw.back();
        std::string type;
        for (size_t j = 0; j + 1 < pw.size(); ++j)
          if (pw[j] != ".param") type += (type.empty() ? "" : " ") + pw[j];
        size_t br = pname.find('[');
        if (br != std::string::npos) {
          type += (type.empty() ? "" : " ") + pname.substr(br);
          pname = pname.substr(0, br);
        }
        f.params.push_back(pname);
        f.param_types.push_back(type);
      }
      if (!ok) error(s.line, "malformed parameter list of " + nm);
    }
    // performance directives after the parameter list
    for (++i; i < w.size(); ++i) {
      const std::string& d = w[i];
      auto read_dims = [&]() {
        long long prod = 1;
        int n = 0;
        while (i + 1 < w.size() && to_int(w[i + 1])) {
          prod *= *to_int(w[++i]);
          ++n;
        }
        if (n == 0) error(s.line, d + " without a number");
        return static_cast<int>(prod > 1 << 30 ? 0 : prod);
      };
      if (d == ".maxntid") f.maxntid = read_dims();
      else if (d == ".reqntid") f.reqntid = read_dims();
      else if (d == ".minnctapersm") f.minnctapersm = read_dims();
      else if (d == ".maxnreg") f.maxnreg = read_dims();
    }
  }

  struct LocKey {
    int file, line, col;
    bool operator<(const LocKey& o) const {
      return std::tie(file, line, col) < std::tie(o.file, o.line, o.col);
    }
  };

  void function() {
    const Stmt& hdr = st_[k_];
    PtxKernel f;
    parse_header(hdr, f);
    ++k_;
    if (k_ >= st_.size() || st_[k_].kind != Stmt::Open) {
      error(hdr.line, "function " + f.name + " has no body");
      return;
    }
    ++k_;
    int depth = 1;
    f.blocks.push_back(PtxBlock{});
    bool need_new = false;
    int loc_file = 0, loc_line = 0, src_file = 0, src_line = 0;
    std::map<LocKey, std::pair<int, int>> loc_origin;  // .loc position -> the user-facing position
    std::map<std::string, int> label_block;
    std::map<std::string, std::vector<std::string>> branch_tables;
    std::string last_label;
    // Registers declared inside a nested { } scope (inline asm, call sequences) are local to it and may
    // shadow the function's own (".reg .pred %p1;" inside a bar.red sequence): they are renamed
    // NAME__sK in operands and guards so that one name always means one register.
    std::vector<std::map<std::string, std::string>> scopes;
    int scope_count = 0;
    auto renamed = [&](const std::string& r) -> const std::string* {
      for (auto it = scopes.rbegin(); it != scopes.rend(); ++it) {
        auto jt = it->find(r);
        if (jt != it->end()) return &jt->second;
      }
      return nullptr;
    };
    auto rename_regs = [&](std::string op) {
      if (scopes.empty()) return op;
      std::string out;
      for (size_t i = 0; i < op.size();) {
        if (op[i] != '%') {
          out += op[i++];
          continue;
        }
        size_t j = i + 1;
        while (j < op.size() && (std::isalnum(static_cast<unsigned char>(op[j])) != 0 || op[j] == '_')) ++j;
        std::string r = op.substr(i, j - i);
        const std::string* nr = renamed(r);
        out += nr != nullptr ? *nr : r;
        i = j;
      }
      return out;
    };
    while (k_ < st_.size() && depth > 0 && errs_.size() < kMaxErrors) {
      const Stmt& s = st_[k_++];
      if (s.kind == Stmt::Open) {
        ++depth;
        scopes.emplace_back();
        ++scope_count;
        continue;
      }
      if (s.kind == Stmt::Close) {
        --depth;
        if (!scopes.empty()) scopes.pop_back();
        continue;
      }
      if (s.kind == Stmt::Label) {
        if (label_block.count(s.text) != 0) error(s.line, "duplicate label '" + s.text + "' in " + f.name);
        f.blocks.push_back(PtxBlock{s.text, {}, {}, {}});
        label_block[s.text] = static_cast<int>(f.blocks.size()) - 1;
        need_new = false;
        last_label = s.text;
        continue;
      }
      const std::string& t = s.text;
      if (t[0] == '.') {
        auto w = words(t);
        const std::string& d = w[0];
        if (d == ".loc") {
          if (w.size() < 3 || !to_int(w[1]) || !to_int(w[2])) {
            error(s.line, "malformed .loc directive: '" + shorten(t) + "'");
            continue;
          }
          loc_file = static_cast<int>(*to_int(w[1]));
          loc_line = static_cast<int>(*to_int(w[2]));
          int col = w.size() > 3 ? static_cast<int>(to_int(w[3]).value_or(0)) : 0;
          src_file = loc_file;
          src_line = loc_line;
          for (size_t j = 4; j + 2 < w.size(); ++j) {
            if (w[j] != "inlined_at") continue;
            int f2 = static_cast<int>(to_int(w[j + 1]).value_or(0));
            int l2 = static_cast<int>(to_int(w[j + 2]).value_or(0));
            int c2 = j + 3 < w.size() ? static_cast<int>(to_int(w[j + 3]).value_or(0)) : 0;
            auto it = loc_origin.find(LocKey{f2, l2, c2});
            if (it != loc_origin.end()) {
              src_file = it->second.first;
              src_line = it->second.second;
            } else {
              src_file = f2;
              src_line = l2;
            }
          }
          loc_origin[LocKey{loc_file, loc_line, col}] = {src_file, src_line};
        } else if (d == ".reg") {
          std::string type;
          for (size_t j = 1; j < w.size(); ++j) {
            if (w[j][0] == '.') { if (w[j] != ".v2" && w[j] != ".v4") type = w[j]; continue; }
            std::string r = w[j];
            size_t lt = r.find('<');
            if (lt != std::string::npos) r = r.substr(0, lt);
            bool okname = !r.empty() && std::isdigit(static_cast<unsigned char>(r[0])) == 0;
            for (char ch : r) okname = okname && is_ident_char(ch) && ch != '.';
            if (!okname) { error(s.line, "bad register name in '" + shorten(t) + "'"); break; }
            if (!scopes.empty() && r[0] == '%') {
              long long count = 1;
              std::string base = w[j].substr(0, w[j].find('<'));
              if (lt != std::string::npos) count = std::min(to_int(trim(w[j].substr(lt + 1, w[j].find('>') - lt - 1))).value_or(0), 4096LL);
              std::string suffix = "__s" + std::to_string(scope_count);
              if (lt == std::string::npos) scopes.back()[base] = base + suffix;
              for (long long q = 0; lt != std::string::npos && q < count; ++q)
                scopes.back()[base + std::to_string(q)] = base + std::to_string(q) + suffix;
              f.reg_types[lt == std::string::npos ? base + suffix : base] = type;
              continue;
            }
            f.reg_types[r] = type;
          }
        } else if (d == ".branchtargets") {
          if (!last_label.empty())
            branch_tables[last_label] = std::vector<std::string>(w.begin() + 1, w.end());
        } else if (kStateSpaces.count(d) != 0 || d == ".extern" || d == ".align") {
          if (auto v = variable(t, s.line)) f.vars.push_back(*v);
        }
        // .pragma, .param (call sequences), .callprototype and others: nothing to record
        continue;
      }
      PtxInstruction in;
      in.ptx_line = s.line;
      in.loc_file = loc_file;
      in.loc_line = loc_line;
      in.src_file = src_file;
      in.src_line = src_line;
      std::string rest = t;
      if (rest[0] == '@') {
        size_t sp = 1;
        while (sp < rest.size() && std::isspace(static_cast<unsigned char>(rest[sp])) == 0) ++sp;
        in.guard = rest.substr(1, sp - 1);
        std::string g = in.guard[0] == '!' ? in.guard.substr(1) : in.guard;
        if (g.size() < 2 || g[0] != '%') error(s.line, "bad predicate guard '@" + in.guard + "'");
        rest = trim(rest.substr(sp));
        if (rest.empty()) { error(s.line, "predicate guard without an instruction"); continue; }
      }
      size_t sp = 0;
      while (sp < rest.size() && std::isspace(static_cast<unsigned char>(rest[sp])) == 0) ++sp;
      in.opcode = rest.substr(0, sp);
      bool good = std::islower(static_cast<unsigned char>(in.opcode[0])) != 0;
      for (char c : in.opcode)
        good = good && (std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '.' || c == '_' || c == ':');
      if (!good) {
        error(s.line, "not an instruction: '" + shorten(t) + "'");
        continue;
      }
      bool ok = true;
      in.operands = split_operands(trim(rest.substr(sp)), ok);
      if (!scopes.empty()) {
        for (auto& o : in.operands) o = rename_regs(o);
        in.guard = rename_regs(in.guard);
      }
      if (!ok) error(s.line, "malformed operands (unbalanced brackets or an empty operand) in '" + shorten(t) + "'");
      if (need_new) {
        f.blocks.push_back(PtxBlock{});
        need_new = false;
      }
      in.block = static_cast<int>(f.blocks.size()) - 1;
      f.blocks.back().instrs.push_back(f.instrs.size());
      std::string root = in.opcode.substr(0, in.opcode.find('.'));
      if (root == "bra" || root == "brx" || root == "ret" || root == "exit" || root == "trap") need_new = true;
      f.instrs.push_back(std::move(in));
    }
    if (depth > 0) {
      error(hdr.line, "function " + f.name + " is not closed (missing '}' before the end of the input)");
      return;
    }
    // CFG edges
    const int nb = static_cast<int>(f.blocks.size());
    for (int b = 0; b < nb; ++b) {
      std::vector<int> succ;
      auto add = [&](int x) {
        for (int y : succ)
          if (y == x) return;
        succ.push_back(x);
      };
      bool falls = true;
      if (!f.blocks[b].instrs.empty()) {
        const PtxInstruction& last = f.instrs[f.blocks[b].instrs.back()];
        std::string root = last.opcode.substr(0, last.opcode.find('.'));
        if (root == "bra") {
          std::string target = last.operands.empty() ? "" : last.operands.back();
          auto it = label_block.find(target);
          if (it == label_block.end()) error(last.ptx_line, "branch to an unknown label '" + target + "'");
          else add(it->second);
          falls = !last.guard.empty();
        } else if (root == "brx") {
          std::string tbl = last.operands.empty() ? "" : last.operands.back();
          auto it = branch_tables.find(tbl);
          if (it == branch_tables.end()) {
            error(last.ptx_line, "brx.idx with an unknown .branchtargets list '" + tbl + "'");
          } else {
            for (const auto& l : it->second) {
              auto jt = label_block.find(l);
              if (jt == label_block.end()) error(last.ptx_line, "branch target '" + l + "' is not a label");
              else add(jt->second);
            }
          }
          falls = !last.guard.empty();
        } else if (root == "ret" || root == "exit" || root == "trap") {
          falls = !last.guard.empty();
        }
      }
      if (falls && b + 1 < nb) add(b + 1);
      f.blocks[b].succs = succ;
      for (int x : succ) f.blocks[x].preds.push_back(b);
    }
    if (f.is_entry) m_.kernels.push_back(std::move(f));
    else m_.funcs.push_back(std::move(f));
  }

  std::vector<Stmt> st_;
  std::vector<Diagnostic>& errs_;
  const std::string& file_;
  size_t k_ = 0;
  PtxModule m_;
};

}  // namespace

std::vector<std::string> operand_registers(const std::string& op) {
  std::vector<std::string> out;
  for (size_t i = 0; i < op.size(); ++i) {
    if (op[i] != '%') continue;
    size_t j = i + 1;
    while (j < op.size() && (std::isalnum(static_cast<unsigned char>(op[j])) != 0 || op[j] == '_')) ++j;
    if (j == i + 1) continue;
    // a component suffix: %tid.x, %ctaid.y
    if (j + 1 < op.size() && op[j] == '.' && std::string("xyzw").find(op[j + 1]) != std::string::npos &&
        (j + 2 >= op.size() || (std::isalnum(static_cast<unsigned char>(op[j + 2])) == 0 && op[j + 2] != '_')))
      j += 2;
    out.push_back(op.substr(i, j - i));
    i = j - 1;
  }
  return out;
}

std::vector<std::string> opcode_parts(const std::string& opcode) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : opcode) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

int type_bytes(const std::string& part) {
  static const std::map<std::string, int> sizes = {
      {"b8", 1},   {"u8", 1},   {"s8", 1},   {"b16", 2},    {"u16", 2},    {"s16", 2},   {"f16", 2},
      {"bf16", 2}, {"b32", 4},  {"u32", 4},  {"s32", 4},    {"f32", 4},    {"f16x2", 4}, {"bf16x2", 4},
      {"tf32", 4}, {"b64", 8},  {"u64", 8},  {"s64", 8},    {"f64", 8},    {"f32x2", 8}, {"b128", 16},
      {"e4m3x2", 2}, {"e5m2x2", 2}};
  auto it = sizes.find(part);
  return it == sizes.end() ? 0 : it->second;
}

namespace {

// The graph with every edge reversed (edges to nodes out of range dropped).
std::vector<std::vector<int>> reversed(const std::vector<std::vector<int>>& succs) {
  const int n = static_cast<int>(succs.size());
  std::vector<std::vector<int>> preds(n);
  for (int v = 0; v < n; ++v)
    for (int s : succs[v])
      if (s >= 0 && s < n) preds[s].push_back(v);
  return preds;
}

}  // namespace

std::vector<int> immediate_dominators(const std::vector<std::vector<int>>& succs, int root) {
  const int n = static_cast<int>(succs.size());
  std::vector<int> idom(n, -1);
  if (root < 0 || root >= n) return idom;
  const std::vector<std::vector<int>> preds = reversed(succs);
  // Post-order numbers of a depth-first search from the root.
  std::vector<int> order, po(n, -1);
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, size_t>> stack = {{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < succs[v].size()) {
      int w = succs[v][i++];
      if (w >= 0 && w < n && !seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    } else {
      po[v] = static_cast<int>(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (po[a] < po[b]) a = idom[a];
      while (po[b] < po[a]) b = idom[b];
    }
    return a;
  };
  idom[root] = root;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse post-order
      const int v = *it;
      if (v == root) continue;
      int nd = -1;
      for (int p : preds[v]) {
        if (idom[p] == -1) continue;  // unreachable, or not processed yet
        nd = nd == -1 ? p : intersect(p, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  return idom;
}

std::vector<int> immediate_post_dominators(const std::vector<std::vector<int>>& succs, int exit) {
  return immediate_dominators(reversed(succs), exit);
}

std::vector<std::vector<int>> block_successors(const PtxKernel& k) {
  std::vector<std::vector<int>> succs;
  succs.reserve(k.blocks.size());
  for (const auto& b : k.blocks) succs.push_back(b.succs);
  return succs;
}

std::vector<std::vector<int>> block_successors_with_exit(const PtxKernel& k) {
  const int n = static_cast<int>(k.blocks.size());
  const int exit = n;
  std::vector<std::vector<int>> succ = block_successors(k);
  succ.emplace_back();
  for (int b = 0; b < n; ++b) {
    bool leaves = k.blocks[b].succs.empty();
    if (!k.blocks[b].instrs.empty()) {
      const auto& last = k.instrs[k.blocks[b].instrs.back()];
      const std::string root = last.opcode.substr(0, last.opcode.find('.'));
      if ((root == "ret" || root == "exit" || root == "trap") && !last.guard.empty()) leaves = true;
    }
    if (leaves) succ[b].push_back(exit);
  }
  // Blocks that cannot reach the exit (endless loops) get an edge to it, latest block first; each
  // such edge makes everything that reaches that block reach the exit.
  std::vector<std::vector<int>> pred = reversed(succ);
  std::vector<char> reaches(n + 1, 0);
  auto mark_reaching = [&](int from) {
    std::vector<int> stack = {from};
    reaches[from] = 1;
    while (!stack.empty()) {
      int v = stack.back();
      stack.pop_back();
      for (int p : pred[v])
        if (!reaches[p]) {
          reaches[p] = 1;
          stack.push_back(p);
        }
    }
  };
  mark_reaching(exit);
  for (int b = n - 1; b >= 0; --b)
    if (!reaches[b]) {
      succ[b].push_back(exit);
      pred[exit].push_back(b);
      mark_reaching(b);
    }
  return succ;
}

Result<PtxModule> parse_ptx(const std::string& text, const std::string& source_name) {
  std::vector<Diagnostic> errs;
  try {
    Lexer lex(text, errs, source_name);
    std::vector<Stmt> st = lex.run();
    Parser p(std::move(st), errs, source_name);
    PtxModule m = p.run();
    if (errs.empty() && m.version.empty())
      errs.push_back(Diagnostic{source_name, 1, 0, "no .version directive: this does not look like PTX"});
    if (!errs.empty()) return errs;
    return m;
  } catch (const std::exception& e) {
    errs.push_back(Diagnostic{source_name, 0, 0, std::string("internal error while reading PTX: ") + e.what()});
    return errs;
  } catch (...) {
    errs.push_back(Diagnostic{source_name, 0, 0, "internal error while reading PTX"});
    return errs;
  }
}

}  // namespace cudaperf::analysis
