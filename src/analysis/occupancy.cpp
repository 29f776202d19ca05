// Theoretical occupancy on sm_90. The rules (docs/analysis.md, "Occupancy"):
//   warps:     a block of B threads occupies ceil(B/32) warp slots of 64; B > 1024 cannot launch.
//   registers: allocated per warp in units of 256 (R*32 rounded up), from four sub-partitions of
//              16384 registers each; a block fits only if its warps, rounded up to a multiple of
//              four, fit in 65536 registers; more than 255 per thread cannot exist.
//   shared:    static + dynamic + 1 KB reserved, rounded up to 128 B, from the 228 KB carveout;
//              a block may use at most 227 KB (+1 KB reserved) when opted in, else 48 KB (+1 KB).
//   blocks:    32 per SM.
//   barriers:  2 x 32 barrier slots per SM shared by the blocks; a block has at most 16.
#include "cudaperf/analysis/occupancy.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace cudaperf::analysis {

namespace {

using L = Sm90Limits;

// 64-bit: the inputs may be anything up to INT_MAX.
constexpr long long ceil_div(long long x, long long y) { return (x + y - 1) / y; }
constexpr long long round_up(long long x, long long unit) { return ceil_div(x, unit) * unit; }
int clamp_int(long long v) { return static_cast<int>(std::min<long long>(v, INT_MAX)); }

}  // namespace

Occupancy occupancy_sm90(const OccupancyInput& in) {
  Occupancy o;
  o.max_warps = L::kMaxWarpsPerSm;
  if (in.block_size <= 0 || in.registers_per_thread < 0 || in.shared_static_bytes < 0 || in.shared_dynamic_bytes < 0 ||
      in.barriers < 0) {
    o.limiter = "invalid_input";
    o.limiters = {o.limiter};
    o.why_impossible = "block size must be positive and resource counts non-negative";
    return o;
  }
  const long long warps = ceil_div(in.block_size, L::kWarpSize);
  o.warps_per_block = clamp_int(warps);
  std::string why_regs, why_smem, why_warps, why_bars;

  // Warp slots.
  if (in.block_size > L::kMaxThreadsPerBlock) {
    o.by_warps = 0;
    why_warps = fmt::format("block of {} threads exceeds the {}-thread maximum", in.block_size, L::kMaxThreadsPerBlock);
  } else {
    o.by_warps = clamp_int(L::kMaxWarpsPerSm / warps);
  }

  // Registers.
  const long long regs_per_warp =
      round_up(static_cast<long long>(in.registers_per_thread) * L::kWarpSize, L::kRegisterAllocationUnit);
  const long long regs_per_block = regs_per_warp * warps;
  o.registers_per_block = clamp_int(regs_per_block);
  const long long regs_checked = regs_per_warp * round_up(warps, L::kSubPartitions);
  if (in.registers_per_thread > L::kMaxRegistersPerThread) {
    o.by_registers = 0;
    why_regs = fmt::format("{} registers per thread exceeds the sm_90 maximum of {}", in.registers_per_thread,
                           L::kMaxRegistersPerThread);
  } else if (regs_checked > L::kRegistersPerBlock || regs_per_block > L::kRegistersPerBlock) {
    o.by_registers = 0;
    why_regs = fmt::format("{} registers per thread x {} threads needs {} registers, more than the {} a block may have",
                           in.registers_per_thread, in.block_size, regs_checked, L::kRegistersPerBlock);
  } else if (regs_per_warp == 0) {
    o.by_registers = kUnlimited;
  } else {
    const long long warps_per_partition = (L::kRegistersPerSm / L::kSubPartitions) / regs_per_warp;
    o.by_registers = clamp_int(warps_per_partition * L::kSubPartitions / warps);
  }

  // Shared memory.
  const long long smem_total = static_cast<long long>(in.shared_static_bytes) + in.shared_dynamic_bytes +
                               L::kSharedReservedPerBlock;
  const long long smem_alloc = round_up(smem_total, L::kSharedAllocationUnit);
  o.shared_bytes_per_block = clamp_int(smem_alloc);
  const long long smem_block_limit =
      static_cast<long long>(in.shared_opt_in ? L::kSharedPerBlockOptin : L::kSharedPerBlockDefault) +
      L::kSharedReservedPerBlock;
  if (smem_alloc > smem_block_limit) {
    o.by_shared_memory = 0;
    why_smem = fmt::format("{} B of shared memory per block (with the 1 KB reserved) exceeds the {} B limit{}",
                           smem_alloc, smem_block_limit, in.shared_opt_in ? "" : " without opt-in");
  } else {
    o.by_shared_memory = static_cast<int>(L::kSharedPerSm / smem_alloc);  // smem_alloc >= 1 KB
  }

  // Resident blocks.
  o.by_blocks = L::kMaxBlocksPerSm;

  // Barriers.
  if (in.barriers > L::kBarriersPerBlock) {
    o.by_barriers = 0;
    why_bars = fmt::format("{} named barriers exceeds the {} a block has", in.barriers, L::kBarriersPerBlock);
  } else if (in.barriers == 0) {
    o.by_barriers = kUnlimited;
  } else {
    o.by_barriers = L::kBarrierSlotsPerBlockSlot * L::kMaxBlocksPerSm / in.barriers;
  }

  const std::pair<const char*, int> limits[] = {{"warps", o.by_warps},
                                                {"registers", o.by_registers},
                                                {"shared_memory", o.by_shared_memory},
                                                {"blocks", o.by_blocks},
                                                {"barriers", o.by_barriers}};
  o.blocks_per_sm = kUnlimited;
  for (const auto& [name, v] : limits) o.blocks_per_sm = std::min(o.blocks_per_sm, v);
  for (const auto& [name, v] : limits)
    if (v == o.blocks_per_sm) o.limiters.emplace_back(name);
  o.limiter = o.limiters.front();
  o.active_warps = clamp_int(o.blocks_per_sm * warps);
  o.fraction = static_cast<double>(o.active_warps) / o.max_warps;
  if (o.blocks_per_sm == 0) {
    for (const std::string* w : {&why_warps, &why_regs, &why_smem, &why_bars})
      if (!w->empty()) o.why_impossible += (o.why_impossible.empty() ? "" : "; ") + *w;
  }
  return o;
}

}  // namespace cudaperf::analysis
