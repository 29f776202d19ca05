// The torch2cuda runtime: interpreter, package path, confinement library; whether torch imports.
#include "cudaperf/torch2cuda/runtime.hpp"

#include <fmt/format.h>
#include <map>
#include <mutex>

#include "clock.hpp"
#include "cudaperf/sandbox/process.hpp"

#ifndef CUDAPERF_PYTHON_DIR
#define CUDAPERF_PYTHON_DIR ""
#endif

namespace cudaperf::torch2cuda {

namespace fs = std::filesystem;
using detail::env_or;

TorchRuntime torch_runtime() {
  TorchRuntime rt;
  rt.python = env_or("CUDAPERF_PYTHON", "python3");
  rt.python_dir = env_or("CUDAPERF_PYTHON_DIR", CUDAPERF_PYTHON_DIR);
  rt.worker = env_or("CUDAPERF_TORCH_WORKER", "");
  rt.test_mode = env_or("CUDAPERF_TORCH_TEST_MODE", "") == "1";
  std::string lib = env_or("CUDAPERF_CONFINE_LIB", "");
  if (lib.empty()) {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    for (const fs::path& p : {exe.parent_path() / "libcudaperf_confine.so", exe.parent_path() / "lib" / "libcudaperf_confine.so"})
      if (!ec && fs::is_regular_file(p)) {
        lib = p.string();
        break;
      }
  }
  rt.confine_lib = lib;
  return rt;
}

namespace {
struct TorchProbe {
  bool ok = false;
  std::string why, salt;
};
// `import torch` once per interpreter per process (it takes seconds): whether it works, and the
// toolchain salt of extension cache keys (the same string as torch_build.toolchain_salt).
const TorchProbe& torch_probe(const TorchRuntime& rt) {
  static std::mutex mu;
  static std::map<std::string, TorchProbe> cache;
  std::lock_guard lock(mu);
  if (auto it = cache.find(rt.python); it != cache.end()) return it->second;
  TorchProbe p;
  auto r = sandbox::run_process({rt.python, "-c",
                                 "import sys, torch; print(f'torch {torch.__version__} cuda {torch.version.cuda} "
                                 "python {sys.version_info[:2]}')"},
                                std::chrono::seconds(120));
  std::string out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  auto nl = out.find_last_of('\n');
  std::string last = out.substr(nl == std::string::npos ? 0 : nl + 1);
  if (r.ok()) {
    p.ok = true;
    p.salt = last;
  } else {
    p.why = fmt::format("torch is not importable by {} ({})", rt.python, r.spawn_failed ? "cannot run it" : last.substr(0, 200));
  }
  return cache.emplace(rt.python, p).first->second;
}
}  // namespace

bool torch_importable(const TorchRuntime& rt, std::string& why) {
  const auto& p = torch_probe(rt);
  if (!p.ok) why = p.why;
  return p.ok;
}

std::string torch_toolchain_salt(const TorchRuntime& rt) {
  if (rt.test_mode || !rt.worker.empty()) return "";
  const auto& p = torch_probe(rt);
  return p.ok ? p.salt : "";
}

}  // namespace cudaperf::torch2cuda
