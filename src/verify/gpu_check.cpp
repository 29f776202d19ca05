#include "cudaperf/verify/gpu_check.hpp"

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/timing/peaks.hpp"
#include "measurer.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The small configs' inputs and the C reference's outputs; at the perf configs only the inputs the
// GPU does not draw afresh per call (structured distributions: permutations, row pointers, ...).
std::optional<std::string> prepare(const task::Task& t, const task::Config& c, const fs::path& reference_so, uint64_t seed,
                                   HostConfig& hc) {
  if (c.perf) {  // only what the GPU does not draw afresh per call is made here
    auto shape = task::call_shape(t, c);
    if (!shape) return shape.errors().front().message;
    hc.cfg = &c;
    hc.perf = true;
    hc.shape = shape.value();
    hc.bytes.assign(t.params.size(), 0);
    hc.inputs.shape = hc.shape;
    hc.inputs.buffers.resize(t.params.size());
    for (size_t i = 0; i < t.params.size(); ++i) {
      const auto& p = t.params[i];
      if (!p.pointer) continue;
      hc.bytes[i] = static_cast<size_t>(hc.shape.counts[i]) * task::type_size(p.type);
      if (p.role == task::Role::Out || drawn_on_device(p)) continue;
      hc.inputs.buffers[i].resize(hc.bytes[i]);
      task::fill_input(p, c, seed ^ std::hash<std::string>{}(c.name), hc.inputs.view(t, i));
    }
    return std::nullopt;
  }
  auto call = make_call(t, c, seed ^ std::hash<std::string>{}(c.name), task::Prefill::Nan);
  if (!call) return call.errors().front().message;
  hc.cfg = &c;
  hc.perf = c.perf;
  hc.shape = call->shape;
  hc.bytes.assign(t.params.size(), 0);
  for (size_t i = 0; i < t.params.size(); ++i)
    if (t.params[i].pointer) hc.bytes[i] = call->buffers[i].size();
  hc.inputs = call.value();
  if (!c.perf) {
    HostCall expected = std::move(call.value());
    if (auto err = run_reference(t, reference_so, expected)) return "reference: " + *err;
    hc.expected = std::move(expected);
  }
  return std::nullopt;
}

GpuImplResult from_json(const json& j) {
  GpuImplResult r = config_result(j.value("impl", ""), j.value("config", ""), j.value("status", ""), j.value("message", ""));
  r.median_ms = j.value("median_ms", -1.0);
  r.min_ms = j.value("min_ms", -1.0);
  r.q1_ms = j.value("q1_ms", -1.0);
  r.q3_ms = j.value("q3_ms", -1.0);
  r.rel_stdev = j.value("rel_stdev", -1.0);
  r.samples = j.value("samples", 0);
  r.stop_reason = j.value("stop_reason", "");
  r.discarded = j.value("discarded", 0);
  r.timed_calls = j.value("timed_calls", 0);
  r.sm_clock_mhz = j.value("sm_clock_mhz", -1.0);
  r.sm_clock_max_mhz = j.value("sm_clock_max_mhz", -1.0);
  r.handshake_ms = j.value("handshake_ms", -1.0);
  r.window_median_ms = j.value("window_median_ms", -1.0);
  r.pre_window_ms = j.value("pre_window_ms", -1.0);
  return r;
}

json stages_json(const GpuCheckStages& s) {
  json j = {{"workers", s.workers}};
  for_each_stage(s, [&](const char* name, double v) { j[name] = v; });
  return j;
}

void add_stages(const json& j, GpuCheckStages& s) {
  s.worker_prepare += j.value("worker_prepare", 0.0);
  s.worker_start += j.value("worker_start", 0.0);
  s.small_configs += j.value("small_configs", 0.0);
  s.perf_setup += j.value("perf_setup", 0.0);
  s.timed += j.value("timed", 0.0);
  s.supervisor_checks += j.value("supervisor_checks", 0.0);
  s.workers_total += j.value("workers_total", 0.0);
  s.gpu_lock_wait += j.value("gpu_lock_wait", 0.0);
  s.workers += j.value("workers", 0);
}

