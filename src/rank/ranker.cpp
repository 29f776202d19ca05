// Records → pairs and levels, the XGBoost rank:pairwise model, and held-out evaluation.
#include "cudaperf/rank/ranker.hpp"

#include <xgboost/c_api.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <atomic>
#include <mutex>
#include <optional>
#include <set>

#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::rank {

namespace fs = std::filesystem;
using nlohmann::json;

// ---------------------------------------------------------------- records and pairs

Result<std::vector<Timing>> load_timings(const fs::path& path) {
  std::vector<fs::path> files;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    for (const auto& e : fs::directory_iterator(path, ec))
      if (e.path().extension() == ".jsonl") files.push_back(e.path());
    std::sort(files.begin(), files.end());  // dated names: later files are newer
  } else if (fs::is_regular_file(path, ec)) {
    files.push_back(path);
  }
  if (files.empty()) return Diagnostic{path.string(), 0, 0, "no records (*.jsonl) here"};
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::string, Timing>> latest;
  // A task whose newest record at some (impl, config) is a task_error (the task failed, not an impl)
  // gives no timings, so no pairs: its measurements are of a defective task.
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<std::string, bool>> newest_task_error;
  for (const auto& f : files) {
    std::ifstream in(f);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (line.empty()) continue;
      auto j = json::parse(line, nullptr, false);
      if (j.is_discarded() || !j.is_object())
        return Diagnostic{f.string(), n, 0, "not a JSON object"};
      {
        auto& e = newest_task_error[{j.value("task", ""), j.value("impl", ""), j.value("config", "")}];
        if (std::string date = j.value("date", ""); e.first.empty() || date >= e.first)
          e = {date, j.value("status", "") == verify::verdict_name(verify::Verdict::TaskError)};
      }
      if (!j.value("perf", false) || j.value("status", "") != "ok" || j.value("median_ms", -1.0) <= 0) continue;
      if (j.value("kind", "c2cuda") == "torch2cuda") continue;  // the ranker's features are C-to-CUDA's (.cu impls)
      Timing t;
      t.task = j.value("task", "");
      t.category = j.value("category", t.task.substr(0, t.task.find('/')));
      t.impl = j.value("impl", "");
      t.config = j.value("config", "");
      t.median_ms = j["median_ms"];
      t.q1_ms = j.value("q1_ms", t.median_ms);
      t.q3_ms = j.value("q3_ms", t.median_ms);
      std::string date = j.value("date", "");
      auto key = std::make_tuple(t.task, t.impl, t.config);
      auto it = latest.find(key);
      if (it == latest.end() || date >= it->second.first) latest[key] = {date, t};
    }
  }
  std::set<std::string> defective;
  for (const auto& [k, e] : newest_task_error)
    if (e.second) defective.insert(std::get<0>(k));
  std::vector<Timing> out;
  for (auto& [k, v] : latest)
    if (!defective.count(std::get<0>(k))) out.push_back(v.second);
  return out;
}

bool slower_beyond_noise(const Timing& a, const Timing& b, double min_ratio) {
  return b.median_ms >= a.median_ms * (1 + min_ratio) && a.q3_ms < b.q1_ms;
}

std::vector<Pair> build_pairs(const std::vector<Timing>& timings, double min_ratio) {
  std::map<std::pair<std::string, std::string>, std::vector<const Timing*>> groups;
  for (const auto& t : timings) groups[{t.task, t.config}].push_back(&t);
  std::vector<Pair> out;
  for (auto& [key, g] : groups)
    for (const Timing* a : g)
      for (const Timing* b : g)
        if (slower_beyond_noise(*a, *b, min_ratio))
          out.push_back({a->task, a->category, a->config, a->impl, b->impl, b->median_ms / a->median_ms});
  return out;
}

