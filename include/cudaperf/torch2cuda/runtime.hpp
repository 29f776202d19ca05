// Where the Python side of torch2cuda lives and how it is run. The supervisor never imports torch;
// every torch step runs in a worker process (python/cudaperf/torch_worker.py). docs/torch2cuda.md.
#pragma once
#include <filesystem>
#include <string>

namespace cudaperf::torch2cuda {

// From the environment: CUDAPERF_PYTHON, CUDAPERF_PYTHON_DIR, CUDAPERF_TORCH_WORKER (tests: a stand-in
// worker script), CUDAPERF_CONFINE_LIB, CUDAPERF_TORCH_TEST_MODE=1 (tests only: device "cpu",
// pure-torch candidates, no guards).
struct TorchRuntime {
  std::string python = "python3";
  std::filesystem::path python_dir;   // holds the cudaperf package
  std::string worker;                 // a script path, or "" for -m cudaperf.torch_worker
  std::filesystem::path confine_lib;  // libcudaperf_confine.so ("" when not found)
  bool test_mode = false;
};
TorchRuntime torch_runtime();

// Whether `import torch` works with the runtime's interpreter; why not otherwise.
bool torch_importable(const TorchRuntime& rt, std::string& why);

// The torch toolchain's salt of extension cache keys (torch_build.toolchain_salt), "" when torch is not
// importable or the runtime is a test stand-in. Probed once per interpreter per process.
std::string torch_toolchain_salt(const TorchRuntime& rt);

}  // namespace cudaperf::torch2cuda
