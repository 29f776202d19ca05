// Values of the launch scan's expressions: the set of integers an expression can take (a runtime
// condition between constants gives several), or why it is unknown.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cudaperf::analysis::launch {

constexpr size_t kMaxValues = 16;

struct Val {
  std::vector<int64_t> v;  // sorted, unique; empty: unknown
  std::string why;         // unknown: why; several values: what they depend on
  bool ok() const { return !v.empty(); }
};

Val unknown(std::string why);
Val single(int64_t x);
// f over every pair of values ("what" names f when it fails); unknown when either side is.
Val combine(const Val& a, const Val& b, const std::function<std::optional<int64_t>(int64_t, int64_t)>& f,
            const char* what);
// Both sides' values, with `why` as what they depend on.
Val unite(const Val& a, const Val& b, const std::string& why);
// "1, 2 or 4".
std::string values_text(const std::vector<int64_t>& v);
// A C++ integer literal (decimal, hex, binary, octal; separators and suffixes allowed).
std::optional<int64_t> parse_int_literal(std::string s);

}  // namespace cudaperf::analysis::launch
