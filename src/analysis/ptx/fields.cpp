// Fields of PTX instructions: operand registers, opcode parts, type sizes and state spaces.
#include "fields.hpp"

#include <cctype>
#include <map>

#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis {

std::vector<std::string> operand_registers(const std::string& op) {
  std::vector<std::string> out;
  for (size_t i = 0; i < op.size(); ++i) {
    if (op[i] != '%') continue;
    size_t j = i + 1;
    while (j < op.size() && (std::isalnum(static_cast<unsigned char>(op[j])) != 0 || op[j] == '_')) ++j;
    if (j == i + 1) continue;
    // a component suffix: %tid.x, %ctaid.y
    if (j + 1 < op.size() && op[j] == '.' && std::string("xyzw").find(op[j + 1]) != std::string::npos &&
        (j + 2 >= op.size() || (std::isalnum(static_cast<unsigned char>(op[j + 2])) == 0 && op[j + 2] != '_')))
      j += 2;
    out.push_back(op.substr(i, j - i));
    i = j - 1;
  }
  return out;
}

std::vector<std::string> opcode_parts(const std::string& opcode) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : opcode) {
    if (c == '.') {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

int type_bytes(const std::string& part) {
  static const std::map<std::string, int> sizes = {
      {"b8", 1},   {"u8", 1},   {"s8", 1},   {"b16", 2},    {"u16", 2},    {"s16", 2},   {"f16", 2},
      {"bf16", 2}, {"b32", 4},  {"u32", 4},  {"s32", 4},    {"f32", 4},    {"f16x2", 4}, {"bf16x2", 4},
      {"tf32", 4}, {"b64", 8},  {"u64", 8},  {"s64", 8},    {"f64", 8},    {"f32x2", 8}, {"b128", 16},
      {"e4m3x2", 2}, {"e5m2x2", 2}};
  auto it = sizes.find(part);
  return it == sizes.end() ? 0 : it->second;
}

namespace detail {

StateSpace state_space(const std::vector<std::string>& parts, SpaceSpelling spelling) {
  for (size_t i = 1; i < parts.size(); ++i) {
    const std::string& p = parts[i];
    if (p == "global") return StateSpace::Global;
    if (p == "local") return StateSpace::Local;
    if (p == "const") return StateSpace::Const;
    if (p == "param") return StateSpace::Param;
    if (p == "shared" || p.starts_with("shared::")) return StateSpace::Shared;
    if (spelling == SpaceSpelling::Prefix) {
      if (p.starts_with("shared")) return StateSpace::Shared;
      if (p.starts_with("param")) return StateSpace::Param;
    }
  }
  return StateSpace::Generic;
}

}  // namespace detail
}  // namespace cudaperf::analysis