// Where a measurer leaves its outcome for the supervisor: a length and JSON text, in memory that
// only the supervisor and the measurer map (launcher workers are started with exec).
struct OutcomeBox {
  size_t capacity = 0, used = 0;
  char* text = nullptr;
  void write(const MeasurerOutcome& o) {
    json j = {{"finished", o.finished}, {"stuck", o.stuck}, {"fatal", o.fatal}, {"stages", stages_json(o.stages)}};
    j["trusted"] = o.trusted ? json(*o.trusted) : json(nullptr);
    j["results"] = json::array();
    for (const auto& r : o.results) j["results"].push_back(result_json(r));
    std::string s = j.dump();
    used = 0;
    if (s.size() > capacity) return;
    std::memcpy(text, s.data(), s.size());
    used = s.size();
  }
};

}  // namespace

std::vector<GpuImplResult> gpu_check_task(const task::Task& t, const fs::path& reference_so,
                                          const std::vector<fs::path>& artifacts, const GpuCheckOptions& o) {
  auto prep0 = std::chrono::steady_clock::now();
  GpuCheckStages unused;  // stage times go straight into the caller's accumulator, when there is one
  GpuCheckStages& stages = o.stages ? *o.stages : unused;
  std::vector<HostConfig> configs;
  for (const auto& c : t.configs) {
    if (c.perf && !o.perf) continue;
    HostConfig hc;
    if (auto err = prepare(t, c, reference_so, o.seed, hc)) return {config_result("*", c.name, "runtime_error", *err)};
    configs.push_back(std::move(hc));
  }
  // Trusted impl first (its perf output becomes the reference there), naive last.
  std::vector<size_t> order;
  auto rank = [&](size_t k) {
    const std::string& s = t.impls[k].strategy;
    if (!o.trusted.empty() && s == o.trusted) return 0;
    return s == "naive" ? 2 : 1;
  };
  for (int want = 0; want <= 2; ++want)
    for (size_t k = 0; k < t.impls.size(); ++k)
      if (rank(k) == want) order.push_back(k);
  // The device's peaks are measured once and cached; measured while another run uses the GPU they
  // come out low (seen on the H200: fp32 22.6 instead of 61 TFLOP/s with three runs side by side),
  // and an honest implementation then looks faster than the floor. So they are read or measured
  // with the GPU lock held.
  std::string gpu_lock = o.gpu_lock;
  if (const char* v = std::getenv("CUDAPERF_GPU_LOCK"); gpu_lock.empty() && v && *v) gpu_lock = v;
  std::string peaks_note;
  task::Peaks peaks;
  {
    FileLock lock(gpu_lock);
    peaks = timing::roofline_peaks(compile::default_cache_dir(), peaks_note);
  }
  stages.inputs_and_reference += since(prep0);

  std::vector<GpuImplResult> results;
  std::optional<size_t> trusted;
  constexpr size_t kBox = 16 << 20;
  sandbox::SharedArena arena(kBox + 256);
  auto* box = static_cast<OutcomeBox*>(arena.allocate(sizeof(OutcomeBox)));
  char* text = static_cast<char*>(arena.allocate(kBox));
  if (!box || !text) return {config_result("*", "*", "runtime_error", "cannot map the measurer's report buffer")};
  // A measurer whose own stream could not be recovered after a worker died (a wait on the worker's
  // event that never completes) stops; a fresh one continues with the implementations left.
  size_t next = 0;
  for (int attempt = 0; next < order.size() && attempt < static_cast<int>(order.size()) + 1; ++attempt) {
    MeasurerJob job;
    job.task = &t;
    job.configs = &configs;
    job.artifacts = artifacts;
    job.order.assign(order.begin() + static_cast<long>(next), order.end());
    job.options = o;
    job.options.stages = nullptr;
    job.options.gpu_lock = gpu_lock;  // runs sharing one GPU (CUDAPERF_GPU_LOCK: check-gpu side by side) take turns
    job.peaks = peaks;
    job.trusted = trusted;
    *box = OutcomeBox{kBox, 0, text};
    double limit_s = 60;
    for (size_t k = next; k < order.size(); ++k) limit_s += o.impl_timeout_s + 180;
    auto pr = sandbox::run_forked(
        [&]() -> int {
          MeasurerOutcome out;
          job.on_progress = [&](const MeasurerOutcome& x) { box->write(x); };
          run_measurer(job, out);
          box->write(out);
          return 0;
        },
        std::chrono::milliseconds(static_cast<long long>(limit_s * 1000)));
    json j = box->used ? json::parse(std::string(text, box->used), nullptr, false) : json();
    if (!j.is_object()) {
      for (size_t k = next; k < order.size(); ++k)
        results.push_back(config_result(t.impls[order[k]].strategy, "*", "runtime_error",
                                 fmt::format("the measurer ended without a report ({})", pr.describe())));
      break;
    }
    if (!j.value("fatal", "").empty()) {  // nothing could run: each implementation says why
      for (size_t k = next; k < order.size(); ++k)
        results.push_back(config_result(t.impls[order[k]].strategy, "*", "runtime_error", j.value("fatal", "")));
      break;
    }
    for (const auto& r : j["results"]) results.push_back(from_json(r));
    add_stages(j["stages"], stages);
    if (j["trusted"].is_number()) trusted = j["trusted"].get<size_t>();
    size_t finished = j.value("finished", size_t{0});
    next += finished;
    if (finished >= job.order.size()) break;
    if (!j.value("stuck", false)) {  // the measurer itself died during order[next]: report it, go on
      results.push_back(config_result(t.impls[order[next]].strategy, "*", "runtime_error",
                               fmt::format("the measurer ended during this implementation ({})", pr.describe())));
      ++next;
    }
  }
  return results;
}

