#include "cudaperf/analysis/coalescing.hpp"

namespace cudaperf::analysis {

std::vector<GlobalAccess> coalescing(const PtxKernel&) { return {}; }  // placeholder: being written

}  // namespace cudaperf::analysis
