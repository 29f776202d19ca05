// size: the trusted measurer is one class whose members share one process's CUDA state (buffers, events, the
// spin flag); it is split only together with a GPU run of the red team that re-checks it (docs/threat-model.md).
#include "measurer.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <sys/random.h>
#include <thread>
#include <xxhash.h>

#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/launcher_process.hpp"
#include "device_compare.hpp"
#include "measure_kernels.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;
using nlohmann::json;
using task::Role;
using Clock = std::chrono::steady_clock;

namespace {

// Guard regions before and after every buffer the candidate sees, each buffer in an allocation of
// its own: a write up to this far past either end is caught; farther ones leave the allocation and
// fault in the launcher's context (or land in another buffer's guard).
constexpr size_t kGuard = size_t{2} << 20;
constexpr unsigned char kGuardByte = 0xCD;
constexpr unsigned char kPrefill[2] = {0xFF, 0x5A};  // run 0: NaN / -1 everywhere; run 1: a pattern
constexpr double kPrepareTimeoutS = 120;
constexpr int kCalibrationCalls = 8;
constexpr size_t kSavedBudget = size_t{4} << 30;    // bytes of timed outputs kept for the after-the-fact check
constexpr int kMaxSaved = 8;
// A median below floor / kRooflineMargin is faster than this device can move the task's bytes or do
// its FLOPs (peaks measured on this device, memory the fastest of a copy, a read and a write stream;
// the margin covers what those kernels leave).
constexpr double kRooflineMargin = 1.10;
// The measurer's own set-up before each window (fresh inputs, poisoned outputs, L2 flush) takes
// about as long with a candidate loaded as without one; when the candidate's process runs GPU work
// there (a kernel computing ahead of its window), it takes longer.
constexpr double kPreWindowFactor = 1.5, kPreWindowSlackMs = 0.05;
// Another process starting on the device (a worker creating its context before it takes the GPU
// lock) slows that set-up too, for a while: a config that broke the rule is measured again after a
// pause, this many times at most; a candidate that computes ahead breaks it every time.
constexpr int kPreWindowRemeasures = 2;
constexpr double kPreWindowPauseS[kPreWindowRemeasures] = {0.25, 1.0};
bool pre_window_exceeded(double pre_median_ms, double calibrated_ms) {
  return pre_median_ms > kPreWindowFactor * calibrated_ms + kPreWindowSlackMs;
}

bool is_output(Role r) { return r == Role::Out || r == Role::InOut; }

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string cuda_msg(cudaError_t e) { return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e)); }

template <class H>
std::string to_hex(const H& h) {
  const auto* b = reinterpret_cast<const unsigned char*>(&h);
  std::string s;
  for (size_t i = 0; i < sizeof(H); ++i) s += fmt::format("{:02x}", b[i]);
  return s;
}

