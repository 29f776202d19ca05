// The records schema of check-gpu (record.hpp).
#include "cudaperf/verify/record.hpp"

namespace cudaperf::verify {

using nlohmann::json;

json record_json(const Record& r, const RecordRun& run) {
  json j = {{"task", r.task}, {"category", r.category}, {"impl", r.impl}, {"config", r.config}, {"perf", r.perf},
            {"status", r.status}, {"message", r.message}, {"median_ms", r.median_ms}, {"min_ms", r.min_ms},
            {"q1_ms", r.q1_ms}, {"q3_ms", r.q3_ms}, {"rel_stdev", r.rel_stdev}, {"samples", r.samples},
            {"timed_calls", r.timed_calls}, {"discarded", r.discarded}, {"sm_clock_mhz", r.sm_clock_mhz},
            {"device", run.device}, {"toolkit", run.toolkit}, {"date", run.date}};
  j["kind"] = r.kind;
  for (const auto& [k, v] : r.extra.items()) j[k] = v;
  return j;
}

Record c2cuda_record(const task::Task& t, const GpuImplResult& r, double floor_ms, const std::string& peaks) {
  Record x;
  x.kind = "c2cuda";
  x.task = t.id;
  x.category = t.category;
  x.impl = r.impl;
  x.config = r.config;
  for (const auto& c : t.configs)
    if (c.name == r.config) x.perf = c.perf;
  x.status = r.status;
  x.message = r.message;
  x.median_ms = r.median_ms;
  x.min_ms = r.min_ms;
  x.q1_ms = r.q1_ms;
  x.q3_ms = r.q3_ms;
  x.rel_stdev = r.rel_stdev;
  x.samples = r.samples;
  x.timed_calls = r.timed_calls;
  x.discarded = r.discarded;
  x.sm_clock_mhz = r.sm_clock_mhz;
  x.extra = {{"stop_reason", r.stop_reason}, {"sm_clock_max_mhz", r.sm_clock_max_mhz}, {"handshake_ms", r.handshake_ms},
             {"window_median_ms", r.window_median_ms}, {"pre_window_ms", r.pre_window_ms},
             {"roofline_floor_ms", x.perf ? floor_ms : -1.0}, {"peaks", peaks}};
  return x;
}

}  // namespace cudaperf::verify
