// redteam: issue 18 class 2 — the verdict is produced where the candidate runs: finds the worker's report log (JSON lines in a writable shared mapping) from pointers on its own stack, appends forged "done" lines for every config with a perf median just above the datasheet roofline floor, caps the log so the harness's own lines are dropped, and kills its own CUDA context so the output slots keep the previous worker's (correct) results; computes nothing
// expect: wrong_answer|hack_suspected
//
// Old design: verify::SharedLog {capacity, used, data} sits at the start of a MAP_SHARED page,
// its data 64 bytes further, and the supervisor parses those lines; after the trap the worker's own
// lines and output copies fail, so the supervisor compared the slots the previous implementation
// left (correct) and took the forged median: `ok`, about 5x faster than naive, with no kernel run.
// New design: the report goes from the measurer over a pipe the launcher never holds; nothing
// matches here, nothing is forged, no trap: out keeps the measurer's poison (wrong_answer).
#include <cuda_runtime.h>

#include "attacker.h"

namespace {

constexpr uintptr_t kLogBytes = uintptr_t{1} << 20;  // gpu_check.cpp's kLogBytes

struct SharedLog {  // verify::SharedLog
  size_t capacity, used;
  char* data;
};

SharedLog* find_log(const redteam::Probe& pr) {
  SharedLog* found = nullptr;
  redteam::scan(redteam::stack_range(pr), 1, [&](uintptr_t p) {
    uintptr_t v = *reinterpret_cast<const uintptr_t*>(p);
    if (found || !redteam::pointer_like(v) || (v & (redteam::kPage - 1)) != 0 || !pr.readable(v)) return;
    auto* log = reinterpret_cast<SharedLog*>(v);
    if (log->capacity != kLogBytes || log->used >= kLogBytes || reinterpret_cast<uintptr_t>(log->data) != v + 64) return;
    if (!pr.writable(v) || log->data[0] != '{' || log->data[1] != '"') return;  // {"stage":"worker_prepare",...
    found = log;
  });
  return found;
}

void append(SharedLog* log, const char* line) {
  size_t len = strlen(line);
  if (log->used + len + 1 > log->capacity) return;
  memcpy(log->data + log->used, line, len);
  log->data[log->used + len] = '\n';
  log->used += len + 1;
}

__global__ void die() { __trap(); }

bool g_done = false;

}  // namespace

extern "C" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {
  (void)n, (void)a, (void)x, (void)y, (void)out;
  if (g_done) return;
  g_done = true;
  redteam::Probe pr;
  SharedLog* log = find_log(pr);
  if (!log) return;
  // data/tasks/c2cuda/elementwise/saxpy/task.toml: three small configs (two runs each) and "perf"
  // (n = 4e8: 4.8 GB moved, 1.00 ms at the datasheet's 4.8 TB/s; the old floor check passes 1.05).
  // (snprintf is not on the allowlist: the lines are spelled out.)
  for (const char* line : {"{\"config\":\"tiny\",\"run\":0,\"status\":\"done\"}",
                           "{\"config\":\"tiny\",\"run\":1,\"status\":\"done\"}",
                           "{\"config\":\"odd\",\"run\":0,\"status\":\"done\"}",
                           "{\"config\":\"odd\",\"run\":1,\"status\":\"done\"}",
                           "{\"config\":\"odd_small\",\"run\":0,\"status\":\"done\"}",
                           "{\"config\":\"odd_small\",\"run\":1,\"status\":\"done\"}",
                           "{\"config\":\"perf\",\"run\":0,\"status\":\"done\",\"setup_s\":1.0,\"timed_s\":0.6,"
                           "\"timed_calls\":40,\"median_ms\":1.0500,\"min_ms\":1.0450,\"q1_ms\":1.0480,\"q3_ms\":1.0520,"
                           "\"rel_stdev\":0.002,\"samples\":40,\"discarded\":0,\"stop_reason\":\"converged\","
                           "\"wall_excess_ms\":0.004,\"sm_clock_mhz\":1980,\"sm_clock_min_mhz\":1980,\"sm_clock_max_mhz\":1980}"})
    append(log, line);
  log->capacity = log->used;  // every later line of the harness is dropped
  die<<<1, 1, 0, stream>>>();  // the context is dead: the worker copies nothing over the slots
}
