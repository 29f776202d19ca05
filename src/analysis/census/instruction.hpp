// What the census's two parts (../census.cpp: counts; sync.cpp: divergent barriers) both read
// from an instruction.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "../ptx/fields.hpp"
#include "cudaperf/analysis/census.hpp"

namespace cudaperf::analysis::census_detail {

// Whether an opcode part after the root is `p`.
inline bool has(const std::vector<std::string>& parts, const char* p) {
  return std::find(parts.begin() + 1, parts.end(), p) != parts.end();
}

// The state space with the census's spelling rule (ptx/fields.hpp says why it is Exact).
inline detail::StateSpace state_space(const std::vector<std::string>& parts) {
  return detail::state_space(parts, detail::SpaceSpelling::Exact);
}

inline bool is_cta_barrier(const std::vector<std::string>& parts) {
  if (parts[0] != "bar" && parts[0] != "barrier") return false;
  return parts.size() == 1 || parts[1] == "sync" || parts[1] == "red" || parts[1] == "arrive";
}

// A barrier naming its thread count applies to a subset of the CTA by design.
inline bool barrier_has_count(const PtxInstruction& in, const std::vector<std::string>& parts) {
  bool red = parts.size() > 1 && parts[1] == "red";
  return in.operands.size() >= (red ? 4u : 2u);
}

// Thread dependence and divergent barriers (census.hpp): fills c.barriers_divergent and c.findings.
// parts[i] is opcode_parts of k.instrs[i].
void sync_analysis(const PtxKernel& k, const std::vector<std::vector<std::string>>& parts, Census& c);

}  // namespace cudaperf::analysis::census_detail
