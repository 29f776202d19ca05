#include "cudaperf/verify/gpu_check.hpp"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <unistd.h>

#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

namespace cudaperf::verify {

namespace fs = std::filesystem;
using task::Role;

namespace {

constexpr size_t kGuard = 4096;  // bytes of guard band before and after every device buffer
constexpr unsigned char kGuardByte = 0xCD;

struct DeviceCall {
  std::vector<unsigned char*> base;  // allocation (guard + data + guard)
  std::vector<void*> ptrs;           // what the implementation sees
  std::vector<size_t> bytes;
};

std::string cuda_msg(cudaError_t e) { return fmt::format("{} ({})", cudaGetErrorName(e), cudaGetErrorString(e)); }

// Allocates and uploads. Returns an error message on failure.
std::optional<std::string> upload(const task::Task& t, const HostCall& h, DeviceCall& d, cudaStream_t s) {
  d.base.assign(t.params.size(), nullptr);
  d.ptrs.assign(t.params.size(), nullptr);
  d.bytes.assign(t.params.size(), 0);
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer) continue;
    d.bytes[i] = h.buffers[i].size();
    void* p = nullptr;
    if (auto e = cudaMalloc(&p, d.bytes[i] + 2 * kGuard); e != cudaSuccess) return "cudaMalloc: " + cuda_msg(e);
    d.base[i] = static_cast<unsigned char*>(p);
    d.ptrs[i] = d.base[i] + kGuard;
    cudaMemsetAsync(d.base[i], kGuardByte, d.bytes[i] + 2 * kGuard, s);
    cudaMemcpyAsync(d.ptrs[i], h.buffers[i].data(), d.bytes[i], cudaMemcpyHostToDevice, s);
  }
  if (auto e = cudaStreamSynchronize(s); e != cudaSuccess) return "upload: " + cuda_msg(e);
  return std::nullopt;
}

void release(DeviceCall& d) {
  for (auto* b : d.base)
    if (b) cudaFree(b);
  d.base.clear();
}

// Copies outputs back and checks guard bands and inputs. Returns (status, message) on failure.
// Inputs are read back and compared only when check_inputs is set (the small configs).
std::optional<std::pair<std::string, std::string>> download(const task::Task& t, const HostCall& sent, HostCall& got,
                                                            DeviceCall& d, cudaStream_t s, bool check_inputs = true) {
  got.shape = sent.shape;
  got.buffers.assign(t.params.size(), {});
  std::vector<unsigned char> guard(2 * kGuard);
  for (size_t i = 0; i < t.params.size(); ++i) {
    if (!t.params[i].pointer) continue;
    bool is_input = t.params[i].role == Role::In;
    if (!is_input || check_inputs) {
      got.buffers[i].resize(d.bytes[i]);
      cudaMemcpyAsync(got.buffers[i].data(), d.ptrs[i], d.bytes[i], cudaMemcpyDeviceToHost, s);
    }
    cudaMemcpyAsync(guard.data(), d.base[i], kGuard, cudaMemcpyDeviceToHost, s);
    cudaMemcpyAsync(guard.data() + kGuard, d.base[i] + kGuard + d.bytes[i], kGuard, cudaMemcpyDeviceToHost, s);
    if (auto e = cudaStreamSynchronize(s); e != cudaSuccess) return std::pair{"runtime_error", "download: " + cuda_msg(e)};
    if (std::any_of(guard.begin(), guard.end(), [](unsigned char c) { return c != kGuardByte; }))
      return std::pair{"out_of_bounds", fmt::format("wrote outside buffer '{}' (guard band changed)", t.params[i].name)};
    if (is_input && check_inputs && got.buffers[i] != sent.buffers[i])
      return std::pair{"input_mutated", fmt::format("input buffer '{}' was modified", t.params[i].name)};
  }
  return std::nullopt;
}

