// Reading PTX operands and opcode parts for the coalescing analysis.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cudaperf::analysis::coalesce {

std::vector<std::string> split(std::string_view s, char sep);
// Re-splits operands at top-level commas (a parser may or may not keep "{a, b}" together).
std::vector<std::string> normalize_operands(const std::vector<std::string>& ops);
// An integer immediate (decimal, hex, octal; optional sign and U suffix); nullopt otherwise.
std::optional<long long> parse_int(const std::string& s);
bool is_float_imm(const std::string& s);
bool is_int_type(const std::string& t);
// The last dotted component that names a type ("ld.global.nc.v4.f32" -> "f32").
std::string last_type(const std::vector<std::string>& parts);
bool has_part(const std::vector<std::string>& parts, std::string_view p);
// The state space an opcode names, as a Space of value.hpp (kNoSpace when generic), with the prefix
// spelling of ptx/fields.hpp.
int state_space(const std::vector<std::string>& parts);

}  // namespace cudaperf::analysis::coalesce
