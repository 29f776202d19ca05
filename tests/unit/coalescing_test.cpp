// The affine domain of the coalescing analysis on hand-built PTX instruction sequences.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cudaperf/analysis/coalescing.hpp"

using cudaperf::analysis::address_form;
using cudaperf::analysis::coalescing;
using cudaperf::analysis::GlobalAccess;
using cudaperf::analysis::PtxBlock;
using cudaperf::analysis::PtxInstruction;
using cudaperf::analysis::PtxKernel;

namespace {

struct Blk {
  std::string label;
  std::vector<std::string> lines;  // "[@guard ]opcode operand, operand, ..."
  std::vector<int> succs;
};

// Builds a kernel by hand: instruction i gets ptx_line = src_line = i + 1.
PtxKernel make(const std::vector<Blk>& blocks) {
  PtxKernel k;
  k.name = "k";
  k.params = {"k_param_0", "k_param_1", "k_param_2", "k_param_3"};
  for (size_t b = 0; b < blocks.size(); ++b) {
    PtxBlock pb;
    pb.label = blocks[b].label;
    pb.succs = blocks[b].succs;
    for (const auto& line : blocks[b].lines) {
      PtxInstruction in;
      std::string t = line;
      if (t[0] == '@') {
        auto sp = t.find(' ');
        in.guard = t.substr(1, sp - 1);
        t = t.substr(sp + 1);
      }
      auto sp = t.find(' ');
      in.opcode = t.substr(0, sp);
      if (sp != std::string::npos) {
        std::string rest = t.substr(sp + 1), cur;
        int depth = 0;
        for (char c : rest) {
          if (c == '{' || c == '[') ++depth;
          if (c == '}' || c == ']') --depth;
          if (c == ',' && depth == 0) {
            in.operands.push_back(cur);
            cur.clear();
          } else if (c != ' ' || !cur.empty()) {
            cur += c;
          }
        }
        in.operands.push_back(cur);
      }
      in.block = static_cast<int>(b);
      in.ptx_line = in.src_line = static_cast<int>(k.instrs.size()) + 1;
      pb.instrs.push_back(k.instrs.size());
      k.instrs.push_back(in);
    }
    k.blocks.push_back(pb);
  }
  for (size_t b = 0; b < k.blocks.size(); ++b)
    for (int s : k.blocks[b].succs) k.blocks[s].preds.push_back(static_cast<int>(b));
  return k;
}

// The usual prologue: %rd1 = global x (param 0), %r4 = blockIdx.x*blockDim.x + threadIdx.x.
const std::vector<std::string> kPrologue = {
    "ld.param.u64 %rd1, [k_param_0]", "cvta.to.global.u64 %rd2, %rd1", "mov.u32 %r1, %ctaid.x",
    "mov.u32 %r2, %ntid.x",           "mov.u32 %r3, %tid.x",            "mad.lo.s32 %r4, %r1, %r2, %r3"};

std::vector<std::string> with_prologue(std::vector<std::string> tail) {
  std::vector<std::string> v = kPrologue;
  v.insert(v.end(), tail.begin(), tail.end());
  return v;
}

GlobalAccess only(const PtxKernel& k) {
  auto a = coalescing(k);
  EXPECT_EQ(a.size(), 1u);
  return a.empty() ? GlobalAccess{} : a[0];
}

TEST(CoalescingDomain, UnitStrideFloatLoad) {
  auto k = make({{"", with_prologue({"mul.wide.s32 %rd3, %r4, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.nc.f32 %f1, [%rd4]"}),
                  {}}});
  auto a = only(k);
  EXPECT_FALSE(a.store);
  EXPECT_EQ(a.width_bytes, 4);
  EXPECT_EQ(a.stride_bytes, 4);
  EXPECT_EQ(a.stride_expr, "4");
  EXPECT_EQ(a.sectors, 4);
  EXPECT_EQ(a.ideal_sectors, 4);
  EXPECT_EQ(a.base_offset, 0);
  EXPECT_FALSE(a.alignment_assumed);
  EXPECT_EQ(a.ptx_line, 9);
  const std::string f = address_form(k, 8);
  EXPECT_NE(f.find("4*tid.x"), std::string::npos) << f;
  EXPECT_NE(f.find("4*%ctaid.x*%ntid.x"), std::string::npos) << f;
  EXPECT_NE(f.find("param_0"), std::string::npos) << f;
}

TEST(CoalescingDomain, ShlCvtAndMadWide) {
  // (u64)i << 3 : doubles; then mad.wide with a constant 12 (struct of 12 bytes) plus offset 8.
  auto k = make({{"", with_prologue({"cvt.u64.u32 %rd3, %r4", "shl.b64 %rd4, %rd3, 3", "add.s64 %rd5, %rd2, %rd4",
                                     "ld.global.f64 %fd1, [%rd5]", "mad.wide.s32 %rd6, %r4, 12, %rd2",
                                     "st.global.f32 [%rd6+8], %f1"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].stride_bytes, 8);
  EXPECT_EQ(a[0].width_bytes, 8);
  EXPECT_EQ(a[0].sectors, 8);
  EXPECT_TRUE(a[1].store);
  EXPECT_EQ(a[1].stride_bytes, 12);
  EXPECT_EQ(a[1].base_offset, 8);
  // lanes at 8 + 12*i, 4 bytes each: bytes 8 .. 383 -> sectors 0..11
  EXPECT_EQ(a[1].sectors, 12);
}

TEST(CoalescingDomain, SubNegAndNotGiveNegativeStride) {
  // idx = n - 1 - i via not: ~i + n
  auto k = make({{"", with_prologue({"ld.param.u32 %r5, [k_param_2]", "not.b32 %r6, %r4", "add.s32 %r7, %r6, %r5",
                                     "mul.wide.s32 %rd3, %r7, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.f32 %f1, [%rd4]", "neg.s32 %r8, %r4", "sub.s32 %r9, %r5, %r4",
                                     "mul.wide.s32 %rd5, %r9, 2", "add.s64 %rd6, %rd2, %rd5",
                                     "ld.global.u16 %rs1, [%rd6]"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].stride_bytes, -4);
  EXPECT_EQ(a[0].sectors, 4);  // assumed aligned: depends on n
  EXPECT_TRUE(a[0].alignment_assumed);
  EXPECT_NE(a[0].note.find("alignment"), std::string::npos);
  EXPECT_EQ(a[1].stride_bytes, -2);
  EXPECT_EQ(a[1].width_bytes, 2);
  EXPECT_EQ(a[1].sectors, 2);
}

TEST(CoalescingDomain, OrActsAsAddOnlyOnProvablyZeroBits) {
  auto k = make({{"", with_prologue({"shl.b32 %r5, %r3, 3", "or.b32 %r6, %r5, 4", "cvt.u64.u32 %rd3, %r6",
                                     "add.s64 %rd4, %rd2, %rd3", "ld.global.f32 %f1, [%rd4]",
                                     // tid.x*2 | 3: bit 0 may collide -> not affine
                                     "shl.b32 %r7, %r3, 1", "or.b32 %r8, %r7, 3", "cvt.u64.u32 %rd5, %r8",
                                     "add.s64 %rd6, %rd2, %rd5", "ld.global.u8 %rs1, [%rd6]",
                                     // and with ~7 on a multiple of 8 keeps it
                                     "and.b32 %r9, %r5, -8", "cvt.u64.u32 %rd7, %r9", "add.s64 %rd8, %rd2, %rd7",
                                     "ld.global.v2.f32 {%f2, %f3}, [%rd8]"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].stride_bytes, 8);
  EXPECT_EQ(a[0].base_offset, 4);
  EXPECT_EQ(a[0].sectors, 8);
  EXPECT_FALSE(a[1].stride_bytes.has_value());
  EXPECT_EQ(a[1].sectors, -1);
  EXPECT_NE(a[1].note.find("non-affine"), std::string::npos) << a[1].note;
  EXPECT_EQ(a[2].stride_bytes, 8);
  EXPECT_EQ(a[2].width_bytes, 8);
  EXPECT_EQ(a[2].sectors, 8);
}

TEST(CoalescingDomain, LaneAndWarpDecomposition) {
  // lane = tid.x & 31 (unit stride), warp = i >> 5 (uniform), rem/div by 64 likewise.
  auto k = make({{"", with_prologue({"and.b32 %r5, %r3, 31", "shr.u32 %r6, %r4, 5", "mul.wide.u32 %rd3, %r5, 4",
                                     "add.s64 %rd4, %rd2, %rd3", "ld.global.f32 %f1, [%rd4]",
                                     "mul.wide.u32 %rd5, %r6, 4", "add.s64 %rd6, %rd2, %rd5",
                                     "ld.global.f32 %f2, [%rd6]", "rem.u32 %r7, %r3, 64", "div.u32 %r8, %r3, 64",
                                     "mad.lo.s32 %r9, %r8, 1000, %r7", "mul.wide.u32 %rd7, %r9, 4",
                                     "add.s64 %rd8, %rd2, %rd7", "ld.global.f32 %f3, [%rd8]",
                                     // shr by 1 is not warp-uniform: pairs of lanes
                                     "shr.u32 %r10, %r3, 1", "mul.wide.u32 %rd9, %r10, 4",
                                     "add.s64 %rd10, %rd2, %rd9", "ld.global.f32 %f4, [%rd10]",
                                     "mov.u32 %r11, %laneid", "mul.wide.u32 %rd11, %r11, 8",
                                     "add.s64 %rd12, %rd2, %rd11", "ld.global.f64 %fd1, [%rd12]"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0].stride_bytes, 4);
  EXPECT_EQ(a[1].stride_bytes, 0);
  EXPECT_EQ(a[1].sectors, 1);
  EXPECT_EQ(a[2].stride_bytes, 4);
  EXPECT_FALSE(a[3].stride_bytes.has_value());
  EXPECT_EQ(a[4].stride_bytes, 8);
}

TEST(CoalescingDomain, ProductOfThreadIndicesIsNotAffine) {
  auto k = make({{"", with_prologue({"mul.lo.s32 %r5, %r3, %r3", "mul.wide.s32 %rd3, %r5, 4",
                                     "add.s64 %rd4, %rd2, %rd3", "st.global.f32 [%rd4], %f1"}),
                  {}}});
  auto a = only(k);
  EXPECT_TRUE(a.store);
  EXPECT_FALSE(a.stride_bytes.has_value());
  EXPECT_EQ(a.sectors, -1);
  EXPECT_EQ(a.stride_expr, "");
  EXPECT_NE(a.note.find("non-affine"), std::string::npos) << a.note;
}

TEST(CoalescingDomain, SymbolicStrideFromParameter) {
  // x[tid.x * n + j]: stride 4*n bytes.
  auto k = make({{"", with_prologue({"ld.param.u32 %r5, [k_param_2]", "mul.lo.s32 %r6, %r4, %r5",
                                     "mul.wide.s32 %rd3, %r6, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.f32 %f1, [%rd4]", "mul.lo.s32 %r7, %r3, 64",
                                     "mul.lo.s32 %r8, %r7, %r5", "mul.wide.s32 %rd5, %r8, 4",
                                     "add.s64 %rd6, %rd2, %rd5", "ld.global.f32 %f2, [%rd6]"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_FALSE(a[0].stride_bytes.has_value());
  EXPECT_TRUE(a[0].stride_symbolic);
  EXPECT_EQ(a[0].stride_expr, "4*param_2");
  EXPECT_EQ(a[0].sectors, 32);
  EXPECT_NE(a[0].note.find("param_2"), std::string::npos);
  EXPECT_EQ(a[1].stride_expr, "256*param_2");
}

TEST(CoalescingDomain, UnknownUniformStride) {
  // the row length comes from global memory at a uniform address: stride uniform but unknown.
  auto k = make({{"", with_prologue({"ld.global.u32 %r5, [%rd2+64]", "mul.lo.s32 %r6, %r3, %r5",
                                     "mul.wide.s32 %rd3, %r6, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.f32 %f1, [%rd4]"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 2u);
  EXPECT_EQ(a[0].stride_bytes, 0);  // everyone reads the same word
  EXPECT_EQ(a[0].sectors, 1);
  EXPECT_FALSE(a[1].stride_bytes.has_value());
  EXPECT_EQ(a[1].sectors, -1);
  EXPECT_NE(a[1].note.find("warp-uniform but not known"), std::string::npos) << a[1].note;
}

TEST(CoalescingDomain, GatherThroughLoadedIndex) {
  auto k = make({{"", with_prologue({"mul.wide.s32 %rd3, %r4, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.nc.u32 %r5, [%rd4]", "add.s32 %r6, %r5, 1",
                                     "mul.wide.s32 %rd5, %r6, 4", "add.s64 %rd6, %rd2, %rd5",
                                     "ld.global.nc.f32 %f1, [%rd6]", "red.global.add.f32 [%rd6], %f1"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_EQ(a[0].stride_bytes, 4);
  for (int i : {1, 2}) {
    EXPECT_FALSE(a[i].stride_bytes.has_value());
    EXPECT_EQ(a[i].sectors, -1);
    EXPECT_NE(a[i].note.find("gather"), std::string::npos) << a[i].note;
  }
  EXPECT_TRUE(a[2].store);
  EXPECT_TRUE(a[2].atomic);
}

TEST(CoalescingDomain, GridStrideLoopKeepsTidCoefficient) {
  // b0: prologue, stride = ntid*nctaid; b1 (loop): x[i]; i += stride; @p bra b1; b2: ret
  auto k = make({{"", with_prologue({"mov.u32 %r5, %nctaid.x", "mul.lo.s32 %r6, %r2, %r5"}), {1}},
                 {"$L1",
                  {"mul.wide.s32 %rd3, %r4, 4", "add.s64 %rd4, %rd2, %rd3", "ld.global.f32 %f1, [%rd4]",
                   "add.s32 %r4, %r4, %r6", "setp.lt.s32 %p1, %r4, %r9", "@%p1 bra $L1"},
                  {1, 2}},
                 {"", {"ret"}, {}}});
  auto a = only(k);
  EXPECT_EQ(a.stride_bytes, 4);
  EXPECT_EQ(a.sectors, 4);
  // the uniform part is unknown after the join but provably a multiple of 32 bytes
  EXPECT_FALSE(a.alignment_assumed);
  const std::string f = address_form(k, 10);  // the load: uniform part "?" scaled to 128-byte multiples
  EXPECT_NE(f.find("128*?"), std::string::npos) << f;
  EXPECT_NE(f.find("4*tid.x"), std::string::npos) << f;
}

TEST(CoalescingDomain, LoopChangingTidCoefficientIsUnknown) {
  // p += tid.x every iteration: the tid.x coefficient differs per iteration.
  auto k = make({{"", with_prologue({"mul.wide.s32 %rd3, %r3, 4"}), {1}},
                 {"$L1", {"add.s64 %rd2, %rd2, %rd3", "ld.global.f32 %f1, [%rd2]", "@%p1 bra $L1"}, {1, 2}},
                 {"", {"ret"}, {}}});
  auto a = only(k);
  EXPECT_FALSE(a.stride_bytes.has_value());
  EXPECT_NE(a.note.find("coefficients differ"), std::string::npos) << a.note;
}

TEST(CoalescingDomain, DivergentJoinIsNotUniform) {
  // if (tid.x < 16) j = 0; else j = 100;  y[j]  -> lanes disagree
  // if (n < 16)     j = 0; else j = 100;  y[j]  -> broadcast of an unknown uniform word
  auto build = [](const std::string& cond_operand) {
    return make({{"", with_prologue({"ld.param.u32 %r9, [k_param_2]", "setp.lt.s32 %p1, " + cond_operand + ", 16",
                                     "@%p1 bra $THEN"}),
                  {1, 2}},
                 {"", {"mov.u32 %r5, 100", "bra.uni $JOIN"}, {3}},
                 {"$THEN", {"mov.u32 %r5, 0"}, {3}},
                 {"$JOIN", {"mul.wide.s32 %rd3, %r5, 4", "add.s64 %rd4, %rd2, %rd3", "st.global.f32 [%rd4], %f1"}, {}}});
  };
  auto div = only(build("%r3"));
  EXPECT_FALSE(div.stride_bytes.has_value());
  EXPECT_NE(div.note.find("divergent"), std::string::npos) << div.note;
  auto uni = only(build("%r9"));
  EXPECT_EQ(uni.stride_bytes, 0);
  EXPECT_EQ(uni.sectors, 1);
}

TEST(CoalescingDomain, PredicatedDefinitions) {
  auto build = [](const std::string& pred_src) {
    return make({{"", with_prologue({"ld.param.u32 %r9, [k_param_2]", "setp.lt.s32 %p1, " + pred_src + ", 16",
                                     "mov.u32 %r5, %r4", "@%p1 add.s32 %r5, %r4, 32", "selp.b32 %r6, %r4, %r3, %p1",
                                     "mul.wide.s32 %rd3, %r5, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.global.f32 %f1, [%rd4]", "mul.wide.s32 %rd5, %r6, 4",
                                     "add.s64 %rd6, %rd2, %rd5", "ld.global.f32 %f2, [%rd6]"}),
                  {}}});
  };
  auto d = coalescing(build("%r3"));
  ASSERT_EQ(d.size(), 2u);
  EXPECT_FALSE(d[0].stride_bytes.has_value());
  EXPECT_FALSE(d[1].stride_bytes.has_value());
  auto u = coalescing(build("%r9"));
  ASSERT_EQ(u.size(), 2u);
  EXPECT_EQ(u[0].stride_bytes, 4);  // i or i+32 for the whole warp
  EXPECT_EQ(u[1].stride_bytes, 4);  // i or tid.x: same tid coefficient, uniform choice
}

TEST(CoalescingDomain, SpacesAndGenericAddresses) {
  auto k = make({{"", with_prologue({"mul.wide.s32 %rd3, %r4, 4", "add.s64 %rd4, %rd2, %rd3",
                                     "ld.f32 %f1, [%rd4]",              // generic, traced to cvta.to.global
                                     "ld.shared.f32 %f2, [%r3]",        // shared: not reported
                                     "mov.u64 %rd5, tile", "cvta.shared.u64 %rd6, %rd5",
                                     "ld.f32 %f3, [%rd6]",              // generic into shared: not reported
                                     "ld.local.f32 %f4, [%rd3]",        // local: not reported
                                     "ld.param.u64 %rd7, [k_param_1]", "ld.const.f32 %f5, [%rd7]",
                                     "st.global.wb.v4.u32 [%rd4], {%r1, %r2, %r3, %r4}",
                                     "atom.global.cas.b64 %rd8, [%rd4], %rd1, %rd2",
                                     "cp.async.cg.shared.global [%r5], [%rd4], 16"}),
                  {}}});
  auto a = coalescing(k);
  ASSERT_EQ(a.size(), 4u);
  EXPECT_TRUE(a[0].space_inferred);
  EXPECT_NE(a[0].note.find("inferred"), std::string::npos);
  EXPECT_EQ(a[0].stride_bytes, 4);
  EXPECT_EQ(a[1].width_bytes, 16);
  EXPECT_TRUE(a[1].store);
  EXPECT_EQ(a[1].sectors, 5);  // 16-byte lanes only 4 bytes apart overlap: bytes 0..139
  EXPECT_EQ(a[2].width_bytes, 8);
  EXPECT_TRUE(a[2].atomic);
  EXPECT_FALSE(a[3].store);
  EXPECT_EQ(a[3].opcode, "cp.async.cg.shared.global");
  EXPECT_EQ(a[3].width_bytes, 16);
}

TEST(CoalescingDomain, TidYDependenceIsNoted) {
  auto k = make({{"", with_prologue({"mov.u32 %r5, %tid.y", "ld.param.u32 %r6, [k_param_2]",
                                     "mad.lo.s32 %r7, %r5, %r6, %r4", "mul.wide.s32 %rd3, %r7, 4",
                                     "add.s64 %rd4, %rd2, %rd3", "ld.global.f32 %f1, [%rd4]"}),
                  {}}});
  auto a = only(k);
  EXPECT_EQ(a.stride_bytes, 4);
  EXPECT_TRUE(a.uses_tid_yz);
  EXPECT_NE(a.note.find("blockDim.x"), std::string::npos) << a.note;
  EXPECT_TRUE(a.alignment_assumed);  // tid.y * 4*n is not a provable multiple of 32
}

TEST(CoalescingDomain, SectorCountsForStridesAndWidths) {
  auto run = [](int scale, const std::string& ld) {
    auto k = make({{"", with_prologue({"mul.wide.s32 %rd3, %r3, " + std::to_string(scale),
                                       "add.s64 %rd4, %rd2, %rd3", ld + " [%rd4]"}),
                    {}}});
    return only(k);
  };
  EXPECT_EQ(run(64, "ld.global.f32 %f1,").sectors, 32);
  EXPECT_EQ(run(32, "ld.global.f32 %f1,").sectors, 32);
  EXPECT_EQ(run(16, "ld.global.f32 %f1,").sectors, 16);
  EXPECT_EQ(run(16, "ld.global.v4.f32 {%f1, %f2, %f3, %f4},").sectors, 16);
  EXPECT_EQ(run(0, "ld.global.v4.f32 {%f1, %f2, %f3, %f4},").sectors, 1);
  EXPECT_EQ(run(0, "ld.global.v4.f32 {%f1, %f2, %f3, %f4},").ideal_sectors, 16);
  EXPECT_EQ(run(1, "ld.global.u8 %rs1,").sectors, 1);
  EXPECT_EQ(run(2, "ld.global.u8 %rs1,").sectors, 2);
  // lane 0 provably at a sector start, the others below it: bytes -248..7 straddle 9 sectors
  EXPECT_EQ(run(-8, "ld.global.f64 %fd1,").sectors, 9);
  EXPECT_EQ(run(-8, "ld.global.f64 %fd1,").base_offset, 0);
}

TEST(CoalescingDomain, RobustOnOddInput) {
  PtxKernel empty;
  EXPECT_TRUE(coalescing(empty).empty());
  auto k = make({{"", {"ld.global.f32 %f1, [%rd99]", "ld.global.f32 %f2, [%rd1+zz]", "ld.global.f32 %f3, []",
                       "shl.b64 %rd2, %rd1, 999", "shl.b64 %rd3, %rd2, 62", "mul.lo.s64 %rd4, %rd3, %rd3",
                       "add.s64 %rd5, %rd4, 9223372036854775807", "ld.global.f32 %f4, [%rd5]", "bogus", "st.global.f32"},
                  {}}});
  auto a = coalescing(k);
  ASSERT_GE(a.size(), 3u);
  EXPECT_FALSE(a[0].stride_bytes.has_value());
  EXPECT_NE(a[0].note.find("not defined"), std::string::npos) << a[0].note;
  EXPECT_EQ(address_form(k, 99), "bottom");
}

}  // namespace
