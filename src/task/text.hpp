// Helpers the task loaders share: text, and the keys both task kinds have.
#pragma once
#include <toml++/toml.h>

#include <cctype>
#include <string>
#include <string_view>
#include <vector>

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

// `tags = [...]` (optional): strings appended to `out`; anything else reported through
// err(line, message).
template <class Err>
void read_tags(const toml::table& root, std::vector<std::string>& out, Err&& err) {
  const toml::node* tg = root.get("tags");
  if (!tg) return;
  const toml::array* arr = tg->as_array();
  if (!arr) {
    err(static_cast<int>(tg->source().begin.line), "'tags' must be an array of strings");
    return;
  }
  for (const auto& el : *arr) {
    if (auto s = el.value<std::string>()) out.push_back(*s);
    else err(static_cast<int>(el.source().begin.line), "'tags' must be an array of strings");
  }
}

}  // namespace cudaperf::task::detail
