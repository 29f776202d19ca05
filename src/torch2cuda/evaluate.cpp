// Evaluation of torch2cuda candidates: the supervisor's run of the static guards, builds, the
// reference worker, each candidate worker in turn and the baselines (evaluate.hpp).
#include "cudaperf/torch2cuda/evaluate.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <thread>

#include "build.hpp"
#include "clock.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"
#include "cudaperf/util/file_lock.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "exchange.hpp"
#include "judge.hpp"
#include "worker_process.hpp"

namespace cudaperf::torch2cuda {

namespace fs = std::filesystem;
using nlohmann::json;
using verify::Verdict;
using namespace detail;

TorchEvalReport evaluate_torch_candidate(const task::TorchTask& t, const fs::path& candidate, const TorchEvalOptions& o) {
  return evaluate_torch_candidates(t, {candidate}, o).front();
}

namespace {

size_t count_events(const WorkerProcess& w, const std::string& ev) {
  size_t n = 0;
  for (const auto& e : parse_channel(w.channel, w.overflow, false).events) n += e["event"] == ev;
  return n;
}

// How many candidate workers are initialised side by side: CUDAPERF_TORCH_INIT_AHEAD (>= 1), else
// half the cores, at most 8 (a worker's CUDA context, timer and profiler take ~5.7 s on the H200,
// mostly waiting on the driver).
size_t init_ahead() {
  if (const char* v = std::getenv("CUDAPERF_TORCH_INIT_AHEAD"); v && *v) {
    char* end = nullptr;
    long d = std::strtol(v, &end, 10);
    if (*end == 0 && d >= 1) return static_cast<size_t>(d);
  }
  return std::min<size_t>(8, std::max<size_t>(1, std::thread::hardware_concurrency() / 2));
}

// Sends "init" to every worker at once and reads them all until each has said "initialized", has
// ended, or the deadline passed (then it is killed): the seconds each took, -1 where it did not.
std::vector<double> init_workers(const std::vector<WorkerProcess*>& ws, Clock::time_point deadline) {
  auto t0 = Clock::now();
  std::vector<double> secs(ws.size(), -1);
  for (auto* w : ws) w->write_line("init");
  while (true) {
    bool waiting = false;
    for (size_t i = 0; i < ws.size(); ++i) {
      if (secs[i] >= 0 || ws[i]->exited) continue;
      ws[i]->step(0);
      if (ws[i]->has_event("initialized")) secs[i] = since(t0);
      else waiting = waiting || !ws[i]->exited;
    }
    if (!waiting) return secs;
    if (Clock::now() >= deadline) {
      for (size_t i = 0; i < ws.size(); ++i)
        if (secs[i] < 0 && !ws[i]->exited) {
          ws[i]->timed_out = true;
          ws[i]->kill_all();
        }
      return secs;
    }
    usleep(5000);
  }
}

// One call of evaluate_torch_candidates: its state, and one method per stage. Each stage returns
// whether any candidate is left for the next.
class TorchRun {
 public:
  TorchRun(const task::TorchTask& t, const std::vector<fs::path>& candidates, const TorchEvalOptions& o)
      : t_(t), candidates_(candidates), o_(o), n_(candidates.size()), reps_(n_), rt_(torch_runtime()),
        salt_(torch_toolchain_salt(rt_)), sts_(n_), live_(n_, true) {}

  std::vector<TorchEvalReport> run() {
    if (guard() && place() && build()) {
      FileLock gpu(gpu_lock_path());  // what runs on the GPU takes its turn
      if (start_reference()) {
        measure_each();
        baselines();
      }
    }
    return std::move(reps_);
  }

 private:
  std::string gpu_lock_path() const {
    if (!o_.gpu_lock.empty()) return o_.gpu_lock;
    const char* v = std::getenv("CUDAPERF_GPU_LOCK");
    return v ? v : "";
  }

  bool any_live() const { return std::any_of(live_.begin(), live_.end(), [](bool b) { return b; }); }
  // The task's reference (or the engine) failed before any candidate ran: every live candidate's report
  // is the task's error (no verdict, no reward), never a candidate's runtime_error.
  void fail_task(const std::string& what) {
    for (size_t k = 0; k < n_; ++k)
      if (live_[k]) set_task_error(reps_[k], t_.id, what);
  }
  std::string exchange(const std::string& name) const { return (x_ / name).string(); }

