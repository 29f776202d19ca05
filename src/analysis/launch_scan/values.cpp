#include "values.hpp"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <fmt/format.h>
#include <set>
#include <utility>

namespace cudaperf::analysis::launch {

Val unknown(std::string why) { return {{}, std::move(why)}; }
Val single(int64_t x) { return {{x}, ""}; }

Val combine(const Val& a, const Val& b, const std::function<std::optional<int64_t>(int64_t, int64_t)>& f,
            const char* what) {
  if (!a.ok()) return a;
  if (!b.ok()) return b;
  std::set<int64_t> out;
  for (int64_t x : a.v)
    for (int64_t y : b.v) {
      auto r = f(x, y);
      if (!r) return unknown(fmt::format("{} is not defined for these values", what));
      out.insert(*r);
      if (out.size() > kMaxValues) return unknown("too many possible values");
    }
  Val r{{out.begin(), out.end()}, a.why.empty() ? b.why : a.why};
  return r;
}

Val unite(const Val& a, const Val& b, const std::string& why) {
  std::set<int64_t> out(a.v.begin(), a.v.end());
  out.insert(b.v.begin(), b.v.end());
  if (out.size() > kMaxValues) return unknown("too many possible values");
  return {{out.begin(), out.end()}, why};
}

std::string values_text(const std::vector<int64_t>& v) {
  std::string s;
  for (size_t i = 0; i < v.size(); ++i) s += (i ? (i + 1 == v.size() ? " or " : ", ") : "") + std::to_string(v[i]);
  return s;
}

std::optional<int64_t> parse_int_literal(std::string s) {
  s.erase(std::remove(s.begin(), s.end(), '\''), s.end());
  while (!s.empty() && std::strchr("uUlLzZ", s.back())) s.pop_back();
  if (s.empty()) return std::nullopt;
  int base = 10;
  size_t p = 0;
  if (s.size() > 1 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    p = 2;
  } else if (s.size() > 1 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B')) {
    base = 2;
    p = 2;
  } else if (s.size() > 1 && s[0] == '0') {
    base = 8;
    p = 1;
  }
  if (p >= s.size()) return std::nullopt;
  int64_t v = 0;
  for (; p < s.size(); ++p) {
    char c = static_cast<char>(std::tolower(static_cast<unsigned char>(s[p])));
    int d = std::isdigit(static_cast<unsigned char>(c)) ? c - '0' : (c >= 'a' && c <= 'f') ? c - 'a' + 10 : 99;
    if (d >= base) return std::nullopt;
    if (__builtin_mul_overflow(v, base, &v) || __builtin_add_overflow(v, d, &v)) return std::nullopt;
  }
  return v;
}

}  // namespace cudaperf::analysis::launch
