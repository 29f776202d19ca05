#include "cudaperf/verify/gpu_check.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <memory>
#include <nlohmann/json.hpp>
#include <mutex>
#include <optional>
#include <sstream>

#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/cpu_gates.hpp"
#include "device_compare.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;
using task::Role;

namespace {

constexpr size_t kGuard = 4096;  // bytes of guard band before and after every device buffer
constexpr unsigned char kGuardByte = 0xCD;
constexpr unsigned char kPrefill[2] = {0xFF, 0x5A};  // run 0: NaN / -1 everywhere; run 1: a pattern
constexpr double kPrepareTimeoutS = 120;  // a worker's CUDA context and pool, before it waits for the GPU lock

bool is_output(Role r) { return r == Role::Out || r == Role::InOut; }

GpuImplResult result(std::string impl, std::string config, std::string status, std::string message) {
  GpuImplResult r;
  r.impl = std::move(impl);
  r.config = std::move(config);
  r.status = std::move(status);
  r.message = std::move(message);
  return r;
}

// One configuration as the workers see it: inputs in shared memory (read-only in workers) and
// slots for what the implementation wrote (two runs with different pre-fills).
struct SharedConfig {
  const task::Config* cfg = nullptr;
  bool perf = false;
  task::CallShape shape;
  std::vector<size_t> bytes;                  // per param (0 for non-buffers)
  std::unique_ptr<sandbox::SharedArena> in_arena, out_arena;
  std::vector<unsigned char*> in;             // per param: initial contents (in / inout)
  std::vector<unsigned char*> in_b;           // perf configs: a second input set (other seed); timed calls alternate
  std::vector<unsigned char*> out[2];         // per param: results of run 0 / run 1 (out / inout)
  std::optional<HostCall> expected;           // small configs only; never leaves the supervisor
};

std::string cuda_msg(cudaError_t e) { return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e)); }

// The report a worker leaves for the supervisor: JSON lines in shared memory.
struct SharedLog {
  size_t capacity = 0, used = 0;
  char* data = nullptr;
  void append(const std::string& line) {
    if (used + line.size() + 1 > capacity) return;
    std::memcpy(data + used, line.data(), line.size());
    data[used + line.size()] = '\n';
    used += line.size() + 1;
  }
};

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Per-call watchdog: a call that does not return within the limit ends the worker with SIGALRM
// (default action), which the supervisor reports as a timeout of that config.
struct Watchdog {
  unsigned seconds;
  explicit Watchdog(double s) : seconds(static_cast<unsigned>(std::max(1.0, std::ceil(s)))) { alarm(seconds); }
  ~Watchdog() { alarm(0); }
};

bool seccomp_disabled() {
  const char* v = std::getenv("CUDAPERF_NO_SECCOMP");
  return v && *v && std::string(v) != "0";
}

// ---------------------------------------------------------------- worker side

// The SM clock through NVML (loaded at run time, so the engine has no build dependency on it and
// runs where it is missing). Opened before the worker is confined; reading it afterwards needs
// only calls on descriptors NVML already holds. mhz() < 0 when unavailable.
struct SmClock {
  using Init = int (*)();
  using ByBus = int (*)(const char*, void**);
  using Clock = int (*)(void*, int, unsigned*);
  void* device = nullptr;
  Clock get_clock = nullptr;
  double max_mhz = -1;

  void open(int cuda_device) {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<ByBus>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto get_max = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    get_clock = reinterpret_cast<Clock>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    char bus[32] = {};
    if (!init || !by_bus || !get_max || !get_clock || init() != 0 ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, cuda_device) != cudaSuccess || by_bus(bus, &device) != 0) {
      device = nullptr;
      return;
    }
    unsigned mhz = 0;
    constexpr int kSmClock = 1;  // NVML_CLOCK_SM
    if (get_max(device, kSmClock, &mhz) == 0) max_mhz = mhz;
  }
  double mhz() const {
    unsigned v = 0;
    return device && get_clock(device, 1, &v) == 0 ? static_cast<double>(v) : -1.0;
  }
};

struct DeviceBuffers {
  std::vector<unsigned char*> base;  // guard + data + guard
  std::vector<void*> ptr;            // what the implementation sees
  ~DeviceBuffers() {
    for (auto* b : base)
      if (b) cudaFree(b);
  }
};

struct Worker {
  const task::Task& t;
  std::vector<SharedConfig>& configs;
  const GpuCheckOptions& o;
  SharedLog& log;
  cudaStream_t s{};
  SmClock clock;

  void emit(const nlohmann::json& j) { log.append(j.dump()); }