  // 1. Static guards (any machine, no torch), each candidate.
  bool guard() {
    for (size_t k = 0; k < n_; ++k) {
      auto& r = reps_[k];
      r.base.task_id = t_.id;
      r.base.candidate = candidates_[k].string();
      r.mode = o_.mode;
      if (rt_.test_mode) continue;
      auto t0 = Clock::now();
      auto& st = sts_[k] = torch_static_check(candidates_[k], rt_, salt_);
      r.stages["static_s"] = since(t0);
      live_[k] = false;
      if (st.syntax_error) {
        set_verdict(r, Verdict::CompileError, st.error);
      } else if (!st.error.empty()) {
        set_verdict(r, Verdict::RuntimeError, "internal: " + st.error);
      } else if (!st.findings.empty()) {
        r.findings = st.findings;
        std::string msg;
        for (const auto& f : st.findings) msg += fmt::format("{}rule {} (line {}): {}", msg.empty() ? "" : "\n", f.rule, f.line, f.message);
        set_verdict(r, Verdict::HackSuspected, msg);
      } else if (!st.unresolved.empty()) {
        set_verdict(r, Verdict::CompileError,
                    "load_inline cannot be built ahead of the run (sources, names and flags must be module-level constants): " +
                        st.unresolved.front());
      } else {
        live_[k] = true;
      }
    }
    return true;
  }

  // 2. Where it runs; the exchange folder and the workers' environment.
  bool place() {
    bool have_gpu = false;
    std::string where;
    if (rt_.test_mode) {
      where = "cpu (test mode: pure-torch candidates, own-kernel guard off)";
    } else {
      where = o_.run_gpu ? verify::describe_gpu(have_gpu) : "GPU stages not requested (--no-gpu)";
      device_ = "cuda";
    }
    for (auto& r : reps_) r.base.device = where;
    auto skip_all = [&](const std::string& msg) {
      for (size_t k = 0; k < n_; ++k)
        if (live_[k]) reps_[k].base.message = msg;
      return false;
    };
    if (!rt_.test_mode && !have_gpu) return skip_all(fmt::format("passed the static guards; GPU stages skipped: {}", where));
    std::string why;
    if (rt_.worker.empty() && !torch_importable(rt_, why))
      return skip_all(fmt::format("passed the static guards; GPU stages skipped: {} (set CUDAPERF_PYTHON)", why));
    if (!any_live()) return false;
    x_ = make_exchange_dir();
    if (x_.empty()) {
      fail_task("internal: no exchange folder");
      return false;
    }
    cleanup_.p = x_;
    env_ = worker_env(rt_);
    return true;
  }

  // 3. Build (cached per content hash), before and outside the confined run. The candidates that
  //    miss the cache build side by side, one build worker each, the cores shared among them.
  bool build() {
    fs::path cache = compile::default_cache_dir();
    std::vector<std::optional<json>> hit(n_);
    std::vector<size_t> todo;
    for (size_t k = 0; k < n_; ++k) {
      if (!live_[k] || rt_.test_mode) continue;
      // Every extension already in the cache (the keys came with the static check): no build worker.
      hit[k] = cached_extensions(sts_[k], salt_, cache);
      if (!hit[k]) todo.push_back(k);
    }
    std::vector<BuildOutcome> built(n_);
    std::vector<double> build_s(n_, 0.0);
    if (!todo.empty()) {
      auto benv = with_build_jobs(env_, todo.size());
      parallel_for(todo.size(), std::min<unsigned>(static_cast<unsigned>(todo.size()), default_jobs()), [&](size_t j) {
        auto t0 = Clock::now();
        built[todo[j]] = run_build(rt_, benv, candidates_[todo[j]], cache, o_.build_timeout_s, sts_[todo[j]].extensions, salt_);
        build_s[todo[j]] = since(t0);
      });
    }
    for (size_t k = 0; k < n_; ++k) {
      if (!live_[k]) continue;
      auto& r = reps_[k];
      json manifest = {{"extensions", json::array()}, {"salt", ""}};
      if (!rt_.test_mode) {
        if (hit[k]) {
          r.build = {{"seconds", 0.0}, {"extensions", *hit[k]}, {"cache_hits", hit[k]->size()}, {"worker", false}};
          manifest = {{"extensions", *hit[k]}, {"salt", salt_}};
        } else {
          auto& b = built[k];
          r.build = b.build;
          r.stages["build_s"] = build_s[k];
          if (todo.size() > 1) r.stages["builds_side_by_side"] = todo.size();
          if (b.verdict != Verdict::Ok) {
            set_verdict(r, b.verdict, b.message);
            live_[k] = false;
            continue;
          }
          manifest = b.manifest;
        }
      }
      std::ofstream(exchange(fmt::format("manifest-{}.json", k))) << manifest.dump();
      if (!r.stages.contains("build_s")) r.stages["build_s"] = 0.0;
    }
    return any_live();
  }

