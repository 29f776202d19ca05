// occupancy_sm90 against the CUDA toolkit's own calculator (cuda_occupancy.h, a host-only header
// used here as the test oracle only) on a grid of launches, plus hand cases where each limit wins
// and launches that cannot happen.
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "cudaperf/analysis/occupancy.hpp"
#include "cudaperf/analysis/report.hpp"

#if __has_include(<cuda_occupancy.h>)
#define CUDAPERF_HAVE_OCC_ORACLE 1
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wpedantic"
#include <cuda_occupancy.h>
#pragma GCC diagnostic pop
#elif __has_include("/usr/local/cuda/include/cuda_occupancy.h")
#define CUDAPERF_HAVE_OCC_ORACLE 1
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wall"
#pragma GCC diagnostic ignored "-Wextra"
#pragma GCC diagnostic ignored "-Wpedantic"
#include "/usr/local/cuda/include/cuda_occupancy.h"
#pragma GCC diagnostic pop
#else
#define CUDAPERF_HAVE_OCC_ORACLE 0
#endif

namespace {

using cudaperf::analysis::kUnlimited;
using cudaperf::analysis::Occupancy;
using cudaperf::analysis::occupancy_sm90;
using cudaperf::analysis::OccupancyInput;

OccupancyInput launch(int block, int regs, int smem_static, int smem_dynamic, int barriers, bool opt_in = true) {
  OccupancyInput in;
  in.block_size = block;
  in.registers_per_thread = regs;
  in.shared_static_bytes = smem_static;
  in.shared_dynamic_bytes = smem_dynamic;
  in.barriers = barriers;
  in.shared_opt_in = opt_in;
  return in;
}

// ---------------------------------------------------------------------------------------------
// Hand cases: each limit wins once.

TEST(Occupancy, RegistersLimitWorkedExample) {
  // 256 threads, 64 registers, 16 KB static: 2048 registers per warp -> 8 warps per sub-partition
  // -> 32 warps -> 4 blocks; shared would allow 13, warps 8.
  Occupancy o = occupancy_sm90(launch(256, 64, 16 * 1024, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 4);
  EXPECT_EQ(o.limiter, "registers");
  EXPECT_EQ(o.limiters, std::vector<std::string>{"registers"});
  EXPECT_EQ(o.by_registers, 4);
  EXPECT_EQ(o.by_shared_memory, 13);
  EXPECT_EQ(o.by_warps, 8);
  EXPECT_EQ(o.by_blocks, 32);
  EXPECT_EQ(o.by_barriers, 64);
  EXPECT_EQ(o.active_warps, 32);
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  EXPECT_EQ(o.registers_per_block, 2048 * 8);
  EXPECT_EQ(o.shared_bytes_per_block, 16 * 1024 + 1024);
}

TEST(Occupancy, RegistersRoundedToEightPerThread) {
  // 33 registers are allocated as 40 (33*32 = 1056 rounded up to 1280 per warp).
  Occupancy a = occupancy_sm90(launch(256, 33, 0, 0, 1));
  Occupancy b = occupancy_sm90(launch(256, 40, 0, 0, 1));
  EXPECT_EQ(a.blocks_per_sm, b.blocks_per_sm);
  EXPECT_EQ(a.registers_per_block, 1280 * 8);
  // 16384 / 1280 = 12 warps per sub-partition -> 48 warps -> 6 blocks of 8 warps.
  EXPECT_EQ(a.by_registers, 6);
  EXPECT_EQ(a.limiter, "registers");
}

TEST(Occupancy, SharedMemoryLimit) {
  // 100 KB dynamic + 1 KB reserved per block: two blocks in 228 KB.
  Occupancy o = occupancy_sm90(launch(128, 32, 0, 100 * 1024, 1));
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiter, "shared_memory");
  EXPECT_EQ(o.shared_bytes_per_block, 101 * 1024);
  EXPECT_DOUBLE_EQ(o.fraction, 8.0 / 64);
  // The reserved kilobyte matters: 113 KB per block fits twice (114 KB each), 113 KB + 1 byte once.
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 113 * 1024, 1)).blocks_per_sm, 2);
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 113 * 1024 + 1, 1)).blocks_per_sm, 1);
  // Allocation unit 128 B: 1 byte of shared memory costs 1024 + 128.
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 1, 0, 1)).shared_bytes_per_block, 1152);
}