  std::optional<std::string> alloc(const SharedConfig& sc, DeviceBuffers& d) {
    d.base.assign(t.params.size(), nullptr);
    d.ptr.assign(t.params.size(), nullptr);
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (!t.params[i].pointer) continue;
      void* p = nullptr;
      if (auto e = cudaMalloc(&p, sc.bytes[i] + 2 * kGuard); e != cudaSuccess) return "cudaMalloc: " + cuda_msg(e);
      d.base[i] = static_cast<unsigned char*>(p);
      d.ptr[i] = d.base[i] + kGuard;
    }
    return std::nullopt;
  }

  // The guard bands around buffer i: written before a call, read back (into 2 * kGuard bytes) after.
  void write_guards(const SharedConfig& sc, DeviceBuffers& d, size_t i) {
    cudaMemsetAsync(d.base[i], kGuardByte, kGuard, s);
    cudaMemsetAsync(d.base[i] + kGuard + sc.bytes[i], kGuardByte, kGuard, s);
  }
  void read_guards(const SharedConfig& sc, DeviceBuffers& d, size_t i, std::vector<unsigned char>& guard) {
    cudaMemcpyAsync(guard.data(), d.base[i], kGuard, cudaMemcpyDeviceToHost, s);
    cudaMemcpyAsync(guard.data() + kGuard, d.base[i] + kGuard + sc.bytes[i], kGuard, cudaMemcpyDeviceToHost, s);
  }
  static bool guard_changed(const std::vector<unsigned char>& guard) {
    return std::any_of(guard.begin(), guard.end(), [](unsigned char c) { return c != kGuardByte; });
  }

  // Guards, inputs and pre-filled outputs, on the worker's own stream.
  void load(const SharedConfig& sc, DeviceBuffers& d, unsigned char prefill) {
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (!t.params[i].pointer) continue;
      write_guards(sc, d, i);
      if (t.params[i].role == Role::Out) cudaMemsetAsync(d.ptr[i], prefill, sc.bytes[i], s);
      else cudaMemcpyAsync(d.ptr[i], sc.in[i], sc.bytes[i], cudaMemcpyHostToDevice, s);
    }
  }

  // Copies outputs to the shared slots; checks guard bands and (check_inputs) inputs.
  std::optional<std::pair<std::string, std::string>> unload(const SharedConfig& sc, DeviceBuffers& d, int run,
                                                            bool check_inputs) {
    std::vector<unsigned char> guard(2 * kGuard), scratch;
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (!t.params[i].pointer) continue;
      if (is_output(t.params[i].role))
        cudaMemcpyAsync(sc.out[run][i], d.ptr[i], sc.bytes[i], cudaMemcpyDeviceToHost, s);
      read_guards(sc, d, i, guard);
      bool in_check = check_inputs && t.params[i].role == Role::In;
      if (in_check) {
        scratch.resize(sc.bytes[i]);
        cudaMemcpyAsync(scratch.data(), d.ptr[i], sc.bytes[i], cudaMemcpyDeviceToHost, s);
      }
      if (auto e = cudaStreamSynchronize(s); e != cudaSuccess) return std::pair{"runtime_error", cuda_msg(e)};
      if (guard_changed(guard))
        return std::pair{"out_of_bounds", fmt::format("wrote outside buffer '{}' (its guard band changed)", t.params[i].name)};
      if (in_check && std::memcmp(scratch.data(), sc.in[i], sc.bytes[i]) != 0)
        return std::pair{"input_mutated", fmt::format("input buffer '{}' was modified", t.params[i].name)};
    }
    return std::nullopt;
  }

  cudaError_t call(void* fn, const SharedConfig& sc, DeviceBuffers& d) {
    Watchdog dog(o.call_timeout_s);
    invoke(fn, t, d.ptr, sc.shape, static_cast<void*>(s));
    cudaError_t e = cudaStreamSynchronize(s);
    return e == cudaSuccess ? cudaGetLastError() : e;
  }

  sandbox::ConfinePolicy policy;

  // Before the GPU lock: the worker's namespaces, its CUDA context, stream, SM clock and memory
  // pool. No kernel runs here, and nothing of the implementation is loaded yet.
  // On a GPU in exclusive-process compute mode only one context may exist at a time: there the
  // context is made after the lock is taken (deferred), as one worker at a time.
  bool deferred = false;
  int prepare() {
    policy.network_namespace = !seccomp_disabled();  // profilers (ncu) talk to their target over sockets
    sandbox::isolate(policy);
    int mode = cudaComputeModeDefault;  // read without creating a context
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0) == cudaSuccess && mode == cudaComputeModeExclusiveProcess) {
      deferred = true;
      return 0;
    }
    return make_context();
  }

  int make_context() {
    auto t0 = std::chrono::steady_clock::now();
    if (auto e = cudaSetDevice(0); e != cudaSuccess) {
      emit({{"fatal", "no CUDA device: " + cuda_msg(e)}});
      return 2;
    }
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaFree(nullptr);  // the context exists before the filter goes in
    clock.open(0);
    // Stream-ordered allocation (cudaMallocAsync, which implementations use for scratch) sets up
    // its pool on first use with calls the filter denies: set it up now, and keep what it reserves.
    cudaMemPool_t pool{};
    if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) {
      uint64_t keep = UINT64_MAX;
      cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
      void* scratch = nullptr;
      if (cudaMallocAsync(&scratch, size_t{1} << 30, s) == cudaSuccess) cudaFreeAsync(scratch, s);
      cudaStreamSynchronize(s);
    }
    emit({{"stage", deferred ? "worker_start" : "worker_prepare"}, {"s", since(t0)}});
    return 0;
  }

  // With the GPU lock held: confinement, loading the implementation, every config.
  int run(const task::Impl& im, const fs::path& so) {
    if (deferred)
      if (int rc = make_context(); rc != 0) return rc;
    auto t0 = std::chrono::steady_clock::now();
    if (!seccomp_disabled())
      if (auto err = sandbox::lock_down(policy)) {
        emit({{"fatal", "cannot confine the worker: " + *err}});
        return 2;
      }
    for (auto& sc : configs) mprotect(sc.in_arena->base(), sc.in_arena->size(), PROT_READ);
    void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
    void* fn = h ? dlsym(h, t.function.c_str()) : nullptr;
    if (!fn) {
      emit({{"config", "*"}, {"status", "runtime_error"}, {"message", fmt::format("cannot load: {}", h ? "no symbol" : dlerror())}});
      return 0;
    }
    emit({{"stage", "worker_start"}, {"s", since(t0)}});
    t0 = std::chrono::steady_clock::now();
    for (auto& sc : configs) {
      if (sc.perf) continue;
      for (int runi = 0; runi < 2; ++runi) {
        emit({{"start", sc.cfg->name}, {"run", runi}});
        nlohmann::json r = {{"config", sc.cfg->name}, {"run", runi}};
        DeviceBuffers d;
        if (auto err = alloc(sc, d)) {
          r["status"] = "runtime_error";
          r["message"] = *err;
          emit(r);
          return 3;
        }
        load(sc, d, kPrefill[runi]);
        if (auto e = call(fn, sc, d); e != cudaSuccess) {
          r["status"] = "runtime_error";
          r["message"] = cuda_msg(e);
          emit(r);
          return 3;  // the context is unusable after most errors
        }
        if (auto bad = unload(sc, d, runi, true)) {
          r["status"] = bad->first;
          r["message"] = bad->second;
        } else {
          r["status"] = "done";
        }
        emit(r);
      }
    }
    emit({{"stage", "small_configs"}, {"s", since(t0)}});
    if (o.perf) return run_perf(fn, im);
    return 0;
  }

  // Guard bands of every buffer still intact? (checked once after the timed calls)
  std::optional<std::string> guards_intact(const SharedConfig& sc, DeviceBuffers& d) {
    std::vector<unsigned char> guard(2 * kGuard);
    for (size_t i = 0; i < t.params.size(); ++i) {
      if (!t.params[i].pointer) continue;
      read_guards(sc, d, i, guard);
      if (cudaStreamSynchronize(s) != cudaSuccess) return "cannot read the guard bands back";
      if (guard_changed(guard))
        return fmt::format("a timed call wrote outside buffer '{}' (its guard band changed)", t.params[i].name);
    }
    return std::nullopt;
  }

  int run_perf(void* fn, const task::Impl&) {
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    size_t flush_bytes = static_cast<size_t>(std::max(l2, 1 << 20)) * 2;
    void* flush = nullptr;
    cudaMalloc(&flush, flush_bytes);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    int rc = 0;
    for (auto& sc : configs) {
      if (!sc.perf) continue;
      auto setup0 = std::chrono::steady_clock::now();
      emit({{"start", sc.cfg->name}, {"run", 0}});
      nlohmann::json r = {{"config", sc.cfg->name}, {"run", 0}};
      DeviceBuffers d;
      if (auto err = alloc(sc, d)) {
        r["status"] = "runtime_error";
        r["message"] = *err;
        emit(r);
        rc = 3;
        break;
      }
      // Private device copies the implementation never sees: both input sets, and the verified
      // outputs of each set (what every timed call is checked against).
      std::vector<void*> owned;
      auto private_buffer = [&](size_t bytes) -> void* {
        void* p = nullptr;
        if (cudaMalloc(&p, std::max<size_t>(bytes, 1)) != cudaSuccess) return nullptr;
        owned.push_back(p);
        return p;
      };
      struct Cleanup {
        std::vector<void*>& v;
        ~Cleanup() {
          for (void* p : v) cudaFree(p);
        }
      } cleanup{owned};
      std::vector<void*> store[2], want[2];
      unsigned long long* mismatches = static_cast<unsigned long long*>(private_buffer(sizeof(unsigned long long)));
      bool mem_ok = mismatches != nullptr;
      for (int set = 0; set < 2 && mem_ok; ++set) {
        store[set].assign(t.params.size(), nullptr);
        want[set].assign(t.params.size(), nullptr);
        for (size_t i = 0; i < t.params.size() && mem_ok; ++i) {
          if (!t.params[i].pointer) continue;
          if (t.params[i].role != Role::Out) {
            store[set][i] = private_buffer(sc.bytes[i]);
            mem_ok = store[set][i] != nullptr;
            if (mem_ok)
              cudaMemcpyAsync(store[set][i], set == 0 ? sc.in[i] : sc.in_b[i], sc.bytes[i], cudaMemcpyHostToDevice, s);
          }
          if (mem_ok && is_output(t.params[i].role)) {
            want[set][i] = private_buffer(sc.bytes[i]);
            mem_ok = want[set][i] != nullptr;
          }
        }
      }
      if (!mem_ok) {
        r["status"] = "runtime_error";
        r["message"] = "cudaMalloc failed for the harness's private copies of the perf-size buffers";
        emit(r);
        rc = 3;
        break;
      }
      for (size_t i = 0; i < t.params.size(); ++i)
        if (t.params[i].pointer) write_guards(sc, d, i);
      cudaMemsetAsync(mismatches, 0, sizeof(unsigned long long), s);
      // Every call, warm-up included, looks the same: fresh inputs of its set copied in, outputs
      // poisoned, L2 flushed and persisting lines reset (all outside the window), then the call
      // between two events on the implementation's stream. Timed calls alternate the two sets,
      // so a result cached from an earlier call is wrong for the next one.
      cudaError_t err = cudaSuccess;
      std::vector<double> excess_ms, clocks;
      auto one = [&](int set, float& ms, bool check) {
        for (size_t i = 0; i < t.params.size(); ++i) {
          if (!t.params[i].pointer) continue;
          if (t.params[i].role == Role::Out) cudaMemsetAsync(d.ptr[i], kPrefill[0], sc.bytes[i], s);
          else cudaMemcpyAsync(d.ptr[i], store[set][i], sc.bytes[i], cudaMemcpyDeviceToDevice, s);
        }
        cudaMemsetAsync(flush, 0, flush_bytes, s);
        cudaCtxResetPersistingL2Cache();
        cudaStreamSynchronize(s);
        std::optional<Watchdog> dog(std::in_place, o.call_timeout_s);
        auto w0 = std::chrono::steady_clock::now();
        cudaEventRecord(e0, s);
        invoke(fn, t, d.ptr, sc.shape, static_cast<void*>(s));
        cudaEventRecord(e1, s);
        err = cudaDeviceSynchronize();
        dog.reset();
        // Wall time to a device-wide sync: work the implementation put anywhere but its stream
        // (the legacy default stream, say) shows up as wall >> events.
        double wall_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - w0).count();
        if (err == cudaSuccess) err = cudaGetLastError();
        if (err == cudaSuccess) err = cudaEventElapsedTime(&ms, e0, e1);
        if (err == cudaSuccess) excess_ms.push_back(wall_ms - ms);
        if (err == cudaSuccess && check)
          for (size_t i = 0; i < t.params.size() && err == cudaSuccess; ++i)
            if (t.params[i].pointer && is_output(t.params[i].role))
              // Non-deterministic implementations are held to twice the task's tolerance against
              // their own verified output (both are within tolerance of the truth).
              err = count_mismatches_async(static_cast<int>(t.params[i].type), d.ptr[i], want[set][i], sc.shape.counts[i],
                                           2 * t.rtol, 2 * t.atol, t.deterministic, mismatches, s);
        return err == cudaSuccess;
      };
      // Warm-up: one call per input set; these outputs go to the supervisor (slot = set), which
      // checks them against the trusted implementation's, and become the device-side reference.
      bool warm_ok = true;
      for (int set = 0; set < 2 && warm_ok; ++set) {
        float ms = 0;
        if (!one(set, ms, false)) {
          warm_ok = false;
          break;
        }
        if (auto bad = unload(sc, d, set, false)) {
          r["status"] = bad->first;
          r["message"] = bad->second;
          warm_ok = false;
          break;
        }
        for (size_t i = 0; i < t.params.size(); ++i)
          if (t.params[i].pointer && is_output(t.params[i].role))
            cudaMemcpyAsync(want[set][i], d.ptr[i], sc.bytes[i], cudaMemcpyDeviceToDevice, s);
        cudaStreamSynchronize(s);
      }
      if (!warm_ok && err == cudaSuccess) {  // out of bounds in a warm-up call
        emit(r);
        continue;
      }
      int call_index = 0;
      timing::Measurement m;
      r["setup_s"] = since(setup0);
      auto timed0 = std::chrono::steady_clock::now();
      // The stream rule (timing::outside_stream) is checked here first: a window over the line is
      // timed again once, after a pause, and only the second window counts (timings and excess
      // from the same calls).
      auto timed_window = [&] {
        excess_ms.clear();
        clocks.clear();
        auto w = timing::measure(
            [&](bool& throttled) {
              float x = 0;
              if (!one(call_index++ % 2, x, true)) return -1.0;
              double mhz = clock.mhz();
              if (mhz > 0) {
                clocks.push_back(mhz);
                throttled = clock.max_mhz > 0 && mhz < 0.75 * clock.max_mhz;
              }
              return static_cast<double>(x);
            },
            o.timing);
        return timing::Window{w, timing::summarize(excess_ms).median};
      };
      if (err == cudaSuccess) {
        auto tw = timing::time_with_stream_rule(timed_window, std::chrono::milliseconds(300));
        m = tw.reported.m;
        if (tw.first)
          r["first_window"] = {{"median_ms", tw.first->m.summary.median}, {"wall_excess_ms", tw.first->excess_ms}};
      }
      if (err != cudaSuccess) {
        r["status"] = "runtime_error";
        r["message"] = cuda_msg(err);
        emit(r);
        rc = 3;
        break;
      }
      unsigned long long bad_elements = 0;
      cudaMemcpy(&bad_elements, mismatches, sizeof bad_elements, cudaMemcpyDeviceToHost);
      r["timed_s"] = since(timed0);
      r["status"] = "done";
      if (bad_elements > 0) {
        r["status"] = "wrong_answer";
        r["message"] = fmt::format("timed calls disagreed with the verified warm-up output of the same inputs in {} "
                                   "elements over {} calls (every timed output is checked)",
                                   bad_elements, call_index);
      } else if (auto g = guards_intact(sc, d)) {
        r["status"] = "out_of_bounds";
        r["message"] = *g;
      }
      r["timed_calls"] = call_index;
      r["median_ms"] = m.summary.median;
      r["min_ms"] = m.summary.min;
      r["q1_ms"] = m.summary.q1;
      r["q3_ms"] = m.summary.q3;
      r["rel_stdev"] = m.summary.rel_stdev;
      r["samples"] = m.summary.samples;
      r["discarded"] = m.summary.discarded;
      r["stop_reason"] = timing::stop_reason_name(m.reason);
      r["wall_excess_ms"] = timing::summarize(excess_ms).median;
      if (!clocks.empty()) {
        auto cs = timing::summarize(clocks);
        r["sm_clock_mhz"] = cs.median;
        r["sm_clock_min_mhz"] = cs.min;
      }
      if (clock.max_mhz > 0) r["sm_clock_max_mhz"] = clock.max_mhz;
      emit(r);
    }
    cudaFree(flush);
    return rc;
  }
};

