// The tokens of a CUDA source file for the launch scan, and the directives that define macros.
#pragma once
#include <cctype>
#include <string>
#include <string_view>
#include <vector>

namespace cudaperf::analysis::launch {

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

inline bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || static_cast<unsigned char>(c) >= 0x80; }
inline bool ident_char(char c) { return ident_start(c) || std::isdigit(static_cast<unsigned char>(c)); }

// Tokenizes `src`; comments are dropped, string and character literals kept whole. With `macros`,
// preprocessor lines are read as directives (object-like #define and #undef recorded; the rest
// dropped); without, '#' is an ordinary punctuator (a macro body).
void lex(std::string_view src, int first_line, std::vector<Tok>& out, std::vector<Macro>* macros);

// Tokens [b, e) as text, spaced the way people write expressions: "dim3(16, 16)", "n * 2".
std::string join_tokens(const std::vector<Tok>& t, size_t b, size_t e);
// A callee as written, without spaces except between words and after commas: "ns::k<128, true>".
std::string compact_tokens(const std::vector<Tok>& t, size_t b, size_t e);

}  // namespace cudaperf::analysis::launch