TEST(Occupancy, WarpsLimit) {
  // 768 threads = 24 warps: two blocks (48 warps), registers would allow 5.
  Occupancy o = occupancy_sm90(launch(768, 16, 0, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiter, "warps");
  EXPECT_EQ(o.limiters, std::vector<std::string>{"warps"});
  EXPECT_DOUBLE_EQ(o.fraction, 0.75);
  // A partial warp still takes a whole warp slot: 33 threads are 2 warps.
  EXPECT_EQ(occupancy_sm90(launch(33, 16, 0, 0, 1)).warps_per_block, 2);
}

TEST(Occupancy, BlocksLimit) {
  // One-warp blocks: 32 resident blocks are only 32 of 64 warps.
  Occupancy o = occupancy_sm90(launch(32, 16, 0, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 32);
  EXPECT_EQ(o.limiter, "blocks");
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
}

TEST(Occupancy, BarriersLimit) {
  // Four named barriers per block: 64 barrier slots / 4 = 16 blocks of 2 warps.
  Occupancy o = occupancy_sm90(launch(64, 16, 0, 0, 4));
  EXPECT_EQ(o.blocks_per_sm, 16);
  EXPECT_EQ(o.limiter, "barriers");
  EXPECT_DOUBLE_EQ(o.fraction, 0.5);
  // No barrier at all: no limit.
  EXPECT_EQ(occupancy_sm90(launch(64, 16, 0, 0, 0)).by_barriers, kUnlimited);
}

TEST(Occupancy, TiesAreAllListed) {
  // 1024 threads at 32 registers: registers and warps both allow exactly 2 blocks.
  Occupancy o = occupancy_sm90(launch(1024, 32, 0, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 2);
  EXPECT_EQ(o.limiters, (std::vector<std::string>{"warps", "registers"}));
  EXPECT_EQ(o.limiter, "warps");
  EXPECT_DOUBLE_EQ(o.fraction, 1.0);
}

TEST(Occupancy, ZeroRegistersAreUnlimited) {
  Occupancy o = occupancy_sm90(launch(256, 0, 0, 0, 1));
  EXPECT_EQ(o.by_registers, kUnlimited);
  EXPECT_EQ(o.blocks_per_sm, 8);
}

// ---------------------------------------------------------------------------------------------
// Launches that cannot happen: zero blocks, the resource named.

TEST(Occupancy, BlockTooLarge) {
  Occupancy o = occupancy_sm90(launch(1025, 32, 0, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_EQ(o.limiter, "warps");
  EXPECT_NE(o.why_impossible.find("1025"), std::string::npos) << o.why_impossible;
  EXPECT_DOUBLE_EQ(o.fraction, 0);
}

TEST(Occupancy, TooManyRegistersPerThread) {
  Occupancy o = occupancy_sm90(launch(256, 256, 0, 0, 1));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_EQ(o.limiter, "registers");
  EXPECT_NE(o.why_impossible.find("255"), std::string::npos) << o.why_impossible;
}

TEST(Occupancy, TooManyRegistersPerBlock) {
  // 72 registers x 1024 threads = 73728 > 65536; 64 x 1024 fits exactly once.
  EXPECT_EQ(occupancy_sm90(launch(1024, 72, 0, 0, 1)).blocks_per_sm, 0);
  EXPECT_EQ(occupancy_sm90(launch(1024, 72, 0, 0, 1)).limiter, "registers");
  EXPECT_EQ(occupancy_sm90(launch(1024, 64, 0, 0, 1)).blocks_per_sm, 1);
  // The per-block check rounds warps up to a multiple of 4: 5 warps at 255 registers count as 8
  // (8 x 8192 = 65536 fits), 9 warps as 12 (does not).
  EXPECT_EQ(occupancy_sm90(launch(160, 255, 0, 0, 1)).blocks_per_sm, 1);
  EXPECT_EQ(occupancy_sm90(launch(288, 255, 0, 0, 1)).blocks_per_sm, 0);
}

TEST(Occupancy, TooMuchSharedMemory) {
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 227 * 1024, 1)).blocks_per_sm, 1);
  Occupancy o = occupancy_sm90(launch(128, 32, 0, 227 * 1024 + 1, 1));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_EQ(o.limiter, "shared_memory");
  EXPECT_FALSE(o.why_impossible.empty());
  // Without the opt-in the per-block limit is 48 KB.
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 48 * 1024, 1, false)).blocks_per_sm, 4);
  Occupancy d = occupancy_sm90(launch(128, 32, 0, 48 * 1024 + 1, 1, false));
  EXPECT_EQ(d.blocks_per_sm, 0);
  EXPECT_EQ(d.limiter, "shared_memory");
}

