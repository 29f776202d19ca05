// Text helpers the task loaders share.
#pragma once
#include <cctype>
#include <string>
#include <string_view>

namespace cudaperf::task::detail {

// Runs of whitespace become one space; none at the ends.
inline std::string collapse_spaces(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
}

}  // namespace cudaperf::task::detail
