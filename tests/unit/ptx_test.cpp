// The PTX reader (blocks, CFG, guards, .loc, operands, malformed input) and census rules that the
// data-driven cases cannot reach from CUDA source (hand-written PTX).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cudaperf/analysis/census.hpp"
#include "cudaperf/analysis/ptx.hpp"

using namespace cudaperf::analysis;

namespace {

const char* kHeader = ".version 9.0\n.target sm_90\n.address_size 64\n";  // lines 1-3

PtxModule must_parse(const std::string& text) {
  auto r = parse_ptx(text);
  std::string msg;
  for (const auto& d : r.errors()) msg += "\n  " + d.to_string();
  EXPECT_TRUE(r.ok()) << "parse failed:" << msg;
  return r.ok() ? r.value() : PtxModule{};
}

// A kernel wrapped around `body`; the body's first line is PTX line 13.
std::string kernel(const std::string& body, const std::string& extra_regs = "") {
  return std::string(kHeader) +
         ".visible .entry k(\n\t.param .u64 k_param_0,\n\t.param .u32 k_param_1\n)\n{\n"
         "\t.reg .pred %p<8>;\n\t.reg .b32 %r<32>;\n\t.reg .b64 %rd<16>;\n\t.reg .f32 %f<16>;\n" +
         extra_regs + body + "}\n";
}

const PtxInstruction* find_op(const PtxKernel& k, const std::string& opcode, int nth = 0) {
  for (const auto& in : k.instrs)
    if (in.opcode == opcode && nth-- == 0) return &in;
  return nullptr;
}

// ------------------------------------------------------------------------------------------------
// Reader

TEST(PtxReader, ModuleHeaderFilesAndKernelSignature) {
  std::string text = std::string(kHeader) +
                     "\t// .globl k\n"
                     ".visible .entry _Z3fooPfi(\n"
                     "\t.param .u64 _Z3fooPfi_param_0,\n"
                     "\t.param .align 8 .b8 _Z3fooPfi_param_1[16]\n"
                     ")\n"
                     ".maxntid 256, 2, 1\n"
                     ".minnctapersm 3\n"
                     "{\n"
                     "\t.reg .pred \t%p<2>;\n"
                     "\t.reg .b32 \t%r<5>;\n"
                     "\tret;\n"
                     "}\n"
                     ".visible .entry bar()\n.reqntid 128\n{\n\tret;\n}\n"
                     "\t.file\t1 \"/src/foo.cu\"\n"
                     "\t.file\t2 \"/usr/include/x.h\", 1700000000, 1234\n";
  PtxModule m = must_parse(text);
  EXPECT_EQ(m.version, "9.0");
  EXPECT_EQ(m.target, "sm_90");
  EXPECT_EQ(m.address_size, 64);
  ASSERT_EQ(m.files.size(), 2u);
  EXPECT_EQ(m.files[1], "/src/foo.cu");
  EXPECT_EQ(m.files[2], "/usr/include/x.h");
  ASSERT_EQ(m.kernels.size(), 2u);
  const PtxKernel& k = m.kernels[0];
  EXPECT_EQ(k.name, "_Z3fooPfi");
  EXPECT_EQ(k.ptx_line, 5);
  ASSERT_EQ(k.params.size(), 2u);
  EXPECT_EQ(k.params[0], "_Z3fooPfi_param_0");
  EXPECT_EQ(k.params[1], "_Z3fooPfi_param_1");
  EXPECT_EQ(k.param_types[0], ".u64");
  EXPECT_EQ(k.param_types[1], ".align 8 .b8 [16]");
  EXPECT_EQ(k.maxntid, 512);
  EXPECT_EQ(k.minnctapersm, 3);
  EXPECT_EQ(k.reqntid, 0);
  EXPECT_EQ(k.reg_types.at("%p"), ".pred");
  EXPECT_EQ(k.reg_types.at("%r"), ".b32");
  EXPECT_EQ(m.kernels[1].name, "bar");
  EXPECT_TRUE(m.kernels[1].params.empty());
  EXPECT_EQ(m.kernels[1].reqntid, 128);
}

TEST(PtxReader, InstructionsGuardsAndOperands) {
  PtxModule m = must_parse(kernel(
      "\tmov.u32 \t%r1, %tid.x;\n"
      "\tsetp.lt.s32 \t%p1|%p2, %r1, 64;\n"
      "\t@%p1 ld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd4+16];\n"
      "\t@!%p1 st.shared.v2.f32 \t[%r2], {%f1,%f2};\n"
      "\tshfl.sync.down.b32\t%r10|%p3, %r5, 16, 31, -1;\n"
      "\tld.shared::cta.u32 %r3, [%r2];\n"
      "\tret;\n"));
  ASSERT_EQ(m.kernels.size(), 1u);
  const PtxKernel& k = m.kernels[0];
  ASSERT_EQ(k.instrs.size(), 7u);
  EXPECT_EQ(k.instrs[0].opcode, "mov.u32");
  EXPECT_EQ(k.instrs[0].operands, (std::vector<std::string>{"%r1", "%tid.x"}));
  EXPECT_EQ(k.instrs[0].guard, "");
  EXPECT_EQ(k.instrs[1].operands[0], "%p1|%p2");
  const auto& ld = k.instrs[2];
  EXPECT_EQ(ld.opcode, "ld.global.nc.v4.f32");
  EXPECT_EQ(ld.guard, "%p1");
  EXPECT_EQ(ld.operands, (std::vector<std::string>{"{%f1, %f2, %f3, %f4}", "[%rd4+16]"}));
  const auto& st = k.instrs[3];
  EXPECT_EQ(st.guard, "!%p1");
  EXPECT_EQ(st.operands, (std::vector<std::string>{"[%r2]", "{%f1,%f2}"}));
  EXPECT_EQ(k.instrs[4].operands.size(), 5u);
  EXPECT_EQ(k.instrs[5].opcode, "ld.shared::cta.u32");
  EXPECT_EQ(k.instrs[2].ptx_line, 15);
  for (const auto& in : k.instrs) EXPECT_EQ(in.block, 0);
}

TEST(PtxReader, LocLinesAttachToFollowingInstructions) {
  PtxModule m = must_parse(kernel(
      "\tmov.u32 \t%r1, %tid.x;\n"
      "\t.loc\t1 12 3\n"
      "\tadd.s32 \t%r2, %r1, 1;\n"
      "\tadd.s32 \t%r3, %r2, 1;\n"
      "\t.loc\t2 84 3, function_name $L__info_string0, inlined_at 1 14 5\n"
      "\tatom.global.add.u32 \t%r4, [%rd1], 1;\n"
      "\t.loc\t2 90 1, function_name $L__info_string1, inlined_at 2 84 3\n"
      "\tadd.s32 \t%r5, %r4, 1;\n"
      "\t.loc\t1 20 1\n"
      "\tret;\n"));
  const PtxKernel& k = m.kernels[0];
  ASSERT_EQ(k.instrs.size(), 6u);
  EXPECT_EQ(k.instrs[0].src_line, 0);
  EXPECT_EQ(k.instrs[1].src_line, 12);
  EXPECT_EQ(k.instrs[1].src_file, 1);
  EXPECT_EQ(k.instrs[2].src_line, 12);
  // inlined from a header: the user's line is the call site, the header line stays in loc_*
  EXPECT_EQ(k.instrs[3].src_file, 1);
  EXPECT_EQ(k.instrs[3].src_line, 14);
  EXPECT_EQ(k.instrs[3].loc_file, 2);
  EXPECT_EQ(k.instrs[3].loc_line, 84);
  // a chain of inlined_at resolves to the outermost call site
  EXPECT_EQ(k.instrs[4].src_line, 14);
  EXPECT_EQ(k.instrs[4].loc_line, 90);
  EXPECT_EQ(k.instrs[5].src_line, 20);
}

// 0: entry, ends with a guarded bra -> {2 ($L_else), 1}
// 1: then, ends with bra.uni -> {3}
// 2: $L_else, falls through -> {3}
// 3: $L_join: loop header and body, guarded bra back -> {3, 4}
// 4: guarded ret -> {5} (and the exit)
// 5: unlabelled after the guarded ret; ret -> {}
const char* kBranchesAndLoop =
    "\tmov.u32 \t%r1, %tid.x;\n"
    "\tsetp.lt.s32 \t%p1, %r1, 64;\n"
    "\t@%p1 bra \t$L_else;\n"
    "\tadd.s32 \t%r2, %r1, 1;\n"
    "\tbra.uni \t$L_join;\n"
    "$L_else:\n"
    "\tadd.s32 \t%r2, %r1, 2;\n"
    "$L_join:\n"
    "\tadd.s32 \t%r2, %r2, -1;\n"
    "\tsetp.ne.s32 \t%p2, %r2, 0;\n"
    "\t@%p2 bra \t$L_join;\n"
    "\tsetp.eq.s32 \t%p3, %r1, 0;\n"
    "\t@!%p3 ret;\n"
    "\tst.global.u32 \t[%rd1], %r2;\n"
    "\tret;\n";

TEST(PtxReader, BlocksAndControlFlowGraph) {
  PtxModule m = must_parse(kernel(kBranchesAndLoop));
  const PtxKernel& k = m.kernels[0];
  ASSERT_EQ(k.blocks.size(), 6u);
  EXPECT_EQ(k.blocks[0].label, "");
  EXPECT_EQ(k.blocks[2].label, "$L_else");
  EXPECT_EQ(k.blocks[3].label, "$L_join");
  EXPECT_EQ(k.blocks[5].label, "");
  EXPECT_EQ(k.blocks[0].succs, (std::vector<int>{2, 1}));
  EXPECT_EQ(k.blocks[1].succs, (std::vector<int>{3}));
  EXPECT_EQ(k.blocks[2].succs, (std::vector<int>{3}));
  EXPECT_EQ(k.blocks[3].succs, (std::vector<int>{3, 4}));
  EXPECT_EQ(k.blocks[4].succs, (std::vector<int>{5}));
  EXPECT_TRUE(k.blocks[5].succs.empty());
  EXPECT_EQ(k.blocks[3].preds, (std::vector<int>{1, 2, 3}));
  EXPECT_EQ(k.blocks[0].instrs.size(), 3u);
  EXPECT_EQ(k.blocks[3].instrs.size(), 3u);
  EXPECT_EQ(k.instrs[k.blocks[1].instrs.back()].opcode, "bra.uni");
  for (size_t b = 0; b < k.blocks.size(); ++b)
    for (size_t i : k.blocks[b].instrs) EXPECT_EQ(k.instrs[i].block, static_cast<int>(b));
}

TEST(PtxReader, CommentsMultiLineStatementsScopesAndDeclarations) {
  std::string text = std::string(kHeader) +
                     "/* a block comment\n   over two lines */\n"
                     ".extern .func (.param .b32 func_retval0) vprintf\n(\n.param .b64 a,\n.param .b64 b\n);\n"
                     ".global .align 4 .b8 table[12] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};\n"
                     ".extern .shared .align 16 .b8 dyn[];\n"
                     ".const .align 4 .f32 scale = 0f3F800000;\n"
                     ".func  (.param .b32 func_retval0) _Z6helperf(\n\t.param .b32 _Z6helperf_param_0\n)\n{\n"
                     "\t.reg .f32 \t%f<3>;\n\tld.param.f32 \t%f1, [_Z6helperf_param_0];\n"
                     "\tst.param.f32 \t[func_retval0+0], %f1;\n\tret;\n}\n"
                     ".visible .entry k()\n{\n"
                     "\t.reg .f32 %f<6>;\n\t.reg .b32 %r<4>;\n"
                     "\t.shared .align 4 .b8 tile[1024];\n"
                     "\t.local .align 16 .b8 __local_depot0[128];\n"
                     "\t.pragma \"nounroll\";\n"
                     "\tmov.f32 %f3, 0f3F800000; // trailing comment with ; and { braces }\n"
                     "\t{ // callseq 0, 0\n"
                     "\t.reg .b32 temp_param_reg;\n"
                     "\t.param .b32 param0;\n"
                     "\tst.param.f32 \t[param0+0], %f3;\n"
                     "\t.param .b32 retval0;\n"
                     "\tcall.uni (retval0), \n\t_Z6helperf, \n\t(\n\tparam0\n\t);\n"
                     "\tld.param.f32 \t%f4, [retval0+0];\n"
                     "\t} // callseq 0\n"
                     "\t{add.f16x2 %r1,%r2,%r3;\n}\n"
                     "\tadd.f32 /* inline */ %f5,\n\t\t%f4,\n\t\t%f3;\n"
                     "\tret;\n"
                     "}\n"
                     "\t.section\t.debug_str\n\t{\n$L__info_string0:\n.b8 95,90,78,0\n\t}\n";
  PtxModule m = must_parse(text);
  ASSERT_EQ(m.kernels.size(), 1u);
  ASSERT_EQ(m.funcs.size(), 1u);
  EXPECT_EQ(m.funcs[0].name, "_Z6helperf");
  EXPECT_FALSE(m.funcs[0].is_entry);
  EXPECT_EQ(m.funcs[0].params, (std::vector<std::string>{"_Z6helperf_param_0"}));
  ASSERT_EQ(m.globals.size(), 3u);
  EXPECT_EQ(m.globals[0].name, "table");
  EXPECT_EQ(m.globals[0].space, ".global");
  EXPECT_EQ(m.globals[0].bytes, 12);
  EXPECT_EQ(m.globals[1].name, "dyn");
  EXPECT_TRUE(m.globals[1].is_extern);
  EXPECT_EQ(m.globals[1].bytes, 0);
  EXPECT_EQ(m.globals[1].align, 16);
  EXPECT_EQ(m.globals[2].space, ".const");
  const PtxKernel& k = m.kernels[0];
  ASSERT_EQ(k.vars.size(), 2u);
  EXPECT_EQ(k.vars[0].name, "tile");
  EXPECT_EQ(k.vars[0].bytes, 1024);
  EXPECT_EQ(k.vars[1].space, ".local");
  std::vector<std::string> ops;
  for (const auto& in : k.instrs) ops.push_back(in.opcode);
  EXPECT_EQ(ops, (std::vector<std::string>{"mov.f32", "st.param.f32", "call.uni", "ld.param.f32", "add.f16x2",
                                           "add.f32", "ret"}));
  const auto* call = find_op(k, "call.uni");
  ASSERT_NE(call, nullptr);
  EXPECT_EQ(call->operands, (std::vector<std::string>{"(retval0)", "_Z6helperf", "( param0 )"}));
  const auto* add = find_op(k, "add.f32");
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->operands, (std::vector<std::string>{"%f5", "%f4", "%f3"}));
  EXPECT_EQ(add->ptx_line, 45);
}

