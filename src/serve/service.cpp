#include "cudaperf/serve/service.hpp"

#include <httplib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <algorithm>
#include <cctype>
#include <cstring>

#include "cudaperf/agent/extract.hpp"
#include "cudaperf/reward/score_candidate.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/serve/job_store.hpp"
#include <toml++/toml.h>
#include "cudaperf/task/task.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::serve {

namespace fs = std::filesystem;
using nlohmann::json;

// Moved to agent/extract.cpp (shared with `cudaperf refine`); kept here for the service's callers.
std::string extract_code(const std::string& response, const std::string& prompt) { return agent::extract_code(response, prompt); }

// ---------------------------------------------------------------- worker process

namespace {

// Inline tasks (a request's "task" is an object with the task's files) live in content-addressed
// folders beside the store: <store>.tasks/<hash>/<id>/, so the job's task is "inline/<hash>/<id>".
fs::path inline_root(const fs::path& store) { return fs::path(store.string() + ".tasks"); }

bool is_torch_task_id(const std::string& id) { return id.rfind("torch2cuda/", 0) == 0; }

// The evaluation mode of a torch2cuda job (options.mode; strict when absent), or "" when unknown.
std::string torch_mode_of(const json& options) {
  if (!options.contains("mode")) return "strict";
  if (!options["mode"].is_string()) return "";
  auto m = options["mode"].get<std::string>();
  return std::count(torch2cuda::kTorchModes.begin(), torch2cuda::kTorchModes.end(), m) ? m : "";
}

std::string unknown_mode_message() {
  return fmt::format("options.mode must be one of: {}", fmt::join(torch2cuda::kTorchModes, ", "));
}

// The jobs' sources as files in `scratch` named by `name_format` (one {} for the job id).
std::vector<fs::path> write_sources(const fs::path& scratch, const std::vector<Job>& jobs, const char* name_format) {
  std::vector<fs::path> files;
  for (const auto& j : jobs) {
    files.push_back(scratch / fmt::format(fmt::runtime(name_format), j.id));
    std::ofstream(files.back()) << j.source;
  }
  return files;
}

void remove_files(const std::vector<fs::path>& files) {
  std::error_code ec;
  for (const auto& f : files) fs::remove(f, ec);
}

// A batch of one torch2cuda task (and one mode): its ModelNew sources as .py files, one run.
std::vector<json> score_torch_jobs(const fs::path& root, const std::vector<Job>& jobs, std::map<std::string, task::TorchTask>& cache,
                                   const fs::path& scratch, const reward::RewardConfig& cfg, const reward::ScoreOptions& so) {
  const Job& first = jobs.front();
  auto usage = [&](const std::string& msg) { return std::vector<json>(jobs.size(), json{{"verdict", "usage"}, {"message", msg}, {"final", true}}); };
  std::string mode = torch_mode_of(first.options);
  if (mode.empty()) return usage(unknown_mode_message());
  auto it = cache.find(first.task);
  if (it == cache.end()) {
    auto dir = task::find_torch_task_by_id(root, first.task);
    if (!dir) return usage("no such task");
    auto t = task::load_torch_task(*dir);
    if (!t) return usage(t.errors().front().message);
    it = cache.emplace(first.task, t.value()).first;
  }
  auto files = write_sources(scratch, jobs, "candidate_{}.py");
  auto results = reward::score_torch_candidates(it->second, files, cfg, so, mode);
  remove_files(files);
  return results;
}

void finish_jobs(JobStore& store, int worker, const std::vector<Job>& jobs, std::vector<json>& results) {
  const char* dev = std::getenv("CUDA_VISIBLE_DEVICES");
  for (size_t k = 0; k < jobs.size(); ++k) {
    results[k]["attempts"] = jobs[k].attempts;
    results[k]["batch"] = jobs.size();
    results[k]["gpu"] = dev ? dev : "";  // the device this worker evaluated on ("" without a GPU)
    store.finish(jobs[k].id, worker, results[k]);  // false: the job was reassigned; its other run finishes it
  }
}

}  // namespace

