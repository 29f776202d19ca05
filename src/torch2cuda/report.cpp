// A torch2cuda evaluation report as JSON (TorchEvalReport::to_json).
#include <nlohmann/json.hpp>

#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::torch2cuda {

using nlohmann::json;
using verify::Verdict;

json TorchEvalReport::to_json() const {
  json j = {{"kind", "torch2cuda"},
            {"task", base.task_id},
            {"candidate", base.candidate},
            {"message", base.message},
            {"device", base.device},
            {"mode", mode},
            {"hidden", hidden},
            {"sandbox", sandbox},
            {"build", build},
            {"stages", stages}};
  j.update(verify::verdict_fields(base.verdict, base.gpu_stages_run));
  j["findings"] = json::array();
  for (const auto& f : findings) j["findings"].push_back({{"rule", f.rule}, {"line", f.line}, {"message", f.message}});
  j["configs"] = json::array();
  for (const auto& c : base.configs) {
    json x = {{"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
              {"median_ms", c.median_ms}, {"min_ms", c.min_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms},
              {"rel_stdev", c.rel_stdev}, {"samples", c.samples}, {"timed_calls", c.timed_calls}};
    if (c.perf) {
      x["discarded"] = c.discarded;
      if (c.sm_clock_mhz > 0) x["sm_clock_mhz"] = c.sm_clock_mhz;
    }
    if (auto it = eager_ms.find(c.config); it != eager_ms.end()) x["eager_ms"] = it->second;
    if (auto it = compile_ms.find(c.config); it != compile_ms.end()) x["compile_ms"] = it->second;
    if (auto it = baseline_errors.find(c.config); it != baseline_errors.end()) x["baseline_error"] = it->second;
    j["configs"].push_back(x);
  }
  if (speedup_vs_eager) j["speedup_vs_eager"] = *speedup_vs_eager;
  if (speedup_vs_compile) j["speedup_vs_compile"] = *speedup_vs_compile;
  return j;
}

verify::Record torch_record(const task::TorchTask& t, const std::string& impl, const verify::ConfigResult& c, const TorchEvalReport& rep) {
  verify::Record x;
  x.task = t.id;
  x.category = t.category;
  x.kind = "torch2cuda";
  x.impl = impl;
  x.config = c.config;
  x.perf = c.perf;
  x.status = c.status;
  x.message = c.message;
  x.median_ms = c.median_ms;
  x.min_ms = c.min_ms;
  x.q1_ms = c.q1_ms;
  x.q3_ms = c.q3_ms;
  x.rel_stdev = c.rel_stdev;
  x.samples = c.samples;
  x.timed_calls = c.timed_calls;
  x.discarded = c.discarded;
  x.sm_clock_mhz = c.sm_clock_mhz;
  x.extra = {{"mode", rep.mode}, {"build", rep.build}, {"stages", rep.stages}};
  if (auto it = rep.eager_ms.find(c.config); it != rep.eager_ms.end()) x.extra["eager_ms"] = it->second;
  if (auto it = rep.compile_ms.find(c.config); it != rep.compile_ms.end()) x.extra["compile_ms"] = it->second;
  return x;
}

}  // namespace cudaperf::torch2cuda
