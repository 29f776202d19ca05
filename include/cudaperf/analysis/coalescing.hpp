// Memory coalescing from PTX: an affine interpretation of global addresses in terms of the thread
// index, giving each global load/store its byte stride across consecutive threadIdx.x lanes, its
// width, and the 32-byte sectors one warp request touches versus the ideal.
//
// The domain. Every integer register holds, per program point, one of
//   - bottom (not yet defined),
//   - an affine form  P0 + Px*tid.x + Py*tid.y + Pz*tid.z  where each P is a polynomial with integer
//     coefficients in warp-uniform symbols (%ctaid.*, %ntid.*, %nctaid.*, kernel parameters
//     "param_K", addresses of named variables "&name") plus the special symbol "?", "some warp-uniform
//     value not known statically" (a value loaded from a uniform address, a loop-carried uniform
//     value, the warp index threadIdx.x/32, ...),
//   - top: not affine in the thread index, with the reason (gather through loaded data, divergent
//     control flow, non-affine arithmetic).
// A forward fixpoint over the CFG joins values at block entries: equal forms stay; forms with equal
// thread-index coefficients keep them and get an unknown uniform part ("?"), unless the join is the
// reconvergence of a branch on a thread-dependent predicate, which gives top; anything else is top.
// Loop headers never count as divergent joins, so a grid-stride induction variable i = tid.x + k*S
// keeps its tid.x coefficient.
//
// Assumptions (documented in notes where they matter):
//   - index arithmetic does not overflow and zero-extended values are non-negative;
//   - blockDim.x is a multiple of 32 (>= 32), so a warp is 32 consecutive threadIdx.x of one row:
//     %ntid.x counts as a multiple of 32 for alignment and the warp's first tid.x is a multiple of
//     32 (also what makes threadIdx.x/32 uniform and threadIdx.x%32 = tid.x + uniform);
//   - pointer kernel parameters (those converted with cvta.to.global) are 256-byte aligned
//     (cudaMalloc);
//   - all 32 lanes are active (predicates and bounds checks are ignored).
// Sectors: with a constant stride s, width w and a provable base offset b (mod 32) the count is the
// exact number of distinct 32-byte sectors of [b + s*i, b + s*i + w) for i = 0..31. When the base
// offset is not provable the warp's lowest address is assumed 32-byte aligned (alignment_assumed,
// noted). A symbolic stride (tid.x coefficient in uniform symbols, e.g. 4*param_2 for a column walk)
// has stride_bytes = nullopt, stride_symbolic = true, stride_expr = "4*param_2", and sectors computed
// assuming |stride| >= 32 bytes (every lane in its own sectors): 32 for w <= 32. A stride containing
// "?" or a non-affine address gives stride_bytes = nullopt, sectors = -1 and a note.
// ideal_sectors = ceil(32*w/32); a broadcast (stride 0) therefore has sectors < ideal.
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

  // Added fields.
  std::string opcode;                     // the PTX opcode, e.g. "ld.global.nc.f32"
  bool atomic = false;                    // atom.* / red.*
  bool space_inferred = false;            // generic ld/st whose address was traced to global memory
  std::string stride_expr;                // tid.x coefficient in bytes as text: "4", "4*param_2", "?"; "" when not affine
  bool stride_symbolic = false;           // stride depends on uniform symbols (parameters, launch dims)
  bool alignment_assumed = false;         // base offset not provable: lowest warp address assumed 32-B aligned
  std::optional<int> base_offset;         // provable lane-0 address mod 32, when known
  bool uses_tid_yz = false;               // the address also depends on threadIdx.y / threadIdx.z
};

std::vector<GlobalAccess> coalescing(const PtxKernel& k);

// The abstract value of the memory operand of instruction `instr` (after the fixpoint), as text:
// uniform part then thread-index terms, e.g. "4*%ctaid.x*%ntid.x + param_0 + 4*tid.x",
// "top(<reason>)", "bottom", or "no memory operand". For tests and diagnostics.
std::string address_form(const PtxKernel& k, size_t instr);

}  // namespace cudaperf::analysis
