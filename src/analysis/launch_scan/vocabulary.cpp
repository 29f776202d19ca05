#include "vocabulary.hpp"

#include <utility>
#include <vector>

namespace cudaperf::analysis::launch {

const std::set<std::string>& keywords() {
  static const std::set<std::string> k = {
      "return", "if", "for", "while", "switch", "do", "else", "goto", "break", "continue", "throw", "delete", "new",
      "using", "typedef", "namespace", "template", "case", "default", "co_return", "co_yield", "co_await", "sizeof",
      "static_assert", "asm", "operator", "and", "or", "not", "public", "private", "protected", "try", "catch",
      "alignof", "decltype", "typeid", "this", "true", "false", "nullptr", "static_cast", "reinterpret_cast",
      "const_cast", "dynamic_cast"};
  return k;
}
bool is_keyword(const std::string& s) { return keywords().count(s) > 0; }

const std::set<std::string>& integer_words() {
  static const std::set<std::string> k = {
      "unsigned", "signed", "int", "long", "short", "char", "bool", "size_t", "ssize_t", "ptrdiff_t", "int8_t",
      "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t", "uint32_t", "uint64_t", "uint", "auto", "std"};
  return k;
}
const std::set<std::string>& qualifier_words() {
  static const std::set<std::string> k = {"const", "constexpr", "static", "inline", "volatile", "register",
                                          "extern", "thread_local", "__device__", "__host__", "__constant__",
                                          "__shared__", "__managed__", "constinit", "consteval", "__restrict__"};
  return k;
}

std::optional<int64_t> sizeof_type(const std::string& t) {
  static const std::vector<std::pair<std::string, int64_t>> table = {
      {"char", 1}, {"signed char", 1}, {"unsigned char", 1}, {"bool", 1}, {"int8_t", 1}, {"uint8_t", 1},
      {"short", 2}, {"short int", 2}, {"unsigned short", 2}, {"unsigned short int", 2}, {"int16_t", 2},
      {"uint16_t", 2}, {"half", 2}, {"__half", 2}, {"__nv_bfloat16", 2}, {"int", 4}, {"unsigned", 4},
      {"unsigned int", 4}, {"signed", 4}, {"signed int", 4}, {"int32_t", 4}, {"uint32_t", 4}, {"float", 4},
      {"uint", 4}, {"long", 8}, {"long int", 8}, {"unsigned long", 8}, {"long long", 8}, {"long long int", 8},
      {"unsigned long long", 8}, {"unsigned long long int", 8}, {"int64_t", 8}, {"uint64_t", 8}, {"size_t", 8},
      {"std::size_t", 8}, {"ssize_t", 8}, {"ptrdiff_t", 8}, {"double", 8}, {"char2", 2}, {"uchar2", 2},
      {"char4", 4}, {"uchar4", 4}, {"short2", 4}, {"ushort2", 4}, {"short4", 8}, {"ushort4", 8}, {"int2", 8},
      {"uint2", 8}, {"int4", 16}, {"uint4", 16}, {"float2", 8}, {"float4", 16}, {"double2", 16},
      {"longlong2", 16}, {"ulonglong2", 16}, {"half2", 4}, {"__half2", 4}, {"__nv_bfloat162", 4}};
  for (const auto& [k, v] : table)
    if (k == t) return v;
  return std::nullopt;
}

std::string canonical_type(const std::string& t) {
  static const std::vector<std::pair<std::string, std::string>> table = {
      {"float", "float"}, {"double", "double"}, {"int", "int"}, {"signed", "int"}, {"signed int", "int"},
      {"unsigned", "unsigned int"}, {"unsigned int", "unsigned int"}, {"char", "char"},
      {"signed char", "signed char"}, {"unsigned char", "unsigned char"}, {"short", "short"},
      {"short int", "short"}, {"unsigned short", "unsigned short"}, {"long", "long"}, {"long int", "long"},
      {"unsigned long", "unsigned long"}, {"long long", "long long"}, {"long long int", "long long"},
      {"unsigned long long", "unsigned long long"}, {"bool", "bool"}, {"__half", "__half"},
      {"half", "__half"}, {"__nv_bfloat16", "__nv_bfloat16"}};
  for (const auto& [k, v] : table)
    if (k == t) return v;
  return "";
}

}  // namespace cudaperf::analysis::launch