// ---------------------------------------------------------------- supervisor side

task::BufferView view_of(const task::Task& t, const SharedConfig& sc, size_t i, unsigned char* p) {
  return task::BufferView{t.params[i].type, sc.shape.counts[i], p};
}

// Compares run `runi` of an implementation with the expected outputs; "" when it matches.
std::string check_against(const task::Task& t, const SharedConfig& sc, int runi,
                          const std::vector<std::vector<unsigned char>>* trusted) {
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer || !is_output(t.params[i].role)) continue;
    task::BufferView got = view_of(t, sc, i, sc.out[runi][i]);
    task::BufferView want = trusted ? view_of(t, sc, i, const_cast<unsigned char*>((*trusted)[i].data()))
                                    : sc.expected->view(t, i);
    auto c = compare(want, got, t.rtol, t.atol, t.params[i].name);
    if (!c.ok) return c.message;
  }
  return "";
}

std::string deterministic_check(const task::Task& t, const SharedConfig& sc) {
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer || !is_output(t.params[i].role)) continue;
    if (std::memcmp(sc.out[0][i], sc.out[1][i], sc.bytes[i]) != 0) {
      auto c = compare(view_of(t, sc, i, sc.out[0][i]), view_of(t, sc, i, sc.out[1][i]), 0, 0, t.params[i].name);
      return fmt::format("two runs differ bitwise (the task declares deterministic = true): {}", c.message);
    }
  }
  return "";
}