uint64_t mix64(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9E3779B97F4A7C15ull * (b + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

uint64_t fresh_random() {
  uint64_t v = 0;
  if (getrandom(&v, sizeof v, 0) != static_cast<ssize_t>(sizeof v))
    v = static_cast<uint64_t>(Clock::now().time_since_epoch().count()) * 0x9E3779B97F4A7C15ull;
  return v;
}

// The SM clock through NVML (loaded at run time, so the engine has no build dependency on it).
struct SmClock {
  using Init = int (*)();
  using ByBus = int (*)(const char*, void**);
  using ClockFn = int (*)(void*, int, unsigned*);
  void* device = nullptr;
  ClockFn get_clock = nullptr;
  double max_mhz = -1;
  void open() {
    void* lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib) return;
    auto init = reinterpret_cast<Init>(dlsym(lib, "nvmlInit_v2"));
    auto by_bus = reinterpret_cast<ByBus>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
    auto get_max = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
    get_clock = reinterpret_cast<ClockFn>(dlsym(lib, "nvmlDeviceGetClockInfo"));
    char bus[32] = {};
    if (!init || !by_bus || !get_max || !get_clock || init() != 0 ||
        cudaDeviceGetPCIBusId(bus, sizeof bus, 0) != cudaSuccess || by_bus(bus, &device) != 0) {
      device = nullptr;
      return;
    }
    unsigned mhz = 0;
    if (get_max(device, 1, &mhz) == 0) max_mhz = mhz;  // 1 = NVML_CLOCK_SM
  }
  double mhz() const {
    unsigned v = 0;
    return device && get_clock(device, 1, &v) == 0 ? static_cast<double>(v) : -1.0;
  }
};

// One buffer the candidate sees: its own allocation, guard | data | guard, exported through IPC.
struct Exported {
  unsigned char* base = nullptr;
  size_t alloc = 0, bytes = 0;
  unsigned char* data() const { return base + kGuard; }
  std::string handle;  // hex of cudaIpcMemHandle_t
};

struct Private {
  std::vector<void*> owned;
  void* get(size_t bytes) {
    void* p = nullptr;
    if (cudaMalloc(&p, std::max<size_t>(bytes, 1)) != cudaSuccess) return nullptr;
    owned.push_back(p);
    return p;
  }
  ~Private() {
    for (void* p : owned) cudaFree(p);
  }
};

enum class Step { Ok, Failed, WorkerGone, Stuck };

class Measurer {
 public:
  Measurer(const MeasurerJob& job, MeasurerOutcome& out) : j_(job), t_(*job.task), o_(job.options), out_(out) {}

  void run() {
    int mode = cudaComputeModeDefault;
    if (cudaDeviceGetAttribute(&mode, cudaDevAttrComputeMode, 0) == cudaSuccess && mode != cudaComputeModeDefault) {
      out_.fatal = "the GPU is not in the default compute mode: the measurer and the candidate's worker need a CUDA "
                   "context each (nvidia-smi -c DEFAULT)";
      return;
    }
    if (auto e = cudaSetDevice(0); e != cudaSuccess) {
      out_.fatal = "no CUDA device: " + cuda_msg(e);
      return;
    }
    cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking);
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, 0);
    flush_bytes_ = timing::l2_flush_bytes(l2);  // config/timing.toml [l2_flush]
    void* flag_host = nullptr;
    void* flag_dev = nullptr;
    bool ok = cudaMalloc(&flush_, flush_bytes_) == cudaSuccess &&
              cudaMalloc(reinterpret_cast<void**>(&counter_), sizeof(unsigned long long)) == cudaSuccess &&
              cudaHostAlloc(&flag_host, sizeof(unsigned), cudaHostAllocMapped) == cudaSuccess &&
              cudaHostGetDevicePointer(&flag_dev, flag_host, 0) == cudaSuccess;
    flag_ = static_cast<volatile unsigned*>(flag_host);
    flag_dev_ = static_cast<unsigned*>(flag_dev);
    for (auto* e : {&p0_, &t0_, &t1_}) ok = ok && cudaEventCreate(e) == cudaSuccess;
    ok = ok && cudaEventCreateWithFlags(&ready_, cudaEventInterprocess | cudaEventDisableTiming) == cudaSuccess &&
         cudaEventCreateWithFlags(&done_, cudaEventInterprocess | cudaEventDisableTiming) == cudaSuccess &&
         cudaIpcGetEventHandle(&ready_h_, ready_) == cudaSuccess && cudaIpcGetEventHandle(&done_h_, done_) == cudaSuccess;
    if (!ok) {
      out_.fatal = "cannot set up the measurer's device state: " + cuda_msg(cudaGetLastError());
      return;
    }
    *flag_ = 0;
    clock_.open();
    if (j_.trusted) use_trusted(*j_.trusted);
    if (j_.on_progress) j_.on_progress(out_);
    for (size_t n = 0; n < j_.order.size(); ++n) {
      Step st = measure_impl(j_.order[n]);
      out_.finished = n + 1;
      if (j_.on_progress) j_.on_progress(out_);
      if (st == Step::Stuck) {
        out_.stuck = true;
        return;
      }
    }
  }

 private:
  const MeasurerJob& j_;
  const task::Task& t_;
  const GpuCheckOptions& o_;
  MeasurerOutcome& out_;
  cudaStream_t s_{};
  void* flush_ = nullptr;
  size_t flush_bytes_ = 0;
  bool pre_window_fired_ = false;  // the last perf_config's verdict came from the pre-window rule alone
  unsigned long long* counter_ = nullptr;
  volatile unsigned* flag_ = nullptr;
  unsigned* flag_dev_ = nullptr;
  unsigned flag_value_ = 0;
  cudaEvent_t p0_{}, t0_{}, t1_{}, ready_{}, done_{};
  cudaIpcEventHandle_t ready_h_{}, done_h_{};
  SmClock clock_;
  void* trusted_fn_ = nullptr;
  std::string trusted_name_;
  uint64_t nonce_ = fresh_random();
  // CUDAPERF_SPIN_TIMEOUT_MS: under a profiler that serialises every launch (ncu) the spin cannot be
  // released while the launcher is inside its call; there it is set to 0 (windows then include the
  // host handshake; the profiler's own kernel times are what such a run is for).
  unsigned long long spin_timeout_ns_ = [] {
    const char* v = std::getenv("CUDAPERF_SPIN_TIMEOUT_MS");
    return (v && *v ? std::strtoull(v, nullptr, 10) : 2000ull) * 1000000ull;
  }();
  std::mt19937_64 secret_rng_{fresh_random()};

  // Per implementation.
  sandbox::LauncherProcess* w_ = nullptr;
  Clock::time_point impl_deadline_;
  std::string protocol_error_;
  bool forged_ = false;  // the channel carried a line the launcher never sends

  void use_trusted(size_t k) {
    void* h = dlopen(j_.artifacts[k].c_str(), RTLD_NOW | RTLD_LOCAL);
    trusted_fn_ = h ? dlsym(h, t_.function.c_str()) : nullptr;
    if (trusted_fn_) {
      out_.trusted = k;
      trusted_name_ = t_.impls[k].strategy;
    }
  }

  bool never_trusted(const std::string& s) const {
    return std::find(o_.never_trusted.begin(), o_.never_trusted.end(), s) != o_.never_trusted.end();
  }

  std::chrono::milliseconds ms_left(double cap_s) const {
    double left = std::chrono::duration<double>(impl_deadline_ - Clock::now()).count();
    return std::chrono::milliseconds(static_cast<long long>(std::max(0.0, std::min(left, cap_s)) * 1000));
  }

  // The next line from the worker; a line that is not JSON, or carries none of `keys`, is a protocol
  // violation (the launcher never sends one: the candidate wrote on the channel).
  std::optional<json> receive(const std::vector<std::string>& keys, double timeout_s) {
    auto line = w_->channel().receive(ms_left(timeout_s));
    if (!line) return std::nullopt;
    json m = json::parse(*line, nullptr, false);
    if (m.is_object()) {
      for (const auto& k : keys)
        if (m.contains(k)) return m;
      if (m.contains("error")) {
        protocol_error_ = m["error"].is_string() ? m["error"].get<std::string>() : "error";
        return std::nullopt;
      }
    }
    return forged("");
  }
  std::optional<json> forged(const char* why) {
    forged_ = true;
    protocol_error_ = std::string("the worker's control channel carried a line that is not the launcher's") + why;
    return std::nullopt;
  }
  // The launcher's reply `key` to call `nonce`.
  std::optional<json> reply(const char* key, uint64_t nonce) {
    auto m = receive({key}, o_.call_timeout_s);
    if (m && m->value(key, uint64_t{0}) != nonce) return forged(" (wrong call number)");
    return m;
  }
  bool timed_out() const { return w_->channel().error() == "timeout"; }

  // How the worker ended, as the status of the config it was in.
  GpuImplResult ended(const std::string& impl, const std::string& cfg, bool timed_out_here) {
    w_->kill_now();
    auto pr = w_->finish(std::chrono::milliseconds(3000));
    if (forged_) return config_result(impl, cfg, "hack_suspected", protocol_error_);
    if (timed_out_here)
      return config_result(impl, cfg, "timeout",
                    fmt::format("one call did not return within {:.0f} s (per-call watchdog; worker killed)",
                                std::max(1.0, std::ceil(o_.call_timeout_s))));
    if (pr.signal == sandbox::forbidden_call_signal())
      return config_result(impl, cfg, "hack_suspected",
                    "made a forbidden system call (network, processes, namespaces, ptrace, executable memory or signals "
                    "to others): worker killed by SIGSYS");
    if (pr.signal == SIGXFSZ) return config_result(impl, cfg, "hack_suspected", "tried to write a file: worker killed by SIGXFSZ");
    if (pr.signal != 0 && pr.signal != SIGKILL) return config_result(impl, cfg, "crash", fmt::format("worker {}", pr.describe()));
    if (!protocol_error_.empty()) return config_result(impl, cfg, "runtime_error", protocol_error_);
    if (pr.exit_code == 3) return config_result(impl, cfg, "runtime_error", "the worker stopped after a CUDA error");
    return config_result(impl, cfg, "hack_suspected", fmt::format("the worker ended on its own ({}) without finishing", pr.describe()));
  }

  Step measure_impl(size_t k);
  std::optional<std::string> fill_guards(const Exported& e);
  std::optional<std::string> guards_changed(const std::vector<Exported>& bufs);
  Step small_config(size_t ci, const HostConfig& hc, std::vector<Exported>& bufs, GpuImplResult& r);
  Step perf_config(size_t ci, const HostConfig& hc, std::vector<Exported>& bufs, bool calibrate_only, GpuImplResult& r,
                   double& pre_ms, double& handshake_ms);
  bool wait_event(cudaEvent_t e, double timeout_s);
};

