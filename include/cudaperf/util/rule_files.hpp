// The rule files under config/ that the C++ engine and the PyTorch worker both read: timing.toml,
// candidate_policy.toml, torch_protocol.toml. Compiled in at build time (src/CMakeLists.txt writes
// their text into a generated source), so the engine never looks for them at run time and nothing
// outside the binary can change them. Each reader parses its file once with the helpers below.
#pragma once
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include <toml++/toml.h>

namespace cudaperf::rule_files {

std::string_view timing_toml();
std::string_view candidate_policy_toml();
std::string_view torch_protocol_toml();

// A compiled-in file is part of the build: one that does not parse, or lacks a key, is a defect of
// the build, not an input error. These abort with the file's name and the key (the Rules* unit tests
// read every file, so such a build never passes its tests).
[[noreturn]] void defect(std::string_view file, std::string_view what);
toml::table parse(std::string_view text, std::string_view file);

// The value at a dotted path ("stopping_rule.min_samples").
template <class T>
T get(const toml::table& t, std::string_view path, std::string_view file) {
  auto v = t.at_path(path).value<T>();
  if (!v) defect(file, std::string(path) + ": missing or not a " + (std::is_same_v<T, std::string> ? "string" : "number"));
  return *v;
}
// An array of strings at a dotted path.
std::vector<std::string> strings(const toml::table& t, std::string_view path, std::string_view file);
// A regular expression written as an array of alternatives, joined with '|'.
std::string alternatives(const toml::table& t, std::string_view path, std::string_view file);

}  // namespace cudaperf::rule_files