std::vector<Sample> collect_samples(const fs::path& root, const std::vector<Timing>& timings, const fs::path& cache_dir,
                                    std::vector<std::string>& problems,
                                    const std::function<void(const std::string&)>& progress) {
  std::map<std::string, std::optional<task::Task>> tasks;
  for (const auto& t : timings) {
    if (tasks.count(t.task)) continue;
    auto dir = task::find_task_by_id(root, t.task);
    auto loaded = dir ? task::load_task(*dir) : Result<task::Task>(Diagnostic{t.task, 0, 0, "no such task under " + root.string()});
    if (loaded) tasks[t.task] = loaded.value();
    else {
      tasks[t.task] = std::nullopt;
      problems.push_back(fmt::format("{}: {}", t.task, loaded.errors().front().message));
    }
  }
  // Features once per (task, impl), whatever the number of configs.
  std::vector<std::pair<std::string, std::string>> impls;
  for (const auto& t : timings)
    if (tasks[t.task] && std::find(impls.begin(), impls.end(), std::make_pair(t.task, t.impl)) == impls.end())
      impls.push_back({t.task, t.impl});
  std::vector<Result<std::vector<float>>> feats(impls.size(), Result<std::vector<float>>(Diagnostic{}));
  std::atomic<size_t> done{0};
  std::mutex mu;
  parallel_for(impls.size(), default_jobs(), [&](size_t i) {
    const task::Task& t = *tasks[impls[i].first];
    feats[i] = extract_features(t, t.dir / "impls" / (impls[i].second + ".cu"), cache_dir);
    size_t d = ++done;
    if (progress && (d % 20 == 0 || d == impls.size())) {
      std::lock_guard lock(mu);
      progress(fmt::format("features {}/{}", d, impls.size()));
    }
  });
  std::map<std::pair<std::string, std::string>, const std::vector<float>*> by;
  for (size_t i = 0; i < impls.size(); ++i) {
    if (feats[i]) by[impls[i]] = &feats[i].value();
    else problems.push_back(fmt::format("{}/{}: {}", impls[i].first, impls[i].second, feats[i].errors().front().message));
  }
  std::vector<Sample> out;
  for (const auto& t : timings)
    if (auto it = by.find({t.task, t.impl}); it != by.end()) out.push_back({t.task, t.category, t.config, t.impl, *it->second, 0});
  return out;
}

void assign_levels(std::vector<Sample>& samples, const std::vector<Timing>& timings, double min_ratio) {
  std::map<std::tuple<std::string, std::string, std::string>, const Timing*> by;
  for (const auto& t : timings) by[{t.task, t.config, t.impl}] = &t;
  std::map<std::pair<std::string, std::string>, std::vector<Sample*>> groups;
  for (auto& s : samples) groups[{s.task, s.config}].push_back(&s);
  for (auto& [key, g] : groups) {
    std::vector<std::pair<const Timing*, Sample*>> v;
    for (Sample* s : g)
      if (auto it = by.find({s->task, s->config, s->impl}); it != by.end()) v.push_back({it->second, s});
    std::sort(v.begin(), v.end(), [](auto& a, auto& b) { return a.first->median_ms > b.first->median_ms; });  // slowest first
    int level = 0;
    for (size_t i = 0; i < v.size(); ++i) {
      // a new (faster) level starts when this one is measurably faster than the previous one
      if (i > 0 && slower_beyond_noise(*v[i].first, *v[i - 1].first, min_ratio)) ++level;
      v[i].second->level = level;
    }
  }
}

// ---------------------------------------------------------------- model

struct Model::Impl {
  BoosterHandle booster = nullptr;
  ~Impl() {
    if (booster) XGBoosterFree(booster);
  }
};

Model::Model() : p_(std::make_unique<Impl>()) {}
Model::~Model() = default;
Model::Model(Model&&) noexcept = default;
Model& Model::operator=(Model&&) noexcept = default;

namespace {

Diagnostic xgb_error(const char* what) { return Diagnostic{"xgboost", 0, 0, fmt::format("{}: {}", what, XGBGetLastError())}; }

// What the trees see for one group (the implementations of one task at one config): each
// feature, and its difference from the group's median (pairwise ranking only compares within a
// group, and absolute scales differ between tasks).
std::vector<std::vector<float>> model_inputs(const std::vector<std::vector<float>>& group) {
  size_t nf = feature_names().size();
  std::vector<float> med(nf, std::numeric_limits<float>::quiet_NaN());
  for (size_t f = 0; f < nf; ++f) {
    std::vector<float> v;
    for (const auto& x : group)
      if (f < x.size() && !std::isnan(x[f])) v.push_back(x[f]);
    if (v.empty()) continue;
    std::sort(v.begin(), v.end());
    med[f] = v.size() % 2 ? v[v.size() / 2] : 0.5f * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  }
  std::vector<std::vector<float>> out;
  for (const auto& x : group) {
    std::vector<float> row = x;
    row.resize(nf, std::numeric_limits<float>::quiet_NaN());
    for (size_t f = 0; f < nf; ++f) row.push_back(row[f] - med[f]);  // NaN stays NaN
    out.push_back(std::move(row));
  }
  return out;
}

// Rows of x as one float matrix (NaN = missing).
struct Matrix {
  DMatrixHandle h = nullptr;
  ~Matrix() {
    if (h) XGDMatrixFree(h);
  }
};

Result<bool> make_matrix(const std::vector<std::vector<float>>& xs, Matrix& m) {
  size_t cols = 2 * feature_names().size();
  std::vector<float> flat;
  flat.reserve(xs.size() * cols);
  for (const auto& x : xs) {
    if (x.size() != cols) return Diagnostic{"ranker", 0, 0, fmt::format("feature vector of {} values, want {}", x.size(), cols)};
    flat.insert(flat.end(), x.begin(), x.end());
  }
  if (XGDMatrixCreateFromMat(flat.data(), xs.size(), cols, std::numeric_limits<float>::quiet_NaN(), &m.h) != 0)
    return xgb_error("XGDMatrixCreateFromMat");
  return true;
}

}  // namespace

