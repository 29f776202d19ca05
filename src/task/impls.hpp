// The impls/ folder of a task of either kind, read by one rule: files `<strategy><ext>` whose first
// line is `<comment> strategy: <strategy> — <what it does>` (a weak baseline says "weak)" there).
#pragma once
#include <filesystem>
#include <string_view>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::task::detail {

// The implementations in impl_dir (which must exist), sorted by strategy; every other file and every
// missing or mismatched strategy line is appended to errors. ext ".cu" with comment "//" (C-to-CUDA)
// or ".py" with "#" (torch2cuda).
std::vector<Impl> read_impls(const std::filesystem::path& impl_dir, std::string_view ext, std::string_view comment,
                             std::vector<Diagnostic>& errors);

}  // namespace cudaperf::task::detail
