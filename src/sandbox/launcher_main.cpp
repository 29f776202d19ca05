// cudaperf-launcher: the only process that runs a candidate's code on the GPU. Started with exec
// by the trusted measurer (src/verify/measurer.cpp), so nothing of the supervisor's memory is here;
// fd 3 is its control channel (JSON lines), stdin is /dev/null and stdout/stderr are pipes the
// measurer drains and bounds. It owns no buffer and measures nothing: it opens the measurer's
// buffers and events through CUDA IPC, confines itself, loads the candidate, and per command calls
// it on its own stream. Protocol: docs/threat-model.md.
#include <cuda_runtime.h>
#include <dlfcn.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cudaperf/sandbox/channel.hpp"
#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/verify/cpu_gates.hpp"

namespace {

using cudaperf::sandbox::LineChannel;
using nlohmann::json;

constexpr int kControlFd = 3;

bool filter_disabled() {
  const char* v = std::getenv("CUDAPERF_NO_SECCOMP");
  return v && *v && std::string(v) != "0";
}

std::string cuda_msg(cudaError_t e) { return std::string(cudaGetErrorName(e)) + " (" + cudaGetErrorString(e) + ")"; }

template <class H>
bool from_hex(const std::string& hex, H& out) {
  if (hex.size() != 2 * sizeof(H)) return false;
  auto* b = reinterpret_cast<unsigned char*>(&out);
  for (size_t i = 0; i < sizeof(H); ++i) {
    unsigned v = 0;
    if (std::sscanf(hex.c_str() + 2 * i, "%2x", &v) != 1) return false;
    b[i] = static_cast<unsigned char>(v);
  }
  return true;
}

struct Config {
  cudaperf::task::CallShape shape;
  std::vector<void*> ptrs;
};

int serve(LineChannel& ch) {
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  cudaperf::sandbox::ConfinePolicy policy;
  policy.network_namespace = !filter_disabled();  // profilers talk to their target over sockets
  cudaperf::sandbox::isolate(policy);
  cudaStream_t s{};
  if (auto e = cudaSetDevice(0); e != cudaSuccess) {
    ch.send(json{{"error", "no CUDA device: " + cuda_msg(e)}}.dump());
    return 2;
  }
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  cudaFree(nullptr);  // the context exists before the filter goes in
  // Stream-ordered allocation (cudaMallocAsync, which implementations use for scratch) sets up its
  // pool on first use with calls the filter denies: set it up now, and keep what it reserves.
  cudaMemPool_t pool{};
  if (cudaDeviceGetDefaultMemPool(&pool, 0) == cudaSuccess) {
    uint64_t keep = UINT64_MAX;
    cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep);
    void* scratch = nullptr;
    if (cudaMallocAsync(&scratch, size_t{1} << 30, s) == cudaSuccess) cudaFreeAsync(scratch, s);
    cudaStreamSynchronize(s);
  }
  ch.send(json{{"hello", 1}, {"prepare_s", std::chrono::duration<double>(clock::now() - t0).count()}}.dump());

  cudaperf::task::Task t;
  std::vector<Config> configs;
  cudaEvent_t ready{}, done{};
  void* fn = nullptr;
  for (;;) {
    auto line = ch.receive(std::chrono::hours(24));
    if (!line) return 0;  // the measurer is gone
    json m = json::parse(*line, nullptr, false);
    if (m.is_discarded() || !m.is_object()) return 4;
    std::string op = m.value("op", "");
    if (op == "setup") {
      t.function = m.value("fn", "");
      for (const auto& p : m["params"]) {
        cudaperf::task::Param q;
        q.pointer = p.value("ptr", false);
        q.type = static_cast<cudaperf::task::ScalarType>(p.value("type", 0));
        t.params.push_back(q);
      }
      std::string err;
      for (const auto& c : m["configs"]) {
        Config cfg;
        cfg.shape.scalars = c["scalars"].get<std::vector<double>>();
        cfg.shape.counts.assign(t.params.size(), 0);
        cfg.ptrs.assign(t.params.size(), nullptr);
        for (size_t i = 0; i < t.params.size() && err.empty(); ++i) {
          std::string hex = c["handles"][i].get<std::string>();
          if (hex.empty()) continue;
          cudaIpcMemHandle_t h{};
          void* base = nullptr;
          if (!from_hex(hex, h)) err = "bad memory handle";
          else if (auto e = cudaIpcOpenMemHandle(&base, h, cudaIpcMemLazyEnablePeerAccess); e != cudaSuccess)
            err = "cudaIpcOpenMemHandle: " + cuda_msg(e);
          else cfg.ptrs[i] = static_cast<unsigned char*>(base) + c["offsets"][i].get<size_t>();
        }
        configs.push_back(std::move(cfg));
      }
      cudaIpcEventHandle_t hr{}, hd{};
      if (err.empty() && (!from_hex(m.value("ready", ""), hr) || !from_hex(m.value("done", ""), hd))) err = "bad event handle";
      if (err.empty())
        if (auto e = cudaIpcOpenEventHandle(&ready, hr); e != cudaSuccess) err = "cudaIpcOpenEventHandle: " + cuda_msg(e);
      if (err.empty())
        if (auto e = cudaIpcOpenEventHandle(&done, hd); e != cudaSuccess) err = "cudaIpcOpenEventHandle: " + cuda_msg(e);
      ch.send(err.empty() ? json{{"opened", true}}.dump() : json{{"error", err}}.dump());
      if (!err.empty()) return 2;
    } else if (op == "load") {
      if (!filter_disabled())
        if (auto err = cudaperf::sandbox::lock_down(policy)) {
          ch.send(json{{"error", "cannot confine the worker: " + *err}}.dump());
          return 2;
        }
      std::string so = m.value("so", "");
      void* h = dlopen(so.c_str(), RTLD_NOW | RTLD_LOCAL);
      fn = h ? dlsym(h, t.function.c_str()) : nullptr;
      if (!fn) {
        const char* why = h ? "no symbol" : dlerror();
        ch.send(json{{"error", std::string("cannot load: ") + (why ? why : "?")}}.dump());
        return 0;
      }
      ch.send(json{{"loaded", true}}.dump());
    } else if (op == "call") {
      size_t ci = m.value("cfg", size_t{0});
      if (ci >= configs.size()) return 4;
      const bool timed = m.value("timed", false), null_call = m.value("null", false) || !fn;
      auto nonce = m.value("n", uint64_t{0});
      if (timed) cudaStreamWaitEvent(s, ready, 0);
      if (!null_call) cudaperf::verify::invoke(fn, t, configs[ci].ptrs, configs[ci].shape, static_cast<void*>(s));
      if (timed) cudaEventRecord(done, s);
      ch.send(json{{"enq", nonce}}.dump());
      cudaError_t e = cudaStreamSynchronize(s);
      if (e == cudaSuccess) e = cudaGetLastError();
      ch.send(json{{"ret", nonce}, {"err", static_cast<int>(e)}, {"msg", e == cudaSuccess ? "" : cuda_msg(e)}}.dump());
      if (e != cudaSuccess) return 3;  // the context is unusable after most errors
    } else if (op == "exit") {
      return 0;
    } else {
      return 4;
    }
  }
}

}  // namespace

int main() {
  // Nothing but the control channel and the standard streams: no descriptor of the supervisor's
  // (a job store, a records file, the GPU lock) reaches the candidate.
  cudaperf::sandbox::close_inherited_descriptors(kControlFd);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP}) signal(sig, SIG_DFL);
  LineChannel ch(kControlFd);
  int rc = serve(ch);
  _exit(rc);
}
