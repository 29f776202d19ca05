#include "cudaperf/verify/gpu_dataset.hpp"

#include <fmt/format.h>

#include <chrono>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/util/parallel.hpp"

namespace cudaperf::verify {

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

const task::Config* find_config(const task::Task& t, const std::string& name) {
  for (const auto& c : t.configs)
    if (c.name == name) return &c;
  return nullptr;
}

}  // namespace

ImplSummary summarize_impl(const task::Task& t, const std::string& impl, const std::vector<GpuImplResult>& results) {
  ImplSummary s;
  s.impl = impl;
  std::string first_bad, perf_note;
  for (const auto& r : results) {
    if (r.impl == "naive" && r.median_ms > 0) s.naive_ms = r.median_ms;
    if (r.impl != impl && r.impl != "*") continue;
    const task::Config* c = find_config(t, r.config);
    if (c && c->perf) {
      if (r.status == "ok") s.perf_ms = r.median_ms;
      else perf_note = fmt::format("perf {}: {}", r.status, r.message);
      continue;
    }
    ++s.total;
    if (r.status == "ok") ++s.ok;
    else if (first_bad.empty()) first_bad = fmt::format("{} @{}: {}", r.status, r.config, r.message);
  }
  s.failed = s.ok != s.total || s.total == 0 || !perf_note.empty();
  s.note = !first_bad.empty() ? first_bad : perf_note;
  return s;
}

GpuDatasetRun check_gpu_dataset(const std::filesystem::path& root, const GpuDatasetOptions& o,
                                const std::function<void(const TaskOutcome&)>& on_task) {
  GpuDatasetRun run;
  for (const auto& d : task::find_task_dirs(root)) {
    auto r = task::load_task(d);
    if (r) run.tasks.push_back(r.value());
    else fmt::print(stderr, "skipping {}: {}\n", d.string(), r.errors().front().to_string());
  }
  // Build everything first (cached), in parallel: (task, impl index or -1 for the reference).
  std::vector<std::pair<size_t, int>> jobs;
  for (size_t i = 0; i < run.tasks.size(); ++i) {
    jobs.push_back({i, -1});
    for (size_t k = 0; k < run.tasks[i].impls.size(); ++k) jobs.push_back({i, static_cast<int>(k)});
  }
  std::vector<compile::Artifact> built(jobs.size());
  fmt::print(stderr, "building {} sources...\n", jobs.size());
  auto t_build = std::chrono::steady_clock::now();
  parallel_for(jobs.size(), o.jobs ? o.jobs : default_jobs(), [&](size_t j) {
    const auto& t = run.tasks[jobs[j].first];
    int k = jobs[j].second;
    built[j] = k < 0 ? compile::compile_reference(t) : compile::compile_cuda(t, t.impls[static_cast<size_t>(k)].path);
  });
  run.compile_s = seconds_since(t_build);
  run.sources = built.size();
  for (size_t k = 0; k < built.size(); ++k) {
    run.cached += built[k].cache_hit;
    if (jobs[k].second >= 0) (built[k].cache_hit ? run.cached_s : run.cold_s).push_back(built[k].seconds);  // nvcc only
  }
  GpuCheckOptions go;
  go.stages = &run.stages;
  go.perf = o.perf;
  go.timing = o.timing;
  size_t j = 0;
  for (size_t i = 0; i < run.tasks.size(); ++i) {
    const auto& t = run.tasks[i];
    TaskOutcome out;
    out.task = &t;
    std::filesystem::path ref = built[j].ok ? built[j].path : std::filesystem::path();
    std::vector<std::filesystem::path> arts;
    ++j;
    for (size_t k = 0; k < t.impls.size(); ++k, ++j) arts.push_back(built[j].ok ? built[j].path : std::filesystem::path());
    out.reference_built = !ref.empty();
    if (!out.reference_built) {
      ++run.failures;
      on_task(out);
      continue;
    }
    auto t0 = std::chrono::steady_clock::now();
    out.results = gpu_check_task(t, ref, arts, go);
    out.seconds = seconds_since(t0);
    fmt::print(stderr, "[{}/{}] {} ({:.1f} s)\n", i + 1, run.tasks.size(), t.id, out.seconds);
    for (const auto& im : t.impls) {
      out.impls.push_back(summarize_impl(t, im.strategy, out.results));
      run.failures += out.impls.back().failed;
    }
    on_task(out);
  }
  return run;
}

}  // namespace cudaperf::verify
