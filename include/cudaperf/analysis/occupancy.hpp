// Theoretical occupancy on sm_90 (H100/H200) from the launch and the kernel's resources, with the
// limiting factor named. Must agree with the CUDA toolkit's cuda_occupancy.h calculator.
#pragma once
#include <string>

namespace cudaperf::analysis {

struct OccupancyInput {
  int block_size = 256;           // threads per block
  int registers_per_thread = 32;  // from ptxas
  int shared_static_bytes = 0;    // from ptxas
  int shared_dynamic_bytes = 0;   // launch parameter
  int barriers = 1;               // named barriers the kernel uses (ptxas "used N barriers")
};

struct Occupancy {
  int blocks_per_sm = 0;
  int active_warps = 0;        // blocks_per_sm * warps per block
  int max_warps = 64;          // per SM on sm_90
  double fraction = 0;         // active_warps / max_warps
  std::string limiter;         // "registers", "shared_memory", "warps", "blocks", "barriers", or "none" (launch impossible: blocks_per_sm == 0 names the resource that cannot fit)
  // Blocks per SM allowed by each limit on its own.
  int by_registers = 0, by_shared_memory = 0, by_warps = 0, by_blocks = 0, by_barriers = 0;
};

Occupancy occupancy_sm90(const OccupancyInput& in);

}  // namespace cudaperf::analysis
