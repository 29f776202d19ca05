// The static guards, run as python -m cudaperf.torch_static (static_guards.hpp).
#include "cudaperf/torch2cuda/static_guards.hpp"

#include <fmt/format.h>

#include "clock.hpp"
#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::torch2cuda {

namespace fs = std::filesystem;
using nlohmann::json;
using detail::env_or;

TorchStatic torch_static_check(const fs::path& candidate, const TorchRuntime& rt, const std::string& salt) {
  TorchStatic s;
  // Standard library only, but the worker's own interpreter: the guards must parse with the grammar
  // (and source decoding) of the Python that will import the candidate, not another version's.
  std::string py = env_or("CUDAPERF_STATIC_PYTHON", rt.python);
  std::vector<std::string> argv = {py, "-c",
                                   "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_static; "
                                   "sys.exit(torch_static.main(['torch_static', 'candidate'] + sys.argv[2:]))",
                                   rt.python_dir.string(), candidate.string()};
  if (!salt.empty()) argv.push_back(salt);
  auto r = sandbox::run_process(argv, std::chrono::seconds(60), 4 << 20);
  auto j = json::parse(r.output.substr(0, r.output.find_last_of('}') + 1), nullptr, false);
  if (!r.ok() || j.is_discarded() || !j.is_object()) {
    s.error = fmt::format("the static checker did not run ({}): {}", r.describe(), r.output.substr(0, 400));
    return s;
  }
  if (j.contains("syntax_error")) {
    s.syntax_error = true;
    s.error = j["syntax_error"].get<std::string>();
  }
  for (const auto& f : j.value("findings", json::array()))
    s.findings.push_back({f.value("rule", "?"), f.value("line", 0), f.value("message", "")});
  for (const auto& e : j.value("extensions", json::array()))
    if (e.contains("unresolved")) s.unresolved.push_back(fmt::format("line {}: {}", e.value("line", 0), e.value("unresolved", "")));
  for (const auto& k : j.value("kernels", json::array())) s.kernels.push_back(k.get<std::string>());
  s.extensions = j.value("extensions", json::array());
  return s;
}

}  // namespace cudaperf::torch2cuda
