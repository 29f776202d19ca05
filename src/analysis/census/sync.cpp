// Thread-dependence (taint) and control dependence: the census's divergent barriers.
#include <map>
#include <set>

#include "instruction.hpp"

namespace cudaperf::analysis::census_detail {

namespace {

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

}  // namespace

void sync_analysis(const PtxKernel& k, const std::vector<std::vector<std::string>>& parts, Census& c) {
  const size_t ni = k.instrs.size();
  if (ni == 0 || k.blocks.empty()) return;
  std::vector<DefUse> du(ni);
  for (size_t i = 0; i < ni; ++i) du[i] = def_use(k.instrs[i], parts[i]);
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
        const detail::StateSpace sp = state_space(p);
        if (w != Why::None || (!du[i].guard.empty() && why(du[i].guard) != Why::None) ||
            block_ctrl[in.block] != Why::None) {
          if (sp == detail::StateSpace::Local && !local_tainted) local_tainted = changed = true;
          if (sp == detail::StateSpace::Param && !param_tainted) param_tainted = changed = true;
        }
        continue;
      }
      if (du[i].defs.empty()) continue;
      if (root == "ld" || root == "ldu" || root == "ldmatrix") {
        const detail::StateSpace sp = state_space(p);
        if (w != Why::None) w = Why::Load;
        if (w == Why::None && sp == detail::StateSpace::Local && local_tainted) w = Why::Local;
        if (w == Why::None && sp == detail::StateSpace::Param && param_tainted) {
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

}  // namespace cudaperf::analysis::census_detail
