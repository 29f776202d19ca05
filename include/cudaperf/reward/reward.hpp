// The unified reward (DESIGN §6):
//   reward = gate(tier) + [correct] · (w_speed · g(speedup) + w_struct · structure + w_rank · rank)
// with every number in config/reward.toml. The tiers, the bound that keeps structure and rank from
// outweighing a measurable speedup, and the trajectory aggregations are explained in docs/reward.md.
#pragma once
#include <array>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::reward {

// Reward tiers, lowest first. Every score of a tier is strictly below every score of the next one.
// Failing verdicts take verify::verdict_tier (link errors and input mutation are hacks); `ok`
// splits at speedup 1 into CorrectSlower and CorrectFaster. task_error has no tier (nullopt).
enum class Tier { Hack, CompileError, RuntimeError, WrongAnswer, CorrectSlower, CorrectFaster };
inline constexpr int kTierCount = 6;
const char* tier_name(Tier t);  // "hack", "compile_error", ..., "correct_faster"
// A missing, non-finite or non-positive speedup of an `ok` verdict gives CorrectSlower.
std::optional<Tier> reward_tier(verify::Verdict v, std::optional<double> speedup);

// How a multi-turn rollout's per-turn rewards become one number.
enum class Aggregation { Best, Last, Discounted };
const char* aggregation_name(Aggregation a);  // "best", "last", "discounted"
bool parse_aggregation(const std::string& name, Aggregation& out);

// The structural features (DESIGN §5; the `scores` of `cudaperf analyze --json`).
inline constexpr std::array<const char*, 4> kFeatureNames = {"coalescing", "occupancy", "intensity", "sync"};

// Defaults equal config/reward.toml (a unit test checks it); the meaning of each is there and in
// docs/reward.md.
struct RewardConfig {
  std::array<double, kTierCount> gate = {-10.0, -7.0, -6.0, -5.0, 0.0, 0.1};  // indexed by Tier
  double speed_weight = 1.0;     // w_speed
  double speedup_min = 0.01;     // g's lower clip
  double speedup_max = 1000.0;   // g's upper clip
  double min_separation = 0.05;  // "measurably faster": a speedup ratio of at least 1 + this
  double structure_weight = 0.03;  // w_struct
  std::map<std::string, double> feature_weights = {
      {"coalescing", 2.0}, {"occupancy", 1.0}, {"intensity", 1.0}, {"sync", 1.0}};
  double rank_weight = 0.015;  // w_rank
  Aggregation aggregation = Aggregation::Best;
  double discount = 0.4;

  double gate_of(Tier t) const { return gate[static_cast<int>(t)]; }
  // w_speed · ln(1 + min_separation): structure_weight + rank_weight must stay below it.
  double bonus_limit() const;
  bool operator==(const RewardConfig&) const = default;
};

RewardConfig default_reward_config();
// Every range and cross-key rule (docs/reward.md); each message names its key (no file, no line).
Result<RewardConfig> check_reward_config(RewardConfig c);
// TOML → config: missing keys keep their defaults; unknown keys, wrong types, out-of-range values
// and broken cross-key rules are errors located by file and line.
Result<RewardConfig> parse_reward_config(const std::string& text, const std::string& file_name);
Result<RewardConfig> load_reward_config(const std::filesystem::path& file);

struct RewardInputs {
  verify::Verdict verdict = verify::Verdict::Ok;
  std::optional<double> speedup;  // baseline time / candidate time (geometric mean over perf configs)
  // Feature scores in [0, 1] by name (kFeatureNames); nullopt or absent: not known.
  std::map<std::string, std::optional<double>> features;
  std::optional<double> rank;  // the ranker's score in [0, 1]; nullopt: no ranker
};

struct RewardBreakdown {
  // total = gate + speed + structure + rank (up to rounding; see docs/reward.md on the last ulp).
  double total = 0, gate = 0, speed = 0, structure = 0, rank = 0;
  Tier tier = Tier::Hack;
  std::optional<double> speedup;          // the speedup used (before the clip); nullopt: none valid
  std::optional<double> structure_score;  // weighted mean of the present features, in [0, 1]
  std::optional<double> rank_score;       // the ranker score used, in [0, 1]
  double bonus_scale = 0;  // in [0, 1]: 1 except near the clips of g, where the bonus fades out
  std::vector<std::string> notes;  // what was missing, clamped or ignored

  nlohmann::json to_json() const;
};

// The config must have passed check_reward_config (defaults and loaded configs have). Guarantees
// for such a config, exactly in floating point: tiers never overlap, and among correct kernels one
// whose speedup is ≥ the other's · (1 + min_separation) never scores below it. An error, never a
// number, for a verdict without a tier (task_error: the task failed, not the candidate).
Result<RewardBreakdown> compute_reward(const RewardInputs& in, const RewardConfig& c);

// One number for a rollout: Best = max, Last = the final turn, Discounted = Σ_t discount^t · r_t
// (turn 0 first). Errors: no turns, a non-finite reward, discount outside [0, 1].
Result<double> trajectory_reward(const std::vector<double>& per_turn, Aggregation a, double discount);
Result<double> trajectory_reward(const std::vector<double>& per_turn, const RewardConfig& c);
// Per-turn discounted returns G_t = r_t + discount · G_{t+1} (G_0 is the Discounted reward).
Result<std::vector<double>> discounted_returns(const std::vector<double>& per_turn, double discount);

}  // namespace cudaperf::reward