Result<Model> Model::train(const std::vector<Sample>& samples_in, const TrainOptions& o) {
  // XGBoost wants each group's rows contiguous.
  std::vector<const Sample*> s;
  for (const auto& x : samples_in) s.push_back(&x);
  std::stable_sort(s.begin(), s.end(), [](const Sample* a, const Sample* b) {
    return std::tie(a->task, a->config) < std::tie(b->task, b->config);
  });
  std::vector<std::vector<float>> xs;
  std::vector<float> labels;
  std::vector<unsigned> groups;
  for (size_t i = 0; i < s.size();) {
    size_t j = i;
    std::vector<std::vector<float>> g;
    while (j < s.size() && s[j]->task == s[i]->task && s[j]->config == s[i]->config) {
      g.push_back(s[j]->x);
      labels.push_back(static_cast<float>(s[j]->level));
      ++j;
    }
    for (auto& row : model_inputs(g)) xs.push_back(std::move(row));
    groups.push_back(static_cast<unsigned>(j - i));
    i = j;
  }
  if (xs.empty()) return Diagnostic{"ranker", 0, 0, "no training samples"};
  Matrix m;
  if (auto r = make_matrix(xs, m); !r) return r.errors();
  if (XGDMatrixSetFloatInfo(m.h, "label", labels.data(), labels.size()) != 0) return xgb_error("labels");
  if (XGDMatrixSetUIntInfo(m.h, "group", groups.data(), groups.size()) != 0) return xgb_error("groups");
  Model model;
  if (XGBoosterCreate(&m.h, 1, &model.p_->booster) != 0) return xgb_error("XGBoosterCreate");
  const std::vector<std::pair<std::string, std::string>> params = {
      {"objective", "rank:pairwise"}, {"eta", fmt::format("{}", o.eta)}, {"max_depth", std::to_string(o.max_depth)},
      {"min_child_weight", fmt::format("{}", o.min_child_weight)}, {"seed", std::to_string(o.seed)},
      {"nthread", "1"}, {"verbosity", "0"}, {"eval_metric", "ndcg"}};
  for (const auto& [k, v] : params)
    if (XGBoosterSetParam(model.p_->booster, k.c_str(), v.c_str()) != 0) return xgb_error("XGBoosterSetParam");
  for (int it = 0; it < o.rounds; ++it)
    if (XGBoosterUpdateOneIter(model.p_->booster, it, m.h) != 0) return xgb_error("XGBoosterUpdateOneIter");
  return model;
}

Result<Model> Model::load(const fs::path& file) {
  if (!fs::is_regular_file(file)) return Diagnostic{file.string(), 0, 0, "no model file (train one with `cudaperf rank train`)"};
  Model model;
  if (XGBoosterCreate(nullptr, 0, &model.p_->booster) != 0) return xgb_error("XGBoosterCreate");
  if (XGBoosterLoadModel(model.p_->booster, file.c_str()) != 0) return xgb_error("XGBoosterLoadModel");
  return model;
}

Result<bool> Model::save(const fs::path& file) const {
  if (!p_->booster) return Diagnostic{file.string(), 0, 0, "no trained model"};
  std::error_code ec;
  if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
  if (XGBoosterSaveModel(p_->booster, file.c_str()) != 0) return xgb_error("XGBoosterSaveModel");
  return true;
}