  std::chrono::steady_clock::time_point reference_deadline() const { return Clock::now() + seconds_ms(o_.reference_timeout_s); }

  // The reference told its seed; read until it is ready (or failed).
  void until_ready(WorkerProcess& w) {
    w.write_line(seed_line_);
    w.pump(reference_deadline(), [&] { return w.has_event("ready") || w.has_event("fatal"); });
  }

  // Why a reference worker that was told its seed is not ready: its own "fatal" (the task's reference
  // failed), else how it ended or that it hung.
  static std::string not_ready_reason(WorkerProcess& w) {
    for (const auto& e : parse_channel(w.channel, w.overflow, false).events)
      if (e["event"] == "fatal") return "the task's reference failed: " + e.value("message", "");
    return fmt::format("the task's reference worker did not get ready ({}): {}", w.describe(), w.output_tail(800));
  }

  std::unique_ptr<WorkerProcess> start_worker(const std::vector<std::string>& argv, std::string& err) const {
    auto w = std::make_unique<WorkerProcess>();
    if (!w->start(argv, env_, err)) return nullptr;
    return w;
  }

  // A candidate worker started ahead: it imports, then waits on its stdin for "init" and "go".
  std::unique_ptr<WorkerProcess> spawn_candidate(size_t k) const {
    auto cargv = worker_argv(rt_, "candidate");
    cargv.insert(cargv.end(), {"--plan", exchange(fmt::format("cplan-{}.json", k)), "--candidate", fs::absolute(candidates_[k]).string(),
                               "--manifest", exchange(fmt::format("manifest-{}.json", k)), "--wait-for-go"});
    std::string e;
    return start_worker(cargv, e);
  }