TEST(Occupancy, TooManyBarriers) {
  Occupancy o = occupancy_sm90(launch(128, 32, 0, 0, 17));
  EXPECT_EQ(o.blocks_per_sm, 0);
  EXPECT_EQ(o.limiter, "barriers");
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 0, 16)).blocks_per_sm, 4);
}

TEST(Occupancy, InvalidInput) {
  for (auto in : {launch(0, 32, 0, 0, 1), launch(-5, 32, 0, 0, 1), launch(128, -1, 0, 0, 1), launch(128, 32, -1, 0, 1)}) {
    Occupancy o = occupancy_sm90(in);
    EXPECT_EQ(o.blocks_per_sm, 0);
    EXPECT_EQ(o.limiter, "invalid_input");
  }
  // Absurd sizes neither overflow nor crash.
  EXPECT_EQ(occupancy_sm90(launch(INT_MAX, INT_MAX, INT_MAX, INT_MAX, INT_MAX)).blocks_per_sm, 0);
}

// ---------------------------------------------------------------------------------------------
// The oracle.

#if CUDAPERF_HAVE_OCC_ORACLE

cudaOccDeviceProp h200() {
  cudaOccDeviceProp p;
  p.computeMajor = 9;
  p.computeMinor = 0;
  p.maxThreadsPerBlock = 1024;
  p.maxThreadsPerMultiprocessor = 2048;
  p.regsPerBlock = 65536;
  p.regsPerMultiprocessor = 65536;
  p.warpSize = 32;
  p.sharedMemPerBlock = 48 * 1024;
  p.sharedMemPerMultiprocessor = 228 * 1024;
  p.numSms = 132;
  p.sharedMemPerBlockOptin = 227 * 1024;
  p.reservedSharedMemPerBlock = 1024;
  return p;
}

struct OracleAnswer {
  bool ok = false;
  cudaOccResult r{};
};

OracleAnswer oracle(const OccupancyInput& in) {
  cudaOccDeviceProp prop = h200();
  cudaOccFuncAttributes attr;
  attr.maxThreadsPerBlock = 1024;
  attr.numRegs = in.registers_per_thread;
  attr.sharedSizeBytes = static_cast<size_t>(in.shared_static_bytes);
  attr.partitionedGCConfig = PARTITIONED_GC_OFF;
  attr.numBlockBarriers = in.barriers;
  attr.virtualResourceCount = 0;
  // Opted in as far as cudaFuncSetAttribute allows: static + max dynamic = 227 KB.
  attr.shmemLimitConfig = in.shared_opt_in ? FUNC_SHMEM_LIMIT_OPTIN : FUNC_SHMEM_LIMIT_DEFAULT;
  int cap = in.shared_opt_in ? 227 * 1024 : 48 * 1024;
  attr.maxDynamicSharedSizeBytes = static_cast<size_t>(std::max(0, cap - in.shared_static_bytes));
  cudaOccDeviceState state;  // default carveout: the whole 228 KB
  OracleAnswer a;
  a.ok = cudaOccMaxActiveBlocksPerMultiprocessor(&a.r, &prop, &attr, &state, in.block_size,
                                                 static_cast<size_t>(in.shared_dynamic_bytes)) == CUDA_OCC_SUCCESS;
  return a;
}

std::string describe(const OccupancyInput& in) {
  std::ostringstream s;
  s << "block " << in.block_size << " regs " << in.registers_per_thread << " smem " << in.shared_static_bytes << "+"
    << in.shared_dynamic_bytes << " barriers " << in.barriers << (in.shared_opt_in ? " opt-in" : " default-limit");
  return s.str();
}

