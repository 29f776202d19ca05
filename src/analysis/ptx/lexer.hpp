// The first pass of the PTX reader: the text as statements, plus the word-level helpers the parser
// shares with it.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis::ptx_reader {

// Diagnostics stop being collected (and reading stops) after this many.
constexpr size_t kMaxErrors = 20;

struct Stmt {
  enum Kind { Text, Label, Open, Close } kind = Text;
  std::string text;     // statement text without the ';' (Text), label name (Label)
  int line = 0;         // line of its first character
  bool semicolon = false;  // Text ended with ';'
};

// Instruction or directive text ending at ';', labels, scope braces, and the newline-terminated
// directives .version/.target/.address_size/.loc/.file; comments dropped, .section blocks skipped.
// Problems go to `errs` (at most kMaxErrors), with `file` as their file name.
std::vector<Stmt> lex_statements(const std::string& src, std::vector<Diagnostic>& errs, const std::string& file);

bool is_ident_char(char c);
// Splits on whitespace and commas (commas dropped), keeping quoted strings and bracketed groups whole.
std::vector<std::string> words(const std::string& s);
// Parses a non-negative decimal integer; nullopt unless the whole string is digits (and fits).
std::optional<long long> to_int(const std::string& s);
// A statement cut to 60 characters for a diagnostic.
std::string shorten(const std::string& t);

}  // namespace cudaperf::analysis::ptx_reader