TEST(PtxReader, RegistersOfNestedScopesAreRenamed) {
  PtxModule m = must_parse(kernel(
      "\tsetp.ne.s32 \t%p1, %r1, 0;\n"
      "\t{\n\t.reg .pred \t%p1;\n\tsetp.ne.u32 \t%p1, %r6, 0;\n\tbar.red.popc.u32 \t%r7, 0, %p1;\n\t}\n"
      "\t@%p1 bra \t$L_end;\n"
      "$L_end:\n\tret;\n"));
  const PtxKernel& k = m.kernels[0];
  ASSERT_GE(k.instrs.size(), 4u);
  EXPECT_EQ(k.instrs[0].operands[0], "%p1");
  EXPECT_EQ(k.instrs[1].operands[0], "%p1__s1");
  EXPECT_EQ(k.instrs[2].operands[2], "%p1__s1");
  EXPECT_EQ(k.instrs[3].guard, "%p1");
}

TEST(PtxReader, Helpers) {
  EXPECT_EQ(operand_registers("[%rd4+16]"), (std::vector<std::string>{"%rd4"}));
  EXPECT_EQ(operand_registers("{%f1, %f2}"), (std::vector<std::string>{"%f1", "%f2"}));
  EXPECT_EQ(operand_registers("%r1|%p1"), (std::vector<std::string>{"%r1", "%p1"}));
  EXPECT_EQ(operand_registers("%tid.x"), (std::vector<std::string>{"%tid.x"}));
  EXPECT_EQ(operand_registers("0f3F800000"), (std::vector<std::string>{}));
  EXPECT_EQ(opcode_parts("ld.global.nc.v4.f32"), (std::vector<std::string>{"ld", "global", "nc", "v4", "f32"}));
}