std::optional<std::string> Measurer::fill_guards(const Exported& e) {
  if (auto err = cudaMemsetAsync(e.base, kGuardByte, e.alloc, s_); err != cudaSuccess) return cuda_msg(err);
  return std::nullopt;
}

std::optional<std::string> Measurer::guards_changed(const std::vector<Exported>& bufs) {
  for (size_t i = 0; i < bufs.size(); ++i) {
    const Exported& e = bufs[i];
    if (!e.base) continue;
    unsigned long long bad[2] = {0, 0};
    size_t after = e.alloc - kGuard - e.bytes;  // the guard after the data runs to the end of the allocation
    for (int side = 0; side < 2; ++side) {
      cudaMemsetAsync(counter_, 0, sizeof(unsigned long long), s_);
      count_bytes_not_async(side == 0 ? e.base : e.data() + e.bytes, side == 0 ? kGuard : after, kGuardByte, counter_, s_);
      cudaMemcpyAsync(&bad[side], counter_, sizeof bad[side], cudaMemcpyDeviceToHost, s_);
    }
    if (cudaStreamSynchronize(s_) != cudaSuccess) return "cannot read the guard regions back";
    if (bad[0] || bad[1])
      return fmt::format("wrote {} buffer '{}' ({} guard bytes changed, up to {} MiB away are checked)",
                         bad[0] ? "before the start of" : "past the end of", t_.params[i].name, bad[0] + bad[1],
                         kGuard >> 20);
  }
  return std::nullopt;
}

bool Measurer::wait_event(cudaEvent_t e, double timeout_s) {
  auto deadline = Clock::now() + std::chrono::duration<double>(timeout_s);
  for (;;) {
    cudaError_t q = cudaEventQuery(e);
    if (q == cudaSuccess) return true;
    if (q != cudaErrorNotReady) return false;
    if (Clock::now() > deadline) return false;
    usleep(20);
  }
}


