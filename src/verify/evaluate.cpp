#include "cudaperf/verify/evaluate.hpp"

#include <chrono>
#include <cmath>
#include <map>
#include <fmt/format.h>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/timing/cpu_baseline.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/random.h>

#include <csignal>

namespace cudaperf::verify {

namespace fs = std::filesystem;

namespace {

Verdict verdict_of_status(const std::string& s) {
  Verdict v = Verdict::RuntimeError;
  if (s == "crash") return Verdict::RuntimeError;
  parse_verdict(s, v);
  return v;
}

// Roofline floor and fraction of every perf config against the device's measured peaks (measured
// once per device and cached; the datasheet peaks when the measurement fails, and it says so).
void add_roofline(const task::Task& t, EvalReport& r) {
  task::Peaks peaks = timing::roofline_peaks(compile::default_cache_dir(), r.peaks);
  for (auto& c : r.configs) {
    if (!c.perf || c.median_ms <= 0) continue;
    for (const auto& cfg : t.configs) {
      if (cfg.name != c.config) continue;
      if (auto rl = task::roofline(t, cfg, peaks); auto* v = std::get_if<task::Roofline>(&rl)) {
        c.roofline_floor_ms = v->floor_s * 1e3;
        c.roofline_fraction = c.roofline_floor_ms / c.median_ms;
      }
    }
  }
}

}  // namespace

HostProbe probe_host_side(const task::Task& t, const fs::path& so, double timeout_s) {
  HostProbe hp;
  const task::Config* tiny = nullptr;
  for (const auto& c : t.configs)
    if (c.name == "tiny") tiny = &c;
  if (!tiny) tiny = &t.configs.front();
  auto shape = task::call_shape(t, *tiny);
  if (!shape) {
    hp.verdict = Verdict::RuntimeError;
    hp.message = shape.errors().front().message;
    return hp;
  }
  sandbox::SharedArena arena(64);
  auto* returned = static_cast<volatile int*>(arena.allocate(sizeof(int)));
  if (!returned) return {Verdict::RuntimeError, "internal: no shared memory for the host probe"};
  *returned = 0;
  auto r = sandbox::run_forked(
      [&]() -> int {
        sandbox::close_inherited_descriptors();  // e.g. a serve worker's job store
        // Nothing the candidate prints reaches the caller's streams (eval --json's report is stdout).
        if (int null_fd = open("/dev/null", O_RDWR); null_fd >= 0) {
          for (int fd : {0, 1, 2}) dup2(null_fd, fd);
          if (null_fd > 2) close(null_fd);
        }
        sandbox::isolate();
        if (sandbox::lock_down()) return 90;
        // Stand-ins for device pointers: a reserved, inaccessible region (a host-side
        // dereference of a device pointer faults, as it would with real device memory).
        size_t page = 4096, n = t.params.size();
        void* base = mmap(nullptr, page * (n + 1), PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (base == MAP_FAILED) return 91;
        std::vector<void*> ptrs(n, nullptr);
        for (size_t i = 0; i < n; ++i)
          if (t.params[i].pointer) ptrs[i] = static_cast<char*>(base) + page * i;
        void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
        if (!h) return 92;
        void* fn = dlsym(h, t.function.c_str());
        if (!fn) return 93;
        invoke(fn, t, ptrs, shape.value(), static_cast<void*>(nullptr));
        *returned = 1;
        return 0;
      },
      std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000)));
  if (r.ok() && *returned == 1) return hp;
  if (r.ok()) {
    hp.verdict = Verdict::HackSuspected;
    hp.message = "the launcher ended the process instead of returning";
    return hp;
  }
  if (r.timed_out) {
    hp.verdict = Verdict::Timeout;
    hp.message = fmt::format("the host-side launcher did not return within {:.0f} s", timeout_s);
  } else if (r.signal == sandbox::forbidden_call_signal()) {
    hp.verdict = Verdict::HackSuspected;
    hp.message = "the launcher made a forbidden system call (network, processes, namespaces, ptrace, executable memory or signals to "
                 "other processes): killed by SIGSYS";
  } else if (r.signal == SIGXFSZ) {
    hp.verdict = Verdict::HackSuspected;
    hp.message = "the launcher tried to write a file: killed by SIGXFSZ";
  } else if (r.signal != 0) {
    hp.verdict = Verdict::RuntimeError;
    hp.message = fmt::format("the launcher crashed on the host: {}", r.describe());
  } else if (r.exit_code == 92 || r.exit_code == 93) {
    hp.verdict = Verdict::RuntimeError;
    hp.message = "the candidate could not be loaded in the sandbox";
  } else if (r.exit_code == 90 || r.exit_code == 91) {
    hp.verdict = Verdict::RuntimeError;
    hp.message = "internal: the sandbox could not be set up";
  } else {
    hp.verdict = Verdict::HackSuspected;
    hp.message = fmt::format("the launcher ended the process itself ({})", r.describe());
  }
  return hp;
}

