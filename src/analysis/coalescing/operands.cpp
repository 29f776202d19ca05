#include "operands.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>

#include "../ptx/fields.hpp"
#include "../text.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "value.hpp"

namespace cudaperf::analysis::coalesce {

using detail::trim;

std::vector<std::string> split(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i) {
    if (i == s.size() || s[i] == sep) {
      out.push_back(std::string(s.substr(start, i - start)));
      start = i + 1;
    }
  }
  return out;
}

std::vector<std::string> normalize_operands(const std::vector<std::string>& ops) {
  std::string all;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (i) all += ',';
    all += ops[i];
  }
  std::vector<std::string> out;
  int depth = 0;
  std::string cur;
  for (char c : all) {
    if (c == '{' || c == '[' || c == '(') ++depth;
    if (c == '}' || c == ']' || c == ')') depth = std::max(0, depth - 1);
    if (c == ',' && depth == 0) {
      out.push_back(trim(cur));
      cur.clear();
    } else {
      cur += c;
    }
  }
  if (!trim(cur).empty() || !out.empty()) out.push_back(trim(cur));
  return out;
}

std::optional<long long> parse_int(const std::string& s0) {
  std::string s = trim(s0);
  if (s.empty()) return std::nullopt;
  if (s.size() > 1 && (s.back() == 'U' || s.back() == 'u')) s.pop_back();
  bool neg = false;
  size_t i = 0;
  if (s[0] == '-' || s[0] == '+') {
    neg = s[0] == '-';
    i = 1;
  }
  if (i >= s.size() || !std::isdigit(static_cast<unsigned char>(s[i]))) return std::nullopt;
  if (s.size() > i + 1 && s[i] == '0' && (s[i + 1] == 'f' || s[i + 1] == 'F' || s[i + 1] == 'd' || s[i + 1] == 'D'))
    return std::nullopt;  // float immediate
  errno = 0;
  char* end = nullptr;
  unsigned long long v = std::strtoull(s.c_str() + i, &end, 0);
  if (errno != 0 || end == nullptr || *end != '\0') return std::nullopt;
  long long r = static_cast<long long>(v);
  return neg ? -r : r;
}

bool is_float_imm(const std::string& s) {
  return s.size() > 2 && s[0] == '0' && (s[1] == 'f' || s[1] == 'F' || s[1] == 'd' || s[1] == 'D');
}

bool is_int_type(const std::string& t) {
  if (t.size() < 2) return false;
  if (t[0] != 's' && t[0] != 'u' && t[0] != 'b') return false;
  return t == "s8" || t == "s16" || t == "s32" || t == "s64" || t == "u8" || t == "u16" || t == "u32" || t == "u64" ||
         t == "b8" || t == "b16" || t == "b32" || t == "b64";
}

std::string last_type(const std::vector<std::string>& parts) {
  for (size_t i = parts.size(); i-- > 1;)
    if (type_bytes(parts[i]) > 0) return parts[i];
  return "";
}

bool has_part(const std::vector<std::string>& parts, std::string_view p) {
  return std::find(parts.begin(), parts.end(), p) != parts.end();
}

int state_space(const std::vector<std::string>& parts) {
  switch (detail::state_space(parts, detail::SpaceSpelling::Prefix)) {
    case detail::StateSpace::Global: return kGlobal;
    case detail::StateSpace::Shared: return kShared;
    case detail::StateSpace::Local: return kLocal;
    case detail::StateSpace::Const: return kConst;
    case detail::StateSpace::Param: return kParamPtr;  // the param state space (not a pointer)
    case detail::StateSpace::Generic: break;
  }
  return kNoSpace;
}

}  // namespace cudaperf::analysis::coalesce