// ------------------------------------------------------------------------------------------------
// Dominators and post-dominators (Cooper-Harvey-Kennedy)

using Graph = std::vector<std::vector<int>>;
using Ids = std::vector<int>;

TEST(Dominators, Diamond) {
  const Graph g = {{1, 2}, {3}, {3}, {}};  // 0 -> 1 | 2 -> 3
  EXPECT_EQ(immediate_dominators(g, 0), (Ids{0, 0, 0, 0}));
  EXPECT_EQ(immediate_post_dominators(g, 3), (Ids{3, 3, 3, 3}));
}

TEST(Dominators, LoopWithABranchInside) {
  // 0 -> 1 (header) -> 2 | 5 (exit); 2 -> 3 | 4; 3 -> 4; 4 -> 1 (latch)
  const Graph g = {{1}, {2, 5}, {3, 4}, {4}, {1}, {}};
  EXPECT_EQ(immediate_dominators(g, 0), (Ids{0, 0, 1, 2, 2, 1}));
  EXPECT_EQ(immediate_post_dominators(g, 5), (Ids{1, 5, 4, 4, 1, 5}));
  // a self-loop dominates and post-dominates nothing new
  const Graph self = {{1}, {1, 2}, {}};
  EXPECT_EQ(immediate_dominators(self, 0), (Ids{0, 0, 1}));
  EXPECT_EQ(immediate_post_dominators(self, 2), (Ids{1, 2, 2}));
}