Step Measurer::measure_impl(size_t k) {
  const task::Impl& im = t_.impls[k];
  auto& results = out_.results;
  auto& st = out_.stages;
  if (j_.artifacts[k].empty()) {
    results.push_back(config_result(im.strategy, "*", "compile_error", "did not build"));
    return Step::Ok;
  }
  auto& configs = *j_.configs;
  sandbox::LauncherProcess w;
  w_ = &w;
  struct Forget {
    sandbox::LauncherProcess*& w;
    ~Forget() { w = nullptr; }
  } forget{w_};
  protocol_error_.clear();
  forged_ = false;
  impl_deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(kPrepareTimeoutS));
  if (!w.spawn(sandbox::launcher_path())) {
    results.push_back(config_result(im.strategy, "*", "runtime_error", "cannot start the launcher worker: " + w.error()));
    return Step::Ok;
  }
  auto hello = receive({"hello"}, kPrepareTimeoutS);
  if (!hello) {
    results.push_back(ended(im.strategy, "*", false));
    return Step::Ok;
  }
  st.worker_prepare += hello->value("prepare_s", 0.0);
  // The launcher's context exists; from here on the device is this implementation's alone.
  auto lock0 = Clock::now();
  FileLock lock(o_.gpu_lock);
  if (!o_.gpu_lock.empty() && lock.fd < 0) {
    results.push_back(config_result(im.strategy, "*", "runtime_error", fmt::format("cannot open the GPU lock file {}", o_.gpu_lock)));
    return Step::Ok;
  }
  st.gpu_lock_wait += since(lock0);
  auto worker0 = Clock::now();
  struct AddWorker {
    GpuCheckStages& st;
    Clock::time_point t0;
    ~AddWorker() {
      st.workers_total += since(t0);
      ++st.workers;
    }
  } add_worker{st, worker0};
  impl_deadline_ = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(o_.impl_timeout_s));
  // With the device held (filling is GPU work): fresh allocations for this implementation, every byte written before it is handed out (the
  // device may give back pages another buffer of this process used).
  std::vector<std::vector<Exported>> bufs(configs.size());
  struct FreeAll {  // the worker is gone before its buffers are freed
    std::vector<std::vector<Exported>>& b;
    sandbox::LauncherProcess& w;
    ~FreeAll() {
      w.kill_now();
      w.finish(std::chrono::milliseconds(3000));
      for (auto& v : b)
        for (auto& e : v)
          if (e.base) cudaFree(e.base);
    }
  } free_all{bufs, w};
  constexpr size_t kGranule = size_t{2} << 20;
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    bufs[ci].resize(t_.params.size());
    for (size_t i = 0; i < t_.params.size(); ++i) {
      if (!t_.params[i].pointer) continue;
      Exported& e = bufs[ci][i];
      e.bytes = configs[ci].bytes[i];
      e.alloc = (2 * kGuard + e.bytes + kGranule - 1) / kGranule * kGranule;
      void* p = nullptr;
      cudaIpcMemHandle_t h{};
      if (auto err = cudaMalloc(&p, e.alloc); err != cudaSuccess) {
        results.push_back(config_result(im.strategy, "*", "runtime_error",
                                 fmt::format("cudaMalloc of {} bytes for buffer '{}': {}", e.alloc, t_.params[i].name, cuda_msg(err))));
        return Step::Ok;
      }
      e.base = static_cast<unsigned char*>(p);
      if (auto err = cudaIpcGetMemHandle(&h, p); err != cudaSuccess) {
        results.push_back(config_result(im.strategy, "*", "runtime_error", "cudaIpcGetMemHandle: " + cuda_msg(err)));
        return Step::Ok;
      }
      e.handle = to_hex(h);
      fill_guards(e);
    }
  }
  cudaStreamSynchronize(s_);


  json setup = {{"op", "setup"}, {"fn", t_.function}, {"ready", to_hex(ready_h_)}, {"done", to_hex(done_h_)}};
  for (const auto& p : t_.params) setup["params"].push_back({{"ptr", p.pointer}, {"type", static_cast<int>(p.type)}});
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    json c = {{"scalars", configs[ci].shape.scalars}};
    for (size_t i = 0; i < t_.params.size(); ++i) {
      c["handles"].push_back(bufs[ci][i].handle);
      c["offsets"].push_back(bufs[ci][i].base ? kGuard : 0);
    }
    setup["configs"].push_back(c);
  }
  w.channel().send(setup.dump());
  if (!receive({"opened"}, 60)) {
    results.push_back(ended(im.strategy, "*", false));
    return Step::Ok;
  }
  // The measurer's own cost per call, before anything of the candidate is loaded.
  std::map<size_t, std::pair<double, double>> calibration;  // perf config -> (pre-window ms, handshake ms)
  for (size_t ci = 0; ci < configs.size() && o_.perf; ++ci) {
    if (!configs[ci].perf) continue;
    GpuImplResult cal = config_result(im.strategy, configs[ci].cfg->name, "ok", "");
    double pre = 0, hs = 0;
    Step stp = perf_config(ci, configs[ci], bufs[ci], true, cal, pre, hs);
    if (stp != Step::Ok || cal.status != "ok") {
      cal.message = "calibrating the timed handshake (no candidate loaded yet): " + cal.message;
      results.push_back(cal);
      return stp == Step::Stuck ? Step::Stuck : Step::Ok;
    }
    calibration[ci] = {pre, hs};
  }

  auto load0 = Clock::now();
  w.channel().send(json{{"op", "load"}, {"so", j_.artifacts[k].string()}}.dump());
  if (!receive({"loaded"}, 60)) {
    if (protocol_error_.rfind("cannot load", 0) == 0 || protocol_error_.rfind("cannot confine", 0) == 0) {
      results.push_back(config_result(im.strategy, "*", "runtime_error", protocol_error_));
      w.finish(std::chrono::milliseconds(2000));
    } else {
      results.push_back(ended(im.strategy, "*", timed_out()));
    }
    return Step::Ok;
  }
  st.worker_start += since(load0);

  bool all_small_ok = true, gone = false;
  auto small0 = Clock::now();
  for (size_t ci = 0; ci < configs.size(); ++ci) {
    const HostConfig& hc = configs[ci];
    if (hc.perf) continue;
    if (gone) {
      results.push_back(config_result(im.strategy, hc.cfg->name, "not_run", "not run: the worker had stopped earlier"));
      continue;
    }
    GpuImplResult r = config_result(im.strategy, hc.cfg->name, "ok", "");
    Step stp = small_config(ci, hc, bufs[ci], r);
    results.push_back(r);
    if (r.status != "ok") all_small_ok = false;
    if (stp == Step::Stuck) return Step::Stuck;
    if (stp == Step::WorkerGone) gone = true;
  }
  st.small_configs += since(small0);
  if (!trusted_fn_ && all_small_ok && im.strategy != "naive" && !never_trusted(im.strategy) &&
      (o_.trusted.empty() || o_.trusted == im.strategy || out_.finished > 0))
    use_trusted(k);

  for (size_t ci = 0; ci < configs.size() && o_.perf; ++ci) {
    const HostConfig& hc = configs[ci];
    if (!hc.perf) continue;
    if (gone || !all_small_ok) {
      results.push_back(config_result(im.strategy, hc.cfg->name, "not_run",
                               gone ? "not run: the worker had stopped earlier" : "not run: a smaller config failed"));
      continue;
    }
    GpuImplResult r = config_result(im.strategy, hc.cfg->name, "ok", "");
    auto [pre, hs] = calibration[ci];
    Step stp = perf_config(ci, hc, bufs[ci], false, r, pre, hs);
    for (int again = 0; again < kPreWindowRemeasures && stp == Step::Ok && pre_window_fired_; ++again) {
      std::this_thread::sleep_for(std::chrono::duration<double>(kPreWindowPauseS[again]));
      double first = r.pre_window_ms;
      r = config_result(im.strategy, hc.cfg->name, "ok", "");
      stp = perf_config(ci, hc, bufs[ci], false, r, pre, hs);
      r.message += fmt::format(" (measurement {}: the one before it had a set-up of {:.4f} ms, {:.4f} ms calibrated)", again + 2,
                               first, pre);
    }
    results.push_back(r);
    if (stp == Step::Stuck) return Step::Stuck;
    if (stp == Step::WorkerGone) gone = true;
  }
  if (!gone) {
    w.channel().send(json{{"op", "exit"}}.dump());
    w.finish(std::chrono::milliseconds(5000));
  }
  return Step::Ok;
}

