// Block edges of a PTX function being read (the dominator helpers are public: ptx.hpp).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis::ptx_reader {

// Fills every block's succs and preds from its last instruction: a bra goes to its label, a brx to
// the labels of its .branchtargets list, and a block falls through to the next unless it ends with
// an unguarded bra/brx/ret/exit/trap. `error(ptx_line, message)` reports a target that is not there.
void link_blocks(PtxKernel& f, const std::map<std::string, int>& label_block,
                 const std::map<std::string, std::vector<std::string>>& branch_tables,
                 const std::function<void(int, const std::string&)>& error);

}  // namespace cudaperf::analysis::ptx_reader
