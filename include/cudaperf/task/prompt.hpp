// The prompt a model gets for a C-to-CUDA task: the C reference, the exact signature to define,
// the contract it is checked against (parameters, sizes, tolerance, rules) and the answer format.
// Used by `cudaperf export` (prompt datasets for verl / TRL / JSONL) and the refinement loop.
#pragma once
#include <string>

#include "cudaperf/task/task.hpp"

namespace cudaperf::task {

// Deterministic: the same task always gives the same text.
std::string render_prompt(const Task& t);

}  // namespace cudaperf::task
