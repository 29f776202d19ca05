// Theoretical occupancy on sm_90 (H100/H200) from the launch and the kernel's resources, with the
// limiting factor named. Agrees with the CUDA toolkit's cuda_occupancy.h calculator
// (cudaOccMaxActiveBlocksPerMultiprocessor) for every launch ptxas can produce; the rules are
// written out in docs/analysis.md ("Occupancy") and the unit test compares the two on a grid.
#pragma once
#include <climits>
#include <string>
#include <vector>

namespace cudaperf::analysis {

// sm_90 limits used by occupancy_sm90 (H100 and H200 share them).
struct Sm90Limits {
  static constexpr int kWarpSize = 32;
  static constexpr int kMaxThreadsPerBlock = 1024;
  static constexpr int kMaxWarpsPerSm = 64;             // 2048 threads
  static constexpr int kMaxBlocksPerSm = 32;
  static constexpr int kRegistersPerSm = 65536;
  static constexpr int kRegistersPerBlock = 65536;
  static constexpr int kMaxRegistersPerThread = 255;    // ptxas never allocates more
  static constexpr int kRegisterAllocationUnit = 256;   // registers, per warp
  static constexpr int kSubPartitions = 4;              // register file is split in 4
  static constexpr int kSharedPerSm = 228 * 1024;       // maximum carveout
  static constexpr int kSharedPerBlockDefault = 48 * 1024;
  static constexpr int kSharedPerBlockOptin = 227 * 1024;
  static constexpr int kSharedReservedPerBlock = 1024;  // taken by the system in every block
  static constexpr int kSharedAllocationUnit = 128;
  static constexpr int kBarriersPerBlock = 16;          // named barriers 0..15
  static constexpr int kBarrierSlotsPerBlockSlot = 2;   // barrier slots per SM = 2 * max blocks
  static constexpr int kNumSms = 132;
};

struct OccupancyInput {
  int block_size = 256;           // threads per block
  int registers_per_thread = 32;  // from ptxas
  int shared_static_bytes = 0;    // from ptxas
  int shared_dynamic_bytes = 0;   // launch parameter
  int barriers = 1;               // named barriers the kernel uses (ptxas "used N barriers"); 0 = none
  // The kernel opted in (cudaFuncSetAttribute MaxDynamicSharedMemorySize) to the largest per-block
  // shared memory, 227 KB; false: the default 48 KB per-block limit applies.
  bool shared_opt_in = true;
};

// "Unlimited": the value of a by_* field when the kernel does not use that resource at all
// (0 registers, 0 barriers), as in cuda_occupancy.h.
inline constexpr int kUnlimited = INT_MAX;

struct Occupancy {
  int blocks_per_sm = 0;
  int warps_per_block = 0;     // ceil(block_size / 32)
  int active_warps = 0;        // blocks_per_sm * warps per block
  int max_warps = 64;          // per SM on sm_90
  double fraction = 0;         // active_warps / max_warps
  // The limit that binds: "registers", "shared_memory", "warps", "blocks", "barriers";
  // "invalid_input" for a non-positive block size or negative resources. When several limits
  // tie, `limiter` is the first of them in the order warps, registers, shared_memory, blocks,
  // barriers (cuda_occupancy.h's cudaOccLimitingFactor bit order) and `limiters` lists them all.
  // blocks_per_sm == 0 (launch impossible): the limiter names the resource that cannot fit.
  std::string limiter;
  std::vector<std::string> limiters;
  // Blocks per SM allowed by each limit on its own (kUnlimited where the resource is unused).
  int by_registers = 0, by_shared_memory = 0, by_warps = 0, by_blocks = 0, by_barriers = 0;
  // What one block is actually given: registers (per-warp allocation x warps) and shared memory
  // (static + dynamic + reserved, rounded up to the allocation unit).
  int registers_per_block = 0;
  int shared_bytes_per_block = 0;
  std::string why_impossible;  // blocks_per_sm == 0: one line naming the violated limit
};

Occupancy occupancy_sm90(const OccupancyInput& in);

}  // namespace cudaperf::analysis
