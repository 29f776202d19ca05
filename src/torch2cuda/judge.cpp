// Judging a torch2cuda candidate (judge.hpp).
#include "judge.hpp"

#include <signal.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <map>
#include <utility>

#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::torch2cuda::detail {

using nlohmann::json;
using verify::ConfigResult;
using verify::Verdict;

void set_verdict(TorchEvalReport& r, Verdict v, std::string msg) {
  r.base.verdict = v;
  r.base.message = std::move(msg);
}

void set_task_error(TorchEvalReport& r, const std::string& task_id, const std::string& what) {
  set_verdict(r, Verdict::TaskError, verify::task_error_message(task_id, what));
}

namespace {
// The status of the config the candidate worker was in when it ended, from how it ended.
std::pair<std::string, std::string> ended_status(const WorkerProcess& w, double call_timeout_s) {
  int sig = w.signal_number();
  if (sig == SIGALRM)
    return {"timeout", fmt::format("one call did not return within {:.0f} s (per-call watchdog; worker killed)", std::max(1.0, std::ceil(call_timeout_s)))};
  if (w.timed_out) return {"timeout", fmt::format("the candidate worker {}", w.describe())};
  if (sig == sandbox::forbidden_call_signal())
    return {"hack_suspected", "rule sandbox: a forbidden system call (network, processes, namespaces, ptrace or signals to others): worker killed by SIGSYS"};
  if (sig == SIGXFSZ) return {"hack_suspected", "rule sandbox: tried to write a file: worker killed by SIGXFSZ"};
  if (sig != 0) return {"runtime_error", fmt::format("the candidate worker crashed: {}; {}", w.describe(), w.output_tail(400))};
  return {"hack_suspected", fmt::format("rule result_channel: the worker ended on its own ({}) without finishing", w.describe())};
}
}  // namespace

void judge_candidate(TorchEvalReport& r, const task::TorchTask& t, const TorchEvalOptions& o, const WorkerProcess& cw,
                     const ChannelParse& cp, const std::vector<json>& ref_events, const WorkerProcess& ref) {
  std::map<std::string, json> res;
  std::string worker_fatal, task_error;
  for (const auto& e : cp.events) {
    std::string ev = e["event"];
    if (ev == "sandbox") r.sandbox = e.value("status", "");
    else if (ev == "fatal") worker_fatal = e.value("message", "");
  }
  for (const auto& e : ref_events)
    if (e["event"] == "result") res[e.value("config", "")] = e;
  if (!cp.forged.empty()) {
    set_verdict(r, Verdict::HackSuspected, cp.forged);
    return;
  }
  for (const auto& c : t.configs) {
    ConfigResult cr;
    cr.config = c.name;
    cr.perf = c.perf;
    auto it = res.find(c.name);
    if (it == res.end()) {
      cr.status = "runtime_error";
      cr.message = !worker_fatal.empty() ? "internal: the candidate worker failed: " + worker_fatal
                                         : fmt::format("internal: the reference did not measure this config ({}): {}",
                                                       ref.describe(), ref.output_tail(400));
      r.base.configs.push_back(cr);
      continue;
    }
    const json& e = it->second;
    cr.status = e.value("status", "runtime_error");
    cr.message = e.value("message", "");
    if (cr.status == "timeout" || cr.status == "ended") {
      // how the candidate's process ended says what happened (watchdog, forbidden call, crash)
      auto [st, msg] = cw.exited ? ended_status(cw, o.call_timeout_s)
                                 : std::pair<std::string, std::string>{"timeout", cr.message};
      if (cr.status == "timeout" && st == "hack_suspected" && !cw.timed_out && cw.signal_number() == 0) st = "timeout";
      cr.status = st;
      cr.message = msg + (cr.message.empty() ? "" : " (" + cr.message + ")");
    } else if (cr.status == "internal") {
      cr.status = "runtime_error";
      cr.message = "internal: " + cr.message;
    } else if (cr.status == "task_error" && task_error.empty()) {
      // the measurer's own check (torch_measure.TaskError: the task's inputs or reference outputs changed
      // shape under the secret seed); only the reference says it (a candidate's statuses are whitelisted)
      task_error = fmt::format("config '{}': {}", c.name, cr.message);
    }
    if (e.contains("median_ms") && e["median_ms"].is_number()) {
      cr.median_ms = e.value("median_ms", -1.0);
      cr.min_ms = e.value("min_ms", -1.0);
      cr.q1_ms = e.value("q1_ms", -1.0);
      cr.q3_ms = e.value("q3_ms", -1.0);
      cr.rel_stdev = e.value("rel_stdev", -1.0);
      cr.samples = e.value("samples", 0);
      cr.timed_calls = e.value("timed_calls", 0);
      cr.discarded = e.value("discarded", 0);
    }
    // the cross-process handshake the reference measured and subtracted (torch_measure.handshake), and
    // what its window rules compared (torch_measure.judge_window): kept so that a verdict can be checked
    for (const char* key : {"handshake_ms", "floor_ms", "pre_window_ms", "pre_calibrated_ms", "after_window_ms", "after_calibrated_ms"})
      if (e.contains(key) && e[key].is_number()) r.stages[key] = e[key].get<double>();
    Verdict v;
    if (cr.status != "ok" && cr.status != "not_run" && !parse_verdict(cr.status, v)) {
      cr.message = fmt::format("internal: unknown status '{}' from the reference: {}", cr.status, cr.message);
      cr.status = "runtime_error";
    }
    r.base.configs.push_back(cr);
  }
  if (!task_error.empty()) {  // no verdict of the candidate (a hack would have stopped its run before)
    set_task_error(r, t.id, task_error);
    return;
  }
  // Verdict: a hack anywhere wins; otherwise the first config that failed.
  r.base.verdict = Verdict::Ok;
  for (int pass = 0; pass < 2 && r.base.verdict == Verdict::Ok; ++pass)
    for (const auto& c : r.base.configs) {
      if (c.status == "ok" || c.status == "not_run") continue;
      if (pass == 0 && c.status != "hack_suspected") continue;
      Verdict v = Verdict::RuntimeError;
      parse_verdict(c.status, v);
      set_verdict(r, v, fmt::format("config '{}': {}", c.config, c.message));
      break;
    }
  if (r.base.verdict == Verdict::Ok &&
      std::any_of(r.base.configs.begin(), r.base.configs.end(), [](const ConfigResult& c) { return c.status != "ok"; }))
    set_verdict(r, Verdict::RuntimeError, "the candidate did not run every configuration");
  if (r.base.verdict == Verdict::Ok) r.base.message = "correct on every configuration";
}

void add_speedups(TorchEvalReport& r) {
  if (r.base.verdict != Verdict::Ok) return;
  double log_e = 0, log_c = 0;
  int n_e = 0, n_c = 0;
  for (const auto& c : r.base.configs) {
    if (c.status != "ok" || !c.perf || c.median_ms <= 0) continue;
    if (auto b = r.eager_ms.find(c.config); b != r.eager_ms.end() && b->second > 0) log_e += std::log(b->second / c.median_ms), ++n_e;
    if (auto b = r.compile_ms.find(c.config); b != r.compile_ms.end() && b->second > 0) log_c += std::log(b->second / c.median_ms), ++n_c;
  }
  if (n_e) r.speedup_vs_eager = std::exp(log_e / n_e);
  if (n_c) r.speedup_vs_compile = std::exp(log_c / n_c);
}

}  // namespace cudaperf::torch2cuda::detail