TEST(Dominators, MultipleExitsThroughAVirtualExit) {
  // 0 -> 1 | 2; 1 -> 3 | 4; 2 -> 4; 3 and 4 leave (edges to the virtual exit 5)
  const Graph g = {{1, 2}, {3, 4}, {4}, {5}, {5}, {}};
  EXPECT_EQ(immediate_dominators(g, 0), (Ids{0, 0, 0, 1, 0, 0}));
  EXPECT_EQ(immediate_post_dominators(g, 5), (Ids{5, 5, 4, 5, 5, 5}));
}

TEST(Dominators, UnreachableNodesAndOutOfRangeEdges) {
  // 3 is unreachable from 0 but jumps into 1; it must not change 1's dominator. 2 -> 7 is ignored.
  const Graph g = {{1}, {2}, {7}, {1}};
  EXPECT_EQ(immediate_dominators(g, 0), (Ids{0, 0, 1, -1}));
  EXPECT_EQ(immediate_post_dominators(g, 2), (Ids{1, 2, 2, 1}));
  const Graph cut = {{1}, {}, {1}};  // nothing else reaches node 0
  EXPECT_EQ(immediate_post_dominators(cut, 0), (Ids{0, -1, -1}));
  EXPECT_EQ(immediate_dominators(g, 9), (Ids{-1, -1, -1, -1}));
  EXPECT_TRUE(immediate_dominators(Graph{}, 0).empty());
}