Result<std::vector<float>> Model::score(const std::vector<std::vector<float>>& xs) const {
  if (!p_->booster) return Diagnostic{"ranker", 0, 0, "no trained model"};
  if (xs.empty()) return std::vector<float>{};
  Matrix m;
  if (auto r = make_matrix(model_inputs(xs), m); !r) return r.errors();
  bst_ulong n = 0;
  const float* out = nullptr;
  if (XGBoosterPredict(p_->booster, m.h, 0, 0, 0, &n, &out) != 0) return xgb_error("XGBoosterPredict");
  return std::vector<float>(out, out + n);
}

double share_beaten(const std::vector<float>& scores, size_t i, size_t first) {
  double beats = 0, n = 0;
  for (size_t j = first; j < scores.size(); ++j) {
    if (j == i) continue;
    beats += scores[i] > scores[j] ? 1 : scores[i] == scores[j] ? 0.5 : 0;
    ++n;
  }
  return n > 0 ? beats / n : 0.5;
}

// ---------------------------------------------------------------- evaluation

Result<std::vector<HeldOut>> evaluate_by_category(const std::vector<Sample>& samples, const std::vector<Timing>& timings,
                                                  double min_ratio, const TrainOptions& o) {
  std::set<std::string> cats;
  for (const auto& s : samples)
    if (!s.train_only) cats.insert(s.category);
  auto pairs = build_pairs(timings, min_ratio);
  const auto& names = feature_names();
  const std::vector<std::string> heuristics = {"coalescing_mean", "occupancy_mean", "intensity_max", "sync_min"};
  std::vector<HeldOut> out;
  for (const auto& cat : cats) {
    std::vector<Sample> train, test;
    for (const auto& s : samples) (s.category == cat && !s.train_only ? test : train).push_back(s);
    auto model = Model::train(train, o);
    if (!model) return model.errors();
    std::vector<float> score_of(test.size(), 0);
    std::map<std::pair<std::string, std::string>, std::vector<size_t>> groups;
    for (size_t i = 0; i < test.size(); ++i) groups[{test[i].task, test[i].config}].push_back(i);
    HeldOut h;
    for (const auto& [key, members] : groups) {
      std::vector<std::vector<float>> xs;
      for (size_t i : members) xs.push_back(test[i].x);
      auto sc = model->score(xs);
      if (!sc) return sc.errors();
      for (size_t k = 0; k < members.size(); ++k) {
        size_t i = members[k];
        score_of[i] = sc.value()[k];
        h.scored.push_back({test[i].task, test[i].config, test[i].impl, score_of[i], share_beaten(sc.value(), k)});
      }
    }
    std::map<std::tuple<std::string, std::string, std::string>, size_t> idx;
    for (size_t i = 0; i < test.size(); ++i) idx[{test[i].task, test[i].config, test[i].impl}] = i;
    h.category = cat;
    double right = 0;
    std::map<std::string, double> hright;
    std::map<std::string, std::pair<int, int>> tau;  // task -> (concordant - discordant, pairs)
    for (const auto& p : pairs) {
      if (p.category != cat) continue;
      auto a = idx.find({p.task, p.config, p.faster}), b = idx.find({p.task, p.config, p.slower});
      if (a == idx.end() || b == idx.end()) continue;
      ++h.pairs;
      float sa = score_of[a->second], sb = score_of[b->second];
      right += sa > sb ? 1 : sa == sb ? 0.5 : 0;
      auto& t = tau[p.task];
      t.first += sa > sb ? 1 : sa < sb ? -1 : 0;
      ++t.second;
      for (const auto& hname : heuristics) {
        size_t f = static_cast<size_t>(std::find(names.begin(), names.end(), hname) - names.begin());
        float fa = test[a->second].x[f], fb = test[b->second].x[f];
        hright[hname] += (std::isnan(fa) || std::isnan(fb) || fa == fb) ? 0.5 : fa > fb ? 1 : 0;
      }
    }
    if (h.pairs > 0) {
      h.model_accuracy = right / h.pairs;
      for (const auto& [k, v] : hright) h.heuristic_accuracy[k] = v / h.pairs;
      double tsum = 0;
      for (const auto& [task, t] : tau) tsum += static_cast<double>(t.first) / t.second;
      h.kendall_tau = tsum / static_cast<double>(tau.size());
    }
    out.push_back(h);
  }
  return out;
}

}  // namespace cudaperf::rank