Step Measurer::small_config(size_t ci, const HostConfig& hc, std::vector<Exported>& bufs, GpuImplResult& r) {
  const size_t n = t_.params.size();
  std::vector<std::vector<unsigned char>> out[2];
  std::vector<unsigned char> scratch;
  for (int run = 0; run < 2; ++run) {
    out[run].assign(n, {});
    for (size_t i = 0; i < n; ++i) {
      if (!t_.params[i].pointer) continue;
      fill_guards(bufs[i]);
      if (t_.params[i].role == Role::Out) cudaMemsetAsync(bufs[i].data(), kPrefill[run], hc.bytes[i], s_);
      else cudaMemcpyAsync(bufs[i].data(), hc.inputs.buffers[i].data(), hc.bytes[i], cudaMemcpyHostToDevice, s_);
    }
    if (auto e = cudaStreamSynchronize(s_); e != cudaSuccess) {
      r.status = "runtime_error";
      r.message = "the measurer could not fill the buffers: " + cuda_msg(e);
      return Step::Stuck;
    }
    uint64_t nonce = ++nonce_;
    w_->channel().send(json{{"op", "call"}, {"cfg", ci}, {"n", nonce}, {"timed", false}}.dump());
    for (const char* key : {"enq", "ret"}) {
      auto m = reply(key, nonce);
      if (!m) {
        r = ended(r.impl, r.config, timed_out());
        return Step::WorkerGone;
      }
      if (std::string(key) == "ret" && m->value("err", 0) != 0) {
        r.status = "runtime_error";
        r.message = m->value("msg", "CUDA error");
        if (run == 1) r.message = "second run (other output pre-fill): " + r.message;
        w_->finish(std::chrono::milliseconds(3000));
        return Step::WorkerGone;
      }
    }
    auto check0 = Clock::now();
    bool mutated = false;
    for (size_t i = 0; i < n; ++i) {
      if (!t_.params[i].pointer) continue;
      if (is_output(t_.params[i].role)) {
        out[run][i].resize(hc.bytes[i]);
        cudaMemcpyAsync(out[run][i].data(), bufs[i].data(), hc.bytes[i], cudaMemcpyDeviceToHost, s_);
      }
      if (t_.params[i].role == Role::In) {
        scratch.resize(hc.bytes[i]);
        cudaMemcpyAsync(scratch.data(), bufs[i].data(), hc.bytes[i], cudaMemcpyDeviceToHost, s_);
        cudaStreamSynchronize(s_);
        if (std::memcmp(scratch.data(), hc.inputs.buffers[i].data(), hc.bytes[i]) != 0 && !mutated) {
          mutated = true;
          r.status = "input_mutated";
          r.message = fmt::format("input buffer '{}' was modified", t_.params[i].name);
        }
      }
    }
    cudaStreamSynchronize(s_);
    if (auto g = guards_changed(bufs)) {
      r.status = "out_of_bounds";
      r.message = *g;
    }
    out_.stages.supervisor_checks += since(check0);
    if (r.status != "ok") return Step::Ok;
  }
  auto check0 = Clock::now();
  for (int run = 0; run < 2 && r.status == "ok"; ++run)
    for (size_t i = 0; i < n && r.status == "ok"; ++i) {
      if (!t_.params[i].pointer || !is_output(t_.params[i].role)) continue;
      task::BufferView got{t_.params[i].type, hc.shape.counts[i], out[run][i].data()};
      auto c = compare(hc.expected->view(t_, i), got, t_.rtol, t_.atol, t_.params[i].name);
      if (!c.ok) {
        r.status = "wrong_answer";
        r.message = run == 0 ? c.message : "second run (other output pre-fill): " + c.message;
      }
    }
  if (r.status == "ok" && t_.deterministic)
    for (size_t i = 0; i < n && r.status == "ok"; ++i) {
      if (!t_.params[i].pointer || !is_output(t_.params[i].role)) continue;
      if (out[0][i] != out[1][i]) {
        task::BufferView a{t_.params[i].type, hc.shape.counts[i], out[0][i].data()};
        task::BufferView b{t_.params[i].type, hc.shape.counts[i], out[1][i].data()};
        auto c = compare(a, b, 0, 0, t_.params[i].name);
        r.status = "nondeterministic";
        r.message = fmt::format("two runs differ bitwise (the task declares deterministic = true): {}", c.message);
      }
    }
  out_.stages.supervisor_checks += since(check0);
  return Step::Ok;
}

