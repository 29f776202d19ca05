// Static instruction census and synchronisation analysis of one PTX kernel.
//
// Divergent barriers: a CTA barrier (bar.sync / barrier.sync / bar.red / bar.arrive) is divergent
// when it is control-dependent (post-dominator based, on the PTX CFG) on a conditional branch whose
// predicate is thread-dependent, or when its own guard predicate is. Thread dependence is a taint
// propagated through registers to a fixpoint, starting from %tid.*, %laneid, %warpid, %lanemask_*,
// %clock*, atomics' results and activemask; a load is tainted when its address is; a register
// written in a block that is control-dependent on a tainted branch is tainted (this covers values
// leaving a loop with a thread-dependent trip count); bar.red results are CTA-uniform. Values read
// back from local memory are tainted when any thread-dependent value was stored there; values read
// back from shared/global memory at a uniform address are treated as uniform.
// Barriers with an explicit thread count ("bar.sync 1, 128", "bar.arrive 1, 128") are meant for a
// subset of the CTA (warp specialisation) and are counted in barriers_partial, never flagged.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis {

struct Finding {
  int src_line = 0;      // source line from .loc (0 when unknown)
  std::string kind;      // "divergent_barrier", ...
  std::string message;   // one line a person or a model can act on
  int ptx_line = 0;      // line of the offending instruction in the PTX text
};

struct Census {
  // Floating-point instructions (static counts, not executions); FMA counts once here.
  // add/sub -> add; mul -> mul; fma/mad -> fma; div, rcp, sqrt, rsqrt, sin, cos, lg2, ex2, tanh, abs,
  // neg, min, max, copysign -> other. Packed types (f32x2) count once per instruction.
  int fp32_add = 0, fp32_mul = 0, fp32_fma = 0, fp32_other = 0;
  int fp64_add = 0, fp64_mul = 0, fp64_fma = 0, fp64_other = 0;
  int fp16 = 0, tensor = 0;            // half/bf16 arithmetic (f16, f16x2, bf16, bf16x2); mma / wmma.mma / wgmma.mma_async
  // Memory instructions by space, keyed by access width in bytes per thread (e.g. 4, 8, 16;
  // ld.global.v4.f32 -> 16). ld.global.nc and ldu.global count as global; ldmatrix/stmatrix as shared.
  std::map<int, int> ld_global, st_global, ld_shared, st_shared, ld_local, st_local;
  std::map<int, int> ld_generic, st_generic;  // no state space: the address decides at run time
  int ld_param = 0, ld_const = 0;
  // Synchronisation.
  int barriers = 0;                    // bar.sync / bar.red / barrier.sync / bar.arrive ... (not bar.warp.sync)
  int barriers_divergent = 0;          // control-dependent on a branch that depends on the thread index
  int barriers_partial = 0;            // of `barriers`, those with an explicit thread count (named, partial)
  int cluster_barriers = 0;            // barrier.cluster.*
  int warp_syncs = 0;                  // bar.warp.sync (__syncwarp)
  std::map<std::string, int> atomics_global, atomics_shared;  // op ("add", "cas", "max", ...) -> count (atom and red)
  std::map<std::string, int> atomics_generic;                 // atom/red without a state space
  int atomics_red = 0;                 // of all the atomics above, those written as red (no result returned)
  int shuffles = 0, votes = 0, fences = 0, async_copies = 0;  // shfl; vote/match; membar/fence; cp.async copies
  int warp_reduces = 0;                // redux.sync
  int async_waits = 0;                 // cp.async.commit_group / wait_group / wait_all / mbarrier.arrive, bulk too
  int mbarrier_ops = 0;                // mbarrier.*
  int branches = 0;                    // bra / brx
  int instructions = 0;                // all instructions
  std::vector<Finding> findings;
};

Census census(const PtxKernel& k);

// The census as JSON: every field above by its name; maps as objects keyed by width / op
// ({"16": 2}); findings as [{"kind", "src_line", "ptx_line", "message"}].
nlohmann::json census_to_json(const Census& c);

}  // namespace cudaperf::analysis
