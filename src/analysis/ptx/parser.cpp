// The second pass of the PTX reader: statements -> module, with each function's instructions,
// blocks and control-flow graph; and parse_ptx, which runs both passes.
#include <algorithm>
#include <cctype>
#include <exception>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "../text.hpp"
#include "cfg.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "lexer.hpp"

namespace cudaperf::analysis {
namespace ptx_reader {
namespace {

using detail::trim;

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
               t == ".v8" || t.starts_with(".attribute"))
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
    link_blocks(f, label_block, branch_tables, [this](int line, const std::string& msg) { error(line, msg); });
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
}  // namespace ptx_reader

Result<PtxModule> parse_ptx(const std::string& text, const std::string& source_name) {
  std::vector<Diagnostic> errs;
  try {
    std::vector<ptx_reader::Stmt> st = ptx_reader::lex_statements(text, errs, source_name);
    ptx_reader::Parser p(std::move(st), errs, source_name);
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