TEST(Dominators, KernelBlocksWithTheVirtualExit) {
  PtxModule m = must_parse(kernel(kBranchesAndLoop));
  const PtxKernel& k = m.kernels[0];
  ASSERT_EQ(k.blocks.size(), 6u);
  EXPECT_EQ(block_successors(k), (Graph{{2, 1}, {3}, {3}, {3, 4}, {5}, {}}));
  // the guarded ret (block 4) and the final ret (block 5) reach the virtual exit 6
  const Graph g = block_successors_with_exit(k);
  EXPECT_EQ(g, (Graph{{2, 1}, {3}, {3}, {3, 4}, {5, 6}, {6}, {}}));
  EXPECT_EQ(immediate_dominators(g, 0), (Ids{0, 0, 0, 0, 3, 4, 4}));
  EXPECT_EQ(immediate_post_dominators(g, 6), (Ids{3, 3, 3, 4, 6, 6, 6}));

  // An endless loop ($L_spin, block 2) gets an edge to the exit so that everything has a
  // post-dominator.
  m = must_parse(kernel(
      "\tmov.u32 \t%r1, %tid.x;\n\tsetp.lt.s32 \t%p1, %r1, 64;\n\t@%p1 bra \t$L_spin;\n"
      "\tbar.sync \t0;\n\tret;\n$L_spin:\n\tbar.sync \t0;\n\tbra.uni \t$L_spin;\n"));
  const Graph spin = block_successors_with_exit(m.kernels[0]);
  EXPECT_EQ(spin, (Graph{{2, 1}, {3}, {2, 3}, {}}));
  EXPECT_EQ(immediate_post_dominators(spin, 3), (Ids{3, 3, 3, 3}));
}

// ------------------------------------------------------------------------------------------------
// Malformed input: diagnostics with PTX line numbers, never a crash.

std::vector<cudaperf::Diagnostic> errors_of(const std::string& text) {
  auto r = parse_ptx(text, "bad.ptx");
  EXPECT_FALSE(r.ok()) << "expected a parse error for:\n" << text;
  return r.errors();
}

bool mentions(const std::vector<cudaperf::Diagnostic>& errs, int line, const std::string& needle) {
  for (const auto& d : errs)
    if (d.line == line && d.message.find(needle) != std::string::npos && d.file == "bad.ptx") return true;
  std::string all;
  for (const auto& d : errs) all += "\n  " + d.to_string();
  ADD_FAILURE() << "no diagnostic at line " << line << " mentioning '" << needle << "'; got:" << all;
  return false;
}

