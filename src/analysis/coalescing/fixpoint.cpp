// Liveness, dominance and the forward fixpoint over the CFG.
#include "analyzer.hpp"

#include <cstdint>

namespace cudaperf::analysis::coalesce {

// Live registers at block entries and exits (backward dataflow over the edges the forward
// fixpoint joins along: p -> b for every p in b's preds).
void Analyzer::liveness() {
  const int n = static_cast<int>(k_.blocks.size());
  const size_t words = (reg_ids_.size() + 63) / 64;
  using Bits = std::vector<uint64_t>;
  std::vector<Bits> gen(n, Bits(words, 0)), kill(n, Bits(words, 0)), in(n, Bits(words, 0)), out(n, Bits(words, 0));
  auto set = [](Bits& b, int r) { b[r / 64] |= 1ULL << (r % 64); };
  auto get = [](const Bits& b, int r) { return (b[r / 64] >> (r % 64)) & 1; };
  std::vector<std::vector<int>> succ(n);
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n) succ[p].push_back(b);
    const auto& ins = k_.blocks[b].instrs;
    for (auto it = ins.rbegin(); it != ins.rend(); ++it) {
      if (*it >= k_.instrs.size()) continue;
      const Decoded& d = dec_[*it];
      for (int r : d.kills) set(kill[b], r), gen[b][r / 64] &= ~(1ULL << (r % 64));
      for (int r : d.uses) set(gen[b], r);
    }
  }
  for (bool changed = true; changed;) {
    changed = false;
    for (int b = n - 1; b >= 0; --b) {
      Bits o(words, 0);
      for (int s : succ[b])
        for (size_t w = 0; w < words; ++w) o[w] |= in[s][w];
      Bits i(words, 0);
      for (size_t w = 0; w < words; ++w) i[w] = gen[b][w] | (o[w] & ~kill[b][w]);
      if (i != in[b] || o != out[b]) {
        in[b] = std::move(i);
        out[b] = std::move(o);
        changed = true;
      }
    }
  }
  live_in_.assign(n, {});
  live_out_.assign(n, {});
  for (int b = 0; b < n; ++b)
    for (int r = 0; r < static_cast<int>(reg_ids_.size()); ++r) {
      if (get(in[b], r)) live_in_[b].push_back(r);
      if (get(out[b], r)) live_out_[b].push_back(r);
    }
}

namespace {

// How two states differ: `changed`, as the fixpoint's termination test sees it (same_val: kind,
// space and form); `differs`, in anything, the reasons carried by top values included (what decides
// whether the blocks reading the state must be visited again).
struct Diff {
  bool changed = false, differs = false;
};
Diff compare_states(const RegVals& a, const RegVals& b) {
  if (a.size() != b.size()) return {true, true};
  Diff d;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].first != b[i].first || !same_val(a[i].second, b[i].second)) return {true, true};
    if (a[i].second.why != b[i].second.why) d.differs = true;
  }
  return d;
}

}  // namespace

bool Analyzer::branch_divergent(int b, const State& out) const {
  const auto& ins = k_.blocks[b].instrs;
  if (ins.empty()) return false;
  const PtxInstruction& last = k_.instrs[ins.back()];
  if (last.guard.empty() || last.opcode.rfind("bra", 0) != 0) return false;
  if (last.opcode == "bra.uni") return false;
  return !pred_uniform(last.guard, out);
}

// Loop headers, and for every other join block the blocks on paths from its immediate dominator
// whose conditional branch could diverge into it.
void Analyzer::dominance() {
  const int n = static_cast<int>(k_.blocks.size());
  const std::vector<int> idom = immediate_dominators(block_successors(k_), 0);
  auto dominates = [&](int d, int b) {
    for (int x = b; x >= 0; x = idom[x]) {
      if (x == d) return true;
      if (idom[x] == x) break;  // the entry
    }
    return false;
  };
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n && dominates(b, p)) loop_header_[b] = 1;
    if (loop_header_[b] || k_.blocks[b].preds.size() < 2) continue;
    const int d = b == 0 ? -1 : idom[b];
    std::vector<char> seen(n, 0);
    std::vector<int> work;
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n && !seen[p]) seen[p] = 1, work.push_back(p);
    while (!work.empty()) {
      int x = work.back();
      work.pop_back();
      region_branches_[b].push_back(x);
      if (x == d) continue;
      for (int p : k_.blocks[x].preds)
        if (p >= 0 && p < n && p != b && !seen[p]) seen[p] = 1, work.push_back(p);
    }
  }
}

