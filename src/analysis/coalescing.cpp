// Memory coalescing from PTX (cudaperf/analysis/coalescing.hpp): the global accesses and their
// sectors, read off the fixpoint of coalescing/analyzer.hpp.
#include "cudaperf/analysis/coalescing.hpp"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "coalescing/analyzer.hpp"
#include "coalescing/operands.hpp"

namespace cudaperf::analysis {
namespace coalesce {

std::string Analyzer::address_text(size_t instr) {
  if (instr >= k_.instrs.size()) return "bottom";
  const PtxInstruction& target = k_.instrs[instr];
  int b = target.block;
  if (b < 0 || b >= static_cast<int>(k_.blocks.size())) return "bottom";
  State s(reg_ids_.size());
  load(in_[b], s);
  for (size_t i : k_.blocks[b].instrs) {
    if (i == instr) {
      for (const auto& o : dec_[i].ops)
        if (!o.empty() && o[0] == '[') return val_text(address(o, s));
      return "no memory operand";
    }
    if (i < k_.instrs.size()) transfer(i, s);
  }
  return "bottom";
}

namespace {

int sectors_for(long long stride, int w, long long base) {
  auto fdiv = [](long long a) { return a >= 0 ? a / 32 : -((-a + 31) / 32); };
  const long long kFar = 1LL << 40;  // beyond this, every lane has its own sectors
  if (stride > kFar || stride < -kFar || base > kFar || base < -kFar) {
    long long b = ((base % 32) + 32) % 32;
    return 32 * static_cast<int>(fdiv(b + w - 1) - fdiv(b) + 1);
  }
  std::set<long long> sec;
  for (int i = 0; i < 32; ++i) {
    long long a = base + stride * i;
    for (long long x = fdiv(a); x <= fdiv(a + w - 1); ++x) sec.insert(x);
  }
  return static_cast<int>(sec.size());
}

}  // namespace

std::vector<GlobalAccess> Analyzer::accesses() {
  std::vector<GlobalAccess> out;
  State s(reg_ids_.size());
  for (size_t b = 0; b < k_.blocks.size(); ++b) {
    s.clear();
    load(in_[b], s);
    for (size_t idx : k_.blocks[b].instrs) {
      if (idx >= k_.instrs.size()) continue;
      const PtxInstruction& in = k_.instrs[idx];
      const auto& parts = dec_[idx].parts;
      const std::string& root = parts[0];
      const auto& ops = dec_[idx].ops;
      const bool mem_op = root == "ld" || root == "ldu" || root == "st" || root == "atom" || root == "red";
      const bool cp_async = root == "cp" && parts.size() > 1 && parts[1] == "async" && !has_part(parts, "bulk") &&
                            has_part(parts, "global");
      if (!mem_op && !cp_async) {
        transfer(idx, s);
        continue;
      }
      const int explicit_space = state_space(parts);
      std::string mem;
      if (cp_async) {
        int seen = 0;
        for (const auto& o : ops)
          if (!o.empty() && o[0] == '[' && ++seen == 2) mem = o;
      } else {
        for (const auto& o : ops)
          if (!o.empty() && o[0] == '[') {
            mem = o;
            break;
          }
      }
      if (mem.empty() || (!cp_async && explicit_space != kGlobal && explicit_space != kNoSpace)) {
        transfer(idx, s);
        continue;
      }
      Val a = address(mem, s);
      bool inferred = false;
      if (!cp_async && explicit_space == kNoSpace) {
        if (a.kind != Val::Aff || (a.space != kGlobal && a.space != kParamPtr)) {
          transfer(idx, s);
          continue;
        }
        inferred = true;
      }

      GlobalAccess g;
      g.instr = idx;
      g.src_line = in.src_line;
      g.ptx_line = in.ptx_line;
      g.opcode = in.opcode;
      g.store = root == "st" || root == "atom" || root == "red";
      g.atomic = root == "atom" || root == "red";
      g.space_inferred = inferred;
      if (cp_async) {
        g.width_bytes = ops.size() >= 3 ? static_cast<int>(parse_int(ops[2]).value_or(0)) : 0;
      } else {
        int vec = has_part(parts, "v2") ? 2 : has_part(parts, "v4") ? 4 : has_part(parts, "v8") ? 8 : 1;
        g.width_bytes = vec * type_bytes(last_type(parts));
      }
      const int w = std::max(1, g.width_bytes);
      g.ideal_sectors = (32 * w + 31) / 32;
      std::vector<std::string> notes;
      if (inferred)
        notes.push_back(std::string("generic address; global space inferred from ") +
                        (a.space == kGlobal ? "cvta.to.global" : "a pointer parameter"));

      if (a.kind == Val::Bottom) {
        notes.push_back("address register not defined on every path");
      } else if (a.kind == Val::Top) {
        notes.push_back(a.why.empty() ? "address is not affine in the thread index" : a.why);
      } else {
        const Poly& sx = a.tid[0];
        g.uses_tid_yz = !a.tid[1].empty() || !a.tid[2].empty();
        g.stride_expr = poly_text(sx);
        // Provable lane-0 offset mod 32: every other term a multiple of 32 (the warp's first tid.x
        // is a multiple of 32).
        bool provable = true;
        for (const auto& [m, c] : a.uni.t) {
          if (m.empty()) continue;
          int z = tz(m, c);
          if (z < 5) provable = false;
        }
        for (int d = 0; d < 3 && provable; ++d)
          for (const auto& [m, c] : a.tid[d].t) {
            int z = tz(m, c);
            if (z < 0 || z + (d == 0 ? 5 : 0) < 5) provable = false;
          }
        if (sx.has_unknown()) {
          notes.push_back("stride is warp-uniform but not known statically");
        } else if (sx.is_const()) {
          long long st = sx.constant();
          g.stride_bytes = st;
          long long base = 0;
          if (provable) {
            base = ((a.uni.constant() % 32) + 32) % 32;
            g.base_offset = static_cast<int>(base);
          } else {
            g.alignment_assumed = true;
            base = st < 0 ? -st * 31 : 0;  // lowest lane address at 0
            notes.push_back("base alignment not provable; assumed the warp's lowest address is 32-byte aligned");
          }
          g.sectors = sectors_for(st, w, base);
        } else {
          g.stride_symbolic = true;
          std::set<std::string> syms;
          for (const auto& [m, c] : sx.t)
            for (int id : m) syms.insert(names_[id]);
          std::string list;
          for (const auto& n : syms) list += (list.empty() ? "" : ", ") + n;
          g.sectors = 32 * ((w + 31) / 32);
          notes.push_back("stride " + g.stride_expr + " bytes depends on " + list +
                          "; sectors assume |stride| >= 32 bytes");
          if (provable) g.base_offset = static_cast<int>(((a.uni.constant() % 32) + 32) % 32);
        }
        if (g.uses_tid_yz)
          notes.push_back(
              "address also depends on threadIdx.y/z; assumes blockDim.x is a multiple of 32 so a warp spans "
              "threadIdx.x only (with blockDim.x < 32 lanes also step threadIdx.y)");
      }
      for (size_t i = 0; i < notes.size(); ++i) g.note += (i ? "; " : "") + notes[i];
      out.push_back(std::move(g));
      transfer(idx, s);
    }
  }
  std::sort(out.begin(), out.end(), [](const GlobalAccess& x, const GlobalAccess& y) { return x.instr < y.instr; });
  return out;
}

}  // namespace coalesce

std::vector<GlobalAccess> coalescing(const PtxKernel& k) {
  coalesce::Analyzer a(k);
  a.run();
  return a.accesses();
}

std::string address_form(const PtxKernel& k, size_t instr) {
  coalesce::Analyzer a(k);
  a.run();
  return a.address_text(instr);
}

}  // namespace cudaperf::analysis
