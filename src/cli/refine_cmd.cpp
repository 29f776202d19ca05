// `cudaperf refine --task ID | --dataset [DIR] --endpoint URL --model NAME [--rounds N] [--samples K]
// [--out FILE.jsonl] [--service URL] [--contrastive] ...`: the multi-turn refinement loop against
// an OpenAI-compatible endpoint (docs/refine.md). Exit 0 when every trajectory ran all its rounds,
// 1 when one stopped early (endpoint, evaluation or template error), 2 for bad usage.
#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <unistd.h>

#include "cli/commands.hpp"
#include "cudaperf/agent/refine.hpp"
#include "cudaperf/analysis/report.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr int kExitOk = 0, kExitStopped = 1, kExitUsage = 2;

// A relative default path that is not under the working directory is looked up in the source tree.
fs::path resolve(const std::string& p) {
  fs::path x(p);
  if (x.is_relative() && !fs::exists(x) && fs::exists(fs::path(CUDAPERF_SOURCE_DIR) / x)) return fs::path(CUDAPERF_SOURCE_DIR) / x;
  return x;
}

std::string fmt_opt(const std::optional<double>& v, const char* f) { return v ? fmt::format(fmt::runtime(f), *v) : "-"; }

std::string safe_name(std::string id) {
  for (auto& c : id)
    if (c == '/') c = '_';
  return id;
}

void print_table(const std::vector<agent::Trajectory>& ts) {
  fmt::print("{:<6} {:<7} {:<16} {:>9} {:>9} {:>8} {:>8}\n", "round", "sample", "verdict", "speedup", "reward", "model_s", "eval_s");
  int rounds = 0;
  for (const auto& tr : ts)
    for (const auto& t : tr.turns) rounds = std::max(rounds, t.round);
  for (const auto& tr : ts)
    if (tr.status != "completed") rounds = std::max(rounds, static_cast<int>(tr.turns.size()) + 1);
  for (int r = 1; r <= rounds; ++r)
    for (const auto& tr : ts) {
      const agent::Turn* turn = nullptr;
      for (const auto& t : tr.turns)
        if (t.round == r) turn = &t;
      if (turn) {
        fmt::print("{:<6} {:<7} {:<16} {:>9} {:>9} {:>8.2f} {:>8.2f}\n", r, tr.sample, turn->verdict,
                   fmt_opt(turn->speedup, "{:.2f}x"), fmt_opt(turn->reward, "{:+.3f}"), turn->model_s, turn->eval_s);
      } else if (tr.status != "completed" && r == static_cast<int>(tr.turns.size()) + 1 && tr.status != "eval_error" &&
                 tr.status != "task_error") {
        fmt::print("{:<6} {:<7} {:<16} {:>9} {:>9}\n", r, tr.sample, tr.status, "-", "-");
      }
    }
}

}  // namespace