int run_worker(const WorkerOptions& o) {
  prctl(PR_SET_PDEATHSIG, SIGTERM);  // never outlive the service
  auto store = JobStore::open(o.store);
  if (!store) {
    fmt::print(stderr, "worker {}: {}\n", o.id, store.errors().front().to_string());
    return 2;
  }
  auto cfg = o.config.empty() ? Result<reward::RewardConfig>(reward::default_reward_config()) : reward::load_reward_config(o.config);
  if (!cfg) {
    fmt::print(stderr, "worker {}: {}\n", o.id, cfg.errors().front().to_string());
    return 2;
  }
  std::map<std::string, task::Task> tasks;
  std::map<std::string, task::TorchTask> torch_tasks;
  fs::path scratch = fs::temp_directory_path() / fmt::format("cudaperf-worker-{}-{}", getpid(), o.id);
  fs::create_directories(scratch);
  for (;;) {
    auto jobs = store->claim_batch(o.id, std::max(1, o.batch));
    if (jobs.empty()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    // A job whose evaluation ended its worker process kAttempts times is not tried again.
    constexpr int kAttempts = 3;
    if (jobs.size() == 1 && jobs[0].attempts > kAttempts) {
      reward::RewardInputs crashed;
      crashed.verdict = verify::Verdict::RuntimeError;
      store->finish(jobs[0].id, o.id,
                    json{{"verdict", "runtime_error"}, {"final", true}, {"attempts", jobs[0].attempts},
                         {"message", fmt::format("evaluating this candidate ended the evaluation worker {} times", kAttempts)},
                         {"reward", reward::compute_reward(crashed, cfg.value())->to_json()}});
      continue;
    }
    // Every job of a batch has the same task and options (claim_batch).
    const Job& first = jobs.front();
    std::vector<json> results;
    reward::ScoreOptions so;
    so.model = o.model;
    so.gpu_lock = o.gpu_lock;
    so.time_budget_s = first.options.value("time_budget_s", o.time_budget_s);
    if (is_torch_task_id(first.task)) {
      results = score_torch_jobs(o.root, jobs, torch_tasks, scratch, cfg.value(), so);
      finish_jobs(store.value(), o.id, jobs, results);
      continue;
    }
    auto it = tasks.find(first.task);
    if (it == tasks.end()) {
      std::optional<fs::path> dir;
      if (first.task.rfind("inline/", 0) == 0 && first.task.size() > 32) {
        fs::path d = inline_root(o.store) / first.task.substr(7);
        if (fs::exists(d / "task.toml")) dir = d;
      } else {
        dir = task::find_task_by_id(o.root, first.task);
      }
      auto t = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{first.task, 0, 0, "no such task"});
      if (t) it = tasks.emplace(first.task, t.value()).first;
      else results.assign(jobs.size(), json{{"verdict", "usage"}, {"message", t.errors().front().message}, {"final", true}});
    }
    if (it != tasks.end()) {
      auto files = write_sources(scratch, jobs, "{}.cu");
      results = reward::score_candidates(it->second, files, cfg.value(), so);
      remove_files(files);
    }
    finish_jobs(store.value(), o.id, jobs, results);
  }
}

// ---------------------------------------------------------------- service

namespace {

struct Workers {
  Workers(const ServiceOptions& opts, JobStore& st, std::string exe) : o(opts), store(st), self(std::move(exe)) {}
  const ServiceOptions& o;
  JobStore& store;
  std::string self;
  std::mutex mu;
  std::map<pid_t, int> live;  // pid -> worker id
  std::atomic<int> restarts{0}, next_id{1};
  std::atomic<bool> stopping{false};
  std::vector<std::string> devices;  // CUDA_VISIBLE_DEVICES entries, one per GPU