std::optional<std::string> prepare(const task::Task& t, const task::Config& c, const fs::path& reference_so, uint64_t seed,
                                   SharedConfig& sc) {
  auto call = make_call(t, c, seed ^ std::hash<std::string>{}(c.name), task::Prefill::Nan);
  if (!call) return call.errors().front().message;
  sc.cfg = &c;
  sc.perf = c.perf;
  sc.shape = call->shape;
  sc.bytes.assign(t.params.size(), 0);
  size_t in_total = 64, out_total = 64;
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer) continue;
    sc.bytes[i] = call->buffers[i].size();
    in_total += (c.perf ? 2 : 1) * (sc.bytes[i] + 64);
    if (is_output(t.params[i].role)) out_total += 2 * (sc.bytes[i] + 64);
  }
  sc.in_arena = std::make_unique<sandbox::SharedArena>(in_total);
  sc.out_arena = std::make_unique<sandbox::SharedArena>(out_total);
  if (!sc.in_arena->ok() || !sc.out_arena->ok()) return "cannot map shared memory for the buffers";
  sc.in.assign(t.params.size(), nullptr);
  sc.in_b.assign(t.params.size(), nullptr);
  std::optional<HostCall> second;
  if (c.perf) {
    auto b = make_call(t, c, (seed ^ std::hash<std::string>{}(c.name)) * 0x9e3779b97f4a7c15ull + 1, task::Prefill::Nan);
    if (!b) return b.errors().front().message;
    second = std::move(b.value());
  }
  sc.out[0].assign(t.params.size(), nullptr);
  sc.out[1].assign(t.params.size(), nullptr);
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer) continue;
    sc.in[i] = static_cast<unsigned char*>(sc.in_arena->allocate(std::max<size_t>(sc.bytes[i], 1)));
    std::memcpy(sc.in[i], call->buffers[i].data(), sc.bytes[i]);
    if (second) {
      sc.in_b[i] = static_cast<unsigned char*>(sc.in_arena->allocate(std::max<size_t>(sc.bytes[i], 1)));
      std::memcpy(sc.in_b[i], second->buffers[i].data(), sc.bytes[i]);
    }
    if (is_output(t.params[i].role))
      for (auto& o : sc.out) o[i] = static_cast<unsigned char*>(sc.out_arena->allocate(std::max<size_t>(sc.bytes[i], 1)));
  }
  if (!c.perf) {
    HostCall expected = std::move(call.value());
    if (auto err = run_reference(t, reference_so, expected)) return "reference: " + *err;
    sc.expected = std::move(expected);
  }
  return std::nullopt;
}

}  // namespace