namespace {

std::pair<bool, std::string> query_gpu() {
  sandbox::SharedArena arena(512);
  char* text = static_cast<char*>(arena.allocate(512));
  auto pr = sandbox::run_forked(
      [&]() -> int {
        int n = 0;
        cudaError_t e = cudaGetDeviceCount(&n);
        if (e != cudaSuccess || n == 0) {
          snprintf(text, 511, "no CUDA device (%s)", e != cudaSuccess ? cudaGetErrorString(e) : "count is 0");
          return 1;
        }
        cudaDeviceProp p{};
        cudaGetDeviceProperties(&p, 0);
        int rt = 0, drv = 0;
        cudaRuntimeGetVersion(&rt);
        cudaDriverGetVersion(&drv);
        snprintf(text, 511, "%s, sm_%d%d, %d SMs, %.0f GiB, runtime %d, driver %d", p.name, p.major, p.minor,
                 p.multiProcessorCount, p.totalGlobalMem / 1073741824.0, rt, drv);
        return 0;
      },
      std::chrono::seconds(60));
  return {pr.ok(), text && *text ? std::string(text) : pr.describe()};
}

}  // namespace

std::string describe_gpu(bool& available) {
  // Once per process (it forks a child that starts a CUDA context); the visible device does not change.
  static std::mutex mu;
  static std::optional<std::pair<bool, std::string>> known;
  std::lock_guard lock(mu);
  if (!known) known = query_gpu();
  available = known->first;
  return known->second;
}

json result_json(const GpuImplResult& r) {
  return {{"impl", r.impl}, {"config", r.config}, {"status", r.status}, {"message", r.message},
          {"median_ms", r.median_ms}, {"min_ms", r.min_ms}, {"q1_ms", r.q1_ms}, {"q3_ms", r.q3_ms},
          {"rel_stdev", r.rel_stdev}, {"samples", r.samples}, {"stop_reason", r.stop_reason},
          {"discarded", r.discarded}, {"timed_calls", r.timed_calls}, {"sm_clock_mhz", r.sm_clock_mhz},
          {"sm_clock_max_mhz", r.sm_clock_max_mhz}, {"handshake_ms", r.handshake_ms},
          {"window_median_ms", r.window_median_ms}, {"pre_window_ms", r.pre_window_ms}};
}

}  // namespace cudaperf::verify