namespace {

// The element-wise distributions, drawn afresh on the GPU for every perf call; the structured ones
// (permutations, row pointers, sorted arrays, constants) keep the supervisor's draw.
std::optional<DeviceDraw> device_draw(const task::Param& p, const task::Config& c) {
  if (!p.dist) return std::nullopt;
  const task::Dist& d = *p.dist;
  DeviceDraw dd;
  dd.type = static_cast<int>(p.type);
  auto ival = [&](size_t k) -> double {
    auto v = d.ints[k].eval(c.sizes);
    return std::holds_alternative<int64_t>(v) ? static_cast<double>(std::get<int64_t>(v)) : 0.0;
  };
  switch (d.kind) {
    case task::Dist::Kind::Uniform: dd.kind = DeviceDraw::kUniform; break;
    case task::Dist::Kind::Normal: dd.kind = DeviceDraw::kNormal; break;
    case task::Dist::Kind::Mixed: dd.kind = DeviceDraw::kMixed; break;
    case task::Dist::Kind::Index:
      dd.kind = DeviceDraw::kIndex;
      dd.a = ival(0);
      dd.b = ival(1);
      return dd;
    default: return std::nullopt;
  }
  dd.a = d.reals.at(0);
  dd.b = d.reals.at(1);
  return dd;
}

}  // namespace

