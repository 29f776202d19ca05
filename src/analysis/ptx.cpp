#include "cudaperf/analysis/ptx.hpp"

namespace cudaperf::analysis {

Result<PtxModule> parse_ptx(const std::string&) { return PtxModule{}; }  // placeholder: being written

}  // namespace cudaperf::analysis
