#include "cudaperf/util/result.hpp"

#include <fmt/format.h>

namespace cudaperf {

std::string Diagnostic::to_string() const {
  if (file.empty()) return message;
  if (line <= 0) return fmt::format("{}: {}", file, message);
  if (column <= 0) return fmt::format("{}:{}: {}", file, line, message);
  return fmt::format("{}:{}:{}: {}", file, line, column, message);
}

}  // namespace cudaperf
