// The build step of torch2cuda: a candidate's load_inline extensions built confined, ahead of and
// outside its run, into the extension cache (keyed by content and the toolchain's salt).
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/torch2cuda/runtime.hpp"
#include "cudaperf/torch2cuda/static_guards.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::torch2cuda::detail {

// The manifest entries of a candidate whose extensions are all in the cache already (keys from the
// static check run with the toolchain salt); nullopt when any is missing or the salt is unknown.
std::optional<nlohmann::json> cached_extensions(const TorchStatic& st, const std::string& salt, const std::filesystem::path& cache);

// The workers' environment when `builds` build workers run at once (MAX_JOBS: a share of the cores).
std::vector<std::string> with_build_jobs(std::vector<std::string> env, size_t builds);

struct BuildOutcome {
  verify::Verdict verdict = verify::Verdict::Ok;
  std::string message;
  nlohmann::json build = nlohmann::json::object();     // seconds, extensions, cache_hits
  nlohmann::json manifest = nlohmann::json::object();  // what the candidate worker loads
};

// The build worker: the candidate's load_inline extensions, built confined (BuildJail) into a folder of
// its own, without running the candidate's Python; the supervisor then installs the extensions it
// expects (`expected`: their keys from the static check, never from the worker) into the cache.
BuildOutcome run_build(const TorchRuntime& rt, const std::vector<std::string>& base_env, const std::filesystem::path& candidate,
                       const std::filesystem::path& cache, double timeout_s, const nlohmann::json& expected,
                       const std::string& salt);

}  // namespace cudaperf::torch2cuda::detail