// The child's report: JSON lines in shared memory (the child may not write files once confined).
struct SharedLog {
  size_t capacity = 0;
  size_t used = 0;
  char* data = nullptr;
  void append(const std::string& line) {
    if (used + line.size() + 1 > capacity) return;  // full: later lines are lost, the parent notices
    std::memcpy(data + used, line.data(), line.size());
    data[used + line.size()] = '\n';
    used += line.size() + 1;
  }
};

bool seccomp_disabled() {
  const char* v = std::getenv("CUDAPERF_NO_SECCOMP");
  return v && *v && std::string(v) != "0";
}

struct Child {
  const task::Task& t;
  const fs::path& reference_so;
  const std::vector<fs::path>& artifacts;
  const GpuCheckOptions& o;
  SharedLog& log;  // one JSON object per line

  void emit(const nlohmann::json& j) { log.append(j.dump()); }

  int run(size_t first_impl) {
    sandbox::ConfinePolicy policy;
    sandbox::isolate(policy);  // own network namespace, no file growth, not dumpable
    // Expected outputs for the small configs from the C reference.
    std::vector<std::pair<const task::Config*, HostCall>> small;
    for (const auto& c : t.configs) {
      if (c.perf) continue;
      auto call = make_call(t, c, o.seed ^ std::hash<std::string>{}(c.name), task::Prefill::Nan);
      if (!call) {
        emit({{"fatal", call.errors().front().message}});
        return 2;
      }
      HostCall inputs = call.value();
      if (auto err = run_reference(t, reference_so, call.value())) {
        emit({{"fatal", "reference: " + *err}});
        return 2;
      }
      small.push_back({&c, inputs});
      small.push_back({&c, call.value()});
    }
    // CUDA only after the reference runs: those fork, and a child must not inherit a context.
    if (auto e = cudaSetDevice(0); e != cudaSuccess) {
      emit({{"fatal", "no CUDA device: " + cuda_msg(e)}});
      return 2;
    }
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    cudaFree(nullptr);  // make sure the context exists before the filter goes in
    if (!seccomp_disabled()) {
      if (auto err = sandbox::lock_down(policy)) {
        emit({{"fatal", "cannot confine the worker: " + *err}});
        return 2;
      }
    }
    for (size_t k = first_impl; k < t.impls.size(); ++k) {
      const auto& im = t.impls[k];
      if (artifacts[k].empty()) {
        emit({{"impl", im.strategy}, {"config", "*"}, {"status", "compile_error"}, {"message", "did not build"}});
        continue;
      }
      void* h = dlopen(artifacts[k].c_str(), RTLD_NOW | RTLD_LOCAL);
      void* fn = h ? dlsym(h, t.function.c_str()) : nullptr;
      if (!fn) {
        emit({{"impl", im.strategy}, {"config", "*"}, {"status", "runtime_error"}, {"message", fmt::format("dlopen: {}", dlerror())}});
        continue;
      }
      for (size_t j = 0; j < small.size(); j += 2) {
        const auto& [cfg, inputs] = small[j];
        const HostCall& expected = small[j + 1].second;
        emit({{"start", im.strategy}, {"config", cfg->name}});
        DeviceCall d;
        nlohmann::json r = {{"impl", im.strategy}, {"config", cfg->name}};
        if (auto err = upload(t, inputs, d, s)) {
          r["status"] = "runtime_error";
          r["message"] = *err;
          emit(r);
          return 3;
        }
        invoke(fn, t, d.ptrs, inputs.shape, static_cast<void*>(s));
        cudaError_t e = cudaStreamSynchronize(s);
        if (e == cudaSuccess) e = cudaGetLastError();
        if (e != cudaSuccess) {
          r["status"] = "runtime_error";
          r["message"] = cuda_msg(e);
          emit(r);
          return 3;  // the context is unusable: the parent starts a new child at the next impl
        }
        HostCall got;
        if (auto bad = download(t, inputs, got, d, s)) {
          r["status"] = bad->first;
          r["message"] = bad->second;
        } else if (auto cmp = compare_outputs(t, expected, got); !cmp.ok) {
          r["status"] = "wrong_answer";
          r["message"] = cmp.message;
        } else {
          r["status"] = "ok";
        }
        release(d);
        emit(r);
      }
    }
    if (o.perf) run_perf(s, first_impl);
    return 0;
  }