// The forward fixpoint: rounds over the blocks in order, each block's entry state the join of its
// predecessors' exit states and of its previous entry state (monotone ascent), until a round changes
// nothing (or 200 rounds). A block is visited only when something it reads changed since its last
// visit (a predecessor's exit state, the divergence of a branch into it, or its own entry state):
// skipping it otherwise changes nothing, so the result is that of visiting every block every round.
// States hold only the registers live at that point.
void Analyzer::run() {
  const int n = static_cast<int>(k_.blocks.size());
  in_.assign(n, {});
  out_.assign(n, {});
  loop_header_.assign(n, 0);
  region_branches_.assign(n, {});
  if (n == 0) return;
  liveness();
  dominance();

  std::vector<std::vector<int>> succ(n), readers(n);  // readers[x]: blocks whose joins read x's branch
  for (int b = 0; b < n; ++b) {
    for (int p : k_.blocks[b].preds)
      if (p >= 0 && p < n) succ[p].push_back(b);
    for (int x : region_branches_[b]) readers[x].push_back(b);
  }
  std::vector<std::vector<char>> live_in(n, std::vector<char>(reg_ids_.size(), 0));
  for (int b = 0; b < n; ++b)
    for (int r : live_in_[b]) live_in[b][r] = 1;

  std::vector<char> divergent_branch(n, 0), dirty(n, 1);
  State s(reg_ids_.size());
  const int max_rounds = 200;
  for (int round = 0; round < max_rounds; ++round) {
    bool changed = false;
    for (int b = 0; b < n; ++b) {
      if (!dirty[b]) continue;
      dirty[b] = 0;
      bool divergent = false;
      for (int x : region_branches_[b]) divergent = divergent || divergent_branch[x];
      // entry = join of the predecessors' exits (in order), then in_[b] joined with it
      bool first = true;
      for (int p : k_.blocks[b].preds) {
        if (p < 0 || p >= n) continue;
        for (const auto& [r, v] : out_[p]) {
          if (!live_in[b][r]) continue;
          Val* cur = first ? nullptr : s.find(r);
          if (cur == nullptr) s.set(r, v);
          else join_into(*cur, v, divergent);
        }
        first = false;
      }
      RegVals entry;
      entry.reserve(live_in_[b].size());
      {
        auto it = in_[b].begin();
        for (int r : live_in_[b]) {
          const Val* old = it != in_[b].end() && it->first == r ? &(it++)->second : nullptr;
          Val* fresh = s.find(r);
          if (old) entry.emplace_back(r, *old);
          if (old && fresh) join_into(entry.back().second, *fresh, divergent);
          else if (fresh) entry.emplace_back(r, std::move(*fresh));
        }
      }
      s.clear();
      load(entry, s);
      for (size_t i : k_.blocks[b].instrs)
        if (i < k_.instrs.size()) transfer(i, s);
      const char div = branch_divergent(b, s) ? 1 : 0;
      RegVals exit;
      exit.reserve(live_out_[b].size());
      for (int r : live_out_[b])
        if (Val* v = s.find(r)) exit.emplace_back(r, std::move(*v));  // s is cleared next
      s.clear();

      const Diff din = compare_states(entry, in_[b]), dout = compare_states(exit, out_[b]);
      if (din.changed || dout.changed) changed = true;
      if (din.changed || din.differs) dirty[b] = 1;
      if (dout.changed || dout.differs)
        for (int x : succ[b]) dirty[x] = 1;
      if (div != divergent_branch[b]) {
        divergent_branch[b] = div;
        for (int x : readers[b]) dirty[x] = 1;
      }
      in_[b] = std::move(entry);
      out_[b] = std::move(exit);
    }
    if (!changed) break;
  }
}

}  // namespace cudaperf::analysis::coalesce
