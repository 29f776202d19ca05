// Static instruction census and synchronisation analysis of one PTX kernel.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis {

struct Finding {
  int src_line = 0;      // source line from .loc (0 when unknown)
  std::string kind;      // "divergent_barrier", ...
  std::string message;   // one line a person or a model can act on
};

struct Census {
  // Floating-point instructions (static counts, not executions); FMA counts once here.
  int fp32_add = 0, fp32_mul = 0, fp32_fma = 0, fp32_other = 0;
  int fp64_add = 0, fp64_mul = 0, fp64_fma = 0, fp64_other = 0;
  int fp16 = 0, tensor = 0;            // half/bf16 arithmetic; mma / wgmma
  // Memory instructions by space, keyed by access width in bytes (e.g. 4, 8, 16).
  std::map<int, int> ld_global, st_global, ld_shared, st_shared, ld_local, st_local;
  int ld_param = 0, ld_const = 0;
  // Synchronisation.
  int barriers = 0;                    // bar.sync / bar.red / barrier.sync / bar.arrive ...
  int barriers_divergent = 0;          // control-dependent on a branch that depends on the thread index
  std::map<std::string, int> atomics_global, atomics_shared;  // op ("add", "cas", "max", ...) -> count (atom and red)
  int shuffles = 0, votes = 0, fences = 0, async_copies = 0;
  std::vector<Finding> findings;
};

Census census(const PtxKernel& k);

}  // namespace cudaperf::analysis
