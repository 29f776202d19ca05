// Decoding of opcode fields shared by the analyses (the public helpers opcode_parts, type_bytes and
// operand_registers are declared in cudaperf/analysis/ptx.hpp and defined in fields.cpp too).
#pragma once
#include <string>
#include <vector>

namespace cudaperf::analysis::detail {

enum class StateSpace { Generic, Global, Shared, Local, Const, Param };

// How a state-space part may be spelt. PTX qualifies two spaces: ".shared::cta" / ".shared::cluster"
// and ".param::entry" / ".param::func". The analyses read the qualified param space differently, and
// each keeps its reading:
//   - Exact (the census: instruction counts and the thread-dependence of local/param memory): "global",
//     "local", "const", "param", "shared" and "shared::<scope>". A part such as "param::entry" is not a
//     space, so `ld.param::entry.u64` counts as a generic load.
//   - Prefix (coalescing: where an address points): also any other part beginning with "shared" or
//     "param", so `ld.param::entry.u64` reads a kernel parameter.
// Outside ".param::entry" / ".param::func" the two differ only on parts that are not PTX.
enum class SpaceSpelling { Exact, Prefix };

// The state space of an opcode split by opcode_parts: the first part after the root that names one,
// Generic when none does.
StateSpace state_space(const std::vector<std::string>& parts, SpaceSpelling spelling);

}  // namespace cudaperf::analysis::detail