  void spawn(int slot, int gpus) {
    int id = next_id++;
    pid_t pid = fork();
    if (pid == 0) {
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);  // the service blocks SIGTERM/SIGINT for its sigwait thread
      std::vector<std::string> args = {self, "serve-worker", "--store", o.store.string(), "--worker", std::to_string(id),
                                        "--root", o.root.string(), "--time-budget", fmt::format("{}", o.time_budget_s),
                                        "--batch", std::to_string(o.batch)};
      if (gpus > 0) {
        // The slot's device, named as the service saw it (an entry of its own CUDA_VISIBLE_DEVICES).
        const std::string& dev = devices[static_cast<size_t>(slot) % devices.size()];
        setenv("CUDA_VISIBLE_DEVICES", dev.c_str(), 1);
        args.insert(args.end(), {"--gpu-lock", (fs::temp_directory_path() / fmt::format("cudaperf-gpu-{}.lock", dev)).string()});
      }
      if (!o.config.empty()) args.insert(args.end(), {"--config", o.config.string()});
      if (!o.model.empty()) args.insert(args.end(), {"--model", o.model.string()});
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      execv(self.c_str(), argv.data());
      _exit(127);
    }
    std::lock_guard lock(mu);
    live[pid] = id * 1000 + slot;  // slot kept to respawn on the same GPU
  }

  // Reaps dead workers: their running jobs go back to the queue and a new worker takes the slot.
  void supervise(int gpus) {
    while (!stopping) {
      int status = 0;
      pid_t pid = waitpid(-1, &status, WNOHANG);
      if (pid <= 0) {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      int code = 0;
      {
        std::lock_guard lock(mu);
        auto it = live.find(pid);
        if (it == live.end()) continue;
        code = it->second;
        live.erase(it);
      }
      int id = code / 1000, slot = code % 1000;
      int n = store.requeue(id);
      ++restarts;
      fmt::print(stderr, "cudaperf serve: worker {} (pid {}) ended ({}); {} job(s) requeued; restarting\n", id, pid,
                 WIFSIGNALED(status) ? fmt::format("signal {}", WTERMSIG(status)) : fmt::format("exit {}", WEXITSTATUS(status)), n);
      if (!stopping) spawn(slot, gpus);
    }
  }

  void stop() {
    stopping = true;
    std::lock_guard lock(mu);
    for (auto& [pid, code] : live) kill(pid, SIGTERM);
  }
};

// The visible GPUs as CUDA_VISIBLE_DEVICES entries ("0", "1", or UUIDs when the caller set them):
// the service's own CUDA_VISIBLE_DEVICES list when set, else every device nvidia-smi lists, else
// device 0 when a GPU answers at all.
std::vector<std::string> visible_gpus() {
  bool have = false;
  verify::describe_gpu(have);
  if (!have) return {};
  std::vector<std::string> out;
  if (const char* v = std::getenv("CUDA_VISIBLE_DEVICES"); v && *v) {
    std::string s = v;
    for (size_t p = 0; p <= s.size();) {
      size_t q = s.find(',', p);
      if (q == std::string::npos) q = s.size();
      if (q > p) out.push_back(s.substr(p, q - p));
      p = q + 1;
    }
    return out;
  }
  auto r = sandbox::run_process({"nvidia-smi", "-L"}, std::chrono::seconds(20));
  int n = 0;
  for (size_t p = 0; (p = r.output.find("GPU ", p)) != std::string::npos; p += 4)
    if (p == 0 || r.output[p - 1] == '\n') ++n;
  for (int i = 0; i < std::max(n, 1); ++i) out.push_back(std::to_string(i));
  return out;
}

void reply(httplib::Response& res, int status, const json& j) {
  res.status = status;
  res.set_content(j.dump(), "application/json");
}

// A job as clients see it; times are unix seconds (started/finished 0 until then).
json job_json(const Job& j) {
  return {{"id", j.id},         {"state", j.state},       {"task", j.task},
          {"attempts", j.attempts}, {"created", j.created}, {"started", j.started},
          {"finished", j.finished}, {"result", j.result}};
}


// Writes and loads an inline task {"toml", "reference_c", "impls": {"naive.cu": ...}}; the job's
// task name on success.
Result<std::string> store_inline_task(const fs::path& store, const json& spec) {
  auto fail = [](std::string m) { return Result<std::string>(Diagnostic{"task", 0, 0, std::move(m)}); };
  if (!spec.contains("toml") || !spec["toml"].is_string() || !spec.contains("reference_c") || !spec["reference_c"].is_string() ||
      !spec.contains("impls") || !spec["impls"].is_object())
    return fail("an inline task needs string fields 'toml' and 'reference_c' and an object 'impls' {\"naive.cu\": source, ...}");
  for (auto& [name, src] : spec["impls"].items())
    if (!src.is_string() || name.empty() || name.find('/') != std::string::npos || name[0] == '.' ||
        name.size() < 4 || name.substr(name.size() - 3) != ".cu")
      return fail(fmt::format("inline task: impls key '{}' must be a file name ending in .cu with a string source", name));
  std::string id;
  try {
    id = toml::parse(spec["toml"].get<std::string>())["id"].value_or(std::string());
  } catch (const toml::parse_error& e) {
    return fail(fmt::format("inline task: invalid TOML: {} (line {})", e.description(), e.source().begin.line));
  }
  auto safe = [](const std::string& x) {
    return !x.empty() && x.find("..") == std::string::npos && x[0] != '/' &&
           std::all_of(x.begin(), x.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '/' || c == '.'; });
  };
  if (!safe(id) || std::count(id.begin(), id.end(), '/') != 1)
    return fail("inline task: task.toml needs id = \"<category>/<name>\" (letters, digits, _ - .)");
  std::string hash = job_key("inline", spec.dump(), json::object()).substr(0, 24);
  fs::path dir = inline_root(store) / hash / id;
  std::error_code ec;
  if (!fs::exists(dir / "task.toml")) {
    // Written into a private folder first and renamed, so a worker never sees half a task.
    fs::path tmp = inline_root(store) / hash / fmt::format(".tmp-{}-{}", getpid(), std::hash<std::thread::id>{}(std::this_thread::get_id()));
    fs::create_directories(tmp / "impls", ec);
    auto write = [](const fs::path& f, const std::string& text) {
      std::ofstream out(f, std::ios::binary);
      out << text;
      return static_cast<bool>(out);
    };
    bool ok = write(tmp / "task.toml", spec["toml"].get<std::string>()) && write(tmp / "reference.c", spec["reference_c"].get<std::string>());
    for (auto& [name, src] : spec["impls"].items()) ok = ok && write(tmp / "impls" / name, src.get<std::string>());
    fs::create_directories(dir.parent_path(), ec);
    if (ok) fs::rename(tmp, dir, ec);
    if (!ok || ec) {
      fs::remove_all(tmp, ec);
      if (!fs::exists(dir / "task.toml")) return fail("cannot store the inline task");
    }
  }
  auto loaded = task::load_task(dir);
  if (!loaded) return fail("inline task: " + loaded.errors().front().to_string());
  return "inline/" + hash + "/" + id;
}

}  // namespace

