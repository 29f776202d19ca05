#include "cudaperf/verify/evaluate.hpp"

#include <cmath>
#include <fmt/format.h>

#include "cudaperf/compile/compile.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;

namespace {

Verdict verdict_of_status(const std::string& s) {
  Verdict v = Verdict::RuntimeError;
  if (s == "crash") return Verdict::RuntimeError;
  parse_verdict(s, v);
  return v;
}

}  // namespace

EvalReport evaluate_candidate(const task::Task& t, const fs::path& candidate, const EvalOptions& o) {
  EvalReport r;
  r.task_id = t.id;
  r.candidate = candidate.string();
  r.build = compile::build_candidate(t, candidate);
  if (!r.build.artifact.ok) {
    r.verdict = Verdict::CompileError;
    r.message = r.build.artifact.diagnostics;
    return r;
  }
  if (!r.build.link.ok()) {
    r.verdict = Verdict::LinkError;
    r.message = r.build.link.message();
    return r;
  }
  auto ref = compile::compile_reference(t);
  if (!ref.ok) {
    r.verdict = Verdict::RuntimeError;
    r.message = "the task's reference does not build (a dataset problem, not the candidate's): " + ref.diagnostics;
    return r;
  }
  if (!o.run_gpu) {
    r.device = "GPU stages not requested";
    r.message = "built and passed the link checks; GPU stages skipped";
    return r;
  }
  bool have_gpu = false;
  r.device = describe_gpu(have_gpu);
  if (!have_gpu) {
    r.message = fmt::format("built and passed the link checks; GPU stages skipped: {}", r.device);
    return r;
  }
  // Run the candidate beside the task's naive impl (speedup baseline) and a trusted dataset impl
  // (the reference at perf sizes, where the C reference would be too slow).
  task::Task run = t;
  run.impls.clear();
  const task::Impl* naive = nullptr;
  const task::Impl* trusted = nullptr;
  for (const auto& im : t.impls) {
    if (im.strategy == "naive") naive = &im;
    else if (!trusted) trusted = &im;
  }
  std::vector<fs::path> artifacts;
  for (const task::Impl* im : {naive, trusted}) {
    if (!im) continue;
    auto a = compile::compile_cuda(t, im->path);
    if (!a.ok) continue;
    run.impls.push_back(*im);
    artifacts.push_back(a.path);
  }
  task::Impl cand;
  cand.strategy = "candidate";
  cand.path = candidate;
  run.impls.push_back(cand);
  artifacts.push_back(r.build.artifact.path);
  GpuCheckOptions go = o.gpu;
  if (trusted) go.trusted = r.trusted_impl = trusted->strategy;
  auto results = gpu_check_task(run, ref.path, artifacts, go);
  r.gpu_stages_run = true;

  std::map<std::string, double> naive_ms;
  for (const auto& x : results)
    if (x.impl == "naive" && x.median_ms > 0) naive_ms[x.config] = x.median_ms;
  r.verdict = Verdict::Ok;
  double log_sum = 0;
  int n_perf = 0;
  for (const auto& x : results) {
    if (x.impl != "candidate" && x.impl != "*") continue;
    ConfigResult c{x.config, false, x.status, x.message, x.median_ms, x.min_ms, -1, x.samples};
    for (const auto& cfg : t.configs)
      if (cfg.name == x.config) c.perf = cfg.perf;
    if (auto it = naive_ms.find(x.config); it != naive_ms.end()) c.naive_median_ms = it->second;
    if (x.status != "ok" && r.verdict == Verdict::Ok) {
      r.verdict = verdict_of_status(x.status);
      r.message = fmt::format("config '{}': {}", x.config, x.message);
    }
    if (c.perf && x.status == "ok" && c.median_ms > 0 && c.naive_median_ms > 0) {
      log_sum += std::log(c.naive_median_ms / c.median_ms);
      ++n_perf;
    }
    r.configs.push_back(c);
  }
  if (r.configs.empty() && r.verdict == Verdict::Ok) {
    r.verdict = Verdict::RuntimeError;
    r.message = "the candidate produced no results";
  }
  if (n_perf > 0 && r.verdict == Verdict::Ok) r.speedup_vs_naive = std::exp(log_sum / n_perf);
  if (r.verdict == Verdict::Ok) r.message = "correct on every configuration";
  return r;
}

}  // namespace cudaperf::verify
