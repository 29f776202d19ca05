// `cudaperf rank train|eval|score`: the offline pairwise ranker (docs/ranker.md).
#include <nlohmann/json.hpp>

#include <cmath>
#include <ctime>
#include <fmt/format.h>
#include <fstream>
#include <map>

#include "cli/commands.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/rank/ranker.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::cli {

namespace fs = std::filesystem;

namespace {

constexpr int kExitOk = 0, kExitFail = 1, kExitUsage = 2;

struct RankArgs {
  std::string records = "data/records", root, train_root, model = "data/models/ranker.json", json_out, dump;
  double min_ratio = 0.03;
  rank::TrainOptions train;
};
RankArgs g_rank;

fs::path root_dir() { return g_rank.root.empty() ? default_root() : fs::path(g_rank.root); }

// Records → timings → samples with features and levels; prints what was left out.
bool load_samples(std::vector<rank::Timing>& timings, std::vector<rank::Sample>& samples) {
  auto t = rank::load_timings(g_rank.records);
  if (!t) {
    fmt::print(stderr, "cudaperf rank: {}\n", t.errors().front().to_string());
    return false;
  }
  timings = t.value();
  std::vector<std::string> problems;
  fmt::print(stderr, "{} timed implementation(s) in {}; extracting features (cached)...\n", timings.size(), g_rank.records);
  auto progress = [](const std::string& s) { fmt::print(stderr, "  {}\n", s); };
  std::vector<rank::Timing> main_t = timings, extra_t;
  if (!g_rank.train_root.empty()) {  // the records of tasks found only under --train-root go to that root
    main_t.clear();
    std::map<std::string, bool> extra_task;  // task id -> under --train-root only (looked up once per task)
    for (const auto& x : timings) {
      auto [it, fresh] = extra_task.try_emplace(x.task, false);
      if (fresh) it->second = !task::find_task_by_id(root_dir(), x.task) && task::find_task_by_id(g_rank.train_root, x.task);
      (it->second ? extra_t : main_t).push_back(x);
    }
  }
  samples = rank::collect_samples(root_dir(), main_t, compile::default_cache_dir(), problems, progress);
  if (!extra_t.empty()) {
    auto extra = rank::collect_samples(g_rank.train_root, extra_t, compile::default_cache_dir(), problems, progress);
    for (auto& s : extra) s.train_only = true;
    fmt::print(stderr, "{} implementation sample(s) from {} train every model and are never held out\n", extra.size(),
               g_rank.train_root);
    samples.insert(samples.end(), extra.begin(), extra.end());
  }
  for (const auto& p : problems) fmt::print(stderr, "left out: {}\n", p);
  rank::assign_levels(samples, timings, g_rank.min_ratio);
  return !samples.empty();
}

int do_train() {
  std::vector<rank::Timing> timings;
  std::vector<rank::Sample> samples;
  if (!load_samples(timings, samples)) return kExitUsage;
  auto m = rank::Model::train(samples, g_rank.train);
  if (!m) {
    fmt::print(stderr, "cudaperf rank train: {}\n", m.errors().front().to_string());
    return kExitFail;
  }
  if (auto s = m->save(g_rank.model); !s) {
    fmt::print(stderr, "cudaperf rank train: {}\n", s.errors().front().to_string());
    return kExitFail;
  }
  auto pairs = rank::build_pairs(timings, g_rank.min_ratio);
  std::time_t now = std::time(nullptr);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  fs::path meta = g_rank.model;
  meta.replace_extension(".meta.json");
  std::ofstream(meta) << nlohmann::json{{"model", g_rank.model}, {"trained", buf}, {"records", g_rank.records},
                                        {"samples", samples.size()}, {"separated_pairs", pairs.size()},
                                        {"min_ratio", g_rank.min_ratio}, {"features", rank::feature_names()},
                                        {"objective", "rank:pairwise"}, {"rounds", g_rank.train.rounds},
                                        {"max_depth", g_rank.train.max_depth}, {"eta", g_rank.train.eta}}
                                .dump(1)
                         << "\n";
  fmt::print("trained on {} implementations ({} separated pairs); model {}, metadata {}\n", samples.size(), pairs.size(),
             g_rank.model, meta.string());
  return kExitOk;
}

int do_eval() {
  std::vector<rank::Timing> timings;
  std::vector<rank::Sample> samples;
  if (!load_samples(timings, samples)) return kExitUsage;
  auto rows = rank::evaluate_by_category(samples, timings, g_rank.min_ratio, g_rank.train);
  if (!rows) {
    fmt::print(stderr, "cudaperf rank eval: {}\n", rows.errors().front().to_string());
    return kExitFail;
  }
  const std::vector<std::string> hs = {"coalescing_mean", "occupancy_mean", "intensity_max", "sync_min"};
  fmt::print("held out by category (train on the others); pairs separated beyond noise (ratio >= {:.2f}, IQRs apart)\n",
             1 + g_rank.min_ratio);
  fmt::print("{:<14} {:>6} {:>8} {:>8} {:>11} {:>10} {:>10} {:>9}\n", "category", "pairs", "ranker", "tau", "coalescing",
             "occupancy", "intensity", "sync");
  double n = 0, acc = 0, tau = 0;
  std::map<std::string, double> h;
  nlohmann::json j = {{"min_ratio", g_rank.min_ratio}, {"rows", nlohmann::json::array()}};
  int cats = 0;
  for (const auto& r : rows.value()) {
    if (r.pairs == 0) continue;
    fmt::print("{:<14} {:>6} {:>7.1f}% {:>8.2f} {:>10.1f}% {:>9.1f}% {:>9.1f}% {:>8.1f}%\n", r.category, r.pairs,
               100 * r.model_accuracy, r.kendall_tau, 100 * r.heuristic_accuracy.at(hs[0]), 100 * r.heuristic_accuracy.at(hs[1]),
               100 * r.heuristic_accuracy.at(hs[2]), 100 * r.heuristic_accuracy.at(hs[3]));
    n += r.pairs;
    acc += r.model_accuracy * r.pairs;
    tau += r.kendall_tau;
    ++cats;
    for (const auto& k : hs) h[k] += r.heuristic_accuracy.at(k) * r.pairs;
    j["rows"].push_back({{"category", r.category}, {"pairs", r.pairs}, {"ranker", r.model_accuracy}, {"kendall_tau", r.kendall_tau},
                         {"heuristics", r.heuristic_accuracy}});
  }
  if (n > 0) {
    fmt::print("{:<14} {:>6} {:>7.1f}% {:>8.2f} {:>10.1f}% {:>9.1f}% {:>9.1f}% {:>8.1f}%\n", "all", static_cast<int>(n),
               100 * acc / n, tau / cats, 100 * h[hs[0]] / n, 100 * h[hs[1]] / n, 100 * h[hs[2]] / n, 100 * h[hs[3]] / n);
    j["all"] = {{"pairs", n}, {"ranker", acc / n}, {"kendall_tau_mean", tau / cats}};
    for (const auto& k : hs) j["all"]["heuristics"][k] = h[k] / n;
  }
  if (!g_rank.json_out.empty()) std::ofstream(g_rank.json_out) << j.dump(1) << "\n";
  if (!g_rank.dump.empty()) {
    // Per implementation: held-out score and rank term, static scores, measured time.
    std::map<std::tuple<std::string, std::string, std::string>, const rank::Sample*> by;
    for (const auto& s : samples) by[{s.task, s.config, s.impl}] = &s;
    std::map<std::tuple<std::string, std::string, std::string>, double> ms;
    for (const auto& t : timings) ms[{t.task, t.config, t.impl}] = t.median_ms;
    const auto& names = rank::feature_names();
    std::ofstream out(g_rank.dump);
    for (const auto& r : rows.value())
      for (const auto& sc : r.scored) {
        nlohmann::json line = {{"task", sc.task}, {"category", r.category}, {"config", sc.config}, {"impl", sc.impl},
                               {"median_ms", ms[{sc.task, sc.config, sc.impl}]}, {"held_out_score", sc.score},
                               {"rank_term", sc.beats}};
        if (auto it = by.find({sc.task, sc.config, sc.impl}); it != by.end())
          for (const auto& k : hs) {
            size_t f = static_cast<size_t>(std::find(names.begin(), names.end(), k) - names.begin());
            float v = it->second->x[f];
            line[k] = std::isnan(v) ? nlohmann::json(nullptr) : nlohmann::json(v);
          }
        out << line.dump() << "\n";
      }
  }
  return kExitOk;
}

std::string g_task_id;
std::vector<std::string> g_files;

int do_score() {
  auto dir = task::find_task_by_id(root_dir(), g_task_id);
  auto t = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{g_task_id, 0, 0, "no such task under " + root_dir().string()});
  if (!t) {
    fmt::print(stderr, "cudaperf rank score: {}\n", t.errors().front().to_string());
    return kExitUsage;
  }
  auto model = rank::Model::load(g_rank.model);
  if (!model) {
    fmt::print(stderr, "cudaperf rank score: {}\n", model.errors().front().to_string());
    return kExitUsage;
  }
  // Candidates and the task's own implementations, scored together: the rank term is the share
  // of dataset implementations a candidate is predicted to beat.
  std::vector<std::string> names;
  std::vector<std::vector<float>> xs;
  std::vector<fs::path> all;
  for (const auto& f : g_files) all.push_back(f);
  for (const auto& im : t->impls) all.push_back(im.path);
  int failures = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    auto x = rank::extract_features(t.value(), all[i], compile::default_cache_dir());
    if (!x) {
      fmt::print(stderr, "{}: {}\n", all[i].string(), x.errors().front().message);
      if (i < g_files.size()) ++failures;
      continue;
    }
    names.push_back(i < g_files.size() ? all[i].string() : "dataset:" + all[i].stem().string());
    xs.push_back(x.value());
  }
  auto s = model->score(xs);
  if (!s) {
    fmt::print(stderr, "cudaperf rank score: {}\n", s.errors().front().to_string());
    return kExitFail;
  }
  // Candidates come first, then the dataset implementations: each is ranked against the latter.
  size_t first_dataset = static_cast<size_t>(
      std::count_if(names.begin(), names.end(), [](const std::string& n) { return n.rfind("dataset:", 0) != 0; }));
  fmt::print("{:<60} {:>9} {:>12}\n", "implementation", "score", "rank [0,1]");
  for (size_t i = 0; i < names.size(); ++i)
    fmt::print("{:<60} {:>9.4f} {:>12.3f}\n", names[i], s.value()[i], rank::share_beaten(s.value(), i, first_dataset));
  return failures == 0 ? kExitOk : kExitFail;
}

}  // namespace