int run_service(const ServiceOptions& o) {
  auto store = JobStore::open(o.store);
  if (!store) {
    fmt::print(stderr, "cudaperf serve: {}\n", store.errors().front().to_string());
    return 2;
  }
  if (int n = store->requeue(-1); n > 0) fmt::print(stderr, "cudaperf serve: {} job(s) left running by an earlier run requeued\n", n);
  auto cfg = o.config.empty() ? Result<reward::RewardConfig>(reward::default_reward_config()) : reward::load_reward_config(o.config);
  if (!cfg) {
    fmt::print(stderr, "cudaperf serve: {}\n", cfg.errors().front().to_string());
    return 2;
  }
  std::set<std::string> task_ids;
  for (const auto& d : task::find_task_dirs(o.root))
    if (auto t = task::load_task(d)) task_ids.insert(t->id);
  for (const auto& d : task::find_task_dirs(o.root, task::TaskKind::Torch2Cuda))
    if (auto t = task::load_torch_task(d)) task_ids.insert(t->id);
  if (task_ids.empty()) {
    fmt::print(stderr, "cudaperf serve: no tasks under {}\n", o.root.string());
    return 2;
  }
  // SIGTERM / SIGINT: stop accepting, stop the workers, exit (a thread waits for them).
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  Workers w(o, store.value(), fs::read_symlink("/proc/self/exe").string());
  w.devices = visible_gpus();
  int gpus = static_cast<int>(w.devices.size());
  int n_workers = o.workers > 0 ? o.workers : std::max(1, gpus * o.workers_per_gpu);
  for (int i = 0; i < n_workers; ++i) w.spawn(i, gpus);
  std::thread supervisor([&] { w.supervise(gpus); });
  auto started = std::chrono::steady_clock::now();
  // Without a GPU no candidate is checked or timed on the device: such results are not rewards, so
  // scoring is refused (409, "no_gpu") unless the service was started for tests (--cpu-test-mode).
  const bool refuse_scoring = gpus == 0 && !o.cpu_test_mode;
  auto refuse = [&](httplib::Response& res) {
    if (!refuse_scoring) return false;
    reply(res, 409, {{"error", "cudaperf serve: no GPU is visible, so candidates cannot be checked or timed and results "
                               "would not be rewards; run the service on a GPU, or start it with --cpu-test-mode for tests "
                               "(CPU stages only, final: false)"},
                     {"no_gpu", true}});
    return true;
  };

  httplib::Server http;
  http.set_payload_max_length(64u << 20);
  auto wait_for = [&](std::vector<Job>& jobs, double wait_s) {
    auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(std::min(wait_s, 3600.0));
    for (;;) {
      bool all = true;
      for (auto& j : jobs)
        if (j.state != "done") {
          if (auto g = store->get(j.id)) j = *g;
          all = all && j.state == "done";
        }
      if (all || std::chrono::steady_clock::now() >= deadline) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  };
  // Validates and stores a batch; on failure fills `res` and returns false.
  auto submit = [&](const json& requests, std::vector<Job>& jobs, httplib::Response& res) {
    if (!requests.is_array()) {
      reply(res, 400, {{"error", "'requests' must be an array of {task, source, options}"}});
      return false;
    }
    std::vector<std::string> task_names(requests.size());  // ids, or inline/<hash>/<id>
    for (size_t i = 0; i < requests.size(); ++i) {
      const auto& r = requests[i];
      if (!r.is_object() || !r.contains("task") || !(r["task"].is_string() || r["task"].is_object()) || !r.contains("source") ||
          !r["source"].is_string()) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: needs 'task' (an id, or an inline task object) and a string 'source'", i)}});
        return false;
      }
      if (r["task"].is_object()) {
        auto name = store_inline_task(o.store, r["task"]);
        if (!name) {
          reply(res, 400, {{"error", fmt::format("requests[{}]: {}", i, name.errors().front().message)}});
          return false;
        }
        task_names[i] = name.value();
      } else if (!task_ids.count(r["task"].get<std::string>())) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: unknown task '{}'", i, r["task"].get<std::string>())}});
        return false;
      }
      if (r["source"].get<std::string>().size() > o.max_source_bytes) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: source of {} bytes is over the {} byte limit", i,
                                               r["source"].get<std::string>().size(), o.max_source_bytes)}});
        return false;
      }
      if (r.contains("options") && !r["options"].is_object()) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: 'options' must be an object", i)}});
        return false;
      }
      if (r["task"].is_string() && is_torch_task_id(r["task"].get<std::string>()) &&
          torch_mode_of(r.value("options", json::object())).empty()) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: {}", i, unknown_mode_message())}});
        return false;
      }
    }
    if (store->queued() + static_cast<int>(requests.size()) > o.queue_limit) {
      res.set_header("Retry-After", "5");
      reply(res, 429, {{"error", fmt::format("queue full ({} jobs): retry later", o.queue_limit)}});
      return false;
    }
    std::vector<JobRequest> batch;
    for (size_t i = 0; i < requests.size(); ++i) {
      const auto& r = requests[i];
      batch.push_back({task_names[i].empty() ? r["task"].get<std::string>() : task_names[i], r["source"].get<std::string>(),
                       r.value("options", json::object())});
    }
    auto stored = store->submit_all(batch);
    if (!stored) {
      reply(res, 500, {{"error", stored.errors().front().message}});
      return false;
    }
    jobs = std::move(stored.value());
    return true;
  };

  http.Post("/v1/evaluate", [&](const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return reply(res, 400, {{"error", "the body is not a JSON object"}});
    if (refuse(res)) return;
    std::vector<Job> jobs;
    if (!submit(body.value("requests", json()), jobs, res)) return;
    double wait_s = body.value("wait_s", 0.0);
    if (wait_s > 0) wait_for(jobs, wait_s);
    json out = {{"jobs", json::array()}};
    for (const auto& j : jobs) out["jobs"].push_back(job_json(j));
    reply(res, 200, out);
  });
  http.Get(R"(/v1/jobs/([0-9a-f]+))", [&](const httplib::Request& req, httplib::Response& res) {
    auto j = store->get(req.matches[1]);
    if (!j) return reply(res, 404, {{"error", "no such job"}});
    reply(res, 200, job_json(*j));
  });
  // Several jobs at once: {"ids": [...], "wait_s": S} -> {"jobs": [...]} (unknown ids: state "unknown").
  http.Post("/v1/jobs", [&](const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object() || !body.contains("ids") || !body["ids"].is_array())
      return reply(res, 400, {{"error", "the body must be {\"ids\": [job ids], \"wait_s\": optional seconds}"}});
    std::vector<Job> jobs;
    std::vector<std::string> unknown;
    for (const auto& id : body["ids"]) {
      if (!id.is_string()) return reply(res, 400, {{"error", "'ids' must hold strings"}});
      if (auto j = store->get(id.get<std::string>())) jobs.push_back(*j);
      else unknown.push_back(id.get<std::string>());
    }
    if (double wait_s = body.value("wait_s", 0.0); wait_s > 0) wait_for(jobs, wait_s);
    json out = {{"jobs", json::array()}};
    size_t k = 0;
    for (const auto& id : body["ids"]) {
      if (k < jobs.size() && jobs[k].id == id.get<std::string>()) out["jobs"].push_back(job_json(jobs[k++]));
      else out["jobs"].push_back({{"id", id}, {"state", "unknown"}, {"result", nullptr}});
    }
    reply(res, 200, out);
  });
  // OpenRLHF's remote reward model: {query, prompts, labels} -> {rewards, scores, extra_logs}.
  http.Post("/v1/openrlhf", [&](const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return reply(res, 400, {{"error", "the body is not a JSON object"}});
    json q = body.value("query", json::array()), p = body.value("prompts", json::array()), l = body.value("labels", json::array());
    if (!q.is_array() || !l.is_array() || q.size() != l.size() || (p.is_array() && !p.empty() && p.size() != q.size()))
      return reply(res, 400, {{"error", "'query' and 'labels' must be arrays of the same length (and 'prompts' too when given)"}});
    if (refuse(res)) return;
    const double lowest = cfg->gate_of(reward::Tier::Hack);
    std::vector<double> rewards(q.size(), lowest);
    json requests = json::array();
    std::vector<size_t> index;
    for (size_t i = 0; i < q.size(); ++i) {
      std::string text = q[i].is_string() ? q[i].get<std::string>() : "";
      std::string prompt = p.is_array() && i < p.size() && p[i].is_string() ? p[i].get<std::string>() : "";
      std::string code = extract_code(text, prompt);
      if (code.empty()) continue;  // no code block: the lowest reward, nothing to run
      requests.push_back({{"task", l[i]}, {"source", code}});
      index.push_back(i);
    }
    std::vector<Job> jobs;
    if (!requests.empty() && !submit(requests, jobs, res)) return;
    wait_for(jobs, o.openrlhf_wait_s);
    // scores in [0, 1] (correctness: the verdict is ok), for OpenRLHF's dynamic filtering; rewards are
    // the reward totals; extra_logs the same keys as the Python file variant (cudaperf.openrlhf).
    // A task_error sample (the task failed, not the candidate) has no reward, which this format cannot
    // say (every sample needs a number): it keeps the lowest one, score 0 (dynamic filtering drops its
    // group, where no sample is correct) and extra_logs["task_error"] = 1.0.
    std::vector<double> correct(q.size(), 0.0), speedup(q.size(), 0.0), task_error(q.size(), 0.0);
    std::map<std::string, std::vector<double>> terms;
    for (const char* t : {"gate", "speed", "structure", "rank"}) terms[t].assign(q.size(), 0.0);
    for (auto& g : terms["gate"]) g = lowest;
    for (size_t k = 0; k < jobs.size(); ++k) {
      if (jobs[k].state == "done" && jobs[k].result.value("verdict", "") == verify::verdict_name(verify::Verdict::TaskError))
        task_error[index[k]] = 1.0;
      if (jobs[k].state != "done" || !jobs[k].result.contains("reward")) continue;
      const json& r = jobs[k].result;
      size_t i = index[k];
      rewards[i] = r["reward"].value("total", lowest);
      correct[i] = r.value("verdict", "") == "ok" ? 1.0 : 0.0;
      if (r.contains("speedup") && r["speedup"].is_number()) speedup[i] = r["speedup"].get<double>();
      for (auto& [t, v] : terms)
        if (r["reward"].contains(t) && r["reward"][t].is_number()) v[i] = r["reward"][t].get<double>();
    }
    json logs = {{"correct", correct}, {"speedup", speedup}, {"task_error", task_error}};
    for (const auto& [t, v] : terms) logs[t] = v;
    reply(res, 200, {{"rewards", rewards}, {"scores", correct}, {"extra_logs", logs}});
  });
  http.Get("/healthz", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(w.mu);
    reply(res, 200, {{"ok", true}, {"workers", w.live.size()}, {"gpus", gpus}, {"scores", !refuse_scoring}, {"cpu_test_mode", o.cpu_test_mode}});
  });
  http.Get("/metrics", [&](const httplib::Request&, httplib::Response& res) {
    json s = store->stats();
    std::string m;
    m += "# TYPE cudaperf_queue_depth gauge\n" + fmt::format("cudaperf_queue_depth {}\n", store->queued());
    m += "# TYPE cudaperf_jobs gauge\n";
    for (auto& [k, v] : s["state"].items()) m += fmt::format("cudaperf_jobs{{state=\"{}\"}} {}\n", k, v.get<int>());
    m += "# TYPE cudaperf_jobs_done_by_verdict gauge\n";
    for (auto& [k, v] : s["verdict"].items()) m += fmt::format("cudaperf_jobs_done_by_verdict{{verdict=\"{}\"}} {}\n", k, v.get<int>());
    m += "# TYPE cudaperf_job_latency_seconds histogram\n";
    for (const auto& b : s["latency_le"])
      m += fmt::format("cudaperf_job_latency_seconds_bucket{{le=\"{}\"}} {}\n", b[0].get<std::string>(), b[1].get<int>());
    m += fmt::format("cudaperf_job_latency_seconds_sum {}\ncudaperf_job_latency_seconds_count {}\n", s.value("latency_sum", 0.0), s.value("done", 0));
    m += "# TYPE cudaperf_job_retries counter\n" + fmt::format("cudaperf_job_retries {}\n", s.value("retried", 0));
    m += "# TYPE cudaperf_worker_restarts counter\n" + fmt::format("cudaperf_worker_restarts {}\n", w.restarts.load());
    m += "# TYPE cudaperf_uptime_seconds gauge\n" +
         fmt::format("cudaperf_uptime_seconds {:.0f}\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    res.set_content(m, "text/plain; version=0.0.4");
  });
  fmt::print(stderr, "cudaperf serve: http://{}:{} ({} worker(s), {} GPU(s), store {}){}\n", o.host, o.port, n_workers, gpus,
             o.store.string(), refuse_scoring ? "; no GPU: scoring refused (--cpu-test-mode to allow)" : gpus == 0 ? "; CPU test mode" : "");
  std::thread signals([&] {
    int sig = 0;
    sigwait(&stop_signals, &sig);
    http.stop();
  });
  signals.detach();
  bool ok = http.listen(o.host, o.port);
  w.stop();
  supervisor.join();
  if (!ok) {
    fmt::print(stderr, "cudaperf serve: cannot listen on {}:{}\n", o.host, o.port);
    return 2;
  }
  return 0;
}

}  // namespace cudaperf::serve
