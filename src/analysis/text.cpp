#include "text.hpp"

namespace cudaperf::analysis::detail {

std::string trim(std::string_view s, std::string_view strip) {
  const size_t b = s.find_first_not_of(strip);
  if (b == std::string_view::npos) return "";
  const size_t e = s.find_last_not_of(strip);
  return std::string(s.substr(b, e - b + 1));
}

}  // namespace cudaperf::analysis::detail
