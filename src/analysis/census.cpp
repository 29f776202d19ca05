// Instruction census and divergent-barrier analysis over the PTX CFG (see census.hpp).
#include "cudaperf/analysis/census.hpp"

#include <algorithm>
#include <set>

namespace cudaperf::analysis {
namespace {

bool has(const std::vector<std::string>& parts, const char* p) {
  return std::find(parts.begin() + 1, parts.end(), p) != parts.end();
}

bool is_shared_space(const std::string& p) { return p == "shared" || p.rfind("shared::", 0) == 0; }

// "global", "shared", "local", "param", "const" or "" (generic).
std::string state_space(const std::vector<std::string>& parts) {
  for (size_t i = 1; i < parts.size(); ++i) {
    const auto& p = parts[i];
    if (p == "global" || p == "local" || p == "param" || p == "const") return p;
    if (is_shared_space(p)) return "shared";
  }
  return "";
}

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

bool is_cta_barrier(const std::vector<std::string>& parts) {
  if (parts[0] != "bar" && parts[0] != "barrier") return false;
  return parts.size() == 1 || parts[1] == "sync" || parts[1] == "red" || parts[1] == "arrive";
}

// A barrier naming its thread count applies to a subset of the CTA by design.
bool barrier_has_count(const PtxInstruction& in, const std::vector<std::string>& parts) {
  bool red = parts.size() > 1 && parts[1] == "red";
  return in.operands.size() >= (red ? 4u : 2u);
}

void classify(const PtxInstruction& in, Census& c) {
  const auto parts = opcode_parts(in.opcode);
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
    std::string sp = state_space(parts);
    int w = access_width(parts);
    if (sp == "param") {
      if (load) ++c.ld_param;
    } else if (sp == "const") {
      if (load) ++c.ld_const;
    } else if (sp == "global") {
      ++(load ? c.ld_global : c.st_global)[w];
    } else if (sp == "shared") {
      ++(load ? c.ld_shared : c.st_shared)[w];
    } else if (sp == "local") {
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
    std::string sp = state_space(parts);
    if (sp == "global") ++c.atomics_global[op];
    else if (sp == "shared") ++c.atomics_shared[op];
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

// ---------------------------------------------------------------------------------------------
// Thread-dependence (taint) and control dependence

enum class Why { None, Tid, Lane, Warp, Clock, Atomic, Load, Local, Call, Control };

const char* why_text(Why w) {
  switch (w) {
    case Why::Tid: return "threadIdx";
    case Why::Lane: return "the lane id";
    case Why::Warp: return "the warp id";
    case Why::Clock: return "the clock";
    case Why::Atomic: return "an atomic's result";
    case Why::Load: return "a value loaded from a thread-dependent address";
    case Why::Local: return "a thread-dependent value kept in local memory";
    case Why::Call: return "a call result computed from thread-dependent arguments";
    case Why::Control: return "a value set under thread-dependent control flow";
    case Why::None: break;
  }
  return "a thread-dependent value";
}

Why special_register(const std::string& r) {
  auto starts = [&](const char* p) { return r.rfind(p, 0) == 0; };
  if (starts("%tid")) return Why::Tid;
  if (starts("%laneid") || starts("%lanemask")) return Why::Lane;
  if (starts("%warpid")) return Why::Warp;
  if (starts("%clock") || starts("%globaltimer")) return Why::Clock;
  return Why::None;
}

struct DefUse {
  std::vector<std::string> defs, uses;
  std::string guard;  // register without '!'
};

DefUse def_use(const PtxInstruction& in, const std::vector<std::string>& parts) {
  DefUse du;
  const std::string& root = parts[0];
  static const std::set<std::string> no_dest = {"bra",   "brx",      "ret",        "exit",          "trap",
                                                "membar", "fence",   "nanosleep",  "setmaxnreg",    "pmevent",
                                                "call",  "griddepcontrol", "prefetch", "prefetchu", "discard"};
  bool dest = !in.operands.empty() && in.operands[0][0] != '[' && no_dest.count(root) == 0;
  if ((root == "bar" || root == "barrier") && !(parts.size() > 1 && parts[1] == "red")) dest = false;
  if (root == "wgmma" && !has(parts, "mma_async")) dest = false;
  for (size_t i = 0; i < in.operands.size(); ++i) {
    auto regs = operand_registers(in.operands[i]);
    auto& into = (dest && i == 0) ? du.defs : du.uses;
    into.insert(into.end(), regs.begin(), regs.end());
  }
  if (!in.guard.empty()) du.guard = in.guard[0] == '!' ? in.guard.substr(1) : in.guard;
  return du;
}

bool is_terminator_branch(const std::string& root) {
  return root == "bra" || root == "brx" || root == "ret" || root == "exit";
}

// Block -> the blocks (conditional branches) it is control-dependent on: b depends on a when b is
// on a path from a successor of a up to (not including) a's immediate post-dominator.
std::vector<std::vector<int>> control_dependence(const PtxKernel& k) {
  const int n = static_cast<int>(k.blocks.size());
  const int exitn = n;
  const std::vector<std::vector<int>> succ = block_successors_with_exit(k);
  const std::vector<int> ip = immediate_post_dominators(succ, exitn);
  std::vector<std::vector<int>> cd_on(n);
  for (int a = 0; a < n; ++a) {
    if (succ[a].size() < 2 || ip[a] == -1) continue;
    for (int s : succ[a]) {
      int r = s;
      for (int guard = 0; r != ip[a] && r != exitn && r != -1 && guard <= n + 1; ++guard) {
        auto& v = cd_on[r];
        if (std::find(v.begin(), v.end(), a) == v.end()) v.push_back(a);
        r = ip[r];
      }
    }
  }
  return cd_on;
}

bool reaches(const PtxKernel& k, int from, int to) {  // through at least one edge
  std::vector<char> seen(k.blocks.size(), 0);
  std::vector<int> st(k.blocks[from].succs.begin(), k.blocks[from].succs.end());
  while (!st.empty()) {
    int v = st.back();
    st.pop_back();
    if (v == to) return true;
    if (seen[v]) continue;
    seen[v] = 1;
    for (int s : k.blocks[v].succs) st.push_back(s);
  }
  return false;
}

std::string where(const PtxInstruction& in) {
  return in.src_line > 0 ? "line " + std::to_string(in.src_line) : "PTX line " + std::to_string(in.ptx_line);
}

void sync_analysis(const PtxKernel& k, Census& c) {
  const size_t ni = k.instrs.size();
  if (ni == 0 || k.blocks.empty()) return;
  std::vector<std::vector<std::string>> parts(ni);
  std::vector<DefUse> du(ni);
  for (size_t i = 0; i < ni; ++i) {
    parts[i] = opcode_parts(k.instrs[i].opcode);
    du[i] = def_use(k.instrs[i], parts[i]);
  }
  const std::vector<std::vector<int>> cd_on = control_dependence(k);
  std::set<std::string> kernel_params(k.params.begin(), k.params.end());

  std::map<std::string, Why> taint;
  auto why = [&](const std::string& r) {
    Why s = special_register(r);
    if (s != Why::None) return s;
    auto it = taint.find(r);
    return it == taint.end() ? Why::None : it->second;
  };
  // The branch instruction ending block b when it is conditional on a tainted predicate.
  auto tainted_branch = [&](int b) -> Why {
    if (k.blocks[b].instrs.empty()) return Why::None;
    size_t i = k.blocks[b].instrs.back();
    const std::string& root = parts[i][0];
    if (!is_terminator_branch(root)) return Why::None;
    Why w = du[i].guard.empty() ? Why::None : why(du[i].guard);
    if (w == Why::None && root == "brx")
      for (const auto& u : du[i].uses)
        if ((w = why(u)) != Why::None) break;
    return w;
  };
  bool local_tainted = false, param_tainted = false;
  for (bool changed = true; changed;) {
    changed = false;
    std::vector<Why> block_ctrl(k.blocks.size(), Why::None);
    for (size_t b = 0; b < k.blocks.size(); ++b)
      for (int a : cd_on[b])
        if (tainted_branch(a) != Why::None) block_ctrl[b] = Why::Control;
    for (size_t i = 0; i < ni; ++i) {
      const auto& in = k.instrs[i];
      const auto& p = parts[i];
      const std::string& root = p[0];
      Why w = Why::None;
      for (const auto& u : du[i].uses)
        if ((w = why(u)) != Why::None) break;
      if (root == "st" || root == "stmatrix") {
        std::string sp = state_space(p);
        if (w != Why::None || (!du[i].guard.empty() && why(du[i].guard) != Why::None) ||
            block_ctrl[in.block] != Why::None) {
          if (sp == "local" && !local_tainted) local_tainted = changed = true;
          if (sp == "param" && !param_tainted) param_tainted = changed = true;
        }
        continue;
      }
      if (du[i].defs.empty()) continue;
      if (root == "ld" || root == "ldu" || root == "ldmatrix") {
        std::string sp = state_space(p);
        if (w != Why::None) w = Why::Load;
        if (w == Why::None && sp == "local" && local_tainted) w = Why::Local;
        if (w == Why::None && sp == "param" && param_tainted) {
          // a kernel parameter is uniform; anything else read from .param is a call's return value
          std::string addr = in.operands.size() > 1 ? in.operands[1] : "";
          std::string base = addr.substr(addr.find('[') + 1);
          base = base.substr(0, base.find_first_of("+]"));
          if (kernel_params.count(base) == 0) w = Why::Call;
        }
      }
      if (root == "atom") w = Why::Atomic;
      if (root == "activemask") w = Why::Lane;
      if (w == Why::None && !du[i].guard.empty()) w = why(du[i].guard) != Why::None ? Why::Control : Why::None;
      if (w == Why::None) w = block_ctrl[in.block];
      if ((root == "bar" || root == "barrier") && p.size() > 1 && p[1] == "red") w = Why::None;  // CTA-uniform
      if (w == Why::None) continue;
      for (const auto& d : du[i].defs)
        if (taint.find(d) == taint.end()) {
          taint[d] = w;
          changed = true;
        }
    }
  }
  // Divergent barriers
  for (size_t i = 0; i < ni; ++i) {
    const auto& in = k.instrs[i];
    if (!is_cta_barrier(parts[i]) || barrier_has_count(in, parts[i])) continue;
    Finding f;
    f.kind = "divergent_barrier";
    f.src_line = in.src_line;
    f.ptx_line = in.ptx_line;
    if (!du[i].guard.empty() && why(du[i].guard) != Why::None) {
      f.message = "barrier at " + where(in) + " is predicated on " + why_text(why(du[i].guard)) +
                  ": threads that skip it deadlock or race";
    } else {
      int chosen = -1;
      bool loop = false;
      for (int a : cd_on[in.block]) {
        if (tainted_branch(a) == Why::None) continue;
        bool is_loop = reaches(k, a, in.block) && reaches(k, in.block, a);
        if (chosen == -1 || (is_loop && !loop) || (is_loop == loop && a > chosen && a <= in.block)) {
          chosen = a;
          loop = is_loop;
        }
      }
      if (chosen == -1) continue;
      const auto& br = k.instrs[k.blocks[chosen].instrs.back()];
      std::string reason = why_text(tainted_branch(chosen));
      if (loop)
        f.message = "barrier at " + where(in) + " is in a loop whose trip count depends on " + reason + " (" +
                    where(br) + "): threads reach it a different number of times, which deadlocks or races";
      else
        f.message = "barrier at " + where(in) + " is inside a branch on " + reason + " (" + where(br) +
                    "): threads that skip it deadlock or race";
    }
    ++c.barriers_divergent;
    c.findings.push_back(std::move(f));
  }
}

}  // namespace

Census census(const PtxKernel& k) {
  Census c;
  for (const auto& in : k.instrs) classify(in, c);
  sync_analysis(k, c);
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
