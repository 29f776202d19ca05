// Reading a whole file (sources, PTX, configs, caches).
#pragma once
#include <filesystem>
#include <optional>
#include <string>

namespace cudaperf {

// The file's bytes, or nullopt when it cannot be opened.
std::optional<std::string> read_file(const std::filesystem::path& p);

}  // namespace cudaperf
