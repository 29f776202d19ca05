// The control-flow graph of a PTX function: block edges from branches, dominators and
// post-dominators.
#include "cfg.hpp"

#include <utility>

namespace cudaperf::analysis {
namespace ptx_reader {

void link_blocks(PtxKernel& f, const std::map<std::string, int>& label_block,
                 const std::map<std::string, std::vector<std::string>>& branch_tables,
                 const std::function<void(int, const std::string&)>& error) {
  const int nb = static_cast<int>(f.blocks.size());
  for (int b = 0; b < nb; ++b) {
    std::vector<int> succ;
    auto add = [&](int x) {
      for (int y : succ)
        if (y == x) return;
      succ.push_back(x);
    };
    bool falls = true;
    if (!f.blocks[b].instrs.empty()) {
      const PtxInstruction& last = f.instrs[f.blocks[b].instrs.back()];
      std::string root = last.opcode.substr(0, last.opcode.find('.'));
      if (root == "bra") {
        std::string target = last.operands.empty() ? "" : last.operands.back();
        auto it = label_block.find(target);
        if (it == label_block.end()) error(last.ptx_line, "branch to an unknown label '" + target + "'");
        else add(it->second);
        falls = !last.guard.empty();
      } else if (root == "brx") {
        std::string tbl = last.operands.empty() ? "" : last.operands.back();
        auto it = branch_tables.find(tbl);
        if (it == branch_tables.end()) {
          error(last.ptx_line, "brx.idx with an unknown .branchtargets list '" + tbl + "'");
        } else {
          for (const auto& l : it->second) {
            auto jt = label_block.find(l);
            if (jt == label_block.end()) error(last.ptx_line, "branch target '" + l + "' is not a label");
            else add(jt->second);
          }
        }
        falls = !last.guard.empty();
      } else if (root == "ret" || root == "exit" || root == "trap") {
        falls = !last.guard.empty();
      }
    }
    if (falls && b + 1 < nb) add(b + 1);
    f.blocks[b].succs = succ;
    for (int x : succ) f.blocks[x].preds.push_back(b);
  }
}

}  // namespace ptx_reader

namespace {

// The graph with every edge reversed (edges to nodes out of range dropped).
std::vector<std::vector<int>> reversed(const std::vector<std::vector<int>>& succs) {
  const int n = static_cast<int>(succs.size());
  std::vector<std::vector<int>> preds(n);
  for (int v = 0; v < n; ++v)
    for (int s : succs[v])
      if (s >= 0 && s < n) preds[s].push_back(v);
  return preds;
}

}  // namespace

std::vector<int> immediate_dominators(const std::vector<std::vector<int>>& succs, int root) {
  const int n = static_cast<int>(succs.size());
  std::vector<int> idom(n, -1);
  if (root < 0 || root >= n) return idom;
  const std::vector<std::vector<int>> preds = reversed(succs);
  // Post-order numbers of a depth-first search from the root.
  std::vector<int> order, po(n, -1);
  std::vector<char> seen(n, 0);
  std::vector<std::pair<int, size_t>> stack = {{root, 0}};
  seen[root] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < succs[v].size()) {
      int w = succs[v][i++];
      if (w >= 0 && w < n && !seen[w]) {
        seen[w] = 1;
        stack.push_back({w, 0});
      }
    } else {
      po[v] = static_cast<int>(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (po[a] < po[b]) a = idom[a];
      while (po[b] < po[a]) b = idom[b];
    }
    return a;
  };
  idom[root] = root;
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {  // reverse post-order
      const int v = *it;
      if (v == root) continue;
      int nd = -1;
      for (int p : preds[v]) {
        if (idom[p] == -1) continue;  // unreachable, or not processed yet
        nd = nd == -1 ? p : intersect(p, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  return idom;
}

std::vector<int> immediate_post_dominators(const std::vector<std::vector<int>>& succs, int exit) {
  return immediate_dominators(reversed(succs), exit);
}

std::vector<std::vector<int>> block_successors(const PtxKernel& k) {
  std::vector<std::vector<int>> succs;
  succs.reserve(k.blocks.size());
  for (const auto& b : k.blocks) succs.push_back(b.succs);
  return succs;
}

std::vector<std::vector<int>> block_successors_with_exit(const PtxKernel& k) {
  const int n = static_cast<int>(k.blocks.size());
  const int exit = n;
  std::vector<std::vector<int>> succ = block_successors(k);
  succ.emplace_back();
  for (int b = 0; b < n; ++b) {
    bool leaves = k.blocks[b].succs.empty();
    if (!k.blocks[b].instrs.empty()) {
      const auto& last = k.instrs[k.blocks[b].instrs.back()];
      const std::string root = last.opcode.substr(0, last.opcode.find('.'));
      if ((root == "ret" || root == "exit" || root == "trap") && !last.guard.empty()) leaves = true;
    }
    if (leaves) succ[b].push_back(exit);
  }
  // Blocks that cannot reach the exit (endless loops) get an edge to it, latest block first; each
  // such edge makes everything that reaches that block reach the exit.
  std::vector<std::vector<int>> pred = reversed(succ);
  std::vector<char> reaches(n + 1, 0);
  auto mark_reaching = [&](int from) {
    std::vector<int> stack = {from};
    reaches[from] = 1;
    while (!stack.empty()) {
      int v = stack.back();
      stack.pop_back();
      for (int p : pred[v])
        if (!reaches[p]) {
          reaches[p] = 1;
          stack.push_back(p);
        }
    }
  };
  mark_reaching(exit);
  for (int b = n - 1; b >= 0; --b)
    if (!reaches[b]) {
      succ[b].push_back(exit);
      pred[exit].push_back(b);
      mark_reaching(b);
    }
  return succ;
}

}  // namespace cudaperf::analysis
