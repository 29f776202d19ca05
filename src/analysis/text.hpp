// Text helpers shared by the analyses (PTX reader, coalescing, launch scan).
#pragma once
#include <string>
#include <string_view>

namespace cudaperf::analysis::detail {

// The characters std::isspace accepts in the "C" locale (the program never sets another one).
inline constexpr std::string_view kWhitespace = " \t\n\v\f\r";

// `s` without the leading and trailing characters found in `strip`.
std::string trim(std::string_view s, std::string_view strip = kWhitespace);

}  // namespace cudaperf::analysis::detail