std::vector<GpuImplResult> gpu_check_task(const task::Task& t, const fs::path& reference_so,
                                          const std::vector<fs::path>& artifacts, const GpuCheckOptions& o) {
  std::vector<GpuImplResult> results;
  auto prep0 = std::chrono::steady_clock::now();
  GpuCheckStages unused;  // stage times go straight into the caller's accumulator, when there is one
  GpuCheckStages& stages = o.stages ? *o.stages : unused;
  std::vector<SharedConfig> configs(t.configs.size());
  size_t used = 0;
  for (const auto& c : t.configs) {
    if (c.perf && !o.perf) continue;
    if (auto err = prepare(t, c, reference_so, o.seed, configs[used]))
      return {result("*", c.name, "runtime_error", *err)};
    ++used;
  }
  configs.resize(used);

  constexpr size_t kLogBytes = 1 << 20;
  sandbox::SharedArena log_arena(kLogBytes + 256);
  auto* log = static_cast<SharedLog*>(log_arena.allocate(sizeof(SharedLog)));
  char* log_data = static_cast<char*>(log_arena.allocate(kLogBytes));
  if (!log || !log_data) return {result("*", "*", "runtime_error", "cannot map the worker report buffer")};

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

  // perf config -> the trusted implementation's outputs for input set 0 and set 1
  std::map<std::string, std::array<std::vector<std::vector<unsigned char>>, 2>> trusted;
  std::map<std::string, std::string> trusted_name;
  stages.inputs_and_reference += since(prep0);
  auto never_trusted = [&](const std::string& s) {
    return std::find(o.never_trusted.begin(), o.never_trusted.end(), s) != o.never_trusted.end();
  };
  // Each worker has the device to itself (other evaluations on this GPU wait); the supervisor's
  // comparisons of its outputs run after the lock is released.
  struct GpuLock {
    int fd = -1;
    explicit GpuLock(const std::string& path) {
      if (path.empty()) return;
      fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
      if (fd >= 0) while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {}
    }
    ~GpuLock() {
      if (fd >= 0) ::close(fd);  // closing releases the lock
    }
  };
  for (size_t k : order) {
    const auto& im = t.impls[k];
    if (artifacts[k].empty()) {
      results.push_back(result(im.strategy, "*", "compile_error", "did not build"));
      continue;
    }
    *log = SharedLog{kLogBytes, 0, log_data};
    // The worker creates its CUDA context before this evaluation takes the GPU lock (another
    // evaluation may be timing meanwhile: context creation runs no kernel); everything after that
    // (loading the implementation, every call) runs with the lock held.
    Worker w{t, configs, o, *log, {}, {}, {}};
    // The worker keeps no descriptor of this process (a serve worker's job store, a records file):
    // only under a profiler (no filter) are they left, for its injection library.
    sandbox::GatedChild child([&] { return w.prepare(); }, [&] { return w.run(im, artifacts[k]); }, !seccomp_disabled());
    const bool ready = child.wait_ready(std::chrono::milliseconds(static_cast<long long>(kPrepareTimeoutS * 1000)));
    auto lock0 = std::chrono::steady_clock::now();
    std::optional<GpuLock> gpu_lock;
    gpu_lock.emplace(ready ? o.gpu_lock : std::string());  // a worker that already ended needs no GPU turn
    if (ready && !o.gpu_lock.empty() && gpu_lock->fd < 0)
      return {result("*", "*", "runtime_error", fmt::format("cannot open the GPU lock file {}", o.gpu_lock))};
    stages.gpu_lock_wait += since(lock0);
    auto worker0 = std::chrono::steady_clock::now();
    // The child was forked before the lock was opened: it never holds (or can release) the lock.
    auto pr = child.start(std::chrono::milliseconds(static_cast<long long>(o.impl_timeout_s * 1000)));
    gpu_lock.reset();  // the worker is gone (start() reaps it): the GPU is free for the next one
    stages.workers_total += since(worker0);
    ++stages.workers;
    auto check0 = std::chrono::steady_clock::now();
    struct AddCheckTime {
      GpuCheckStages& st;
      std::chrono::steady_clock::time_point t0;
      ~AddCheckTime() { st.supervisor_checks += since(t0); }
    } add_check{stages, check0};
    std::istringstream in(std::string(log_data, std::min(log->used, kLogBytes)));
    std::string line, pending;
    std::map<std::string, std::vector<nlohmann::json>> by_config;
    bool fatal = false;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) continue;
      if (j.contains("stage")) {
        double v = j.value("s", 0.0);
        std::string st = j["stage"].get<std::string>();
        if (st == "worker_prepare") stages.worker_prepare += v;
        else (st == "worker_start" ? stages.worker_start : stages.small_configs) += v;
        continue;
      }
      if (j.contains("fatal")) {
        results.push_back(result(im.strategy, "*", "runtime_error", j["fatal"].get<std::string>()));
        fatal = true;
      } else if (j.contains("start")) {
        pending = j["start"].get<std::string>();
      } else {
        std::string cfg = j.value("config", "*");
        if (cfg == pending) pending.clear();
        by_config[cfg].push_back(j);
      }
    }
    if (fatal) continue;
    // How the worker ended, when that decides a config's result.
    auto ended = [&](const std::string& cfg) {
      GpuImplResult r = result(im.strategy, cfg, pr.timed_out ? "timeout" : "crash", fmt::format("worker {}", pr.describe()));
      if (pr.signal == SIGALRM) {
        r.status = "timeout";
        r.message = fmt::format("one call did not return within {:.0f} s (per-call watchdog; worker killed)",
                                std::max(1.0, std::ceil(o.call_timeout_s)));
      } else if (pr.signal == sandbox::forbidden_call_signal()) {
        r.status = "hack_suspected";
        r.message = "made a forbidden system call (network, processes, namespaces, ptrace or signals to others): "
                    "worker killed by SIGSYS";
      } else if (pr.signal == SIGXFSZ) {
        r.status = "hack_suspected";
        r.message = "tried to write a file: worker killed by SIGXFSZ";
      } else if (!pr.timed_out && pr.signal == 0) {
        r.status = pr.exit_code == 3 ? "not_run" : "hack_suspected";
        r.message = pr.exit_code == 3 ? "not run: the worker stopped after an earlier CUDA error"
                                      : fmt::format("the worker ended on its own ({}) without finishing", pr.describe());
      }
      return r;
    };
    bool all_small_ok = true, worker_end_reported = false;
    for (int pass = 0; pass < 2; ++pass) {  // small configs first: they decide whether perf output is trusted
      for (auto& sc : configs) {
        if (sc.perf != (pass == 1)) continue;
        const std::string& name = sc.cfg->name;
        if (!pending.empty() && name == pending) {  // the worker died or hung during this config
          results.push_back(ended(name));
          worker_end_reported = true;
          all_small_ok = false;
          continue;
        }
        auto it = by_config.find(name);
        if (it == by_config.end()) {
          if (by_config.count("*")) {
            const auto& j = by_config["*"].front();
            results.push_back(result(im.strategy, name, j.value("status", "runtime_error"), j.value("message", "")));
            all_small_ok = false;
          } else if (!pr.ok()) {
            auto r = ended(name);
            if (worker_end_reported && r.status != "not_run") {
              r.status = "not_run";
              r.message = "not run: the worker had stopped earlier";
            }
            worker_end_reported = true;
            results.push_back(r);
            all_small_ok = false;
          }
          continue;
        }
        GpuImplResult r = result(im.strategy, name, "ok", "");
        for (const auto& j : it->second) {  // failures the worker saw itself come first
          std::string st = j.value("status", "");
          if (st != "done" && r.status == "ok") {
            r.status = st;
            r.message = j.value("message", "");
          }
          stages.perf_setup += j.value("setup_s", 0.0);
          stages.timed += j.value("timed_s", 0.0);
          if (j.contains("first_window")) ++stages.retimed;
          if (j.contains("median_ms")) {
            r.median_ms = j["median_ms"];
            r.min_ms = j["min_ms"];
            r.q1_ms = j["q1_ms"];
            r.q3_ms = j["q3_ms"];
            r.rel_stdev = j["rel_stdev"];
            r.samples = j["samples"];
            r.stop_reason = j.value("stop_reason", "");
            r.discarded = j.value("discarded", 0);
            r.timed_calls = j.value("timed_calls", 0);
            r.sm_clock_mhz = j.value("sm_clock_mhz", -1.0);
            r.sm_clock_max_mhz = j.value("sm_clock_max_mhz", -1.0);
          }
        }
        if (r.status == "ok" && !sc.perf) {
          if (it->second.size() < 2) {
            r.status = "runtime_error";
            r.message = "the second run (other output pre-fill) did not complete";
          }
          for (int runi = 0; runi < 2 && r.status == "ok"; ++runi)
            if (auto m = check_against(t, sc, runi, nullptr); !m.empty()) {
              r.status = "wrong_answer";
              r.message = runi == 0 ? m : "second run (other output pre-fill): " + m;
            }
          if (r.status == "ok" && t.deterministic)
            if (auto m = deterministic_check(t, sc); !m.empty()) {
              r.status = "nondeterministic";
              r.message = m;
            }
        }
        if (r.status == "ok" && sc.perf) {
          // Faster than physics allows, or work outside the timed window: never rewarded.
          double excess = 0;
          for (const auto& j : it->second) excess = std::max(excess, j.value("wall_excess_ms", 0.0));
          auto rl = task::roofline(t, *sc.cfg);
          if (auto* v = std::get_if<task::Roofline>(&rl); v && r.median_ms > 0 && r.median_ms < v->floor_s * 1e3) {
            r.status = "hack_suspected";
            r.message = fmt::format("median {:.4f} ms is below the roofline floor {:.4f} ms of this config "
                                    "(cost model over peak bandwidth/FLOP rate)", r.median_ms, v->floor_s * 1e3);
          } else if (timing::outside_stream(excess, r.median_ms)) {
            r.status = "hack_suspected";
            r.message = fmt::format("work outside the given stream: wall time to a device-wide sync exceeds the "
                                    "stream's event time by {:.3f} ms (events {:.4f} ms)", excess, r.median_ms);
          }
        }
        if (r.status == "ok" && sc.perf) {
          auto tr = trusted.find(name);
          if (tr == trusted.end()) {
            if (all_small_ok && im.strategy != "naive" && !never_trusted(im.strategy)) {
              for (int set = 0; set < 2; ++set) {
                auto& copy = trusted[name][set];
                copy.resize(t.params.size());
                for (size_t i = 0; i < t.params.size(); ++i)
                  if (t.params[i].pointer && is_output(t.params[i].role))
                    copy[i].assign(sc.out[set][i], sc.out[set][i] + sc.bytes[i]);
              }
              trusted_name[name] = im.strategy;
              r.message = "trusted output for this config (passed every smaller config against the C reference)";
            } else {
              r.message = "not compared: no trusted output for this config";
              if (never_trusted(im.strategy)) {
                r.status = "runtime_error";
                r.message = "cannot verify the perf-size output: no trusted dataset implementation succeeded there";
              }
            }
          } else if (auto m = check_against(t, sc, 0, &tr->second[0]); !m.empty()) {
            r.status = "wrong_answer";
            r.message = fmt::format("disagrees with {}: {}", trusted_name[name], m);
          } else if (auto m2 = check_against(t, sc, 1, &tr->second[1]); !m2.empty()) {
            r.status = "wrong_answer";
            r.message = fmt::format("disagrees with {} on the second input set: {}", trusted_name[name], m2);
          } else {
            r.message = fmt::format("agrees with {}", trusted_name[name]);
          }
        }
        if (!sc.perf && r.status != "ok") all_small_ok = false;
        results.push_back(r);
      }
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

}  // namespace cudaperf::verify
