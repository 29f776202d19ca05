// Instructions decoded once: opcode parts, operands, destination registers and what each reads;
// the pointer parameters.
#include "analyzer.hpp"

#include "../text.hpp"
#include "operands.hpp"

namespace cudaperf::analysis::coalesce {

using detail::trim;

void Analyzer::decode() {
  static const std::set<std::string> no_def = {"st",   "red",  "bra",      "bar",      "barrier", "ret",   "exit",
                                               "membar", "fence", "prefetch", "prefetchu", "trap",  "brkpt", "call",
                                               "cp",   "pmevent", "nanosleep", "griddepcontrol", "stmatrix",
                                               "tensormap", "multimem", "discard", "applypriority", "createpolicy"};
  dec_.resize(k_.instrs.size());
  std::vector<std::vector<std::string>> dest_names(k_.instrs.size());
  for (size_t i = 0; i < k_.instrs.size(); ++i) {
    Decoded& d = dec_[i];
    d.parts = opcode_parts(k_.instrs[i].opcode);
    d.ops = normalize_operands(k_.instrs[i].operands);
    const auto& ops = d.ops;
    d.defines = !(ops.empty() || no_def.count(d.parts[0]) || ops[0].empty() || ops[0][0] == '[');
    if (!d.defines) continue;
    d.srcs.assign(ops.begin() + 1, ops.end());
    // Destinations: "%p1|%p2", "{%f1, %f2}", or a register.
    if (ops[0][0] == '{') {
      for (auto& n : normalize_operands({ops[0].substr(1, ops[0].size() - 2)})) dest_names[i].push_back(trim(n));
    } else {
      for (auto& n : split(ops[0], '|')) dest_names[i].push_back(trim(n));
    }
    for (const auto& n : dest_names[i])
      if (!n.empty() && n != "_") reg_ids_.emplace(n, static_cast<int>(reg_ids_.size()));
  }
  for (size_t i = 0; i < k_.instrs.size(); ++i) {
    Decoded& d = dec_[i];
    const std::string& guard = k_.instrs[i].guard;
    for (const auto& n : dest_names[i]) d.dests.push_back(n.empty() || n == "_" ? -1 : reg_id(n));
    // Every register an operand names may be read: by the transfer function, or by accesses() for a
    // memory operand. A guarded definition reads the old value; an unguarded one overwrites it.
    for (size_t o = d.defines ? 1 : 0; o < d.ops.size(); ++o) reads(d.ops[o], d.uses);
    if (!guard.empty()) reads(guard[0] == '!' ? guard.substr(1) : guard, d.uses);
    for (int r : d.dests)
      if (r >= 0) (guard.empty() ? d.kills : d.uses).push_back(r);
  }
}

// The registers eval/address may look up for an operand (a superset).
void Analyzer::reads(const std::string& op0, std::vector<int>& out) const {
  auto add = [&](const std::string& n) {
    int id = reg_id(n);
    if (id >= 0) out.push_back(id);
  };
  for (const auto& r : operand_registers(op0)) add(r);
  std::string op = trim(op0);
  if (!op.empty() && op[0] == '!') op = op.substr(1);
  if (op.empty()) return;
  add(op);
  if (op[0] == '{' || op[0] == '[') {
    std::string inner = op.substr(1, op.size() >= 2 ? op.size() - 2 : 0);
    for (const auto& e : normalize_operands({inner})) reads(e, out);
    inner = trim(inner);
    for (size_t i = 1; i < inner.size(); ++i)
      if (inner[i] == '+' || inner[i] == '-') {
        add(trim(inner.substr(0, i)));
        break;
      }
  }
}

void Analyzer::prepass() {
  // Pointer parameters: 64-bit params loaded into a register that cvta.to.global converts.
  std::map<std::string, std::string> reg_param;
  for (const auto& d : dec_) {
    const auto& parts = d.parts;
    const auto& ops = d.ops;
    if (parts[0] == "ld" && has_part(parts, "param") && ops.size() == 2 && ops[1].size() > 2) {
      std::string name = trim(ops[1].substr(1, ops[1].size() - 2));
      if (name.find('+') == std::string::npos) reg_param[ops[0]] = param_symbol(name);
    } else if (parts[0] == "cvta" && has_part(parts, "to") && has_part(parts, "global") && ops.size() == 2) {
      auto it = reg_param.find(ops[1]);
      if (it != reg_param.end() && !it->second.empty()) pointer_params_.insert(sym(it->second));
    }
  }
}

}  // namespace cudaperf::analysis::coalesce
