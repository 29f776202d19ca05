// Memory coalescing from PTX: an affine interpretation of global addresses in terms of the thread
// index, giving each global load/store its byte stride across consecutive threadIdx.x lanes, its
// width, and the 32-byte sectors one warp request touches versus the ideal.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis {

struct GlobalAccess {
  size_t instr = 0;                       // index into PtxKernel::instrs
  int src_line = 0, ptx_line = 0;
  bool store = false;                     // st/red/atom count as stores
  int width_bytes = 0;                    // bytes per thread per instruction (v4.f32 -> 16)
  std::optional<long long> stride_bytes;  // address(lane+1) - address(lane) along threadIdx.x; nullopt: unknown
  int sectors = -1;                       // 32-byte sectors touched by one full-warp request; -1 unknown
  int ideal_sectors = 0;                  // ceil(32 * width / 32)
  std::string note;                       // why unknown, or what the address depends on
};

std::vector<GlobalAccess> coalescing(const PtxKernel& k);

}  // namespace cudaperf::analysis
