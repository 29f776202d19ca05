#include "cudaperf/analysis/census.hpp"

namespace cudaperf::analysis {

Census census(const PtxKernel&) { return {}; }  // placeholder: being written

}  // namespace cudaperf::analysis