  // Perf configs: every impl is run and timed; outputs are compared with the first impl (in
  // file order, non-naive preferred) whose run here succeeded, since the C reference is too slow.
  void run_perf(cudaStream_t s, size_t first_impl) {
    int dev = 0;
    int l2 = 0;
    cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev);
    void* flush = nullptr;
    size_t flush_bytes = static_cast<size_t>(std::max(l2, 1 << 20)) * 2;
    cudaMalloc(&flush, flush_bytes);
    cudaEvent_t e0, e1;
    cudaEventCreate(&e0);
    cudaEventCreate(&e1);
    for (const auto& c : t.configs) {
      if (!c.perf) continue;
      auto call = make_call(t, c, o.seed ^ std::hash<std::string>{}(c.name), task::Prefill::Nan);
      if (!call) continue;
      const HostCall& inputs = call.value();
      std::optional<HostCall> trusted;
      std::string trusted_name;
      std::vector<size_t> order;
      auto rank = [&](size_t k) {  // the trusted impl first, then the others, naive last
        const std::string& s = t.impls[k].strategy;
        if (!o.trusted.empty()) return s == o.trusted ? 0 : (s == "naive" ? 2 : 1);
        return s == "naive" ? 2 : 1;
      };
      for (int want = 0; want <= 2; ++want)
        for (size_t k = first_impl; k < t.impls.size(); ++k)
          if (rank(k) == want) order.push_back(k);
      for (size_t k : order) {
        const auto& im = t.impls[k];
        if (artifacts[k].empty()) continue;
        void* h = dlopen(artifacts[k].c_str(), RTLD_NOW | RTLD_LOCAL);
        void* fn = h ? dlsym(h, t.function.c_str()) : nullptr;
        if (!fn) continue;
        emit({{"start", im.strategy}, {"config", c.name}});
        nlohmann::json r = {{"impl", im.strategy}, {"config", c.name}};
        DeviceCall d;
        if (auto err = upload(t, inputs, d, s)) {
          r["status"] = "runtime_error";
          r["message"] = *err;
          emit(r);
          return;
        }
        std::vector<float> ms;
        cudaError_t err = cudaSuccess;
        int reps = o.timed_samples;
        for (int rep = 0; rep <= reps && err == cudaSuccess; ++rep) {
          if (rep > 0)  // restore inout buffers so every sample computes the same thing
            for (size_t i = 0; i < t.params.size(); ++i)
              if (t.params[i].role == Role::InOut)
                cudaMemcpyAsync(d.ptrs[i], inputs.buffers[i].data(), d.bytes[i], cudaMemcpyHostToDevice, s);
          cudaMemsetAsync(flush, rep & 0xff, flush_bytes, s);
          cudaEventRecord(e0, s);
          invoke(fn, t, d.ptrs, inputs.shape, static_cast<void*>(s));
          cudaEventRecord(e1, s);
          err = cudaStreamSynchronize(s);
          if (err == cudaSuccess) err = cudaGetLastError();
          if (err == cudaSuccess && rep == 0) {  // first run: check the result
            HostCall got;
            if (auto bad = download(t, inputs, got, d, s, /*check_inputs=*/false)) {
              r["status"] = bad->first;
              r["message"] = bad->second;
            } else if (!trusted) {
              trusted = got;
              trusted_name = im.strategy;
              r["status"] = "ok";
              r["message"] = "trusted output for this config";
            } else if (auto cmp = compare_outputs(t, *trusted, got); !cmp.ok) {
              r["status"] = "wrong_answer";
              r["message"] = fmt::format("disagrees with {}: {}", trusted_name, cmp.message);
            } else {
              r["status"] = "ok";
              r["message"] = fmt::format("agrees with {}", trusted_name);
            }
          }
          float t_ms = 0;
          if (err == cudaSuccess && cudaEventElapsedTime(&t_ms, e0, e1) == cudaSuccess) {
            if (rep > 0) ms.push_back(t_ms);
            else if (t_ms > 25) reps = std::min(reps, 3);  // a slow (weak) impl: a few samples suffice
          }
        }
        if (err != cudaSuccess) {
          r["status"] = "runtime_error";
          r["message"] = cuda_msg(err);
          emit(r);
          return;
        }
        std::sort(ms.begin(), ms.end());
        if (!ms.empty()) {
          r["median_ms"] = ms[ms.size() / 2];
          r["min_ms"] = ms.front();
          r["samples"] = ms.size();
        }
        release(d);
        emit(r);
      }
    }
    cudaFree(flush);
  }
};

}  // namespace