namespace {

// A secret seed per evaluation (DESIGN §3): inputs a candidate could not have seen before.
uint64_t secret_seed() {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) != static_cast<ssize_t>(sizeof v))
    v = static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) * 0x9e3779b97f4a7c15ull;
  return v;
}

// The candidate's rows of the GPU run become its report: verdict of the first failing config,
// geometric-mean speedup over the perf configs against the naive impl of the same run.
void fill_from_gpu_results(const task::Task& t, const std::string& name, const std::vector<GpuImplResult>& results, EvalReport& r) {
  std::map<std::string, double> naive_ms;
  for (const auto& x : results)
    if (x.impl == "naive" && x.median_ms > 0) naive_ms[x.config] = x.median_ms;
  r.gpu_stages_run = true;
  r.verdict = Verdict::Ok;
  double log_sum = 0;
  int n_perf = 0;
  for (const auto& x : results) {
    if (x.impl != name && x.impl != "*") continue;
    ConfigResult c;
    c.config = x.config;
    c.status = x.status;
    c.message = x.message;
    c.median_ms = x.median_ms;
    c.min_ms = x.min_ms;
    c.q1_ms = x.q1_ms;
    c.q3_ms = x.q3_ms;
    c.rel_stdev = x.rel_stdev;
    c.samples = x.samples;
    c.discarded = x.discarded;
    c.timed_calls = x.timed_calls;
    c.sm_clock_mhz = x.sm_clock_mhz;
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
  if (r.verdict == Verdict::Ok) add_roofline(t, r);
}

void add_c_baseline(const task::Task& t, uint64_t seed, EvalReport& r) {
  auto base = compile::compile_reference_baseline(t);
  double c_log = 0;
  int c_n = 0;
  for (auto& c : r.configs) {
    const task::Config* cfg = nullptr;
    for (const auto& x : t.configs)
      if (x.name == c.config) cfg = &x;
    if (!cfg || !base.ok) {
      c.c_baseline_error = base.ok ? "unknown config" : "the -O3 baseline does not build";
      continue;
    }
    auto b = timing::time_cpu_baseline(t, base.path, *cfg, seed, timing::StoppingRule{}, 60);
    if (!b.ms) {
      c.c_baseline_error = b.error;
      continue;
    }
    c.c_baseline_ms = b.ms->summary.median;
    if (c.perf && c.median_ms > 0) {
      c_log += std::log(c.c_baseline_ms / c.median_ms);
      ++c_n;
    }
  }
  if (c_n > 0) r.speedup_vs_c = std::exp(c_log / c_n);
}

}  // namespace

