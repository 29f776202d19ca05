// The launch scan's tokenizer (tokens.hpp).
#include "tokens.hpp"

#include <algorithm>
#include <cctype>

namespace cudaperf::analysis::launch {

namespace {

const char* const kPuncts3[] = {"<<<", ">>>", "<<=", ">>=", "...", "->*"};
const char* const kPuncts2[] = {"::", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
                                "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "##", ".*"};

}  // namespace

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

std::string compact_tokens(const std::vector<Tok>& t, size_t b, size_t e) {
  std::string s;
  for (size_t i = b; i < e && i < t.size(); ++i) {
    const std::string& x = t[i].text;
    if (!s.empty() && ((ident_char(s.back()) && ident_char(x.front())) || s.back() == ',')) s += ' ';
    s += x;
  }
  return s;
}

}  // namespace cudaperf::analysis::launch
