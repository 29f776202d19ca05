#include "cudaperf/util/file.hpp"

#include <fstream>
#include <sstream>

namespace cudaperf {

std::optional<std::string> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace cudaperf