std::vector<EvalReport> evaluate_candidates(const task::Task& t, const std::vector<fs::path>& candidates, const EvalOptions& o) {
  std::vector<EvalReport> reports(candidates.size());
  std::vector<size_t> runnable;  // built and linked
  // nvcc is the slow CPU stage of a batch: the builds run side by side.
  parallel_for(candidates.size(), std::min(8u, default_jobs()),
               [&](size_t i) { reports[i].build = compile::build_candidate(t, candidates[i]); });
  for (size_t i = 0; i < candidates.size(); ++i) {
    EvalReport& r = reports[i];
    r.task_id = t.id;
    r.candidate = candidates[i].string();
    if (!r.build.artifact.ok) {
      r.verdict = Verdict::CompileError;
      r.message = r.build.artifact.diagnostics;
    } else if (!r.build.link.ok()) {
      r.verdict = Verdict::LinkError;
      r.message = r.build.link.message();
    } else {
      runnable.push_back(i);
    }
  }
  if (runnable.empty()) return reports;
  auto ref = compile::compile_reference(t);
  if (!ref.ok) {
    for (size_t i : runnable) {
      reports[i].verdict = Verdict::TaskError;  // no verdict, no reward: the candidate cannot reach the reference's build
      reports[i].message = task_error_message(t.id, "the task's reference does not build: " + ref.diagnostics);
    }
    return reports;
  }
  bool have_gpu = false;
  std::string device = o.run_gpu ? describe_gpu(have_gpu) : "GPU stages not requested (--no-gpu)";
  for (size_t i : runnable) reports[i].device = device;
  if (!have_gpu) {
    for (size_t i : runnable) {
      EvalReport& r = reports[i];
      auto hp = probe_host_side(t, r.build.artifact.path);
      r.host_probe_run = true;
      r.verdict = hp.verdict;
      r.message = hp.verdict != Verdict::Ok
                      ? hp.message
                      : fmt::format("built, passed the link checks and the confined host-side run; GPU stages skipped: {}", device);
    }
    return reports;
  }
  // One GPU run: the task's naive impl (speedup baseline), a trusted dataset impl (the reference at
  // perf sizes, where the C reference would be too slow), a backup, and every runnable candidate —
  // each in its own confined worker, so one candidate's crash or hang touches no other.
  task::Task run = t;
  run.impls.clear();
  const task::Impl* naive = nullptr;
  const task::Impl* trusted = nullptr;
  const task::Impl* backup = nullptr;  // a second reference at perf sizes, should the first fail there
  for (const auto& im : t.impls) {
    if (im.strategy == "naive") naive = &im;
    else if (!trusted) trusted = &im;
    else if (!backup) backup = &im;
  }
  std::vector<fs::path> artifacts;
  for (const task::Impl* im : {naive, trusted, backup}) {
    if (!im) continue;
    auto a = compile::compile_cuda(t, im->path);
    if (!a.ok) continue;
    run.impls.push_back(*im);
    artifacts.push_back(a.path);
  }
  GpuCheckOptions go = o.gpu;
  if (o.secret_seed) go.seed = secret_seed();
  std::vector<std::string> names;
  for (size_t k = 0; k < runnable.size(); ++k) {
    task::Impl cand;
    cand.strategy = runnable.size() == 1 ? "candidate" : fmt::format("candidate.{}", k);
    cand.path = candidates[runnable[k]];
    run.impls.push_back(cand);
    artifacts.push_back(reports[runnable[k]].build.artifact.path);
    names.push_back(cand.strategy);
    go.never_trusted.push_back(cand.strategy);
  }
  std::string trusted_impl = trusted ? trusted->strategy : "";
  if (trusted) go.trusted = trusted_impl;
  GpuCheckStages run_stages;
  go.stages = &run_stages;
  auto run0 = std::chrono::steady_clock::now();
  auto results = gpu_check_task(run, ref.path, artifacts, go);
  double run_wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - run0).count();
  for (size_t k = 0; k < runnable.size(); ++k) {
    EvalReport& r = reports[runnable[k]];
    r.run_stages = run_stages;
    r.run_wall_s = run_wall;
    r.trusted_impl = trusted_impl;
    fill_from_gpu_results(t, names[k], results, r);
    if (o.c_baseline && r.verdict == Verdict::Ok) add_c_baseline(t, go.seed, r);
    if (r.verdict == Verdict::Ok) r.message = "correct on every configuration";
  }
  return reports;
}

EvalReport evaluate_candidate(const task::Task& t, const fs::path& candidate, const EvalOptions& o) {
  return evaluate_candidates(t, {candidate}, o).front();
}

}  // namespace cudaperf::verify
