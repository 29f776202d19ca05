// The PTX lexer: text -> statements (see lexer.hpp).
#include "lexer.hpp"

#include <cctype>

#include "../text.hpp"

namespace cudaperf::analysis::ptx_reader {

using detail::trim;

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) != 0 || c == '_' || c == '$' || c == '.' || c == '%';
}

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

std::optional<long long> to_int(const std::string& s) {
  if (s.empty() || s.size() > 17) return std::nullopt;
  long long v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

std::string shorten(const std::string& t) { return t.size() > 60 ? t.substr(0, 57) + "..." : t; }

namespace {

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
      if (t.starts_with(ds) && (t.size() == ds.size() || std::isspace(static_cast<unsigned char>(t[ds.size()])) != 0))
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
        } else if (t.starts_with(".section")) {
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

}  // namespace

std::vector<Stmt> lex_statements(const std::string& src, std::vector<Diagnostic>& errs, const std::string& file) {
  return Lexer(src, errs, file).run();
}

}  // namespace cudaperf::analysis::ptx_reader