  // 4. Reference: inputs from the secret seed, expected outputs kept in its memory; shared by every
  //    candidate of this call (one set of inputs, as in one C-to-CUDA GPU run).
  bool start_reference() {
    auto ref0 = Clock::now();
    plan_ = {{"reference", fs::absolute(t_.reference).string()}, {"rtol", t_.rtol}, {"atol", t_.atol}, {"eval_mode", o_.mode},
             {"deterministic", t_.deterministic}, {"input_dist", t_.input_dist}, {"configs", plan_configs(t_, true)},
             {"device", device_}, {"trials", o_.trials}, {"xdir", x_.string()}, {"baselines", o_.baselines},
             {"call_timeout_s", o_.call_timeout_s}, {"test_mode", rt_.test_mode},
             {"timing", {{"min_samples", o_.timing.min_samples}, {"max_samples", o_.timing.max_samples},
                         {"target_rel_stdev", o_.timing.target_rel_stdev}, {"budget_s", o_.timing.budget_s}}}};
    std::ofstream(exchange("plan.json")) << plan_.dump();
    std::string err;
    rargv_ = worker_argv(rt_, "reference");
    rargv_.insert(rargv_.end(), {"--plan", exchange("plan.json")});
    ref_ = take_spare(rt_, env_, rargv_);  // torch already imported there, when a spare was kept
    const bool from_spare = ref_ != nullptr;
    if (!ref_ && !(ref_ = start_worker(rargv_, err))) {
      fail_task("internal: cannot start the reference worker: " + err);
      return false;
    }
    // Candidate workers are started ahead (Python and torch imports take seconds), a batch of D at a
    // time (init_ahead()), and wait on their stdin before they read their plan or touch the GPU: the
    // first batch imports while the reference draws its inputs, each next one while the previous
    // batch runs. Then (measure_each) the batch gets "init" all at once — plan, CUDA context, timer,
    // profiler, side by side while no candidate runs — and "go" one worker at a time.
    for (size_t k = 0; k < n_; ++k)
      if (live_[k]) order_.push_back(k);
    batch_n_ = std::min(order_.size(), init_ahead());
    workers_.resize(n_);
    for (size_t j = 0; j < batch_n_; ++j) workers_[order_[j]] = spawn_candidate(order_[j]);
    seed_line_ = json{{"seed", o_.seed ? o_.seed : fresh_seed()}}.dump();  // never on a command line
    until_ready(*ref_);
    if (from_spare && !ref_->has_event("ready") && !ref_->has_event("fatal")) {
      // The spare died before it got ready (killed, or broken since it started): once more, fresh.
      if (!(ref_ = start_worker(rargv_, err))) {
        fail_task("internal: cannot start the reference worker: " + err);
        return false;
      }
      until_ready(*ref_);
    }
    if (!ref_->has_event("fatal"))
      for (const auto& e : parse_channel(ref_->channel, ref_->overflow, false).events)
        if (e["event"] == "ready") ready_ = e;
    if (ready_.is_null()) {
      fail_task(not_ready_reason(*ref_));
      return false;
    }
    reference_s_ = since(ref0);
    for (auto& r : reps_)
      if (ready_.contains("hidden") && ready_["hidden"].is_object()) r.hidden = ready_["hidden"];
    // The candidates' plans: the reference's plan, its ready configs, and each one's FIFOs to it.
    json cplan = plan_;
    cplan["ready"] = json::array();
    for (const auto& c : ready_["configs"]) cplan["ready"].push_back({{"index", c["index"]}, {"config", c["config"]}});
    cplan["confine_lib"] = rt_.confine_lib.string();
    for (size_t k : order_) {  // read at "init"
      cplan["cmd_fifo"] = exchange(fmt::format("cmd-{}", k));
      cplan["rep_fifo"] = exchange(fmt::format("rep-{}", k));
      mkfifo(cplan["cmd_fifo"].get<std::string>().c_str(), 0600);
      mkfifo(cplan["rep_fifo"].get<std::string>().c_str(), 0600);
      std::ofstream(exchange(fmt::format("cplan-{}.json", k))) << cplan.dump();
    }
    return true;
  }

  // Starts the workers of `ks` not started yet and gives them all "init" at once (init_workers).
  void init_batch(const std::vector<size_t>& ks) {
    std::vector<size_t> got;
    std::vector<WorkerProcess*> ws;
    for (size_t k : ks) {
      if (!workers_[k]) workers_[k] = spawn_candidate(k);
      if (workers_[k]) {
        got.push_back(k);
        ws.push_back(workers_[k].get());
      }
    }
    // A candidate worker's init (CUDA context, timer, profiler) takes ~6 s on the H200; a hung one is
    // killed after this (and replaced once), not after the reference's much longer limit.
    auto secs = init_workers(ws, Clock::now() + std::chrono::seconds(120));
    for (size_t i = 0; i < got.size(); ++i)
      if (secs[i] >= 0) {
        reps_[got[i]].stages["candidate_init_s"] = secs[i];
        reps_[got[i]].stages["candidate_init_batch"] = ws.size();
      }
  }

  // 5. Each candidate in turn: confined, sees inputs and weights only; the reference measures it.
  void measure_each() {
    for (size_t j = 0; j < order_.size(); ++j) {
      if (j % batch_n_ == 0) {
        // A new batch: its workers (started ahead) get "init" all at once while no candidate runs,
        // and the next batch's workers start importing (CPU only) while this one runs.
        init_batch(std::vector<size_t>(order_.begin() + static_cast<long>(j),
                                       order_.begin() + static_cast<long>(std::min(order_.size(), j + batch_n_))));
        for (size_t i = j + batch_n_; i < std::min(order_.size(), j + 2 * batch_n_); ++i) workers_[order_[i]] = spawn_candidate(order_[i]);
      }
      if (!measure_one(j)) return;
    }
  }

