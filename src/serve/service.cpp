#include "cudaperf/serve/service.hpp"

#include <httplib.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>
#include <algorithm>
#include <cstring>

#include "cudaperf/reward/score_candidate.hpp"
#include "cudaperf/serve/job_store.hpp"
#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::serve {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> out;
  size_t p = 0;
  while (p <= text.size()) {
    size_t e = text.find('\n', p);
    if (e == std::string::npos) e = text.size();
    std::string line = text.substr(p, e - p);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    out.push_back(std::move(line));
    if (e == text.size()) break;
    p = e + 1;
  }
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

// A fence line: three or more backticks or tildes, then (for an opening line) an info string.
bool fence_of(const std::string& line, std::string& fence, std::string& info) {
  std::string t = trim(line);
  if (t.size() < 3 || (t[0] != '`' && t[0] != '~')) return false;
  size_t n = t.find_first_not_of(t[0]);
  if (n == std::string::npos) n = t.size();
  if (n < 3) return false;
  fence = t.substr(0, n);
  info = trim(t.substr(n));
  return true;
}

}  // namespace

// The same rules as python/cudaperf/extract.py: text after the prompt echo, reasoning dropped,
// CommonMark-style closed fences, the last block tagged cuda/cu/cpp/c++/c, else the last block.
std::string extract_code(const std::string& response_in, const std::string& prompt) {
  std::string r = response_in;
  if (!prompt.empty()) {
    if (size_t at = r.find(prompt); at != std::string::npos) {
      r = r.substr(at + prompt.size());
    } else {
      std::string anchor = trim(prompt);
      if (anchor.size() > 200) anchor = anchor.substr(anchor.size() - 200);
      if (anchor.size() >= 20)
        if (size_t a = r.find(anchor); a != std::string::npos) r = r.substr(a + anchor.size());
    }
  }
  if (size_t e = r.rfind("</think>"); e != std::string::npos) r = r.substr(e + 8);
  if (size_t s = r.find("<think>"); s != std::string::npos) r = r.substr(0, s);
  std::string tagged, any, open_fence, tag, body;
  bool in_block = false;
  for (const auto& line : split_lines(r)) {
    std::string fence, info;
    if (!in_block) {
      if (fence_of(line, fence, info) && !(fence[0] == '`' && info.find('`') != std::string::npos)) {
        size_t k = 0;
        if (k < info.size() && info[k] == '{') ++k;
        if (k < info.size() && info[k] == '.') ++k;
        size_t e = k;
        while (e < info.size() && (std::isalnum(static_cast<unsigned char>(info[e])) || std::strchr("_+#.-", info[e]))) ++e;
        tag = info.substr(k, e - k);
        for (auto& c : tag) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        open_fence = fence;
        body.clear();
        in_block = true;
      }
      continue;
    }
    if (fence_of(line, fence, info) && info.empty() && fence[0] == open_fence[0] && fence.size() >= open_fence.size()) {
      in_block = false;
      if (body.find_first_not_of(" \t\n") == std::string::npos) continue;  // whitespace-only block
      any = body;
      if (tag == "cuda" || tag == "cu" || tag == "cpp" || tag == "c++" || tag == "c") tagged = body;
    } else {
      body += line + "\n";
    }
  }
  return tagged.empty() ? any : tagged;
}

