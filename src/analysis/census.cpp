// Instruction census of a PTX kernel (see census.hpp); the divergent-barrier analysis is in
// census/sync.cpp.
#include "cudaperf/analysis/census.hpp"

#include <set>

#include "census/instruction.hpp"

namespace cudaperf::analysis {
namespace {

using census_detail::barrier_has_count;
using census_detail::has;
using census_detail::is_cta_barrier;
using census_detail::state_space;
using detail::StateSpace;

// Bytes per thread of a load/store: vector count x element size (the last type part).
int access_width(const std::vector<std::string>& parts) {
  int vec = 1, elem = 0;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p == "v2") vec = 2;
    else if (p == "v4") vec = 4;
    else if (p == "v8") vec = 8;
    else if (int b = type_bytes(p)) elem = b;
  }
  return vec * elem;
}

enum class Fp { None, F16, F32, F64 };

Fp fp_type(const std::vector<std::string>& parts) {
  Fp t = Fp::None;
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p == "f16" || p == "f16x2" || p == "bf16" || p == "bf16x2") return Fp::F16;
    if (p == "f64") t = Fp::F64;
    else if ((p == "f32" || p == "f32x2") && t == Fp::None) t = Fp::F32;
  }
  return t;
}

const std::set<std::string> kFpOther = {"div", "rcp", "sqrt", "rsqrt", "sin", "cos",  "lg2",
                                        "ex2", "tanh", "abs", "neg",  "min", "max", "copysign"};
const std::set<std::string> kAtomicOps = {"add", "inc", "dec", "min", "max", "cas", "exch", "and", "or", "xor"};

void classify(const PtxInstruction& in, const std::vector<std::string>& parts, Census& c) {
  const std::string& root = parts[0];
  ++c.instructions;
  // floating-point arithmetic
  static const std::set<std::string> arith = {"add", "sub", "mul", "fma", "mad"};
  if (arith.count(root) != 0 || kFpOther.count(root) != 0) {
    Fp t = fp_type(parts);
    if (t == Fp::F16) {
      ++c.fp16;
    } else if (t == Fp::F32 || t == Fp::F64) {
      bool f64 = t == Fp::F64;
      int& add = f64 ? c.fp64_add : c.fp32_add;
      int& mul = f64 ? c.fp64_mul : c.fp32_mul;
      int& fma = f64 ? c.fp64_fma : c.fp32_fma;
      int& other = f64 ? c.fp64_other : c.fp32_other;
      if (root == "add" || root == "sub") ++add;
      else if (root == "mul") ++mul;
      else if (root == "fma" || root == "mad") ++fma;
      else ++other;
    }
    return;
  }
  if (root == "mma" || (root == "wmma" && has(parts, "mma")) || (root == "wgmma" && has(parts, "mma_async")) ||
      (root == "tcgen05" && has(parts, "mma"))) {
    ++c.tensor;
    return;
  }
  if (root == "ld" || root == "ldu" || root == "st") {
    bool load = root != "st";
    const StateSpace sp = state_space(parts);
    int w = access_width(parts);
    if (sp == StateSpace::Param) {
      if (load) ++c.ld_param;
    } else if (sp == StateSpace::Const) {
      if (load) ++c.ld_const;
    } else if (sp == StateSpace::Global) {
      ++(load ? c.ld_global : c.st_global)[w];
    } else if (sp == StateSpace::Shared) {
      ++(load ? c.ld_shared : c.st_shared)[w];
    } else if (sp == StateSpace::Local) {
      ++(load ? c.ld_local : c.st_local)[w];
    } else {
      ++(load ? c.ld_generic : c.st_generic)[w];
    }
    return;
  }
  if (root == "ldmatrix" || root == "stmatrix") {
    int n = has(parts, "x4") ? 4 : has(parts, "x2") ? 2 : 1;
    ++(root == "ldmatrix" ? c.ld_shared : c.st_shared)[4 * n];
    return;
  }
  if ((root == "cp" && parts.size() > 1 && parts[1] == "async") ||
      (root == "cp" && parts.size() > 2 && parts[1] == "reduce" && parts[2] == "async")) {
    if (has(parts, "commit_group") || has(parts, "wait_group") ||
        has(parts, "wait_all") || has(parts, "mbarrier"))
      ++c.async_waits;
    else
      ++c.async_copies;
    return;
  }
  if (root == "atom" || root == "red") {
    std::string op = "other";
    for (size_t i = 1; i < parts.size(); ++i)
      if (kAtomicOps.count(parts[i]) != 0) {
        op = parts[i];
        break;
      }
    if (root == "red") ++c.atomics_red;
    const StateSpace sp = state_space(parts);
    if (sp == StateSpace::Global) ++c.atomics_global[op];
    else if (sp == StateSpace::Shared) ++c.atomics_shared[op];
    else ++c.atomics_generic[op];
    return;
  }
  if (root == "shfl") { ++c.shuffles; return; }
  if (root == "vote" || root == "match") { ++c.votes; return; }
  if (root == "redux") { ++c.warp_reduces; return; }
  if (root == "membar" || root == "fence") { ++c.fences; return; }
  if (root == "mbarrier") { ++c.mbarrier_ops; return; }
  if (root == "bra" || root == "brx") { ++c.branches; return; }
  if (root == "bar" && parts.size() > 1 && parts[1] == "warp") { ++c.warp_syncs; return; }
  if (root == "barrier" && parts.size() > 1 && parts[1] == "cluster") { ++c.cluster_barriers; return; }
  if (is_cta_barrier(parts)) {
    ++c.barriers;
    if (barrier_has_count(in, parts)) ++c.barriers_partial;
  }
}

}  // namespace