  // The candidate order_[j]; false when the run cannot go on (no reference).
  bool measure_one(size_t j) {
    const size_t k = order_[j];
    auto& r = reps_[k];
    r.base.gpu_stages_run = true;
    r.stages["reference_s"] = reference_s_;
    if (ready_.contains("stages") && ready_["stages"].is_object())  // the reference's own breakdown
      for (const auto& [key, v] : ready_["stages"].items())
        if (v.is_number()) r.stages["reference_" + key] = v;
    if (n_ > 1) r.stages["reference_shared_by"] = std::count(live_.begin(), live_.end(), true);
    if (workers_[k]) workers_[k]->step(0);  // anything new since its "initialized": did it end while it waited?
    if (!workers_[k] || workers_[k]->exited || !workers_[k]->has_event("initialized")) {
      // Not started, or it ended or hung before "go" (no candidate code had run in it): once more,
      // fresh and alone (no candidate runs now).
      r.stages.erase("candidate_init_s");
      r.stages.erase("candidate_init_batch");
      r.stages["candidate_init_retry"] = 1;
      workers_[k].reset();
      init_batch({k});
    }
    auto cwp = std::move(workers_[k]);
    if (!cwp) {
      set_verdict(r, Verdict::RuntimeError, "internal: cannot start the candidate worker");
      return true;
    }
    WorkerProcess& cw = *cwp;
    if (cw.exited || !cw.has_event("initialized")) {
      cw.wait_exit(Clock::now() + std::chrono::seconds(1));  // the rest of its output, for the message
      set_verdict(r, Verdict::RuntimeError,
                  fmt::format("internal: the candidate worker did not initialise, twice, before any candidate code ran ({}): {}",
                              cw.describe(), cw.output_tail(400)));
      return true;
    }
    auto c0 = Clock::now();
    cw.write_line("go");
    // The reference measures it through its FIFOs ("run K CMD REP"); both processes are read
    // meanwhile (a candidate that fills its output pipe must not stall), until "measured K".
    WorkerProcess& ref = *ref_;
    ref.write_line(fmt::format("run {} {} {}", k, exchange(fmt::format("cmd-{}", k)), exchange(fmt::format("rep-{}", k))));
    auto deadline = Clock::now() + seconds_ms(o_.impl_timeout_s);
    auto measured = [&] { return count_events(ref, "measured") > measured_n_ || ref.has_event("fatal"); };
    while (!measured() && !ref.finished() && Clock::now() < deadline) {
      ref.step(10);
      cw.step(0);
    }
    bool got = measured();
    ++measured_n_;
    cw.close_stdin();
    cw.wait_exit(Clock::now() + std::chrono::seconds(got ? 5 : 0));  // it ends at "exit"; else it is killed
    cw.kill_all();
    auto cp = parse_channel(cw.channel, cw.overflow, true);
    r.stages["candidate_s"] = since(c0);
    for (const auto& e : cp.events)  // the worker's own breakdown: diagnostics only, under its own prefix
      if (e["event"] == "done" && e.contains("stages") && e["stages"].is_object())
        for (const auto& [key, v] : e["stages"].items())
          if (v.is_number() && key.size() < 32) r.stages["candidate_worker_" + key] = v;
    std::vector<json> mine;
    bool usable = false;  // only the reference's own "measured" line says it can go on
    std::set<std::string> have;
    for (const auto& e : parse_channel(ref.channel, ref.overflow, false).events)
      if (e.value("candidate", -1) == static_cast<int>(k)) {
        mine.push_back(e);
        if (e["event"] == "measured") usable = e.value("usable", false);
        if (e["event"] == "result") have.insert(e.value("config", ""));
      }
    if (!got)  // the whole run outlasted its limit (the reference is left waiting on the candidate)
      for (const auto& c : t_.configs)
        if (!have.count(c.name))
          mine.push_back({{"event", "result"}, {"config", c.name}, {"status", have.empty() ? "timeout" : "not_run"},
                          {"message", fmt::format("the candidate's run did not finish within {:.0f} s", o_.impl_timeout_s)}});
    judge_candidate(r, t_, o_, cw, cp, mine, ref);
    if (!usable) {
      // A call left the reference's stream waiting on this candidate (or the reference died): a fresh
      // reference from the same seed measures the rest, and the workers started ahead against the
      // old one's buffers are started again.
      measured_n_ = 0;
      std::string err;
      if ((ref_ = start_worker(rargv_, err))) {
        until_ready(*ref_);
        if (!ref_->has_event("ready")) {  // started, but failed or hung before it was ready: as good as none
          err = not_ready_reason(*ref_);
          ref_.reset();  // killed
        }
      }
      if (!ref_) {
        // the candidates judged so far keep their verdicts (this one's included: its run is what left
        // the reference waiting); the ones not run yet are not evaluated, which is no fault of theirs
        for (size_t i = j + 1; i < order_.size(); ++i)
          set_task_error(reps_[order_[i]], t_.id, "internal: not evaluated: the reference worker could not be restarted: " + err);
        return false;
      }
      for (size_t i = j + 1; i < order_.size(); ++i) workers_[order_[i]].reset();
      r.stages["reference_restarted"] = 1;
    }
    return true;
  }

