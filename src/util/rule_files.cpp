// Reading the compiled-in rule files (rule_files.hpp); their text is in the generated
// rule_files_text.cpp.
#include "cudaperf/util/rule_files.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace cudaperf::rule_files {

void defect(std::string_view file, std::string_view what) {
  fmt::print(stderr, "cudaperf: config/{} (compiled in) is not usable: {}\n", file, what);
  std::abort();
}

toml::table parse(std::string_view text, std::string_view file) {
  try {
    return toml::parse(text, file);
  } catch (const toml::parse_error& e) {
    defect(file, fmt::format("line {}: {}", e.source().begin.line, e.description()));
  }
}

std::vector<std::string> strings(const toml::table& t, std::string_view path, std::string_view file) {
  const toml::array* a = t.at_path(path).as_array();
  if (!a) defect(file, std::string(path) + ": missing or not an array");
  std::vector<std::string> out;
  for (const auto& n : *a) {
    auto s = n.value<std::string>();
    if (!s) defect(file, std::string(path) + ": an element is not a string");
    out.push_back(*s);
  }
  return out;
}

std::string alternatives(const toml::table& t, std::string_view path, std::string_view file) {
  std::string out;
  for (const auto& s : strings(t, path, file)) out += (out.empty() ? "" : "|") + s;
  if (out.empty()) defect(file, std::string(path) + ": an empty pattern");
  return out;
}

}  // namespace cudaperf::rule_files