std::vector<GpuImplResult> gpu_check_task(const task::Task& t, const fs::path& reference_so,
                                          const std::vector<fs::path>& artifacts, const GpuCheckOptions& o) {
  std::vector<GpuImplResult> results;
  constexpr size_t kLogBytes = 8 << 20;
  sandbox::SharedArena arena(kLogBytes + sizeof(SharedLog) + 128);
  auto* log = static_cast<SharedLog*>(arena.allocate(sizeof(SharedLog)));
  char* log_data = static_cast<char*>(arena.allocate(kLogBytes));
  if (!log || !log_data) return {{"*", "*", "runtime_error", "cannot map the worker's report buffer"}};
  size_t first = 0;
  while (first < t.impls.size()) {
    *log = SharedLog{kLogBytes, 0, log_data};
    auto pr = sandbox::run_forked(
        [&]() -> int {
          Child c{t, reference_so, artifacts, o, *log};
          return c.run(first);
        },
        std::chrono::milliseconds(static_cast<long long>(o.task_timeout_s * 1000)));
    std::istringstream in(std::string(log_data, std::min(log->used, kLogBytes)));
    std::string line, pending_impl, pending_cfg;
    size_t last_impl_seen = first;
    bool fatal = false;
    while (std::getline(in, line)) {
      auto j = nlohmann::json::parse(line, nullptr, false);
      if (j.is_discarded()) continue;
      if (j.contains("fatal")) {
        results.push_back({"*", "*", "runtime_error", j["fatal"].get<std::string>()});
        fatal = true;
        continue;
      }
      if (j.contains("start")) {
        pending_impl = j["start"].get<std::string>();
        pending_cfg = j["config"].get<std::string>();
        continue;
      }
      GpuImplResult r{j.value("impl", ""), j.value("config", ""), j.value("status", ""), j.value("message", "")};
      r.median_ms = j.value("median_ms", -1.0);
      r.min_ms = j.value("min_ms", -1.0);
      r.samples = j.value("samples", 0);
      if (r.impl == pending_impl && r.config == pending_cfg) pending_impl.clear();
      for (size_t k = 0; k < t.impls.size(); ++k)
        if (t.impls[k].strategy == r.impl) last_impl_seen = std::max(last_impl_seen, k);
      results.push_back(r);
    }
    if (fatal) break;
    if (pr.ok()) break;
    // The child died, hung, or stopped after a CUDA error: record it and go on after that impl.
    if (!pending_impl.empty()) {
      std::string status = pr.timed_out ? "timeout" : "crash";
      std::string why = fmt::format("worker {}", pr.describe());
      if (pr.signal == sandbox::forbidden_call_signal()) {
        status = "hack_suspected";
        why = "made a forbidden system call (network, processes, namespaces, ptrace or signals to others): worker killed by SIGSYS";
      } else if (pr.signal == SIGXFSZ) {
        status = "hack_suspected";
        why = "tried to write a file: worker killed by SIGXFSZ";
      }
      results.push_back({pending_impl, pending_cfg, status, why});
      for (size_t k = 0; k < t.impls.size(); ++k)
        if (t.impls[k].strategy == pending_impl) last_impl_seen = k;
    }
    first = last_impl_seen + 1;
  }
  return results;
}

std::string describe_gpu(bool& available) {
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
  available = pr.ok();
  return text && *text ? std::string(text) : pr.describe();
}

}  // namespace cudaperf::verify
