// The coalescing analysis of one kernel (the domain: cudaperf/analysis/coalescing.hpp). Its parts:
// decode.cpp (instructions decoded once, registers, pointer parameters), fixpoint.cpp (liveness,
// dominance, the forward fixpoint), eval.cpp (operand values and their text), transfer.cpp (one
// instruction's effect) and ../coalescing.cpp (the global accesses read off the fixpoint).
#pragma once
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cudaperf/analysis/coalescing.hpp"
#include "cudaperf/analysis/ptx.hpp"
#include "value.hpp"

namespace cudaperf::analysis::coalesce {

// The abstract state at one program point, over the kernel's destination registers (dense ids). A
// register is absent until an instruction defines it; it may then hold bottom, which is not the same
// as absent for a predicate (see pred_uniform). Used as the working state while interpreting a block;
// block entry and exit states are kept as RegVals, restricted to the registers live there.
class State {
 public:
  explicit State(size_t regs = 0) : val_(regs), has_(regs, 0) {}
  const Val* find(int id) const { return id >= 0 && has_[id] ? &val_[id] : nullptr; }
  Val* find(int id) { return id >= 0 && has_[id] ? &val_[id] : nullptr; }
  void set(int id, Val v) {
    if (!has_[id]) {
      has_[id] = 1;
      touched_.push_back(id);
    }
    val_[id] = std::move(v);
  }
  void clear() {  // the values stay allocated until overwritten
    for (int id : touched_) has_[id] = 0;
    touched_.clear();
  }

 private:
  std::vector<Val> val_;
  std::vector<char> has_;
  std::vector<int> touched_;
};

using RegVals = std::vector<std::pair<int, Val>>;  // sorted by register id

// One instruction, decoded once.
struct Decoded {
  std::vector<std::string> parts;  // opcode split at '.'
  std::vector<std::string> ops;    // operands re-split at top-level commas
  std::vector<std::string> srcs;   // ops[1..] of an instruction that defines (the sources)
  bool defines = false;            // ops[0] names destination registers
  std::vector<int> dests;          // their register ids (-1 for the sink "_")
  std::vector<int> uses, kills;    // registers read (for liveness, generously) and overwritten
};

class Analyzer {
 public:
  explicit Analyzer(const PtxKernel& k) : k_(k) {
    names_.push_back("?");
    decode();
    prepass();
  }

  void run();
  std::vector<GlobalAccess> accesses();
  std::string address_text(size_t instr);

 private:
  const PtxKernel& k_;
  std::vector<std::string> names_;
  std::map<std::string, int> ids_;
  std::set<int> pointer_params_;
  std::vector<Decoded> dec_;                        // parallel to k_.instrs
  std::unordered_map<std::string, int> reg_ids_;    // destination register name -> dense id
  std::vector<std::vector<int>> live_in_, live_out_;  // per block, sorted register ids
  std::vector<RegVals> in_, out_;                   // per block, restricted to live_in_ / live_out_
  std::vector<char> loop_header_;
  std::vector<std::vector<int>> region_branches_;  // per join block: blocks whose branch may diverge into it

  int sym(const std::string& name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    int id = static_cast<int>(names_.size());
    names_.push_back(name);
    ids_[name] = id;
    return id;
  }
  Val symval(const std::string& name) {
    Val v;
    v.kind = Val::Aff;
    v.uni = make_sym(sym(name));
    return v;
  }
  int reg_id(const std::string& name) const {
    auto it = reg_ids_.find(name);
    return it == reg_ids_.end() ? -1 : it->second;
  }

  std::string param_symbol(const std::string& pname) const {
    for (size_t i = 0; i < k_.params.size(); ++i)
      if (k_.params[i] == pname) return "param_" + std::to_string(i);
    auto pos = pname.rfind("_param_");
    if (pos != std::string::npos) return pname.substr(pos + 1);
    return "";
  }

  void decode();
  void reads(const std::string& op, std::vector<int>& out) const;
  void liveness();
  void dominance();
  void prepass();
  void transfer(size_t instr, State& s);
  Val eval(const std::string& op, const State& s);
  Val address(const std::string& mem, const State& s);
  Val generic(const std::vector<std::string>& srcs, const State& s, const std::string& opcode);
  bool pred_uniform(const std::string& guard, const State& s) const {
    if (guard.empty()) return true;
    const Val* v = s.find(reg_id(guard[0] == '!' ? guard.substr(1) : guard));
    if (v == nullptr) return true;  // undefined yet: the fixpoint revisits
    return v->kind != Val::Top && v->uniform();
  }
  bool branch_divergent(int b, const State& out) const;
  void load(const RegVals& from, State& s) const {
    for (const auto& [id, v] : from) s.set(id, v);
  }
  int tz(const Mono& m, long long c) const;  // trailing zero bits of the monomial's values (capped)
  int value_tz(const Val& v) const;
  int poly_tz(const Poly& p) const {
    int z = 64;
    for (const auto& [m, c] : p.t) z = std::min(z, tz(m, c));
    return z;
  }
  void join_into(Val& a, const Val& b, bool divergent) const {
    vjoin_into(a, b, divergent, [this](const Poly& x, const Poly& y) { return std::min(poly_tz(x), poly_tz(y)); });
  }
  Val join(Val a, const Val& b, bool divergent) const {
    join_into(a, b, divergent);
    return a;
  }
  std::string poly_text(const Poly& p) const;
  std::string val_text(const Val& v) const;
};

}  // namespace cudaperf::analysis::coalesce