// Compares every limit, the total, the limiter set and the allocations; "" when all agree.
std::string compare(const OccupancyInput& in) {
  OracleAnswer a = oracle(in);
  Occupancy o = occupancy_sm90(in);
  std::ostringstream s;
  if (!a.ok) return describe(in) + ": oracle returned an error";
  auto check = [&](const char* what, long long ours, long long theirs) {
    if (ours != theirs) s << " " << what << " ours=" << ours << " oracle=" << theirs;
  };
  const cudaOccResult& r = a.r;
  check("blocks_per_sm", o.blocks_per_sm, r.activeBlocksPerMultiprocessor);
  check("by_registers", o.by_registers, r.blockLimitRegs);
  check("by_shared_memory", o.by_shared_memory, r.blockLimitSharedMem);
  check("by_warps", o.by_warps, r.blockLimitWarps);
  check("by_blocks", o.by_blocks, r.blockLimitBlocks);
  check("by_barriers", o.by_barriers, r.blockLimitBarriers);
  check("registers_per_block", o.registers_per_block, r.allocatedRegistersPerBlock);
  check("shared_bytes_per_block", o.shared_bytes_per_block, static_cast<long long>(r.allocatedSharedMemPerBlock));
  // Limiters: every limit equal to the total, from the oracle's per-limit answers (its bit field
  // keeps bits set before the barrier limit is applied, so it is not used directly).
  std::vector<std::string> theirs;
  const std::pair<const char*, int> lim[] = {{"warps", r.blockLimitWarps},
                                             {"registers", r.blockLimitRegs},
                                             {"shared_memory", r.blockLimitSharedMem},
                                             {"blocks", r.blockLimitBlocks},
                                             {"barriers", r.blockLimitBarriers}};
  for (const auto& [n, v] : lim)
    if (v == r.activeBlocksPerMultiprocessor) theirs.emplace_back(n);
  if (theirs != o.limiters) s << " limiters differ";
  // Where the bit field and the total agree without the barrier subtlety, check it too.
  if (r.blockLimitBarriers > r.activeBlocksPerMultiprocessor || in.barriers == 0) {
    unsigned bits = 0;
    for (const auto& n : o.limiters) {
      if (n == "warps") bits |= OCC_LIMIT_WARPS;
      if (n == "registers") bits |= OCC_LIMIT_REGISTERS;
      if (n == "shared_memory") bits |= OCC_LIMIT_SHARED_MEMORY;
      if (n == "blocks") bits |= OCC_LIMIT_BLOCKS;
      if (n == "barriers") bits |= OCC_LIMIT_BARRIERS;
    }
    check("limitingFactors", bits, r.limitingFactors);
  }
  if (o.blocks_per_sm > 0 && std::abs(o.fraction - o.blocks_per_sm * ((in.block_size + 31) / 32) / 64.0) > 1e-12)
    s << " fraction inconsistent";
  return s.str().empty() ? "" : describe(in) + ":" + s.str();
}

TEST(OccupancyOracle, H200PropertiesAreWhatTheRuntimeReports) {
  // A 256-thread, 32-register kernel: the textbook 100 %.
  OracleAnswer a = oracle(launch(256, 32, 0, 0, 1));
  ASSERT_TRUE(a.ok);
  EXPECT_EQ(a.r.activeBlocksPerMultiprocessor, 8);
}

