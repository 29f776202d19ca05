// The static guards of a torch2cuda candidate (python -m cudaperf.torch_static, standard library only,
// any machine): default-deny source rules, and the load_inline calls the build step resolves.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "cudaperf/torch2cuda/runtime.hpp"

namespace cudaperf::torch2cuda {

struct StaticFinding {
  std::string rule;
  int line = 0;
  std::string message;
};
struct TorchStatic {
  std::string error;            // the check could not run, or the file does not parse ("syntax: ...")
  bool syntax_error = false;
  std::vector<StaticFinding> findings;
  std::vector<std::string> unresolved;  // load_inline calls the build step cannot resolve
  std::vector<std::string> kernels;     // __global__ names in the candidate's sources
  nlohmann::json extensions = nlohmann::json::array();  // load_inline calls; with `salt`: key and module each
};
// `salt` (torch_toolchain_salt): also give each extension its cache key.
TorchStatic torch_static_check(const std::filesystem::path& candidate, const TorchRuntime& rt, const std::string& salt = "");

}  // namespace cudaperf::torch2cuda
