// `tasks validate` on torch2cuda folders (validate.hpp).
#include "cudaperf/torch2cuda/validate.hpp"

#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <set>

#include "clock.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "exchange.hpp"
#include "worker_process.hpp"

namespace cudaperf::torch2cuda {

namespace fs = std::filesystem;
using nlohmann::json;
using namespace detail;

std::vector<TorchTaskCheck> check_torch_tasks(const fs::path& root, const TorchCheckOptions& o) {
  std::vector<TorchTaskCheck> out;
  auto dirs = task::find_task_dirs(root, task::TaskKind::Torch2Cuda);
  out.resize(dirs.size());
  std::map<std::string, fs::path> ids;
  for (size_t i = 0; i < dirs.size(); ++i) {
    auto& tc = out[i];
    tc.dir = dirs[i];
    auto r = task::load_torch_task(dirs[i]);
    if (r) tc.task = r.value();
    else tc.problems = r.errors();
    if (tc.task) {
      auto [it, fresh] = ids.emplace(tc.task->id, tc.dir);
      if (!fresh) tc.problems.push_back({(tc.dir / "task.toml").string(), 0, 0, fmt::format("id '{}' is also used by {}", tc.task->id, it->second.string())});
      std::map<std::string, std::string> seen;
      for (const auto& im : tc.task->impls) {
        std::string src = read_file(im.path).value_or("");
        auto [hit, fresh_src] = seen.emplace(src, im.strategy);
        if (!fresh_src) tc.problems.push_back({im.path.string(), 0, 0, fmt::format("identical to impls/{}.py: strategies must be distinct", hit->second)});
      }
    }
  }
  if (out.empty()) return out;
  TorchRuntime rt = torch_runtime();
  // CPU side, standard library only: reference.py names, config keys, every impl's static guards.
  json req = {{"tasks", json::array()}};
  std::vector<size_t> idx;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].task) {
      // a folder whose task.toml did not load: still check reference.py when present
      continue;
    }
    const auto& t = *out[i].task;
    json keys = json::array();
    std::set<std::string> ks;
    for (const auto& c : t.configs)
      for (const auto& [k, v] : c.globals)
        if (ks.insert(k).second) keys.push_back(k);
    json impls = json::object();
    for (const auto& im : t.impls) impls[im.strategy] = im.path.string();
    req["tasks"].push_back({{"dir", t.dir.string()}, {"reference", t.reference.string()}, {"config_keys", keys}, {"impls", impls}});
    idx.push_back(i);
  }
  if (!idx.empty()) {
    char tmpl[] = "/tmp/cudaperf-t2c-req-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd >= 0) {
      std::string text = req.dump();
      ssize_t w = ::write(fd, text.data(), text.size());
      (void)w;
      close(fd);
      std::string py = env_or("CUDAPERF_STATIC_PYTHON", "python3");
      auto r = sandbox::run_process({py, "-c",
                                     "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_static; "
                                     "sys.exit(torch_static.main(['torch_static', 'tasks', sys.argv[2]]))",
                                     rt.python_dir.string(), tmpl},
                                    std::chrono::seconds(300), 16 << 20);
      fs::remove(tmpl);
      auto j = json::parse(r.output.substr(0, r.output.find_last_of('}') + 1), nullptr, false);
      if (!r.ok() || j.is_discarded()) {
        for (size_t i : idx)
          out[i].problems.push_back({out[i].dir.string(), 0, 0, fmt::format("the static checker did not run ({}): {}", r.describe(), r.output.substr(0, 300))});
      } else {
        const auto& arr = j["tasks"];
        for (size_t k = 0; k < idx.size() && k < arr.size(); ++k) {
          auto& tc = out[idx[k]];
          for (const auto& p : arr[k].value("reference", json::array())) tc.problems.push_back({"", 0, 0, p.get<std::string>()});
          for (auto& [name, ps] : arr[k]["impls"].items())
            for (const auto& p : ps) tc.problems.push_back({"", 0, 0, p.get<std::string>()});
        }
      }
    }
  }
  // The reference twice per config (deterministic, finite) and the null battery, with torch.
  std::string why;
  bool have_torch = o.battery && torch_importable(rt, why);
  if (!o.battery) why = "not requested";
  bool have_gpu = false;
  if (have_torch && !rt.test_mode) verify::describe_gpu(have_gpu);
  std::string device = have_gpu ? "cuda" : "cpu";
  parallel_for(out.size(), have_gpu ? 1 : (o.jobs ? o.jobs : default_jobs()), [&](size_t i) {
    auto& tc = out[i];
    if (!tc.task) return;
    if (!have_torch) {
      tc.battery = "skipped: " + why;
      return;
    }
    bool small = std::any_of(tc.task->configs.begin(), tc.task->configs.end(), [](const task::TorchConfig& c) { return !c.perf; });
    if (!small) {
      tc.battery = "skipped: no non-perf config (the battery runs at small sizes)";
      return;
    }
    bool static_ok = std::none_of(tc.problems.begin(), tc.problems.end(), [](const Diagnostic& d) { return d.message.find("reference.py") != std::string::npos; });
    if (!static_ok) {
      tc.battery = "skipped: reference.py has problems";
      return;
    }
    fs::path x = make_exchange_dir();
    json plan = {{"mode", "validate"}, {"eval_mode", o.mode}, {"reference", fs::absolute(tc.task->reference).string()}, {"rtol", tc.task->rtol},
                 {"atol", tc.task->atol}, {"deterministic", tc.task->deterministic}, {"input_dist", tc.task->input_dist},
                 {"configs", plan_configs(*tc.task, false)}, {"device", device}, {"trials", 2}, {"xdir", x.string()}};
    std::ofstream(x / "plan.json") << plan.dump();
    WorkerProcess w;
    std::string err;
    auto argv = worker_argv(rt, "reference");
    argv.insert(argv.end(), {"--plan", (x / "plan.json").string()});
    if (!w.start(argv, worker_env(rt), err)) {
      tc.problems.push_back({tc.dir.string(), 0, 0, "cannot start the torch worker: " + err});
    } else {
      w.write_line(R"({"seed": 1592700966})");
      w.wait_exit(Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.reference_timeout_s * 1000)));
      auto cp = parse_channel(w.channel, w.overflow, false);
      bool got = false;
      for (const auto& e : cp.events) {
        if (e["event"] == "fatal")
          tc.problems.push_back({tc.task->reference.string(), 0, 0, e.value("message", "reference failed")});
        if (e["event"] != "validate") continue;
        got = true;
        for (const auto& p : e["problems"]) tc.problems.push_back({tc.task->reference.string(), 0, 0, p.get<std::string>()});
        for (auto& [name, r] : e["nulls"].items()) {
          tc.nulls[name] = {r.value("rejected", 0), r.value("tested", 0)};
          if (r.value("tested", 0) > 0 && r.value("rejected", 0) == 0)
            tc.problems.push_back({tc.task->reference.string(), 0, 0,
                                   fmt::format("null-solution battery ({} mode): '{}' passes every non-perf config within the "
                                               "task's tolerance{}: a degenerate problem (a trivial answer would be rewarded; "
                                               "fix its inputs or outputs, or leave it out)", o.mode, name,
                                               o.mode == "strict" ? ", even on the hidden input families" : "")});
        }
      }
      if (!got && tc.problems.empty())
        tc.problems.push_back({tc.task->reference.string(), 0, 0, fmt::format("the reference worker did not finish ({}): {}", w.describe(), w.output_tail(600))});
      tc.battery = got ? "run" : "failed";
    }
    std::error_code ec;
    fs::remove_all(x, ec);
  });
  return out;
}

}  // namespace cudaperf::torch2cuda
