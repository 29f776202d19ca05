// Builds and torch.compile caches prepared ahead of many evaluations (prepare.hpp).
#include "cudaperf/torch2cuda/prepare.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>

#include "build.hpp"
#include "clock.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/static_guards.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/verdict.hpp"
#include "exchange.hpp"
#include "worker_process.hpp"

namespace cudaperf::torch2cuda {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

std::vector<nlohmann::json> prebuild_torch_candidates(const std::vector<fs::path>& candidates, unsigned jobs,
                                                      double timeout_s) {
  std::vector<json> out(candidates.size());
  TorchRuntime rt = torch_runtime();
  if (rt.test_mode) return out;
  auto env = worker_env(rt);
  fs::path cache = compile::default_cache_dir();
  const std::string salt = torch_toolchain_salt(rt);
  unsigned par = jobs ? jobs : default_jobs();
  // First the static guards and the cache lookups (cheap), so the build workers can share the cores
  // among the candidates that really build.
  std::vector<char> miss(candidates.size(), 0);
  std::vector<TorchStatic> sts(candidates.size());
  parallel_for(candidates.size(), par, [&](size_t i) {
    auto& st = sts[i] = torch_static_check(candidates[i], rt, salt);
    if (st.syntax_error || !st.error.empty() || !st.findings.empty() || !st.unresolved.empty()) {
      out[i] = {{"skipped", "static guards"}};
      return;
    }
    if (auto cached = cached_extensions(st, salt, cache)) {
      out[i] = {{"seconds", 0.0}, {"extensions", *cached}, {"cache_hits", cached->size()}, {"verdict", "ok"}};
      return;
    }
    miss[i] = 1;
  });
  std::vector<size_t> todo;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (miss[i]) todo.push_back(i);
  if (todo.empty()) return out;
  unsigned workers = std::max(1u, std::min<unsigned>(static_cast<unsigned>(todo.size()), par));
  env = with_build_jobs(env, workers);
  parallel_for(todo.size(), workers, [&](size_t j) {
    size_t i = todo[j];
    auto b = run_build(rt, env, candidates[i], cache, timeout_s, sts[i].extensions, salt);
    out[i] = b.build;
    out[i]["verdict"] = verify::verdict_name(b.verdict);
    if (b.verdict != verify::Verdict::Ok) out[i]["message"] = b.message.substr(0, 400);
  });
  return out;
}

std::vector<nlohmann::json> prewarm_torch_baselines(const std::vector<task::TorchTask>& tasks, unsigned jobs, double timeout_s,
                                                    const std::string& mode) {
  std::vector<json> out(tasks.size());
  TorchRuntime rt = torch_runtime();
  if (rt.test_mode) return out;
  auto env = worker_env(rt);
  parallel_for(tasks.size(), jobs ? jobs : default_jobs(), [&](size_t i) {
    const auto& t = tasks[i];
    fs::path x = make_exchange_dir();
    if (x.empty()) {
      out[i] = {{"error", "no exchange folder"}};
      return;
    }
    json plan = {{"reference", fs::absolute(t.reference).string()}, {"configs", plan_configs(t, true)}, {"device", "cuda"}, {"eval_mode", mode},
                 {"input_dist", t.input_dist}};
    std::ofstream(x / "plan.json") << plan.dump();
    WorkerProcess w;
    std::string err;
    auto argv = worker_argv(rt, "warm");
    argv.insert(argv.end(), {"--plan", (x / "plan.json").string()});
    auto t0 = Clock::now();
    if (!w.start(argv, env, err)) {
      out[i] = {{"error", err}};
    } else {
      w.close_stdin();
      w.wait_exit(Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000)));
      out[i] = {{"task", t.id}, {"seconds", since(t0)}, {"configs", json::array()}};
      for (const auto& e : parse_channel(w.channel, w.overflow, false).events)
        out[i]["configs"].push_back(e);
      if (w.timed_out || !w.exited || w.exit_code() != 0) out[i]["error"] = fmt::format("{}: {}", w.describe(), w.output_tail(300));
    }
    std::error_code ec;
    fs::remove_all(x, ec);
  });
  return out;
}

}  // namespace cudaperf::torch2cuda