Census census(const PtxKernel& k) {
  Census c;
  std::vector<std::vector<std::string>> parts;
  parts.reserve(k.instrs.size());
  for (const auto& in : k.instrs) parts.push_back(opcode_parts(in.opcode));
  for (size_t i = 0; i < k.instrs.size(); ++i) classify(k.instrs[i], parts[i], c);
  census_detail::sync_analysis(k, parts, c);
  return c;
}

nlohmann::json census_to_json(const Census& c) {
  auto by_width = [](const std::map<int, int>& m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [w, n] : m) j[std::to_string(w)] = n;
    return j;
  };
  auto by_op = [](const std::map<std::string, int>& m) {
    nlohmann::json j = nlohmann::json::object();
    for (const auto& [op, n] : m) j[op] = n;
    return j;
  };
  nlohmann::json j;
  j["fp32_add"] = c.fp32_add;
  j["fp32_mul"] = c.fp32_mul;
  j["fp32_fma"] = c.fp32_fma;
  j["fp32_other"] = c.fp32_other;
  j["fp64_add"] = c.fp64_add;
  j["fp64_mul"] = c.fp64_mul;
  j["fp64_fma"] = c.fp64_fma;
  j["fp64_other"] = c.fp64_other;
  j["fp16"] = c.fp16;
  j["tensor"] = c.tensor;
  j["ld_global"] = by_width(c.ld_global);
  j["st_global"] = by_width(c.st_global);
  j["ld_shared"] = by_width(c.ld_shared);
  j["st_shared"] = by_width(c.st_shared);
  j["ld_local"] = by_width(c.ld_local);
  j["st_local"] = by_width(c.st_local);
  j["ld_generic"] = by_width(c.ld_generic);
  j["st_generic"] = by_width(c.st_generic);
  j["ld_param"] = c.ld_param;
  j["ld_const"] = c.ld_const;
  j["barriers"] = c.barriers;
  j["barriers_divergent"] = c.barriers_divergent;
  j["barriers_partial"] = c.barriers_partial;
  j["cluster_barriers"] = c.cluster_barriers;
  j["warp_syncs"] = c.warp_syncs;
  j["atomics_global"] = by_op(c.atomics_global);
  j["atomics_shared"] = by_op(c.atomics_shared);
  j["atomics_generic"] = by_op(c.atomics_generic);
  j["atomics_red"] = c.atomics_red;
  j["shuffles"] = c.shuffles;
  j["votes"] = c.votes;
  j["warp_reduces"] = c.warp_reduces;
  j["fences"] = c.fences;
  j["async_copies"] = c.async_copies;
  j["async_waits"] = c.async_waits;
  j["mbarrier_ops"] = c.mbarrier_ops;
  j["branches"] = c.branches;
  j["instructions"] = c.instructions;
  nlohmann::json f = nlohmann::json::array();
  for (const auto& x : c.findings)
    f.push_back({{"kind", x.kind}, {"src_line", x.src_line}, {"ptx_line", x.ptx_line}, {"message", x.message}});
  j["findings"] = f;
  return j;
}

}  // namespace cudaperf::analysis
