// The effect of one instruction on the abstract state.
#include "analyzer.hpp"

#include <cstdint>

#include "../text.hpp"
#include "operands.hpp"

namespace cudaperf::analysis::coalesce {

using detail::trim;

void Analyzer::transfer(size_t instr, State& s) {
  const PtxInstruction& in = k_.instrs[instr];
  const Decoded& dc = dec_[instr];
  if (!dc.defines) return;
  const std::vector<std::string>& parts = dc.parts;
  const std::string& root = parts[0];
  const std::vector<std::string>& srcs = dc.srcs;
  auto src = [&](size_t i) { return i < srcs.size() ? eval(srcs[i], s) : top("missing operand"); };
  const std::string type = last_type(parts);
  const bool int_op = is_int_type(type);

  Val r;
  if (root == "mov" && srcs.size() == 1) {
    if (dc.dests.size() > 1) {  // unpack: mov.b64 {%r1, %r2}, %rd1
      r = generic(srcs, s, in.opcode);
    } else {
      r = src(0);
    }
  } else if ((root == "add" || root == "sub") && int_op && !has_part(parts, "cc") && !has_part(parts, "sat") &&
             srcs.size() == 2) {
    Val a = src(0), b = src(1);
    r = root == "add" ? vadd(a, b) : vadd(a, vscale(b, -1));
    if (root == "add") r.space = a.space ? a.space : b.space;
    else r.space = a.space;
  } else if ((root == "mul" || root == "mad") && int_op && (has_part(parts, "lo") || has_part(parts, "wide")) &&
             !has_part(parts, "cc")) {
    r = vmul(src(0), src(1));
    if (root == "mad") {
      Val c = src(2);
      int sp = c.space;
      r = vadd(r, c);
      r.space = sp;
    }
  } else if (root == "shl" && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    if (b.is_const() && b.uni.constant() >= 0 && b.uni.constant() < 63) r = vscale(a, 1LL << b.uni.constant());
    else r = generic(srcs, s, in.opcode);
  } else if ((root == "shr" || root == "div" || root == "rem") && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    const bool is_signed = type[0] == 's';
    int bits = type_bytes(type) * 8;
    if (a.is_const() && b.is_const()) {
      long long x = a.uni.constant(), y = b.uni.constant();
      if (root == "shr") {
        if (y < 0 || y >= 64) r = unknown_uniform();
        else if (is_signed) r = cst(x >> y);
        else {
          unsigned long long ux = static_cast<unsigned long long>(x);
          if (bits < 64) ux &= (1ULL << bits) - 1;
          r = cst(static_cast<long long>(ux >> y));
        }
      } else if (y == 0 || (x == INT64_MIN && y == -1)) {
        r = unknown_uniform();
      } else {
        r = cst(root == "div" ? x / y : x % y);
      }
    } else if (b.is_const() && a.kind == Val::Aff && a.tid[0] == make_const(1)) {
      // Warp decomposition of a linear thread index (blockDim.x a multiple of 32): x/32 is uniform
      // within the warp and x%32 = tid.x + uniform.
      long long y = b.uni.constant();
      long long divisor = root == "shr" ? (y >= 5 && y < 63 ? (1LL << y) : 0) : y;
      if (divisor > 0 && divisor % 32 == 0) {
        if (root == "rem") {
          r = unknown_uniform();
          r.tid[0] = make_const(1);
        } else {
          r = unknown_uniform();
        }
      } else {
        r = generic(srcs, s, in.opcode);
      }
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if ((root == "and" || root == "or" || root == "xor") && int_op && srcs.size() == 2) {
    Val a = src(0), b = src(1);
    if (!b.is_const() && a.is_const()) std::swap(a, b);
    const int bits = type_bytes(type) * 8;
    const unsigned long long all = bits >= 64 ? ~0ULL : ((1ULL << bits) - 1);
    if (a.is_const() && b.is_const()) {
      unsigned long long x = static_cast<unsigned long long>(a.uni.constant());
      unsigned long long y = static_cast<unsigned long long>(b.uni.constant());
      unsigned long long z = root == "and" ? (x & y) : root == "or" ? (x | y) : (x ^ y);
      r = cst(static_cast<long long>(z & all));
    } else if (b.is_const() && a.kind == Val::Aff) {
      const unsigned long long m = static_cast<unsigned long long>(b.uni.constant()) & all;
      const int z = value_tz(a);  // low z bits of a are provably zero
      const unsigned long long low = z >= 64 ? all : ((1ULL << z) - 1);
      if (root == "and" && m == all) {
        r = a;
      } else if (root == "and" && z >= 0 && ((m | low) & all) == all) {
        r = a;  // the mask only clears bits that are already zero
      } else if (root != "and" && z >= 0 && (m & ~low) == 0) {
        r = vadd(a, cst(static_cast<long long>(m)));  // disjoint bits: or/xor act as add
        r.space = a.space;
      } else if (root == "and" && a.tid[0] == make_const(1) && m >= 31 && ((m + 1) & m) == 0) {
        r = unknown_uniform();  // (x & (2^k-1)), k >= 5: tid.x + uniform within an aligned warp
        r.tid[0] = make_const(1);
      } else {
        r = generic(srcs, s, in.opcode);
      }
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if (root == "not" && int_op && srcs.size() == 1) {
    r = vadd(vscale(src(0), -1), cst(-1));
  } else if (root == "neg" && int_op && srcs.size() == 1) {
    r = vscale(src(0), -1);
  } else if (root == "cvt" && srcs.size() == 1) {
    // cvt.dst.src: integer <-> integer keeps the value (no overflow assumed).
    std::vector<std::string> types;
    for (size_t i = 1; i < parts.size(); ++i)
      if (type_bytes(parts[i]) > 0) types.push_back(parts[i]);
    if (types.size() == 2 && is_int_type(types[0]) && is_int_type(types[1])) {
      r = src(0);
    } else {
      r = generic(srcs, s, in.opcode);
    }
  } else if (root == "cvta" && srcs.size() == 1) {
    r = src(0);
    int sp = state_space(parts);
    if (sp == kParamPtr) sp = kNoSpace;
    if (r.kind == Val::Aff) r.space = sp;
  } else if ((root == "ld" || root == "ldu") && srcs.size() == 1 && srcs[0].size() && srcs[0][0] == '[') {
    const int sp = state_space(parts);
    if (sp == kParamPtr) {
      std::string name = trim(srcs[0].substr(1, srcs[0].size() - 2));
      long long off = 0;
      auto plus = name.find('+');
      if (plus != std::string::npos) {
        if (auto c = parse_int(name.substr(plus + 1))) off = *c;
        name = trim(name.substr(0, plus));
      }
      std::string ps = param_symbol(name);
      if (ps.empty() || name.rfind("retval", 0) == 0) {
        r = top("value returned from a call");
      } else {
        r = symval(off ? ps + "+" + std::to_string(off) : ps);
        if (pointer_params_.count(sym(ps))) r.space = kParamPtr;
      }
    } else {
      Val a = address(srcs[0], s);
      if (a.kind == Val::Bottom) r = Val{};
      else if (a.kind == Val::Aff && a.uniform()) r = unknown_uniform();
      else r = top("address depends on loaded data (gather)");
    }
  } else if (root == "atom") {
    r = top("address depends on loaded data (gather): atomic result");
  } else if (root == "selp" && srcs.size() == 3) {
    Val a = src(0), b = src(1);
    r = join(a, b, !pred_uniform(srcs[2], s));
    if (a.kind == Val::Bottom || b.kind == Val::Bottom) r = Val{};
  } else if (root == "vote" || root == "activemask" || root == "match" || root == "elect") {
    r = unknown_uniform();  // the same for every lane of the warp
  } else {
    r = generic(srcs, s, in.opcode);
  }

  for (int d : dc.dests) {
    if (d < 0) continue;
    if (!in.guard.empty()) {
      const Val* old = s.find(d);
      s.set(d, join(old ? *old : Val{}, r, !pred_uniform(in.guard, s)));
    } else {
      s.set(d, r);
    }
  }
}

}  // namespace cudaperf::analysis::coalesce