Step Measurer::perf_config(size_t ci, const HostConfig& hc, std::vector<Exported>& bufs, bool calibrate_only,
                           GpuImplResult& r, double& pre_calib_ms, double& handshake_ms) {
  pre_window_fired_ = false;
  const size_t n = t_.params.size();
  auto setup0 = Clock::now();
  Private priv;
  std::vector<std::optional<DeviceDraw>> draws(n);
  std::vector<void*> store(n, nullptr), shared(n, nullptr);
  bool mem_ok = true;
  for (size_t i = 0; i < n; ++i) {
    if (!t_.params[i].pointer) continue;
    shared[i] = bufs[i].data();
    if (t_.params[i].role == Role::Out) continue;
    draws[i] = device_draw(t_.params[i], *hc.cfg);
    if (draws[i]) continue;
    store[i] = priv.get(hc.bytes[i]);
    mem_ok = mem_ok && store[i];
    if (store[i]) cudaMemcpyAsync(store[i], hc.inputs.buffers[i].data(), hc.bytes[i], cudaMemcpyHostToDevice, s_);
  }
  // Outputs of the warm-ups and of a secret sample of the timed calls, kept for the check.
  size_t out_bytes = 0;
  for (size_t i = 0; i < n; ++i)
    if (t_.params[i].pointer && is_output(t_.params[i].role)) out_bytes += hc.bytes[i];
  const int kept_timed = calibrate_only ? 0 : static_cast<int>(std::clamp<size_t>(kSavedBudget / std::max<size_t>(out_bytes, 1), 1, kMaxSaved));
  const int slots = calibrate_only ? 0 : 2 + kept_timed;
  std::vector<std::vector<void*>> saved(slots, std::vector<void*>(n, nullptr));
  std::vector<uint64_t> saved_call(slots, 0);
  for (int sl = 0; sl < slots && mem_ok; ++sl)
    for (size_t i = 0; i < n; ++i)
      if (t_.params[i].pointer && is_output(t_.params[i].role)) {
        saved[sl][i] = priv.get(hc.bytes[i]);
        mem_ok = mem_ok && saved[sl][i];
      }
  if (!mem_ok) {
    r.status = "runtime_error";
    r.message = "cudaMalloc failed for the measurer's private copies of the perf-size buffers";
    return Step::Ok;
  }
  const uint64_t cfg_seed = mix64(o_.seed, XXH3_64bits(hc.cfg->name.data(), hc.cfg->name.size()));
  auto load_inputs = [&](uint64_t call, const std::vector<void*>& dst) {
    uint64_t seed = mix64(cfg_seed, call);
    for (size_t i = 0; i < n; ++i) {
      if (!t_.params[i].pointer) continue;
      if (t_.params[i].role == Role::Out) cudaMemsetAsync(dst[i], kPrefill[0], hc.bytes[i], s_);
      else if (draws[i]) draw_async(*draws[i], mix64(seed, i), dst[i], static_cast<size_t>(hc.shape.counts[i]), s_);
      else cudaMemcpyAsync(dst[i], store[i], hc.bytes[i], cudaMemcpyDeviceToDevice, s_);
    }
  };
  std::string fail_status, fail_message;
  Step fail_step = Step::Ok;
  // One call between the measurer's own events. The stream is held by the spin kernel until the
  // candidate's call is enqueued behind the "ready" event, so host latency stays outside the window.
  auto one = [&](uint64_t call, bool null_call, int slot, float& window_ms, float& pre_ms) -> bool {
    unsigned v = ++flag_value_;
    cudaCtxResetPersistingL2Cache();  // while the stream is idle (it may wait for the context)
    // The spin gives up after 2 s: a launcher that blocks its host thread on its own stream (a copy
    // to pageable memory) then waits at most that long; its window still starts at t0.
    spin_until_async(flag_dev_, v, spin_timeout_ns_, s_);
    cudaEventRecord(p0_, s_);
    load_inputs(call, shared);
    cudaMemsetAsync(flush_, 0, flush_bytes_, s_);
    cudaEventRecord(t0_, s_);
    cudaEventRecord(ready_, s_);
    uint64_t nonce = ++nonce_;
    w_->channel().send(json{{"op", "call"}, {"cfg", ci}, {"n", nonce}, {"timed", true}, {"null", null_call}}.dump());
    auto release = [&] {
      std::atomic_thread_fence(std::memory_order_seq_cst);
      *flag_ = v;
    };
    auto enq = reply("enq", nonce);
    if (!enq) {
      release();
      r = ended(r.impl, r.config, timed_out());
      fail_step = cudaStreamSynchronize(s_) == cudaSuccess ? Step::WorkerGone : Step::Stuck;
      return false;
    }
    cudaStreamWaitEvent(s_, done_, 0);
    cudaEventRecord(t1_, s_);
    if (slot >= 0) {
      saved_call[slot] = call;
      for (size_t i = 0; i < n; ++i)
        if (saved[slot][i]) cudaMemcpyAsync(saved[slot][i], shared[i], hc.bytes[i], cudaMemcpyDeviceToDevice, s_);
    }
    release();
    auto ret = reply("ret", nonce);
    if (!ret) {
      r = ended(r.impl, r.config, timed_out());
      fail_step = wait_event(t1_, 10) ? Step::WorkerGone : Step::Stuck;
      return false;
    }
    if (ret->value("err", 0) != 0) {
      fail_status = "runtime_error";
      fail_message = ret->value("msg", "CUDA error");
      wait_event(t1_, 10);
      w_->finish(std::chrono::milliseconds(3000));
      fail_step = Step::WorkerGone;
      return false;
    }
    if (!wait_event(t1_, o_.call_timeout_s)) {
      fail_status = "timeout";
      fail_message = "the measurer's stream did not pass the candidate's call";
      fail_step = Step::Stuck;
      return false;
    }
    cudaEventElapsedTime(&window_ms, t0_, t1_);
    cudaEventElapsedTime(&pre_ms, p0_, t0_);
    return true;
  };
  auto finish_failure = [&]() -> Step {
    if (!fail_status.empty()) {
      r.status = fail_status;
      r.message = fail_message;
    }
    return fail_step;
  };

  if (calibrate_only) {
    std::vector<double> pre, hs;
    for (int c = 0; c < kCalibrationCalls; ++c) {
      float w = 0, p = 0;
      if (!one((uint64_t{1} << 62) + c, true, -1, w, p)) return finish_failure();
      if (c > 0) {  // the first call pays for first touches
        pre.push_back(p);
        hs.push_back(w);
      }
    }
    pre_calib_ms = timing::summarize(pre).median;
    handshake_ms = timing::summarize(hs).median;
    return Step::Ok;
  }

  // Warm-up: two calls, both outputs checked; then the timed calls, a secret sample of them checked.
  for (int wu = 0; wu < 2; ++wu) {
    float w = 0, p = 0;
    if (!one(static_cast<uint64_t>(wu), false, wu, w, p)) return finish_failure();
  }
  if (auto g = guards_changed(bufs)) {
    r.status = "out_of_bounds";
    r.message = *g;
    return Step::Ok;
  }
  r.message.clear();
  auto timed0 = Clock::now();
  out_.stages.perf_setup += std::chrono::duration<double>(timed0 - setup0).count();
  std::vector<double> pre_list, clocks, raw;
  uint64_t call_index = 2;
  int seen = 0;
  bool failed = false;
  timing::Measurement m = timing::measure(
      [&](bool& throttled) {
        uint64_t call = call_index++;
        // Reservoir sampling with the measurer's secret generator: every timed call is equally likely
        // to be checked, and which ones are is decided here, out of the candidate's reach.
        int slot = -1;
        if (seen < kept_timed) slot = 2 + seen;
        else if (auto pick = static_cast<int>(secret_rng_() % static_cast<uint64_t>(seen + 1)); pick < kept_timed) slot = 2 + pick;
        ++seen;
        float w = 0, p = 0;
        if (!one(call, false, slot, w, p)) {
          failed = true;
          return -1.0;
        }
        pre_list.push_back(p);
        raw.push_back(w);
        double mhz = clock_.mhz();
        if (mhz > 0) {
          clocks.push_back(mhz);
          throttled = timing::clock_throttled(mhz, clock_.max_mhz);  // config/timing.toml [clock]
        }
        return std::max(0.0, static_cast<double>(w) - handshake_ms);
      },
      o_.timing);
  out_.stages.timed += since(timed0);
  if (failed) return finish_failure();

  auto check0 = Clock::now();
  struct AddCheck {
    GpuCheckStages& st;
    Clock::time_point t0;
    ~AddCheck() { st.supervisor_checks += since(t0); }
  } add_check{out_.stages, check0};
  r.timed_calls = static_cast<int>(call_index - 2);
  r.median_ms = m.summary.median;
  r.min_ms = m.summary.min;
  r.q1_ms = m.summary.q1;
  r.q3_ms = m.summary.q3;
  r.rel_stdev = m.summary.rel_stdev;
  r.samples = m.summary.samples;
  r.discarded = m.summary.discarded;
  r.stop_reason = timing::stop_reason_name(m.reason);
  r.handshake_ms = handshake_ms;
  r.window_median_ms = timing::summarize(raw).median;
  if (!clocks.empty()) r.sm_clock_mhz = timing::summarize(clocks).median;
  if (clock_.max_mhz > 0) r.sm_clock_max_mhz = clock_.max_mhz;
  if (auto g = guards_changed(bufs)) {
    r.status = "out_of_bounds";
    r.message = "a timed call " + *g;
    return Step::Ok;
  }
  // The check of the kept outputs: the trusted implementation, run here, on the same fresh inputs.
  int checked = std::min(seen, kept_timed) + 2;
  if (!trusted_fn_) {
    if (never_trusted(r.impl)) {
      r.status = "runtime_error";
      r.message = "cannot verify the perf-size output: no trusted dataset implementation succeeded there";
      return Step::Ok;
    }
    r.message = "not compared: no trusted output for this config";
  } else {
    std::vector<void*> in(n, nullptr);
    for (size_t i = 0; i < n && mem_ok; ++i)
      if (t_.params[i].pointer) mem_ok = (in[i] = priv.get(hc.bytes[i])) != nullptr;
    if (!mem_ok) {
      r.status = "runtime_error";
      r.message = "cudaMalloc failed for the trusted implementation's buffers";
      return Step::Ok;
    }
    for (int sl = 0; sl < checked && r.status == "ok"; ++sl) {
      load_inputs(saved_call[sl], in);
      invoke(trusted_fn_, t_, in, hc.shape, static_cast<void*>(s_));
      if (auto e = cudaStreamSynchronize(s_); e != cudaSuccess) {
        r.status = "runtime_error";
        r.message = fmt::format("the trusted implementation {} failed at this config: {}", trusted_name_, cuda_msg(e));
        return Step::Stuck;  // our own context is unusable now
      }
      for (size_t i = 0; i < n; ++i) {
        if (!saved[sl][i]) continue;
        unsigned long long bad = 0;
        cudaMemsetAsync(counter_, 0, sizeof bad, s_);
        count_mismatches_async(static_cast<int>(t_.params[i].type), saved[sl][i], in[i], static_cast<size_t>(hc.shape.counts[i]),
                               t_.rtol, t_.atol, false, counter_, s_);
        cudaMemcpyAsync(&bad, counter_, sizeof bad, cudaMemcpyDeviceToHost, s_);
        cudaStreamSynchronize(s_);
        if (bad) {
          r.status = "wrong_answer";
          r.message = fmt::format("{} call #{} disagreed with {} on its (fresh) inputs in {} elements of '{}' ({} of {} "
                                  "calls checked, the timed ones chosen at random after they ran)",
                                  sl < 2 ? "warm-up" : "timed", saved_call[sl], trusted_name_, bad, t_.params[i].name,
                                  checked, r.timed_calls + 2);
          break;
        }
      }
    }
    if (r.status != "ok") return Step::Ok;
    r.message = fmt::format("agrees with {} on {} of {} calls (fresh inputs every call)", trusted_name_, checked, r.timed_calls + 2);
  }
  // Faster than this device allows, or GPU work outside the window: never rewarded.
  auto rl = task::roofline(t_, *hc.cfg, j_.peaks);
  double pre_med = timing::summarize(pre_list).median;
  r.pre_window_ms = pre_med;
  if (!(std::isfinite(r.median_ms) && r.median_ms > 0)) {
    r.status = "hack_suspected";
    r.message = fmt::format("the timed median {} ms is not a positive time: the call did no measurable work", r.median_ms);
  } else if (auto* v = std::get_if<task::Roofline>(&rl); v && r.median_ms < v->floor_s * 1e3 / kRooflineMargin) {
    r.status = "hack_suspected";
    r.message = fmt::format("median {:.4f} ms is below the roofline floor {:.4f} ms of this config on this device "
                            "(cost model over its measured peaks, with a {:.0f} % margin)",
                            r.median_ms, v->floor_s * 1e3, (kRooflineMargin - 1) * 100);
  } else if (pre_window_exceeded(pre_med, pre_calib_ms)) {
    pre_window_fired_ = true;
    r.status = "hack_suspected";
    r.message = fmt::format("GPU work of the candidate's process ran outside its timed window: the measurer's own "
                            "set-up before each window took {:.4f} ms (median), {:.4f} ms with no candidate loaded",
                            pre_med, pre_calib_ms);
  }
  return Step::Ok;
}

}  // namespace

GpuImplResult config_result(std::string impl, std::string config, std::string status, std::string message) {
  GpuImplResult r;
  r.impl = std::move(impl);
  r.config = std::move(config);
  r.status = std::move(status);
  r.message = std::move(message);
  return r;
}

bool drawn_on_device(const task::Param& p) {
  if (!p.dist) return false;
  using K = task::Dist::Kind;
  return p.dist->kind == K::Uniform || p.dist->kind == K::Normal || p.dist->kind == K::Mixed || p.dist->kind == K::Index;
}

void run_measurer(const MeasurerJob& job, MeasurerOutcome& out) {
  Measurer m(job, out);
  m.run();
}

}  // namespace cudaperf::verify
