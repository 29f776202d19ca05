#include "cudaperf/analysis/occupancy.hpp"

namespace cudaperf::analysis {

Occupancy occupancy_sm90(const OccupancyInput&) { return {}; }  // placeholder: being written

}  // namespace cudaperf::analysis
