// The offline pairwise ranker (DESIGN §7): which of two implementations of a task is faster,
// from their static structural features. Pairs come from measured records (only timings
// separated beyond noise); training uses XGBoost's rank:pairwise objective through its C API.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cudaperf/task/task.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::rank {

// ---------------------------------------------------------------- records and pairs

// One implementation's measured timing at one perf config (a record with status ok).
struct Timing {
  std::string task, category, impl, config;
  double median_ms = 0, q1_ms = 0, q3_ms = 0;
};
// Reads every *.jsonl under `path` (or the file): ok perf records; the newest record wins when
// an implementation was measured more than once.
Result<std::vector<Timing>> load_timings(const std::filesystem::path& path);

// b is measurably slower than a: median ratio >= 1 + min_ratio and the IQRs do not overlap.
bool slower_beyond_noise(const Timing& a, const Timing& b, double min_ratio);

struct Pair {
  std::string task, category, config, faster, slower;
  double ratio = 1;  // slower median / faster median
};
std::vector<Pair> build_pairs(const std::vector<Timing>& timings, double min_ratio);

// ---------------------------------------------------------------- features

const std::vector<std::string>& feature_names();
// The feature vector of one implementation from its `cudaperf analyze --json` report
// (aggregated over its kernels); NaN where a value is unknown (XGBoost's missing value).
std::vector<float> features_from_report(const nlohmann::json& report);
// Analyses `cu` against task `t` (through the analyzer; cached in cache_dir keyed by the source,
// the task and this build of cudaperf) and returns its features, or why not.
Result<std::vector<float>> extract_features(const task::Task& t, const std::filesystem::path& cu,
                                            const std::filesystem::path& cache_dir);

// ---------------------------------------------------------------- model

struct Sample {
  std::string task, category, config, impl;
  std::vector<float> x;
  int level = 0;  // within (task, config): higher is faster; equal levels are within noise
  bool train_only = false;  // from a --train-root: trains every held-out model, is never held out itself
};
// One sample per measured (task, impl, perf config) in `timings`, with features extracted from the
// implementation under `root` (in parallel, cached). Implementations that cannot be analysed are
// reported in `problems` and left out.
std::vector<Sample> collect_samples(const std::filesystem::path& root, const std::vector<Timing>& timings,
                                    const std::filesystem::path& cache_dir, std::vector<std::string>& problems,
                                    const std::function<void(const std::string&)>& progress = {});

// Levels of each (task, config) group from the timings (chains of within-noise neighbours share one).
void assign_levels(std::vector<Sample>& samples, const std::vector<Timing>& timings, double min_ratio);

struct TrainOptions {
  int rounds = 120;
  int max_depth = 3;
  double eta = 0.1;
  double min_child_weight = 1;
  int seed = 0;
};

class Model {
 public:
  Model();
  ~Model();
  Model(Model&&) noexcept;
  Model& operator=(Model&&) noexcept;
  static Result<Model> train(const std::vector<Sample>& samples, const TrainOptions& o);
  static Result<Model> load(const std::filesystem::path& file);
  Result<bool> save(const std::filesystem::path& file) const;
  // `xs`: the implementations of ONE task at one config (each is also compared with their median).
  // Higher score: predicted faster; only differences within the group mean anything.
  Result<std::vector<float>> score(const std::vector<std::vector<float>>& xs) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> p_;
};

// The share of scores[first..] (other than scores[i] itself) that scores[i] is above, ties half;
// 0.5 when there is nothing to compare with. The rank term of a candidate among a task's
// implementations.
double share_beaten(const std::vector<float>& scores, size_t i, size_t first = 0);

// ---------------------------------------------------------------- evaluation

struct HeldOut {
  std::string category;
  int pairs = 0;
  double model_accuracy = 0;                   // fraction of separated pairs ordered right (ties: half)
  double kendall_tau = 0;                      // mean over tasks of (concordant - discordant) / pairs
  std::map<std::string, double> heuristic_accuracy;  // single static scores on the same pairs
  struct Scored {
    std::string task, config, impl;
    float score = 0;   // the held-out model's score
    double beats = 0;  // share of the other implementations of its task it is scored above (ties: half)
  };
  std::vector<Scored> scored;  // every held-out implementation
};
// Leave-one-category-out: train on the other categories, score the held-out one.
Result<std::vector<HeldOut>> evaluate_by_category(const std::vector<Sample>& samples, const std::vector<Timing>& timings,
                                                  double min_ratio, const TrainOptions& o);

}  // namespace cudaperf::rank