TEST(OccupancyOracle, GridAgreesEverywhere) {
  // Registers: odd steps plus every multiple of 8 (the per-thread allocation unit), so that the
  // register-limited totals change at every allocation step.
  std::set<int> reg_set = {0, 1, 255};
  for (int r = 16; r <= 255; r += 7) reg_set.insert(r);
  for (int r = 8; r <= 255; r += 8) reg_set.insert(r);
  std::vector<int> regs(reg_set.begin(), reg_set.end());
  // Block sizes: every whole number of warps, and non-multiples of 32 around the boundaries.
  std::set<int> block_set = {1, 31, 33, 100, 255, 257, 513, 1000, 1023, 1025, 2048};
  for (int b = 32; b <= 1024; b += 32) block_set.insert(b);
  std::vector<int> blocks(block_set.begin(), block_set.end());
  const int K = 1024;
  std::vector<int> totals = {0,      1,      127,    128,    129,    1023,       1024,      1025,     4096,
                             8191,   12 * K, 16 * K, 32 * K, 47 * K, 48 * K - 1, 48 * K,    48 * K + 1, 64 * K,
                             75 * K, 100 * K, 113 * K, 113 * K + 1, 150 * K, 200 * K, 226 * K, 227 * K - 128,
                             227 * K - 1, 227 * K, 227 * K + 1, 228 * K};
  std::vector<int> barriers = {0, 1, 2, 3, 4, 5, 7, 8, 11, 16};
  size_t points = 0, mismatches = 0;
  std::string report;
  for (int total : totals) {
    // The same total split three ways between static (at most 48 KB: ptxas's limit) and dynamic.
    std::set<std::pair<int, int>> splits = {{0, total}, {std::min(total, 12 * K), total - std::min(total, 12 * K)}};
    if (total <= 48 * K) splits.insert({total, 0});
    for (auto [st, dy] : splits)
      for (bool opt_in : {true, false})
        for (int r : regs)
          for (int b : blocks)
            for (int bar : barriers) {
              if (!opt_in && (bar % 3 != 0 || r % 2 != 0)) continue;  // the default limit: a thinner grid
              OccupancyInput in = launch(b, r, st, dy, bar, opt_in);
              ++points;
              std::string m = compare(in);
              if (!m.empty()) {
                if (++mismatches <= 300) report += m + "\n";
              }
            }
  }
  EXPECT_GT(points, 100000u);
  EXPECT_EQ(mismatches, 0u) << mismatches << " of " << points << " points differ from cuda_occupancy.h:\n" << report;
}

TEST(OccupancyOracle, HandCasesAgree) {
  for (auto in : {launch(256, 64, 16 * 1024, 0, 1), launch(128, 32, 0, 100 * 1024, 1), launch(768, 16, 0, 0, 1),
                  launch(32, 16, 0, 0, 1), launch(64, 16, 0, 0, 4), launch(1025, 32, 0, 0, 1),
                  launch(128, 32, 0, 227 * 1024 + 1, 1), launch(1024, 72, 0, 0, 1), launch(160, 255, 0, 0, 1),
                  launch(288, 255, 0, 0, 1), launch(128, 32, 0, 48 * 1024 + 1, 1, false)})
    EXPECT_EQ(compare(in), "");
}

TEST(OccupancyOracle, DocumentedDeviationsBeyondWhatPtxasProduces) {
  // The header accepts 256 registers per thread on sm_90; ptxas never allocates more than 255 and
  // we call 256 impossible. Likewise more than 16 named barriers.
  OracleAnswer a = oracle(launch(256, 256, 0, 0, 1));
  ASSERT_TRUE(a.ok);
  EXPECT_GT(a.r.activeBlocksPerMultiprocessor, 0);
  EXPECT_EQ(occupancy_sm90(launch(256, 256, 0, 0, 1)).blocks_per_sm, 0);
  OracleAnswer b = oracle(launch(128, 32, 0, 0, 17));
  ASSERT_TRUE(b.ok);
  EXPECT_GT(b.r.activeBlocksPerMultiprocessor, 0);
  EXPECT_EQ(occupancy_sm90(launch(128, 32, 0, 0, 17)).blocks_per_sm, 0);
}

#else
TEST(OccupancyOracle, Unavailable) { GTEST_SKIP() << "cuda_occupancy.h not found: the oracle comparison needs the CUDA toolkit"; }
#endif


// ---------------------------------------------------------------------------------------------
// The roofline helper and the scores of the analyze report (src/analysis/report.cpp), kept here
// beside the occupancy they are reported with.

namespace ca = cudaperf::analysis;