TEST(PtxReaderErrors, TruncatedFunction) {
  // the body stops mid-statement
  auto errs = errors_of(std::string(kHeader) + ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r1, ");
  mentions(errs, 7, "unterminated statement");
  // the body stops after a complete statement
  errs = errors_of(std::string(kHeader) + ".visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tret;\n");
  mentions(errs, 4, "not closed");
}

TEST(PtxReaderErrors, UnbalancedBraces) {
  auto errs = errors_of(kernel("\tret;\n") + "}\n");
  mentions(errs, 15, "unbalanced '}'");
  errs = errors_of(kernel("\tld.global.v2.f32 {%f1, %f2, [%rd1];\n\tret;\n"));
  mentions(errs, 13, "unbalanced '{'");
  errs = errors_of(kernel("\tld.global.f32 %f1, [%rd1;\n\tret;\n"));
  mentions(errs, 13, "malformed operands");
}

TEST(PtxReaderErrors, GarbageAndBadStatements) {
  mentions(errors_of("hello world;\n"), 1, "outside any function");
  mentions(errors_of(""), 1, "no .version");
  mentions(errors_of(std::string(kHeader) + "/* never closed\n"), 4, "unterminated /* comment");
  mentions(errors_of(kernel("\t@%p1 bra \t$L_nowhere;\n\tret;\n")), 13, "unknown label '$L_nowhere'");
  mentions(errors_of(kernel("\t123abc %r1;\n\tret;\n")), 13, "not an instruction");
  mentions(errors_of(kernel("\t@%p1 ;\n\tret;\n")), 13, "guard without an instruction");
  mentions(errors_of(kernel("\tmov.u32 %r1, 1\n}\n")), 13, "missing ';' before '}'");
  mentions(errors_of(kernel("$L_a:\n\tret;\n$L_a:\n\tret;\n")), 15, "duplicate label");
  mentions(errors_of(kernel("\t.loc one two\n\tret;\n")), 13, "malformed .loc");
  mentions(errors_of(std::string(kHeader) + "$L_x:\n"), 4, "outside any function");
  mentions(errors_of(std::string(kHeader) + ".visible .entry k()\n"), 4, "unterminated statement");
}

TEST(PtxReaderErrors, EveryPrefixAndBinaryNoiseNeverCrash) {
  const std::string good = kernel(
      "\t.loc 1 3 0\n\tmov.u32 \t%r1, %tid.x;\n\tsetp.lt.s32 \t%p1, %r1, 64;\n\t@%p1 bra \t$L_a;\n"
      "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd4+16];\n\t{ .reg .pred %p1; setp.ne.u32 %p1, %r1, 0; }\n"
      "$L_a: /* c */\n\tbar.sync \t0;\n\tret;\n") + "\t.section\t.debug_str\n\t{\n.b8 1,2\n\t}\n";
  ASSERT_TRUE(parse_ptx(good).ok());
  for (size_t n = 0; n < good.size(); ++n) {
    auto r = parse_ptx(good.substr(0, n));
    if (r.ok()) {
      for (const auto& k : r.value().kernels) census(k);
    } else {
      for (const auto& d : r.errors()) EXPECT_GE(d.line, 0);
    }
  }
  std::string noise;
  unsigned x = 12345;
  for (int i = 0; i < 4000; ++i) {
    x = x * 1103515245u + 12345u;
    noise += static_cast<char>((x >> 16) & 0xff);
  }
  EXPECT_FALSE(parse_ptx(noise).ok());
  EXPECT_FALSE(parse_ptx(std::string(kHeader) + noise).ok());
  EXPECT_FALSE(parse_ptx(std::string(kHeader) + std::string(5000, '{')).ok());
  EXPECT_FALSE(parse_ptx(std::string(kHeader) + std::string(5000, '}')).ok());
}

// ------------------------------------------------------------------------------------------------
// Census rules on hand-written PTX

Census census_of(const std::string& body) {
  PtxModule m = must_parse(kernel(body));
  return m.kernels.empty() ? Census{} : census(m.kernels[0]);
}

TEST(CensusUnit, PredicatedBarrierOnThreadIndexIsDivergent) {
  Census c = census_of(
      "\t.loc 1 5 1\n\tmov.u32 \t%r1, %tid.y;\n\tsetp.eq.s32 \t%p1, %r1, 0;\n"
      "\t.loc 1 6 1\n\t@%p1 bar.sync \t0;\n\tret;\n");
  EXPECT_EQ(c.barriers, 1);
  EXPECT_EQ(c.barriers_divergent, 1);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_EQ(c.findings[0].src_line, 6);
  EXPECT_NE(c.findings[0].message.find("predicated on threadIdx"), std::string::npos) << c.findings[0].message;
  // the same guard on a block-uniform value is fine
  c = census_of("\tmov.u32 \t%r1, %ctaid.x;\n\tsetp.eq.s32 \t%p1, %r1, 0;\n\t@%p1 bar.sync \t0;\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 0);
}

TEST(CensusUnit, ValueSetUnderDivergentBranchTaintsLaterBranch) {
  // r2 is 1 or 2 depending on which side of a tid branch ran (no data flow from %tid to r2).
  const std::string body =
      "\tmov.u32 \t%r1, %tid.x;\n\tsetp.lt.s32 \t%p1, %r1, 64;\n\tmov.u32 \t%r2, 1;\n"
      "\t@%p1 bra \t$L_a;\n\tmov.u32 \t%r2, 2;\n"
      "$L_a:\n\tsetp.eq.s32 \t%p2, %r2, 2;\n\t@%p2 bra \t$L_b;\n"
      "\t.loc 1 9 1\n\tbar.sync \t0;\n"
      "$L_b:\n\tret;\n";
  Census c = census_of(body);
  EXPECT_EQ(c.barriers_divergent, 1);
  ASSERT_EQ(c.findings.size(), 1u);
  EXPECT_NE(c.findings[0].message.find("thread-dependent control flow"), std::string::npos) << c.findings[0].message;
}

TEST(CensusUnit, BarrierAfterDivergentRegionIsNotDivergent) {
  Census c = census_of(
      "\tmov.u32 \t%r1, %laneid;\n\tsetp.lt.s32 \t%p1, %r1, 16;\n\t@%p1 bra \t$L_a;\n"
      "\tadd.f32 \t%f1, %f1, %f2;\n$L_a:\n\tbar.sync \t0;\n\tret;\n");
  EXPECT_EQ(c.barriers, 1);
  EXPECT_EQ(c.barriers_divergent, 0);
  EXPECT_EQ(c.fp32_add, 1);
}

TEST(CensusUnit, LocalMemoryAndCallResultsCarryTaint) {
  // a tid value stored to local memory and read back decides the branch
  Census c = census_of(
      "\tmov.u32 \t%r1, %tid.x;\n\tst.local.u32 \t[%rd1], %r1;\n\tld.local.u32 \t%r2, [%rd1];\n"
      "\tsetp.eq.s32 \t%p1, %r2, 0;\n\t@%p1 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 1);
  EXPECT_EQ(c.st_local.at(4), 1);
  // the same through a call's return value
  c = census_of(
      "\tmov.u32 \t%r1, %tid.x;\n\t{\n\t.param .b32 param0;\n\tst.param.b32 \t[param0+0], %r1;\n"
      "\t.param .b32 retval0;\n\tcall.uni (retval0), f, (param0);\n\tld.param.b32 \t%r2, [retval0+0];\n\t}\n"
      "\tsetp.eq.s32 \t%p1, %r2, 0;\n\t@%p1 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 1);
  EXPECT_EQ(c.ld_param, 1);
  // a kernel parameter is uniform even when call arguments are thread-dependent
  c = census_of(
      "\tmov.u32 \t%r1, %tid.x;\n\tst.param.b32 \t[param0+0], %r1;\n\tld.param.u32 \t%r2, [k_param_1];\n"
      "\tsetp.eq.s32 \t%p1, %r2, 0;\n\t@%p1 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 0);
}

TEST(CensusUnit, BarRedResultIsUniformButItsScopedInputIsNot) {
  const std::string prologue =
      "\tmov.u32 \t%r1, %tid.x;\n\tsetp.ne.s32 \t%p1, %r1, 0;\n\tselp.u32 \t%r6, 1, 0, %p1;\n"
      "\tmov.u32 \t%r9, %ctaid.x;\n\tsetp.ne.s32 \t%p3, %r9, 0;\n"
      "\t{\n\t.reg .pred \t%p3;\n\t.reg .pred \t%p2;\n\tsetp.ne.u32 \t%p3, %r6, 0;\n"
      "\tbar.red.or.pred \t%p2, 0, %p3;\n\tselp.u32 \t%r7, 1, 0, %p2;\n\t}\n";
  // branch on the bar.red result: uniform
  Census c = census_of(prologue + "\tsetp.eq.s32 \t%p4, %r7, 0;\n\t@%p4 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers, 2);
  EXPECT_EQ(c.barriers_divergent, 0);
  // the outer %p3 (ctaid) is not the scoped %p3 (tid): still uniform
  c = census_of(prologue + "\t@%p3 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 0);
  // branch on the bar.red input: divergent
  c = census_of(prologue + "\t@%p1 bra \t$L_a;\n\tbar.sync \t0;\n$L_a:\n\tret;\n");
  EXPECT_EQ(c.barriers_divergent, 1);
}

TEST(CensusUnit, NamedPartialBarriersAreCountedNotFlagged) {
  Census c = census_of(
      "\tmov.u32 \t%r1, %tid.x;\n\tsetp.lt.s32 \t%p1, %r1, 64;\n\t@%p1 bra \t$L_a;\n"
      "\tbar.arrive \t1, 64;\n\tbra.uni \t$L_b;\n$L_a:\n\tbarrier.sync \t1, 64;\n\tbar.sync \t2;\n$L_b:\n\tret;\n");
  EXPECT_EQ(c.barriers, 3);
  EXPECT_EQ(c.barriers_partial, 2);
  EXPECT_EQ(c.barriers_divergent, 1);  // the bar.sync 2 without a count
}

TEST(CensusUnit, MemoryWidthsSpacesAndOtherOps) {
  Census c = census_of(
      "\tld.global.nc.v4.f32 \t{%f1, %f2, %f3, %f4}, [%rd1];\n"
      "\tld.global.L1::no_allocate.v2.u64 \t{%rd2, %rd3}, [%rd1];\n"
      "\tldu.global.u8 \t%r1, [%rd1];\n"
      "\tst.global.b128 \t[%rd1], %rd4;\n"
      "\tld.f32 \t%f5, [%rd1];\n"
      "\tst.shared::cta.v2.b16 \t[%r2], {%r3, %r4};\n"
      "\tldmatrix.sync.aligned.m8n8.x4.shared.b16 \t{%r1, %r2, %r3, %r4}, [%r5];\n"
      "\tld.const.f32 \t%f6, [c];\n"
      "\tcp.async.cg.shared.global \t[%r1], [%rd1], 16;\n\tcp.async.commit_group;\n\tcp.async.wait_all;\n"
      "\tcp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes \t[%r1], [%rd1], 256, [%r2];\n"
      "\tatom.add.f32 \t%f7, [%rd1], %f1;\n\tred.shared.max.s32 \t[%r1], %r2;\n\tatom.global.exch.b32 \t%r6, [%rd1], 1;\n"
      "\tfence.acq_rel.gpu;\n\tmembar.gl;\n\tredux.sync.add.s32 \t%r7, %r1, -1;\n\tmatch.all.sync.b32 \t%r8|%p1, %r1, -1;\n"
      "\tmbarrier.init.shared.b64 \t[%r1], 32;\n\tbarrier.cluster.arrive;\n\tbarrier.cluster.wait;\n"
      "\twgmma.fence.sync.aligned;\n"
      "\twgmma.mma_async.sync.aligned.m64n8k16.f32.bf16.bf16 \t{%f1, %f2, %f3, %f4}, %rd1, %rd2, 1, 1, 1, 0, 0;\n"
      "\tmad.rn.f64 \t%fd1, %fd2, %fd3, %fd4;\n\tsub.f64 \t%fd1, %fd2, %fd3;\n\tneg.f32 \t%f1, %f2;\n"
      "\tex2.approx.ftz.f32 \t%f1, %f2;\n\tsetp.lt.f32 \t%p1, %f1, %f2;\n\tcvt.rn.f32.f64 \t%f1, %fd1;\n"
      "\tfma.rn.bf16x2 \t%r1, %r2, %r3, %r4;\n\tmul.wide.s32 \t%rd1, %r1, 4;\n"
      "\tret;\n");
  EXPECT_EQ(c.ld_global, (std::map<int, int>{{16, 2}, {1, 1}}));
  EXPECT_EQ(c.st_global, (std::map<int, int>{{16, 1}}));
  EXPECT_EQ(c.ld_generic, (std::map<int, int>{{4, 1}}));
  EXPECT_EQ(c.st_shared, (std::map<int, int>{{4, 1}}));
  EXPECT_EQ(c.ld_shared, (std::map<int, int>{{16, 1}}));
  EXPECT_EQ(c.ld_const, 1);
  EXPECT_EQ(c.async_copies, 2);
  EXPECT_EQ(c.async_waits, 2);
  EXPECT_EQ(c.atomics_generic, (std::map<std::string, int>{{"add", 1}}));
  EXPECT_EQ(c.atomics_shared, (std::map<std::string, int>{{"max", 1}}));
  EXPECT_EQ(c.atomics_global, (std::map<std::string, int>{{"exch", 1}}));
  EXPECT_EQ(c.atomics_red, 1);
  EXPECT_EQ(c.fences, 2);
  EXPECT_EQ(c.warp_reduces, 1);
  EXPECT_EQ(c.votes, 1);
  EXPECT_EQ(c.mbarrier_ops, 1);
  EXPECT_EQ(c.cluster_barriers, 2);
  EXPECT_EQ(c.barriers, 0);
  EXPECT_EQ(c.tensor, 1);
  EXPECT_EQ(c.fp64_fma, 1);
  EXPECT_EQ(c.fp64_add, 1);
  EXPECT_EQ(c.fp32_other, 2);
  EXPECT_EQ(c.fp32_add + c.fp32_mul + c.fp32_fma, 0);
  EXPECT_EQ(c.fp16, 1);
  auto j = census_to_json(c);
  EXPECT_EQ(j["ld_global"]["16"], 2);
  EXPECT_EQ(j["atomics_shared"]["max"], 1);
  EXPECT_TRUE(j["findings"].is_array());
}

TEST(CensusUnit, EndlessLoopDoesNotBreakPostDominators) {
  Census c = census_of(
      "\tmov.u32 \t%r1, %tid.x;\n\tsetp.lt.s32 \t%p1, %r1, 64;\n\t@%p1 bra \t$L_spin;\n"
      "\tbar.sync \t0;\n\tret;\n$L_spin:\n\tbar.sync \t0;\n\tbra.uni \t$L_spin;\n");
  EXPECT_EQ(c.barriers, 2);
  EXPECT_EQ(c.barriers_divergent, 2);
}

}  // namespace