// ---------------------------------------------------------------- worker process

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
  fs::path scratch = fs::temp_directory_path() / fmt::format("cudaperf-worker-{}-{}", getpid(), o.id);
  fs::create_directories(scratch);
  for (;;) {
    auto job = store->claim(o.id);
    if (!job) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      continue;
    }
    json result;
    auto it = tasks.find(job->task);
    if (it == tasks.end()) {
      auto dir = task::find_task_by_id(o.root, job->task);
      auto t = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{job->task, 0, 0, "no such task"});
      if (t) it = tasks.emplace(job->task, t.value()).first;
      else result = {{"verdict", "usage"}, {"message", t.errors().front().message}, {"final", true}};
    }
    if (it != tasks.end()) {
      fs::path cu = scratch / fmt::format("{}.cu", job->id);
      std::ofstream(cu) << job->source;
      reward::ScoreOptions so;
      so.model = o.model;
      so.time_budget_s = job->options.value("time_budget_s", o.time_budget_s);
      result = reward::score_candidate(it->second, cu, cfg.value(), so);
      std::error_code ec;
      fs::remove(cu, ec);
    }
    result["attempts"] = job->attempts;
    store->finish(job->id, o.id, result);  // false: the job was reassigned; its other run finishes it
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

  void spawn(int slot, int gpus) {
    int id = next_id++;
    pid_t pid = fork();
    if (pid == 0) {
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);  // the service blocks SIGTERM/SIGINT for its sigwait thread
      if (gpus > 0) setenv("CUDA_VISIBLE_DEVICES", std::to_string(slot % gpus).c_str(), 1);
      std::vector<std::string> args = {self, "serve-worker", "--store", o.store.string(), "--worker", std::to_string(id),
                                        "--root", o.root.string(), "--time-budget", fmt::format("{}", o.time_budget_s)};
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

int gpu_count() {
  bool have = false;
  std::string d = verify::describe_gpu(have);
  if (!have) return 0;
  const char* v = std::getenv("CUDA_VISIBLE_DEVICES");
  if (v && *v) return static_cast<int>(std::count(v, v + std::strlen(v), ',')) + 1;
  return 1;  // describe_gpu sees device 0; more are counted from CUDA_VISIBLE_DEVICES
}

void reply(httplib::Response& res, int status, const json& j) {
  res.status = status;
  res.set_content(j.dump(), "application/json");
}

json job_json(const Job& j) { return {{"id", j.id}, {"state", j.state}, {"result", j.result}}; }

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
  int gpus = gpu_count();
  int n_workers = o.workers > 0 ? o.workers : std::max(1, gpus);
  Workers w(o, store.value(), fs::read_symlink("/proc/self/exe").string());
  for (int i = 0; i < n_workers; ++i) w.spawn(i, gpus);
  std::thread supervisor([&] { w.supervise(gpus); });
  auto started = std::chrono::steady_clock::now();

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
    for (size_t i = 0; i < requests.size(); ++i) {
      const auto& r = requests[i];
      if (!r.is_object() || !r.contains("task") || !r["task"].is_string() || !r.contains("source") || !r["source"].is_string()) {
        reply(res, 400, {{"error", fmt::format("requests[{}]: needs string fields 'task' and 'source'", i)}});
        return false;
      }
      if (!task_ids.count(r["task"].get<std::string>())) {
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
    }
    if (store->queued() + static_cast<int>(requests.size()) > o.queue_limit) {
      res.set_header("Retry-After", "5");
      reply(res, 429, {{"error", fmt::format("queue full ({} jobs): retry later", o.queue_limit)}});
      return false;
    }
    for (const auto& r : requests) {
      auto j = store->submit(r["task"], r["source"], r.value("options", json::object()));
      if (!j) {
        reply(res, 500, {{"error", j.errors().front().message}});
        return false;
      }
      jobs.push_back(j.value());
    }
    return true;
  };

  http.Post("/v1/evaluate", [&](const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return reply(res, 400, {{"error", "the body is not a JSON object"}});
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
  // OpenRLHF's remote reward model: {query, prompts, labels} -> {rewards, scores, extra_logs}.
  http.Post("/v1/openrlhf", [&](const httplib::Request& req, httplib::Response& res) {
    auto body = json::parse(req.body, nullptr, false);
    if (body.is_discarded() || !body.is_object()) return reply(res, 400, {{"error", "the body is not a JSON object"}});
    json q = body.value("query", json::array()), p = body.value("prompts", json::array()), l = body.value("labels", json::array());
    if (!q.is_array() || !l.is_array() || q.size() != l.size() || (p.is_array() && !p.empty() && p.size() != q.size()))
      return reply(res, 400, {{"error", "'query' and 'labels' must be arrays of the same length (and 'prompts' too when given)"}});
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
    json correct = json::array();
    for (size_t k = 0; k < jobs.size(); ++k)
      if (jobs[k].state == "done" && jobs[k].result.contains("reward"))
        rewards[index[k]] = jobs[k].result["reward"].value("total", lowest);
    for (size_t i = 0; i < q.size(); ++i) correct.push_back(rewards[i] >= cfg->gate_of(reward::Tier::CorrectSlower) ? 1.0 : 0.0);
    // scores in [0, 1] (correctness), for OpenRLHF's dynamic filtering; rewards are the reward totals
    reply(res, 200, {{"rewards", rewards}, {"scores", correct}, {"extra_logs", {{"correct", correct}}}});
  });
  http.Get("/healthz", [&](const httplib::Request&, httplib::Response& res) {
    std::lock_guard lock(w.mu);
    reply(res, 200, {{"ok", true}, {"workers", w.live.size()}, {"gpus", gpus}});
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
  fmt::print(stderr, "cudaperf serve: http://{}:{} ({} worker(s), {} GPU(s), store {})\n", o.host, o.port, n_workers, gpus,
             o.store.string());
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
