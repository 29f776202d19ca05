// A small PTX reader: kernels, their parameters and register declarations, instructions (with
// predicate guards and source lines from .loc), basic blocks and the control-flow graph.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis {

struct PtxInstruction {
  std::string opcode;                 // full dotted opcode, e.g. "ld.global.nc.v4.f32", "bra.uni", "bar.sync"
  std::vector<std::string> operands;  // as written, trimmed; memory operands keep their brackets: "[%rd4+16]"
  std::string guard;                  // "%p1", "!%p1", or "" when unpredicated
  int ptx_line = 0;                   // line in the PTX text (1-based)
  int src_file = 0, src_line = 0;     // from the latest .loc (0 when none)
  int block = -1;                     // index into PtxKernel::blocks
};

struct PtxBlock {
  std::string label;                  // "" for the entry block
  std::vector<size_t> instrs;         // indices into PtxKernel::instrs
  std::vector<int> succs, preds;
};

struct PtxKernel {
  std::string name;                   // mangled .entry name
  std::vector<std::string> params;    // parameter names in order
  std::map<std::string, std::string> reg_types;  // "%r" -> ".b32" ... per declared register prefix
  std::vector<PtxInstruction> instrs;
  std::vector<PtxBlock> blocks;
  int maxntid = 0, reqntid = 0;       // from .maxntid / .reqntid (x * y * z), 0 when absent
};

struct PtxModule {
  std::string version, target;
  std::map<int, std::string> files;   // .file index -> path
  std::vector<PtxKernel> kernels;     // .entry functions only (.func bodies are skipped)
};

// Parses nvcc -ptx output. Malformed input gives diagnostics (line numbers in the PTX), never a crash.
Result<PtxModule> parse_ptx(const std::string& text);

}  // namespace cudaperf::analysis
