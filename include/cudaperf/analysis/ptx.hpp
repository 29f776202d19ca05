// A small PTX reader: kernels, their parameters and register declarations, instructions (with
// predicate guards and source lines from .loc), basic blocks and the control-flow graph.
//
// It reads what nvcc -ptx emits (and hand-written PTX in the same style): comments, multi-line
// statements, nested { } scopes (call sequences, inline asm), .pragma, variable declarations inside
// and outside functions, .section blocks (skipped). It does not check instruction semantics.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"

namespace cudaperf::analysis {

struct PtxInstruction {
  std::string opcode;                 // full dotted opcode, e.g. "ld.global.nc.v4.f32", "bra.uni", "bar.sync"
  std::vector<std::string> operands;  // as written, trimmed; memory operands keep their brackets: "[%rd4+16]",
                                      // vector operands stay one operand: "{%f1, %f2}"
  std::string guard;                  // "%p1", "!%p1", or "" when unpredicated
  int ptx_line = 0;                   // line in the PTX text (1-based) where the statement starts
  int src_file = 0, src_line = 0;     // from the latest .loc (0 when none); for code inlined from a header
                                      // (.loc ..., inlined_at ...) this is the outermost call site, i.e. the
                                      // line in the user's file
  int loc_file = 0, loc_line = 0;     // the latest .loc exactly as written (a header line when inlined)
  int block = -1;                     // index into PtxKernel::blocks
};

struct PtxBlock {
  std::string label;                  // "" for the entry block and for unlabelled fall-through blocks
  std::vector<size_t> instrs;         // indices into PtxKernel::instrs
  std::vector<int> succs, preds;      // CFG edges (indices into PtxKernel::blocks), no duplicates
};

// A variable declared with a state space (.shared, .global, .const, .local), in a function or at module level.
struct PtxVariable {
  std::string space;                  // ".shared", ".global", ".const", ".local"
  std::string type;                   // ".b8", ".f32", ...
  std::string name;
  int align = 0;                      // from .align (0 when absent)
  long long bytes = 0;                // element size x array extent; 0 for an unsized extern array ("x[]")
  bool is_extern = false;
  int ptx_line = 0;
};

struct PtxKernel {
  std::string name;                   // mangled .entry name
  std::vector<std::string> params;    // parameter names in order
  std::vector<std::string> param_types;  // parallel to params: ".u64", ".align 8 .b8 [16]", ...
  std::map<std::string, std::string> reg_types;  // "%r" -> ".b32" ... per declared register prefix
  std::vector<PtxInstruction> instrs;
  std::vector<PtxBlock> blocks;       // blocks[0] is the entry block
  int maxntid = 0, reqntid = 0;       // from .maxntid / .reqntid (x * y * z), 0 when absent
  int minnctapersm = 0, maxnreg = 0;  // from .minnctapersm / .maxnreg, 0 when absent
  std::vector<PtxVariable> vars;      // variables declared inside the body (demoted __shared__, local depot, ...)
  int ptx_line = 0;                   // line of the .entry / .func directive
  bool is_entry = true;               // false for a .func
};

struct PtxModule {
  std::string version, target;
  int address_size = 0;
  std::map<int, std::string> files;   // .file index -> path
  std::vector<PtxKernel> kernels;     // .entry functions only
  std::vector<PtxKernel> funcs;       // .func bodies, parsed the same way (not analysed by the census)
  std::vector<PtxVariable> globals;   // module-level .shared/.global/.const declarations
};

// Parses nvcc -ptx output. Malformed input gives diagnostics (line numbers in the PTX, file set to
// `source_name`), never a crash or an escaping exception.
Result<PtxModule> parse_ptx(const std::string& text, const std::string& source_name = "<ptx>");

// Helpers shared by the analyses.
// The register names (with their '%') an operand mentions: "[%rd4+16]" -> {"%rd4"}, "{%f1, %f2}" ->
// {"%f1","%f2"}, "%r1|%p1" -> {"%r1","%p1"}, "%tid.x" -> {"%tid.x"}.
std::vector<std::string> operand_registers(const std::string& operand);
// The dot-separated parts of an opcode: "ld.global.nc.v4.f32" -> {"ld","global","nc","v4","f32"}.
std::vector<std::string> opcode_parts(const std::string& opcode);
// The size in bytes of an instruction type part: "f32" -> 4, "bf16x2" -> 4, "b128" -> 16; 0 for a
// part that is not a type ("global", "v4", "pred").
int type_bytes(const std::string& part);

// Dominators. A graph is given by successor lists (node v's successors are succs[v], indices into
// succs; edges to nodes out of range are ignored). Cooper, Harvey and Kennedy, "A Simple, Fast
// Dominance Algorithm" (2001): idom[root] == root, idom[v] == -1 when v is unreachable from root;
// unreachable predecessors do not constrain a node's dominators.
std::vector<int> immediate_dominators(const std::vector<std::vector<int>>& succs, int root);
// The same on the reversed graph: ipdom[exit] == exit, ipdom[v] == -1 when v cannot reach exit.
std::vector<int> immediate_post_dominators(const std::vector<std::vector<int>>& succs, int exit);
// The kernel's blocks as successor lists (PtxBlock::succs).
std::vector<std::vector<int>> block_successors(const PtxKernel& k);
// The same plus one virtual exit node, index k.blocks.size(): every block that can leave the kernel
// (no successor, or ending with a guarded ret/exit/trap) has an edge to it, and so does every block
// that otherwise could not reach it (an endless loop), so that every block has a post-dominator.
std::vector<std::vector<int>> block_successors_with_exit(const PtxKernel& k);

}  // namespace cudaperf::analysis