void add_refine_command(CLI::App& app) {
  static std::string task_id, dataset, root, endpoint, model, api_key_env = "OPENAI_API_KEY", out = "refine.jsonl",
                                                                 best_dir = "refine-best", service, prompts, config = default_file("config/reward.toml"),
                                                                 ranker = default_file("data/models/ranker.json"), work_dir;
  static std::vector<std::string> categories, history;
  static int rounds = 3, samples = 1, max_tokens = 4096, retries = 5, limit = 0;
  static double temperature = 0.7, top_p = -1, timeout = 600, connect_timeout = 10, backoff = 1, max_backoff = 30,
                eval_timeout = 3600, fast_p = 1.0;
  static long long seed = -1;
  static bool contrastive = false, no_analysis = false, quiet = false, keep_work = false;
  static size_t contrastive_n = 3;
  auto* cmd = app.add_subcommand("refine", "Multi-turn refinement against an OpenAI-compatible endpoint: ask, evaluate, "
                                           "feed back, repeat; keeps the best candidate and writes JSONL transcripts");
  auto* task_opt = cmd->add_option("--task", task_id, "task id (category/name)");
  auto* ds_opt = cmd->add_option("--dataset", dataset, "run over every task under DIR (default: the dataset root)")
                     ->expected(0, 1);
  task_opt->excludes(ds_opt);
  cmd->add_option("--root", root, "dataset folder for --task (default: data/tasks)");
  cmd->add_option("--category", categories, "with --dataset: only these categories (repeatable)");
  cmd->add_option("--limit", limit, "with --dataset: at most this many tasks")->check(CLI::NonNegativeNumber);
  cmd->add_option("--endpoint", endpoint, "OpenAI-compatible base URL, e.g. http://127.0.0.1:8080/v1")->required();
  cmd->add_option("--model", model, "model name sent to the endpoint")->required();
  cmd->add_option("--api-key-env", api_key_env, "environment variable holding the API key (default OPENAI_API_KEY; unset: none sent)");
  cmd->add_option("--temperature", temperature, "sampling temperature (default 0.7)")->check(CLI::Range(0.0, 2.0));
  cmd->add_option("--top-p", top_p, "nucleus sampling (default: not sent)")->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--max-tokens", max_tokens, "tokens per answer (default 4096)")->check(CLI::Range(1, 1 << 20));
  cmd->add_option("--seed", seed, "sample k sends seed+k (default: no seed)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--timeout", timeout, "seconds to wait for one answer (default 600)")->check(CLI::Range(0.1, 86400.0));
  cmd->add_option("--connect-timeout", connect_timeout, "seconds to connect (default 10)")->check(CLI::Range(0.1, 3600.0));
  cmd->add_option("--retries", retries, "attempts per request, the first included (default 5)")->check(CLI::Range(1, 100));
  cmd->add_option("--backoff", backoff, "first retry delay in seconds, doubled each time (default 1)")->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--max-backoff", max_backoff, "cap on a retry delay, Retry-After included (default 30)")->check(CLI::Range(0.0, 3600.0));
  cmd->add_option("--rounds", rounds, "turns per trajectory (default 3)")->check(CLI::Range(1, 1000));
  cmd->add_option("--samples", samples, "independent trajectories per task, run in parallel (default 1)")->check(CLI::Range(1, 256));
  cmd->add_option("--out", out, "JSONL transcripts, one line per trajectory (default refine.jsonl; overwritten)");
  cmd->add_option("--best-dir", best_dir, "the best candidate per task goes to DIR/<category>_<name>.cu (default refine-best)");
  cmd->add_option("--service", service, "evaluate through a running `cudaperf serve` at this URL instead of in-process");
  cmd->add_option("--eval-timeout", eval_timeout, "with --service: seconds to wait for one evaluation (default 3600)")
      ->check(CLI::Range(1.0, 86400.0));
  cmd->add_flag("--contrastive", contrastive, "show earlier candidates of the task (speedups, findings), best first");
  cmd->add_option("--contrastive-n", contrastive_n, "how many earlier candidates to show (default 3)")->check(CLI::Range(1, 20));
  cmd->add_option("--history", history, "earlier transcripts (JSONL) whose candidates join the contrastive pool (repeatable)");
  cmd->add_option("--prompts", prompts, "folder of prompt templates overriding the built-in data/prompts/ files");
  cmd->add_option("--config", config, "reward config (default config/reward.toml)");
  cmd->add_option("--ranker", ranker, "ranker model (default data/models/ranker.json; missing: no rank term)");
  cmd->add_option("--time-budget", g_time_budget_s, "seconds of sampling per perf config (default 2)")->check(CLI::Range(0.01, 3600.0));
  cmd->add_flag("--no-analysis", no_analysis, "skip the static analysis (no structural findings in the feedback)");
  cmd->add_option("--work-dir", work_dir, "where candidate files go (default: a temporary folder, removed at the end)");
  cmd->add_flag("--keep-work", keep_work, "keep the temporary candidate folder");
  cmd->add_option("--fast-p", fast_p, "with --dataset: the speedup threshold of fast_p (default 1.0)")->check(CLI::Range(0.0, 1e6));
  cmd->add_flag("--quiet", quiet, "no per-turn progress lines on stderr");
  cmd->callback([task_opt, ds_opt] {
    g_action = [task_opt, ds_opt]() -> int {
      bool dataset_mode = ds_opt->count() > 0;
      if (!dataset_mode && task_opt->count() == 0) {
        fmt::print(stderr, "cudaperf refine: give --task ID or --dataset [DIR]\n");
        return kExitUsage;
      }
      auto cfg = reward::load_reward_config(resolve(config));
      if (!cfg) {
        for (const auto& d : cfg.errors()) fmt::print(stderr, "cudaperf refine: {}\n", d.to_string());
        return kExitUsage;
      }
      auto templates = prompts.empty() ? Result<task::PromptTemplates>(task::builtin_templates()) : task::load_templates(prompts);
      if (!templates) {
        for (const auto& d : templates.errors()) fmt::print(stderr, "cudaperf refine: {}\n", d.to_string());
        return kExitUsage;
      }
      // The tasks.
      fs::path r = dataset_mode ? (dataset.empty() ? (root.empty() ? default_root() : fs::path(root)) : fs::path(dataset))
                                : (root.empty() ? default_root() : fs::path(root));
      std::vector<task::Task> tasks;
      int skipped = 0;
      if (dataset_mode) {
        auto dirs = task::find_task_dirs(r);
        for (const auto& d : dirs) {
          auto t = task::load_task(d);
          if (!t) {
            fmt::print(stderr, "cudaperf refine: skipping {}: {}\n", d.string(), t.errors().front().to_string());
            ++skipped;
            continue;
          }
          if (!categories.empty() && std::find(categories.begin(), categories.end(), t->category) == categories.end()) continue;
          tasks.push_back(t.value());
          if (limit > 0 && static_cast<int>(tasks.size()) >= limit) break;
        }
        if (tasks.empty()) {
          fmt::print(stderr, "cudaperf refine: no tasks under {}\n", r.string());
          return kExitUsage;
        }
      } else {
        auto dir = task::find_task_by_id(r, task_id);
        auto t = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{task_id, 0, 0, "no such task under " + r.string()});
        if (!t) {
          fmt::print(stderr, "cudaperf refine: {}\n", t.errors().front().to_string());
          return kExitUsage;
        }
        tasks.push_back(t.value());
      }
      // The model endpoint.
      agent::ChatConfig cc;
      cc.base_url = endpoint;
      cc.model = model;
      cc.api_key_env = api_key_env;
      cc.temperature = temperature;
      cc.max_tokens = max_tokens;
      if (top_p >= 0) cc.top_p = top_p;
      cc.timeouts.read_s = timeout;
      cc.timeouts.connect_s = connect_timeout;
      cc.retry.max_attempts = retries;
      cc.retry.backoff_s = backoff;
      cc.retry.max_backoff_s = max_backoff;
      // One client per sample when a seed is given (sample k sends seed + k).
      std::vector<agent::ChatClient> clients;
      for (int s = 0; s < (seed >= 0 ? samples : 1); ++s) {
        agent::ChatConfig c = cc;
        if (seed >= 0) c.seed = seed + s;
        auto cl = agent::ChatClient::create(c);
        if (!cl) {
          fmt::print(stderr, "cudaperf refine: --endpoint: {}\n", cl.errors().front().message);
          return kExitUsage;
        }
        clients.push_back(cl.value());
      }
      // The evaluator.
      agent::Evaluator evaluate;
      std::string evaluator_desc;
      if (!service.empty()) {
        auto ev = agent::service_evaluator(service, g_time_budget_s, eval_timeout, cc.retry);
        if (!ev) {
          fmt::print(stderr, "cudaperf refine: --service: {}\n", ev.errors().front().message);
          return kExitUsage;
        }
        evaluate = ev.value();
        evaluator_desc = "service " + service;
      } else {
        reward::ScoreOptions so;
        so.model = resolve(ranker);
        so.time_budget_s = g_time_budget_s;
        bool gpu = analysis::gpu_present();
        evaluate = agent::in_process_evaluator(cfg.value(), so, gpu);
        evaluator_desc = gpu ? "in-process (GPU; evaluations one at a time)" : "in-process (no GPU: CPU-side checks only)";
      }
      agent::Analyzer analyze = no_analysis ? agent::Analyzer() : agent::static_analyzer(r, cfg.value());
      // Outputs.
      std::ofstream jsonl(out);
      if (!jsonl) {
        fmt::print(stderr, "cudaperf refine: cannot write {}\n", out);
        return kExitUsage;
      }
      std::error_code ec;
      fs::create_directories(best_dir, ec);
      if (ec) {
        fmt::print(stderr, "cudaperf refine: cannot create {}: {}\n", best_dir, ec.message());
        return kExitUsage;
      }
      fs::path work = work_dir.empty() ? fs::temp_directory_path() / fmt::format("cudaperf-refine-{}", getpid()) : fs::path(work_dir);
      fs::create_directories(work, ec);

      std::vector<agent::Candidate> hist_all;
      json run = {{"model", model},       {"endpoint", endpoint},      {"evaluator", evaluator_desc},
                  {"rounds", rounds},     {"samples", samples},        {"temperature", temperature},
                  {"max_tokens", max_tokens}, {"contrastive", contrastive}, {"time_budget_s", g_time_budget_s},
                  {"seed", seed >= 0 ? json(seed) : json(nullptr)}};
      if (!dataset_mode)
        fmt::print("{}: {} sample(s) x {} round(s), model {} at {}, evaluated {}\n", tasks[0].id, samples, rounds, model, endpoint,
                   evaluator_desc);
      // Per task, per round: whether some sample had a final ok / CPU-clean / fast candidate by then.
      std::vector<int> correct_at(static_cast<size_t>(rounds) + 1, 0), clean_at(correct_at), fast_at(correct_at);
      std::vector<double> best_speedups;
      bool stopped = false;
      for (size_t ti = 0; ti < tasks.size(); ++ti) {
        const auto& t = tasks[ti];
        agent::RefineOptions ro;
        ro.rounds = rounds;
        ro.samples = samples;
        ro.contrastive = contrastive;
        ro.contrastive_n = contrastive_n;
        ro.work_dir = work;
        ro.reward = cfg.value();
        ro.templates = templates.value();
        for (const auto& h : history) {
          auto c = agent::load_history(h, t.id);
          if (!c) {
            fmt::print(stderr, "cudaperf refine: --history: {}\n", c.errors().front().to_string());
            return kExitUsage;
          }
          ro.history.insert(ro.history.end(), c->begin(), c->end());
        }
        if (!quiet) ro.log = [](const std::string& s) { fmt::print(stderr, "{}\n", s); };
        std::vector<agent::Trajectory> ts;
        if (clients.size() == 1) {
          ts = agent::refine_task(t, clients[0], evaluate, analyze, ro);
        } else {  // a seed per sample: one trajectory per client, numbered as samples
          ro.samples = 1;
          for (size_t s = 0; s < clients.size(); ++s) {
            auto one = agent::refine_task(t, clients[s], evaluate, analyze, ro);
            one[0].sample = static_cast<int>(s);
            ts.push_back(std::move(one[0]));
          }
        }
        for (const auto& tr : ts) {
          json j = agent::trajectory_json(tr, cfg.value(), run);
          if (seed >= 0) j["run"]["seed"] = seed + tr.sample;
          jsonl << j.dump() << "\n";
          if (tr.status != "completed") stopped = true;
        }
        jsonl.flush();
        auto best = agent::best_turn(ts);
        std::string best_line = "no candidate with code";
        if (best) {
          const auto& b = ts[best->first].turns[best->second];
          fs::path f = fs::path(best_dir) / (safe_name(t.id) + ".cu");
          std::ofstream(f) << b.code;
          best_line = fmt::format("round {}, sample {}: {}{}{} -> {}", b.round, ts[best->first].sample, b.verdict,
                                  b.speedup ? fmt::format(", {:.2f}x over naive", *b.speedup) : "",
                                  b.verdict == "pending_gpu" ? " (not run on a GPU: no speedup measured)" : "", f.string());
        }
        // Summary bookkeeping.
        std::optional<double> best_speedup;
        for (int rr = 1; rr <= rounds; ++rr) {
          bool correct = false, clean = false, fast = false;
          for (const auto& tr : ts)
            for (const auto& turn : tr.turns) {
              if (turn.round > rr) continue;
              correct = correct || turn.verdict == "ok";
              clean = clean || turn.verdict == "ok" || turn.verdict == "pending_gpu";
              fast = fast || (turn.verdict == "ok" && turn.speedup && *turn.speedup > fast_p);
              if (rr == rounds && turn.verdict == "ok" && turn.speedup)
                best_speedup = std::max(best_speedup.value_or(0.0), *turn.speedup);
            }
          correct_at[static_cast<size_t>(rr)] += correct;
          clean_at[static_cast<size_t>(rr)] += clean;
          fast_at[static_cast<size_t>(rr)] += fast;
        }
        if (best_speedup) best_speedups.push_back(*best_speedup);
        if (dataset_mode) {
          fmt::print(stderr, "[{}/{}] {}: best {}\n", ti + 1, tasks.size(), t.id, best_line);
        } else {
          print_table(ts);
          for (const auto& tr : ts)
            if (tr.status != "completed") fmt::print("sample {} stopped: {}: {}\n", tr.sample, tr.status, tr.error);
          fmt::print("best: {}\n", best_line);
        }
      }
      if (dataset_mode) {
        double n = static_cast<double>(tasks.size());
        fmt::print("{} task(s) x {} sample(s) x {} round(s), model {}, evaluated {}{}\n", tasks.size(), samples, rounds, model,
                   evaluator_desc, skipped ? fmt::format(" ({} task folder(s) skipped)", skipped) : "");
        fmt::print("{:<6} {:>10} {:>12} {:>10}\n", "round", "correct@r", "cpu_clean@r", fmt::format("fast_{:g}@r", fast_p));
        for (int rr = 1; rr <= rounds; ++rr)
          fmt::print("{:<6} {:>10.3f} {:>12.3f} {:>10.3f}\n", rr, correct_at[static_cast<size_t>(rr)] / n,
                     clean_at[static_cast<size_t>(rr)] / n, fast_at[static_cast<size_t>(rr)] / n);
        if (best_speedups.empty()) {
          fmt::print("mean speedup: n/a (no candidate was measured correct{})\n",
                     clean_at[static_cast<size_t>(rounds)] > 0 ? "; CPU-clean candidates are pending a GPU" : "");
        } else {
          double lg = 0;
          for (double s : best_speedups) lg += std::log(s);
          fmt::print("mean speedup: {:.2f}x (geometric mean of the best measured speedup over naive, {} task(s) with a correct candidate)\n",
                     std::exp(lg / static_cast<double>(best_speedups.size())), best_speedups.size());
        }
      }
      fmt::print("transcripts: {}\n", out);
      if (work_dir.empty() && !keep_work) fs::remove_all(work, ec);
      return stopped ? kExitStopped : kExitOk;
    };
  });
}

}  // namespace cudaperf::cli