  // 6. Baselines once for the run: eager PyTorch and torch.compile on the same inputs.
  void baselines() {
    if (!ref_) return;
    auto b0 = Clock::now();
    WorkerProcess& ref = *ref_;
    if (o_.baselines) ref.write_line("baselines");
    if (o_.keep_spare) start_spare(rt_, env_);  // imports while the baselines are timed (CPU only)
    ref.close_stdin();
    ref.wait_exit(reference_deadline());
    std::map<std::string, double> eager, compiled;
    std::map<std::string, std::string> errors;
    // Per kind (summed over perf configs): all of it (setup_s), the warm-up calls, the timed loop, and
    // its samples kept and discarded (throttled SM clock).
    json base_stages = json::object();
    for (const auto& e : parse_channel(ref.channel, ref.overflow, false).events) {
      if (e["event"] != "baseline") continue;
      std::string c = e.value("config", "");
      if (e.contains("error")) {
        errors[c] += fmt::format("{}{}: {}", errors[c].empty() ? "" : "; ", e.value("kind", ""), e.value("error", ""));
        continue;
      }
      (e.value("kind", "") == "eager" ? eager : compiled)[c] = e.value("median_ms", -1.0);
      for (const char* f : {"setup_s", "warmup_s", "timed_s", "samples", "discarded"})
        if (e.contains(f) && e[f].is_number()) {
          auto key = fmt::format("baseline_{}_{}", e.value("kind", "?"), f);
          base_stages[key] = e[f].get<double>() + base_stages.value(key, 0.0);
        }
    }
    double base_s = since(b0);
    for (auto& r : reps_) {
      if (!r.base.gpu_stages_run) continue;
      r.eager_ms = eager;
      r.compile_ms = compiled;
      r.baseline_errors = errors;
      if (o_.baselines) {
        r.stages["baselines_s"] = base_s;
        for (const auto& [key, v] : base_stages.items()) r.stages[key] = v;
      }
      add_speedups(r);
    }
  }

  const task::TorchTask& t_;
  const std::vector<fs::path>& candidates_;
  const TorchEvalOptions& o_;
  const size_t n_;
  std::vector<TorchEvalReport> reps_;
  const TorchRuntime rt_;
  const std::string salt_;  // the toolchain's: finds cached extension builds
  std::vector<TorchStatic> sts_;
  std::vector<bool> live_;  // still in the run
  std::string device_ = "cpu";
  fs::path x_;              // the exchange folder
  RemoveOnExit cleanup_;
  std::vector<std::string> env_;
  json plan_, ready_;
  std::vector<std::string> rargv_;
  std::unique_ptr<WorkerProcess> ref_;
  std::string seed_line_;
  double reference_s_ = 0;
  std::vector<size_t> order_;  // the live candidates, in turn
  size_t batch_n_ = 1;
  std::vector<std::unique_ptr<WorkerProcess>> workers_;  // started ahead, by candidate; unused ones are killed
  size_t measured_n_ = 0;
};

}  // namespace

std::vector<TorchEvalReport> evaluate_torch_candidates(const task::TorchTask& t, const std::vector<fs::path>& candidates,
                                                       const TorchEvalOptions& o) {
  return TorchRun(t, candidates, o).run();
}

}  // namespace cudaperf::torch2cuda
