// Runs implementations of a task on the GPU: correctness on every small config against the C
// reference, and timing at the perf configs against a trusted implementation.
//
// Process model (docs/threat-model.md): the supervisor (caller) generates the small configs'
// inputs and runs the C reference; it never touches CUDA. A trusted measurer process, forked from
// it, owns the device buffers, the timing and every comparison; each implementation runs in a
// launcher worker started with exec (cudaperf-launcher) that confines itself and only calls the
// implementation on buffers shared through CUDA IPC. A crash, hang or forbidden call ends only
// that worker.
#pragma once
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/timing/stats.hpp"

namespace cudaperf::verify {

struct GpuImplResult {
  std::string impl;
  std::string config;
  std::string status;   // ok, wrong_answer, runtime_error, out_of_bounds, input_mutated, nondeterministic,
                        // hack_suspected, crash, timeout, compile_error
  std::string message;
  double median_ms = -1;  // perf configs only
  double min_ms = -1;
  double q1_ms = -1, q3_ms = -1, rel_stdev = -1;
  int samples = 0;
  std::string stop_reason;
  int discarded = 0;          // samples dropped: SM clock under 75 % of its maximum
  int timed_calls = 0;        // timed calls (each on fresh inputs; a secret sample of them checked)
  double sm_clock_mhz = -1;   // median SM clock over the timed calls (NVML), -1 unknown
  double sm_clock_max_mhz = -1;
  double handshake_ms = -1;      // the measurer's calibrated cost of a call's handshake (subtracted from each window)
  double window_median_ms = -1;  // median of the raw windows (before the subtraction)
  double pre_window_ms = -1;     // median of the measurer's own set-up before each window
};

// Where the time of gpu_check_task goes, in seconds (accumulated over calls when shared).
struct GpuCheckStages {
  double inputs_and_reference = 0;  // supervisor: input generation and the C reference (small configs)
  double worker_prepare = 0;        // workers, before the GPU lock: CUDA context, stream, memory pool
  double worker_start = 0;          // workers, with the lock: confinement, loading the .so
  double small_configs = 0;         // workers: the two correctness runs of every small config
  double perf_setup = 0;            // workers: perf-size buffers, private copies, warm-up calls
  double timed = 0;                 // workers: the timed calls (each with its reset, L2 flush and output check)
  double supervisor_checks = 0;     // supervisor: comparing outputs with the reference / trusted outputs
  double workers_total = 0;         // wall time of all workers (includes process start and exit)
  double gpu_lock_wait = 0;         // waiting for the GPU lock (other evaluations on the same GPU)
  int workers = 0;
  int retimed = 0;                  // perf configs timed a second time by the stream rule (timing::outside_stream)
};

// Every seconds field of `s` with its name, for the reports that list them (check-gpu's time_s, a
// reward's run_stages): f(name, seconds).
template <class F>
void for_each_stage(const GpuCheckStages& s, F&& f) {
  f("inputs_and_reference", s.inputs_and_reference);
  f("worker_prepare", s.worker_prepare);
  f("worker_start", s.worker_start);
  f("small_configs", s.small_configs);
  f("perf_setup", s.perf_setup);
  f("timed", s.timed);
  f("supervisor_checks", s.supervisor_checks);
  f("workers_total", s.workers_total);
  f("gpu_lock_wait", s.gpu_lock_wait);
}

struct GpuCheckOptions {
  bool perf = true;               // also run and time the perf configs
  uint64_t seed = 0x6a09e667f3bcc908ull;
  double impl_timeout_s = 300;    // one worker (one implementation, every config)
  double call_timeout_s = 30;     // one call of the implementation (watchdog: the worker is killed by SIGALRM)
  GpuCheckStages* stages = nullptr;  // when set, time per stage is added here
  timing::StoppingRule timing{};  // min 10 samples, 0.5 % rel. stdev, 2 s budget
  std::string trusted;            // impl whose perf-size output is the reference; empty: first non-naive
  std::vector<std::string> never_trusted;  // impls that may not become the reference (the candidates under evaluation)
  // When set, an exclusive flock(2) on this file is held while workers run: evaluations that share
  // a GPU prepare inputs and run the C reference in parallel but take turns on the device, so
  // timings never overlap.
  std::string gpu_lock;
};

// Checks one task; `artifacts[i]` is the built shared object of t.impls[i] (empty if the build failed).
std::vector<GpuImplResult> gpu_check_task(const task::Task& t, const std::filesystem::path& reference_so,
                                          const std::vector<std::filesystem::path>& artifacts,
                                          const GpuCheckOptions& o);

// One result as JSON (check-gpu's --json results, the measurer's reports): every field, by its name.
nlohmann::json result_json(const GpuImplResult& r);

// A one-line description of the visible device, or why there is none (queried in a child, so
// the caller never initialises CUDA; once per process, then remembered).
std::string describe_gpu(bool& available);

}  // namespace cudaperf::verify
