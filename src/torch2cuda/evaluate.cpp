// Evaluation of torch2cuda candidates: the supervisor's run of the static guards, builds, the
// reference worker, each candidate worker in turn and the baselines (evaluate.hpp).
#include "cudaperf/torch2cuda/evaluate.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <thread>

#include "build.hpp"
#include "clock.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"
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

}  // namespace

std::vector<TorchEvalReport> evaluate_torch_candidates(const task::TorchTask& t, const std::vector<fs::path>& candidates,
                                                       const TorchEvalOptions& o) {
  const size_t n = candidates.size();
  std::vector<TorchEvalReport> reps(n);
  TorchRuntime rt = torch_runtime();
  // The interpreter's torch, probed once per process: the salt finds cached extension builds.
  const std::string salt = torch_toolchain_salt(rt);
  // 1. Static guards (any machine, no torch), each candidate.
  std::vector<TorchStatic> sts(n);
  std::vector<bool> live(n, true);
  for (size_t k = 0; k < n; ++k) {
    auto& r = reps[k];
    r.base.task_id = t.id;
    r.base.candidate = candidates[k].string();
    r.mode = o.mode;
    if (rt.test_mode) continue;
    auto t0 = Clock::now();
    auto& st = sts[k] = torch_static_check(candidates[k], rt, salt);
    r.stages["static_s"] = since(t0);
    live[k] = false;
    if (st.syntax_error) set_verdict(r, Verdict::CompileError, st.error);
    else if (!st.error.empty()) set_verdict(r, Verdict::RuntimeError, "internal: " + st.error);
    else if (!st.findings.empty()) {
      r.findings = st.findings;
      std::string msg;
      for (const auto& f : st.findings) msg += fmt::format("{}rule {} (line {}): {}", msg.empty() ? "" : "\n", f.rule, f.line, f.message);
      set_verdict(r, Verdict::HackSuspected, msg);
    } else if (!st.unresolved.empty()) {
      set_verdict(r, Verdict::CompileError, "load_inline cannot be built ahead of the run (sources, names and flags must be module-level constants): " + st.unresolved.front());
    } else {
      live[k] = true;
    }
  }
  // 2. Where it runs.
  bool have_gpu = false;
  std::string device = "cpu", where;
  if (rt.test_mode) {
    where = "cpu (test mode: pure-torch candidates, own-kernel guard off)";
  } else {
    where = o.run_gpu ? verify::describe_gpu(have_gpu) : "GPU stages not requested (--no-gpu)";
    device = "cuda";
  }
  for (auto& r : reps) r.base.device = where;
  auto skip_all = [&](const std::string& msg) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) reps[k].base.message = msg;
    return reps;
  };
  if (!rt.test_mode && !have_gpu) return skip_all(fmt::format("passed the static guards; GPU stages skipped: {}", where));
  std::string why;
  if (rt.worker.empty() && !torch_importable(rt, why))
    return skip_all(fmt::format("passed the static guards; GPU stages skipped: {} (set CUDAPERF_PYTHON)", why));
  if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) return reps;
  fs::path x = make_exchange_dir();
  if (x.empty()) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) set_verdict(reps[k], Verdict::RuntimeError, "internal: no exchange folder");
    return reps;
  }
  RemoveOnExit cleanup{x};
  auto env = worker_env(rt);
  fs::path cache = compile::default_cache_dir();
  // 3. Build (cached per content hash), before and outside the confined run. The candidates that
  //    miss the cache build side by side, one build worker each, the cores shared among them.
  std::vector<std::optional<json>> hit(n);
  std::vector<size_t> todo;
  for (size_t k = 0; k < n; ++k) {
    if (!live[k] || rt.test_mode) continue;
    // Every extension already in the cache (the keys came with the static check): no build worker.
    hit[k] = cached_extensions(sts[k], salt, cache);
    if (!hit[k]) todo.push_back(k);
  }
  std::vector<BuildOutcome> built(n);
  std::vector<double> build_s(n, 0.0);
  if (!todo.empty()) {
    auto benv = with_build_jobs(env, todo.size());
    parallel_for(todo.size(), std::min<unsigned>(static_cast<unsigned>(todo.size()), default_jobs()), [&](size_t j) {
      auto t0 = Clock::now();
      built[todo[j]] = run_build(rt, benv, candidates[todo[j]], cache, o.build_timeout_s, sts[todo[j]].extensions, salt);
      build_s[todo[j]] = since(t0);
    });
  }
  for (size_t k = 0; k < n; ++k) {
    if (!live[k]) continue;
    auto& r = reps[k];
    json manifest = {{"extensions", json::array()}, {"salt", ""}};
    if (!rt.test_mode) {
      if (hit[k]) {
        r.build = {{"seconds", 0.0}, {"extensions", *hit[k]}, {"cache_hits", hit[k]->size()}, {"worker", false}};
        manifest = {{"extensions", *hit[k]}, {"salt", salt}};
      } else {
        auto& b = built[k];
        r.build = b.build;
        r.stages["build_s"] = build_s[k];
        if (todo.size() > 1) r.stages["builds_side_by_side"] = todo.size();
        if (b.verdict != Verdict::Ok) {
          set_verdict(r, b.verdict, b.message);
          live[k] = false;
          continue;
        }
        manifest = b.manifest;
      }
    }
    std::ofstream(x / fmt::format("manifest-{}.json", k)) << manifest.dump();
    if (!r.stages.contains("build_s")) r.stages["build_s"] = 0.0;
  }
  if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) return reps;
  // 4. Reference: inputs from the secret seed, expected outputs kept in its memory; shared by every
  //    candidate of this call (one set of inputs, as in one C-to-CUDA GPU run).
  auto ref0 = Clock::now();
  json plan = {{"reference", fs::absolute(t.reference).string()}, {"rtol", t.rtol}, {"atol", t.atol}, {"eval_mode", o.mode},
               {"deterministic", t.deterministic}, {"input_dist", t.input_dist}, {"configs", plan_configs(t, true)},
               {"device", device}, {"trials", o.trials}, {"xdir", x.string()}, {"baselines", o.baselines},
               {"call_timeout_s", o.call_timeout_s}, {"test_mode", rt.test_mode},
               {"timing", {{"min_samples", o.timing.min_samples}, {"max_samples", o.timing.max_samples},
                           {"target_rel_stdev", o.timing.target_rel_stdev}, {"budget_s", o.timing.budget_s}}}};
  std::ofstream(x / "plan.json") << plan.dump();
  auto fail_live = [&](Verdict v, const std::string& msg) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) set_verdict(reps[k], v, msg);
    return reps;
  };
  std::string err;
  auto rargv = worker_argv(rt, "reference");
  rargv.insert(rargv.end(), {"--plan", (x / "plan.json").string()});
  auto refp = take_spare(rt, env, rargv);  // torch already imported there, when a spare was kept
  const bool from_spare = refp != nullptr;
  if (!refp) {
    refp = std::make_unique<WorkerProcess>();
    if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot start the reference worker: " + err);
  }
  // Candidate workers are started ahead (Python and torch imports take seconds), a batch of D at a
  // time (init_ahead()), and wait on their stdin before they read their plan or touch the GPU: the
  // first batch imports while the reference draws its inputs, each next one while the previous
  // batch runs. Then (step 5) the batch gets "init" all at once — plan, CUDA context, timer,
  // profiler, side by side while no candidate runs — and "go" one worker at a time.
  std::vector<size_t> order;  // the live candidates, in turn
  for (size_t k = 0; k < n; ++k)
    if (live[k]) order.push_back(k);
  const size_t batch_n = std::min(order.size(), init_ahead());
  auto spawn = [&](size_t k) {
    auto w = std::make_unique<WorkerProcess>();
    auto cargv = worker_argv(rt, "candidate");
    cargv.insert(cargv.end(), {"--plan", (x / fmt::format("cplan-{}.json", k)).string(), "--candidate", fs::absolute(candidates[k]).string(),
                               "--manifest", (x / fmt::format("manifest-{}.json", k)).string(), "--wait-for-go"});
    std::string e;
    if (!w->start(cargv, env, e)) w.reset();
    return w;
  };
  std::vector<std::unique_ptr<WorkerProcess>> workers(n);  // started ahead, by candidate; unused ones are killed
  for (size_t j = 0; j < batch_n; ++j) workers[order[j]] = spawn(order[j]);
  const std::string seed_line = json{{"seed", o.seed ? o.seed : fresh_seed()}}.dump();  // never on a command line
  auto ref_deadline = [&] { return Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.reference_timeout_s * 1000)); };
  // A candidate worker's init (CUDA context, timer, profiler) takes ~6 s on the H200; a hung one is
  // killed after this (and replaced once), not after the reference's much longer limit.
  auto init_deadline = [&] { return Clock::now() + std::chrono::seconds(120); };
  auto until_ready = [&](WorkerProcess& w) {
    w.write_line(seed_line);
    w.pump(ref_deadline(), [&] { return w.has_event("ready") || w.has_event("fatal"); });
  };
  until_ready(*refp);
  if (from_spare && !refp->has_event("ready") && !refp->has_event("fatal")) {
    // The spare died before it got ready (killed, or broken since it started): once more, fresh.
    refp = std::make_unique<WorkerProcess>();
    if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot start the reference worker: " + err);
    until_ready(*refp);
  }
  json ready;
  WorkerProcess& ref0_ = *refp;
  for (const auto& e : parse_channel(ref0_.channel, ref0_.overflow, false).events) {
    if (e["event"] == "ready") ready = e;
    if (e["event"] == "fatal")
      return fail_live(Verdict::RuntimeError, "the task's reference failed (a dataset problem, not the candidate's): " + e.value("message", ""));
  }
  if (ready.is_null())
    return fail_live(Verdict::RuntimeError, fmt::format("the task's reference worker did not get ready ({}): {}", ref0_.describe(), ref0_.output_tail(800)));
  double ref_s = since(ref0);
  for (auto& r : reps)
    if (ready.contains("hidden") && ready["hidden"].is_object()) r.hidden = ready["hidden"];
  // 5. Each candidate in turn: confined, sees inputs and weights only; then the reference compares.
  json cplan = plan;
  cplan["ready"] = json::array();
  for (const auto& c : ready["configs"]) cplan["ready"].push_back({{"index", c["index"]}, {"config", c["config"]}});
  cplan["confine_lib"] = rt.confine_lib.string();
  for (size_t k : order) {  // the plans differ only in their FIFOs to the reference; read at "init"
    cplan["cmd_fifo"] = (x / fmt::format("cmd-{}", k)).string();
    cplan["rep_fifo"] = (x / fmt::format("rep-{}", k)).string();
    mkfifo(cplan["cmd_fifo"].get<std::string>().c_str(), 0600);
    mkfifo(cplan["rep_fifo"].get<std::string>().c_str(), 0600);
    std::ofstream(x / fmt::format("cplan-{}.json", k)) << cplan.dump();
  }
  // Starts the workers of `ks` not started yet and gives them all "init" at once (init_workers).
  auto init_batch = [&](const std::vector<size_t>& ks) {
    std::vector<size_t> got;
    std::vector<WorkerProcess*> ws;
    for (size_t k : ks) {
      if (!workers[k]) workers[k] = spawn(k);
      if (workers[k]) {
        got.push_back(k);
        ws.push_back(workers[k].get());
      }
    }
    auto secs = init_workers(ws, init_deadline());
    for (size_t i = 0; i < got.size(); ++i)
      if (secs[i] >= 0) {
        reps[got[i]].stages["candidate_init_s"] = secs[i];
        reps[got[i]].stages["candidate_init_batch"] = ws.size();
      }
  };
  size_t measured_n = 0;
  for (size_t j = 0; j < order.size(); ++j) {
    const size_t k = order[j];
    if (j % batch_n == 0) {
      // A new batch: its workers (started ahead) get "init" all at once while no candidate runs,
      // and the next batch's workers start importing (CPU only) while this one runs.
      init_batch(std::vector<size_t>(order.begin() + static_cast<long>(j),
                                     order.begin() + static_cast<long>(std::min(order.size(), j + batch_n))));
      for (size_t i = j + batch_n; i < std::min(order.size(), j + 2 * batch_n); ++i) workers[order[i]] = spawn(order[i]);
    }
    auto& r = reps[k];
    r.base.gpu_stages_run = true;
    r.stages["reference_s"] = ref_s;
    if (ready.contains("stages") && ready["stages"].is_object())  // the reference's own breakdown
      for (const auto& [key, v] : ready["stages"].items())
        if (v.is_number()) r.stages["reference_" + key] = v;
    if (n > 1) r.stages["reference_shared_by"] = std::count(live.begin(), live.end(), true);
    if (workers[k]) workers[k]->step(0);  // anything new since its "initialized": did it end while it waited?
    if (!workers[k] || workers[k]->exited || !workers[k]->has_event("initialized")) {
      // Not started, or it ended or hung before "go" (no candidate code had run in it): once more,
      // fresh and alone (no candidate runs now).
      r.stages.erase("candidate_init_s");
      r.stages.erase("candidate_init_batch");
      r.stages["candidate_init_retry"] = 1;
      workers[k].reset();
      init_batch({k});
    }
    auto cwp = std::move(workers[k]);
    if (!cwp) {
      set_verdict(r, Verdict::RuntimeError, "internal: cannot start the candidate worker");
      continue;
    }
    WorkerProcess& cw = *cwp;
    if (cw.exited || !cw.has_event("initialized")) {
      cw.wait_exit(Clock::now() + std::chrono::seconds(1));  // the rest of its output, for the message
      set_verdict(r, Verdict::RuntimeError,
                  fmt::format("internal: the candidate worker did not initialise, twice, before any candidate code ran ({}): {}",
                              cw.describe(), cw.output_tail(400)));
      continue;
    }
    auto c0 = Clock::now();
    cw.write_line("go");
    // 6. The reference measures it through its FIFOs ("run K CMD REP"); both processes are read
    //    meanwhile (a candidate that fills its output pipe must not stall), until "measured K".
    WorkerProcess& ref = *refp;
    ref.write_line(fmt::format("run {} {} {}", k, (x / fmt::format("cmd-{}", k)).string(), (x / fmt::format("rep-{}", k)).string()));
    auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.impl_timeout_s * 1000));
    auto measured = [&] { return count_events(ref, "measured") > measured_n || ref.has_event("fatal"); };
    while (!measured() && !ref.finished() && Clock::now() < deadline) {
      ref.step(10);
      cw.step(0);
    }
    bool got = measured();
    ++measured_n;
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
      for (const auto& c : t.configs)
        if (!have.count(c.name))
          mine.push_back({{"event", "result"}, {"config", c.name}, {"status", have.empty() ? "timeout" : "not_run"},
                          {"message", fmt::format("the candidate's run did not finish within {:.0f} s", o.impl_timeout_s)}});
    judge_candidate(r, t, o, cw, cp, mine, ref);
    if (!usable) {
      // A call left the reference's stream waiting on this candidate (or the reference died): a fresh
      // reference from the same seed measures the rest, and the workers started ahead against the
      // old one's buffers are started again.
      measured_n = 0;
      refp = std::make_unique<WorkerProcess>();
      if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot restart the reference worker: " + err);
      until_ready(*refp);
      for (size_t i = j + 1; i < order.size(); ++i) workers[order[i]].reset();
      r.stages["reference_restarted"] = 1;
    }
  }
  // 7. Baselines once for the run: eager PyTorch and torch.compile on the same inputs.
  auto b0 = Clock::now();
  WorkerProcess& ref = *refp;
  if (o.baselines) ref.write_line("baselines");
  if (o.keep_spare) start_spare(rt, env);  // imports while the baselines are timed (CPU only)
  ref.close_stdin();
  ref.wait_exit(ref_deadline());
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
  for (size_t k = 0; k < n; ++k) {
    if (!reps[k].base.gpu_stages_run) continue;
    reps[k].eager_ms = eager;
    reps[k].compile_ms = compiled;
    reps[k].baseline_errors = errors;
    if (o.baselines) {
      reps[k].stages["baselines_s"] = base_s;
      for (const auto& [key, v] : base_stages.items()) reps[k].stages[key] = v;
    }
    add_speedups(reps[k]);
  }
  return reps;
}

}  // namespace cudaperf::torch2cuda