void add_rank_command(CLI::App& app) {
  auto* rk = app.add_subcommand("rank", "The offline pairwise ranker: train, evaluate (held out by category), score");
  rk->require_subcommand(1);
  auto common = [](CLI::App* c) {
    c->add_option("--records", g_rank.records, "measured records: a .jsonl file or a folder of them (default data/records)");
    c->add_option("--root", g_rank.root, "dataset folder (default: data/tasks)");
    c->add_option("--train-root", g_rank.train_root,
                  "a second dataset folder (e.g. data/generated) whose measured tasks only train: never held out or scored");
    c->add_option("--min-ratio", g_rank.min_ratio, "pairs need slower/faster >= 1 + this and disjoint IQRs (default 0.03)")
        ->check(CLI::Range(0.0, 10.0));
    c->add_option("--rounds", g_rank.train.rounds, "boosting rounds (default 120)")->check(CLI::Range(1, 10000));
    c->add_option("--max-depth", g_rank.train.max_depth, "tree depth (default 3)")->check(CLI::Range(1, 16));
  };
  auto* tr = rk->add_subcommand("train", "Train on every record and write the model");
  common(tr);
  tr->add_option("--out", g_rank.model, "model file (default data/models/ranker.json)");
  tr->callback([] { g_action = do_train; });
  auto* ev = rk->add_subcommand("eval", "Leave-one-category-out accuracy and Kendall tau beside single-feature heuristics");
  common(ev);
  ev->add_option("--json", g_rank.json_out, "also write the table as JSON");
  ev->add_option("--dump", g_rank.dump, "write one JSON line per implementation: held-out score and rank term, static scores, time");
  ev->callback([] { g_action = do_eval; });
  auto* sc = rk->add_subcommand("score", "Score candidate .cu files of a task (and its dataset implementations)");
  sc->add_option("--task", g_task_id, "task id")->required();
  sc->add_option("--root", g_rank.root, "dataset folder (default: data/tasks)");
  sc->add_option("--model", g_rank.model, "model file (default data/models/ranker.json)");
  sc->add_option("files", g_files, "candidate .cu files");
  sc->callback([] { g_action = do_score; });
}

}  // namespace cudaperf::cli
