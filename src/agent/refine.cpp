#include "cudaperf/agent/refine.hpp"

#include <chrono>
#include <fmt/format.h>
#include <fstream>
#include <memory>
#include <mutex>

#include "cudaperf/agent/extract.hpp"
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/util/parallel.hpp"

namespace cudaperf::agent {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

std::string trim_end(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string safe_name(std::string id) {
  for (auto& c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return id;
}

json opt(const std::optional<double>& v) { return v ? json(*v) : json(nullptr); }

json attempts_json(const std::vector<Attempt>& as) {
  json a = json::array();
  for (const auto& x : as)
    a.push_back({{"status", x.status}, {"error", x.error.empty() ? json(nullptr) : json(x.error)}, {"seconds", x.seconds},
                 {"waited_s", x.waited_s}});
  return a;
}

std::string joined(const std::vector<Diagnostic>& ds) {
  std::string s;
  for (const auto& d : ds) s += (s.empty() ? "" : "; ") + (d.file.empty() ? d.message : d.to_string());
  return s;
}

}  // namespace

Evaluator in_process_evaluator(const reward::RewardConfig& cfg, const reward::ScoreOptions& o, bool serialize) {
  auto mu = std::make_shared<std::mutex>();
  return [cfg, o, serialize, mu](const task::Task& t, const fs::path& file, const std::string&) -> Result<json> {
    std::unique_lock<std::mutex> lock(*mu, std::defer_lock);
    if (serialize) lock.lock();
    return reward::score_candidate(t, file, cfg, o);
  };
}

Result<Evaluator> service_evaluator(const std::string& url_text, double time_budget_s, double timeout_s, RetryPolicy retry,
                                    Transport transport) {
  auto u = parse_url(url_text);
  if (!u) return u.errors();
  Url url = u.value();
  return Evaluator([url, time_budget_s, timeout_s, retry, transport](const task::Task& t, const fs::path&,
                                                                     const std::string& code) -> Result<json> {
    auto t0 = std::chrono::steady_clock::now();
    double wait_s = std::clamp(timeout_s, 1.0, 600.0);
    Timeouts to;
    to.read_s = wait_s + 60;
    HttpRequest req;
    req.path = url.path + "/v1/evaluate";
    req.body = json{{"requests", json::array({{{"task", t.id}, {"source", code}, {"options", {{"time_budget_s", time_budget_s}}}}})},
                    {"wait_s", wait_s}}
                   .dump();
    json job;
    auto accept_job = [&job](const HttpResponse& r) -> std::string {
      auto j = json::parse(r.body, nullptr, false);
      if (j.is_discarded() || !j.is_object()) return "malformed JSON from the reward service";
      if (j.contains("jobs")) {
        if (!j["jobs"].is_array() || j["jobs"].empty() || !j["jobs"][0].is_object()) return "no job in the service's reply";
        j = j["jobs"][0];
      }
      if (!j.contains("id") || !j.contains("state")) return "the service's job has no id or state";
      job = j;
      return "";
    };
    auto r = send_with_retries(transport, url, req, to, retry, sleep_seconds, accept_job);
    if (!r) return r.errors();
    while (job.value("state", "") != "done") {
      if (seconds_since(t0) > timeout_s)
        return Diagnostic{"", 0, 0, fmt::format("the reward service did not finish job {} within {:g} s (state {})",
                                                job.value("id", "?"), timeout_s, job.value("state", "?"))};
      sleep_seconds(1);
      HttpRequest get;
      get.method = "GET";
      get.path = url.path + "/v1/jobs/" + job.value("id", "");
      Timeouts gt;
      gt.read_s = 60;
      auto g = send_with_retries(transport, url, get, gt, retry, sleep_seconds, accept_job);
      if (!g) return g.errors();
    }
    if (!job.contains("result") || !job["result"].is_object() || !job["result"].contains("verdict"))
      return Diagnostic{"", 0, 0, fmt::format("the reward service's job {} has no result with a verdict", job.value("id", "?"))};
    return json(job["result"]);
  });
}

Analyzer static_analyzer(const fs::path& task_root, const reward::RewardConfig& cfg, size_t n) {
  return [task_root, cfg, n](const task::Task& t, const fs::path& file) -> Result<std::vector<Finding>> {
    analysis::AnalyzeOptions ao;
    ao.task_id = t.id;
    ao.task_root = task_root;
    auto r = analysis::analyze_file(file, ao);
    if (!r) return r.errors();
    return costly_findings(r.value(), cfg, n);
  };
}

Candidate as_candidate(const Turn& turn, int sample) {
  Candidate c;
  c.round = turn.round;
  c.sample = sample;
  c.verdict = turn.verdict;
  c.speedup = turn.verdict == "ok" ? turn.speedup : std::nullopt;
  c.reward = turn.reward;
  c.code = turn.code;
  for (const auto& f : turn.findings) c.findings.push_back(f.message);
  return c;
}

namespace {

std::optional<size_t> best_of(const Trajectory& tr) {
  std::optional<size_t> best;
  for (size_t i = 0; i < tr.turns.size(); ++i) {
    if (tr.turns[i].code.empty()) continue;
    if (!best || ranks_above(as_candidate(tr.turns[i], tr.sample), as_candidate(tr.turns[*best], tr.sample))) best = i;
  }
  return best;
}

// One round of one trajectory: ask, extract, evaluate, analyse. Feedback comes after the round.
void step(const task::Task& t, const ChatClient& client, const Evaluator& evaluate, const Analyzer& analyze,
          const RefineOptions& o, Trajectory& tr, int round) {
  Turn turn;
  turn.round = round;
  turn.prompt_index = tr.messages.size() - 1;
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Attempt> attempts;
  auto reply = client.complete(tr.messages, &attempts);
  turn.model_s = seconds_since(t0);
  if (!reply) {
    tr.status = "endpoint_error";
    tr.error = fmt::format("round {}: {}", round, joined(reply.errors()));
    tr.error_attempts = attempts;
    if (o.log) o.log(fmt::format("{} sample {} round {}: endpoint error: {}", t.id, tr.sample, round, tr.error));
    return;
  }
  turn.attempts = reply->attempts;
  turn.answer = reply->content;
  turn.finish_reason = reply->finish_reason;
  turn.usage = reply->usage;
  tr.messages.push_back({"assistant", reply->content});
  turn.answer_index = tr.messages.size() - 1;
  turn.code = extract_code(reply->content);
  if (turn.code.empty()) {
    turn.verdict = "no_code";
    turn.no_code_reason = missing_code_reason(reply->content);
    turn.message = turn.no_code_reason == "unclosed" ? "the answer ends inside an unclosed code block"
                   : turn.no_code_reason == "empty" ? "the answer has only empty code blocks"
                                                     : "the answer has no fenced code block";
    if (turn.finish_reason == "length") turn.message += " (finish_reason: length — cut off at max_tokens)";
    turn.reward = o.reward.gate_of(reward::Tier::Hack);  // as the reward service: no code, the lowest reward
  } else {
    fs::path dir = o.work_dir / safe_name(t.id) / fmt::format("s{}", tr.sample) / fmt::format("r{}", round);
    std::error_code ec;
    fs::create_directories(dir, ec);
    fs::path file = dir / "candidate.cu";
    {
      std::ofstream f(file);
      f << turn.code;
    }
    auto te = std::chrono::steady_clock::now();
    auto ev = evaluate(t, file, turn.code);
    turn.eval_s = seconds_since(te);
    if (!ev) {
      turn.verdict = "eval_error";
      turn.final = false;
      turn.message = joined(ev.errors());
      tr.turns.push_back(std::move(turn));
      tr.status = "eval_error";
      tr.error = fmt::format("round {}: the evaluation failed: {}", round, tr.turns.back().message);
      if (o.log) o.log(fmt::format("{} sample {} round {}: {}", t.id, tr.sample, round, tr.error));
      return;
    }
    turn.eval = ev.value();
    turn.verdict = turn_verdict(turn.eval);
    turn.final = turn.verdict != "pending_gpu";
    turn.message = turn.eval.value("message", "");
    if (turn.verdict == "ok" && turn.eval.contains("speedup") && turn.eval["speedup"].is_number())
      turn.speedup = turn.eval["speedup"].get<double>();
    if (turn.final && turn.eval.contains("reward") && turn.eval["reward"].is_object() && turn.eval["reward"].contains("total") &&
        turn.eval["reward"]["total"].is_number())
      turn.reward = turn.eval["reward"]["total"].get<double>();
    if ((turn.verdict == "ok" || turn.verdict == "pending_gpu") && analyze) {
      auto ta = std::chrono::steady_clock::now();
      auto f = analyze(t, file);
      turn.analysis_s = seconds_since(ta);
      if (f) turn.findings = f.value();
      else turn.analysis_error = joined(f.errors());
    }
  }
  if (o.log)
    o.log(fmt::format("{} sample {} round {}: {}{}", t.id, tr.sample, round, turn.verdict,
                      turn.speedup ? fmt::format(" ({:.2f}x)", *turn.speedup) : ""));
  tr.turns.push_back(std::move(turn));
}

}  // namespace

std::vector<Trajectory> refine_task(const task::Task& t, const ChatClient& client, const Evaluator& evaluate,
                                    const Analyzer& analyze, const RefineOptions& o) {
  const int k = std::max(1, o.samples);
  std::vector<Trajectory> ts(static_cast<size_t>(k));
  auto t0 = std::chrono::steady_clock::now();
  std::vector<Candidate> pool = o.history;
  auto contrastive = [&]() -> Result<std::string> {
    if (!o.contrastive) return std::string();
    return render_contrastive(o.templates, pool, o.contrastive_n, o.contrastive_lines);
  };
  auto prompt = task::render_prompt(t, o.templates);
  auto first_extra = contrastive();
  for (int s = 0; s < k; ++s) {
    auto& tr = ts[static_cast<size_t>(s)];
    tr.task = t.id;
    tr.sample = s;
    if (!prompt || !first_extra) {
      tr.status = "template_error";
      tr.error = joined(!prompt ? prompt.errors() : first_extra.errors());
      continue;
    }
    std::string system = trim_end(o.templates.file("system.md"));
    if (!system.empty()) tr.messages.push_back({"system", system});
    std::string user = prompt.value();
    if (!first_extra->empty()) user = trim_end(user) + "\n\n" + first_extra.value() + "\n";
    tr.messages.push_back({"user", user});
  }
  for (int round = 1; round <= o.rounds; ++round) {
    std::vector<size_t> active;
    for (size_t i = 0; i < ts.size(); ++i)
      if (ts[i].status == "completed") active.push_back(i);
    if (active.empty()) break;
    parallel_for(active.size(), static_cast<unsigned>(active.size()),
                 [&](size_t i) { step(t, client, evaluate, analyze, o, ts[active[i]], round); });
    // Every candidate of this round joins the contrastive pool before anyone's feedback is written.
    for (size_t i : active)
      if (ts[i].status == "completed" && !ts[i].turns.empty() && ts[i].turns.back().round == round)
        pool.push_back(as_candidate(ts[i].turns.back(), ts[i].sample));
    auto section = contrastive();
    for (size_t i : active) {
      auto& tr = ts[i];
      if (tr.status != "completed" || tr.turns.empty() || tr.turns.back().round != round) continue;
      auto& turn = tr.turns.back();
      FeedbackInput in;
      in.round = round;
      in.verdict = turn.verdict;
      in.eval = turn.eval;
      in.code = turn.code;
      in.no_code_reason = turn.no_code_reason;
      in.findings = turn.findings;
      if (section) in.contrastive = section.value();
      auto fb = section ? render_feedback(o.templates, in) : Result<std::string>(section.errors());
      if (!fb) {
        tr.status = "template_error";
        tr.error = joined(fb.errors());
        continue;
      }
      turn.feedback = fb.value();
      if (turn.verdict == "task_error") {  // the task failed, not the model: nothing for another round to fix
        tr.status = "task_error";
        tr.error = fmt::format("round {}: the task itself failed (no verdict, no reward): {}", round, turn.message);
        if (o.log) o.log(fmt::format("{} sample {}: {}", t.id, tr.sample, tr.error));
        continue;
      }
      if (round < o.rounds) tr.messages.push_back({"user", turn.feedback});
    }
  }
  for (auto& tr : ts) {
    tr.best = best_of(tr);
    tr.seconds = seconds_since(t0);
  }
  return ts;
}

std::optional<std::pair<size_t, size_t>> best_turn(const std::vector<Trajectory>& ts) {
  std::optional<std::pair<size_t, size_t>> best;
  for (size_t i = 0; i < ts.size(); ++i) {
    if (!ts[i].best) continue;
    const auto& c = ts[i].turns[*ts[i].best];
    if (!best || ranks_above(as_candidate(c, ts[i].sample), as_candidate(ts[best->first].turns[best->second], ts[best->first].sample)))
      best = std::make_pair(i, *ts[i].best);
  }
  return best;
}

json trajectory_json(const Trajectory& tr, const reward::RewardConfig& cfg, const json& run) {
  json j = {{"schema", "cudaperf.refine.v1"}, {"task", tr.task}, {"sample", tr.sample}, {"run", run}, {"status", tr.status},
            {"error", tr.error.empty() ? json(nullptr) : json(tr.error)}, {"error_attempts", attempts_json(tr.error_attempts)}};
  json msgs = json::array();
  for (const auto& m : tr.messages) msgs.push_back({{"role", m.role}, {"content", m.content}});
  j["messages"] = msgs;
  json turns = json::array(), per_turn = json::array();
  std::vector<double> rewards;
  int pending = 0;
  double model_s = 0, eval_s = 0, analysis_s = 0;
  for (const auto& t : tr.turns) {
    json findings = json::array();
    for (const auto& f : t.findings)
      findings.push_back({{"kernel", f.kernel}, {"kind", f.kind}, {"feature", f.feature}, {"message", f.message},
                          {"src_line", f.src_line}, {"count", f.count}, {"cost", f.cost}});
    json mismatch = nullptr;
    if (t.verdict == "wrong_answer")
      if (auto m = parse_mismatch(t.message))
        mismatch = {{"config", m->config}, {"buffer", m->buffer}, {"index", m->index}, {"expected", m->expected},
                    {"got", m->got}, {"bad", m->bad >= 0 ? json(m->bad) : json(nullptr)},
                    {"total", m->total >= 0 ? json(m->total) : json(nullptr)}};
    turns.push_back({{"round", t.round},
                     {"verdict", t.verdict},
                     {"final", t.final},
                     {"message", t.message},
                     {"speedup", opt(t.speedup)},
                     {"reward", opt(t.reward)},
                     {"reward_breakdown", t.eval.is_object() && t.eval.contains("reward") ? t.eval["reward"] : json(nullptr)},
                     {"code", t.code.empty() ? json(nullptr) : json(t.code)},
                     {"no_code_reason", t.no_code_reason.empty() ? json(nullptr) : json(t.no_code_reason)},
                     {"finish_reason", t.finish_reason},
                     {"usage", t.usage},
                     {"feedback", t.feedback.empty() ? json(nullptr) : json(t.feedback)},
                     {"mismatch", mismatch},
                     {"findings", findings},
                     {"analysis_error", t.analysis_error.empty() ? json(nullptr) : json(t.analysis_error)},
                     {"prompt_index", t.prompt_index},
                     {"answer_index", t.answer_index},
                     {"attempts", attempts_json(t.attempts)},
                     {"timings", {{"model_s", t.model_s}, {"eval_s", t.eval_s}, {"analysis_s", t.analysis_s}}},
                     {"eval", t.eval}});
    per_turn.push_back(opt(t.reward));
    if (t.reward) rewards.push_back(*t.reward);
    else ++pending;
    model_s += t.model_s;
    eval_s += t.eval_s;
    analysis_s += t.analysis_s;
  }
  j["turns"] = turns;
  j["per_turn_rewards"] = per_turn;
  j["aggregation"] = reward::aggregation_name(cfg.aggregation);
  j["discount"] = cfg.discount;
  j["trajectory_reward"] = nullptr;
  j["returns"] = nullptr;
  j["trajectory_reward_note"] = nullptr;
  if (tr.turns.empty()) {
    j["trajectory_reward_note"] = "no turns";
  } else if (pending > 0) {
    j["trajectory_reward_note"] = fmt::format("{} turn(s) without a final reward (pending_gpu, eval_error or task_error): not computed", pending);
  } else {
    auto r = reward::trajectory_reward(rewards, cfg);
    auto g = reward::discounted_returns(rewards, cfg.discount);
    if (r) j["trajectory_reward"] = r.value();
    else j["trajectory_reward_note"] = joined(r.errors());
    if (g) j["returns"] = g.value();
  }
  if (tr.best) {
    const auto& b = tr.turns[*tr.best];
    j["best"] = {{"turn", *tr.best}, {"round", b.round}, {"verdict", b.verdict}, {"speedup", opt(b.speedup)}, {"reward", opt(b.reward)}};
  } else {
    j["best"] = nullptr;
  }
  j["timings"] = {{"total_s", tr.seconds}, {"model_s", model_s}, {"eval_s", eval_s}, {"analysis_s", analysis_s}};
  return j;
}

Result<std::vector<Candidate>> load_history(const fs::path& jsonl, const std::string& task_id) {
  auto text = read_file(jsonl);
  if (!text) return Diagnostic{jsonl.string(), 0, 0, "cannot read"};
  std::vector<Candidate> out;
  size_t p = 0;
  int line_no = 0;
  while (p < text->size()) {
    size_t e = text->find('\n', p);
    if (e == std::string::npos) e = text->size();
    std::string line = text->substr(p, e - p);
    p = e + 1;
    ++line_no;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    auto j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object()) return Diagnostic{jsonl.string(), line_no, 0, "not a JSON object"};
    if (j.value("task", "") != task_id || !j.contains("turns") || !j["turns"].is_array()) continue;
    for (const auto& t : j["turns"]) {
      if (!t.is_object() || !t.contains("code") || !t["code"].is_string()) continue;
      Candidate c;
      c.round = t.value("round", 0);
      c.sample = j.value("sample", 0);
      c.verdict = t.value("verdict", "");
      c.code = t["code"].get<std::string>();
      if (c.verdict == "ok" && t.contains("speedup") && t["speedup"].is_number()) c.speedup = t["speedup"].get<double>();
      if (t.contains("reward") && t["reward"].is_number()) c.reward = t["reward"].get<double>();
      if (t.contains("findings") && t["findings"].is_array())
        for (const auto& f : t["findings"])
          if (f.is_object() && f.contains("message") && f["message"].is_string()) c.findings.push_back(f["message"].get<std::string>());
      out.push_back(std::move(c));
    }
  }
  return out;
}

}  // namespace cudaperf::agent