TEST(OccupancyReportRoofline, MemoryAndComputeBound) {
  ca::DevicePeaks peaks;  // 4.0e12 B/s, 6.0e13 FLOP/s fp32, 3.0e13 fp64
  EXPECT_DOUBLE_EQ(peaks.ridge(false), 15.0);
  // saxpy at n = 4e8: 8e8 FLOP, 4.8e9 B -> memory bound, 1.2 ms.
  ca::RooflinePoint p = ca::roofline_point(8e8, 4.8e9, peaks, false);
  EXPECT_DOUBLE_EQ(*p.intensity, 8e8 / 4.8e9);
  EXPECT_DOUBLE_EQ(p.floor_s, 1.2e-3);
  EXPECT_EQ(p.bound, "memory");
  EXPECT_FALSE(p.fraction.has_value());
  // GEMM-like: 2e12 FLOP over 1.2e9 B -> compute bound at 2e12 / 6e13 s.
  ca::RooflinePoint g = ca::roofline_point(2e12, 1.2e9, peaks, false, 0.05);
  EXPECT_EQ(g.bound, "compute");
  EXPECT_DOUBLE_EQ(g.floor_s, 2e12 / 6e13);
  EXPECT_DOUBLE_EQ(*g.fraction, (2e12 / 6e13) / 0.05);
  // fp64 uses its own peak.
  EXPECT_DOUBLE_EQ(ca::roofline_point(2e12, 1.2e9, peaks, true).floor_s, 2e12 / 3e13);
  // No bytes: intensity undefined, the floor is the compute term.
  ca::RooflinePoint z = ca::roofline_point(1e9, 0, peaks, false, 1e-3);
  EXPECT_FALSE(z.intensity.has_value());
  EXPECT_DOUBLE_EQ(*z.fraction, (1e9 / 6e13) / 1e-3);
  // A non-positive measured time gives no fraction.
  EXPECT_FALSE(ca::roofline_point(1e9, 1e9, peaks, false, 0.0).fraction.has_value());
}

TEST(OccupancyReportScores, Coalescing) {
  std::vector<ca::GlobalAccess> acc(3);
  acc[0].sectors = 4, acc[0].ideal_sectors = 4;   // 1.0
  acc[1].sectors = 32, acc[1].ideal_sectors = 4;  // 0.125
  acc[2].sectors = -1, acc[2].ideal_sectors = 4;  // unknown
  ca::CoalescingSummary s = ca::coalescing_score(acc);
  EXPECT_EQ(s.known, 2);
  EXPECT_EQ(s.unknown, 1);
  EXPECT_DOUBLE_EQ(*s.score, (1.0 + 0.125) / 2);
  // A broadcast (fewer sectors than ideal) counts as 1, not more.
  std::vector<ca::GlobalAccess> b(1);
  b[0].sectors = 1, b[0].ideal_sectors = 4;
  EXPECT_DOUBLE_EQ(*ca::coalescing_score(b).score, 1.0);
  EXPECT_FALSE(ca::coalescing_score({}).score.has_value());
}

TEST(OccupancyReportScores, Intensity) {
  ca::Census c;
  c.fp32_fma = 1;        // 2 FLOP
  c.fp32_add = 1;        // 1 FLOP
  c.ld_global[4] = 2;    // 8 B
  c.st_global[16] = 1;   // 16 B
  EXPECT_DOUBLE_EQ(ca::counted_flops(c), 3);
  EXPECT_DOUBLE_EQ(ca::counted_global_bytes(c), 24);
  ca::DevicePeaks peaks;
  ca::IntensitySummary ridge = ca::intensity_score(c, peaks, false, std::nullopt);
  EXPECT_EQ(ridge.target_source, "ridge");
  EXPECT_DOUBLE_EQ(*ridge.score, (3.0 / 24) / 15.0);
  ca::IntensitySummary task = ca::intensity_score(c, peaks, false, 0.25);
  EXPECT_EQ(task.target_source, "task");
  EXPECT_DOUBLE_EQ(*task.score, 0.5);
  EXPECT_DOUBLE_EQ(*ca::intensity_score(c, peaks, false, 0.1).score, 1.0);    // capped
  EXPECT_EQ(ca::intensity_score(c, peaks, false, 100.0).target_source, "ridge");  // above the ridge: the ridge
  EXPECT_FALSE(ca::intensity_score(ca::Census{}, peaks, false, 0.25).score.has_value());  // no global bytes
}

TEST(OccupancyReportScores, Sync) {
  ca::Census c;
  c.barriers = 3;
  EXPECT_DOUBLE_EQ(ca::sync_score(c).score, 1.0);
  c.atomics_global["add"] = 2;
  c.fences = 1;
  ca::SyncSummary s = ca::sync_score(c);
  EXPECT_DOUBLE_EQ(s.score, 1.0 - 0.2 - 0.05);
  EXPECT_EQ(s.penalties.size(), 2u);
  c.atomics_global["cas"] = 10;  // capped at 0.3
  EXPECT_DOUBLE_EQ(ca::sync_score(c).score, 1.0 - 0.3 - 0.05);
  c.barriers_divergent = 1;
  EXPECT_DOUBLE_EQ(ca::sync_score(c).score, 0.0);
}

}  // namespace
