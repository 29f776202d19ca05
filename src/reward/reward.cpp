// The unified reward: tiers, the bounded bonus, config loading and trajectory aggregation.
// docs/reward.md has the formula, every key and the argument for the ordering guarantees.
#include "cudaperf/reward/reward.hpp"
#include "cudaperf/util/file.hpp"

#include <toml++/toml.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <set>
#include <sstream>

namespace cudaperf::reward {

namespace {

constexpr const char* kTierNames[kTierCount] = {"hack",         "compile_error",  "runtime_error",
                                                "wrong_answer", "correct_slower", "correct_faster"};
constexpr const char* kAggregationNames[] = {"best", "last", "discounted"};  // indexed by Aggregation

std::optional<double> valid_speedup(std::optional<double> s) {
  if (s && std::isfinite(*s) && *s > 0) return s;
  return std::nullopt;
}

// ------------------------------------------------------------------------------------------------
// Config rules. Every number has a key (its dotted TOML path) and a range; cross-key rules follow.

enum class Range { Finite, Positive, NonNegative, Open01, HalfOpen01, Unit, AboveOne };

struct NumberKey {
  std::string key;
  double* value;
  Range range;
};

std::vector<NumberKey> number_keys(RewardConfig& c) {
  std::vector<NumberKey> k;
  for (int t = 0; t < kTierCount; ++t) k.push_back({fmt::format("gate.{}", kTierNames[t]), &c.gate[t], Range::Finite});
  k.push_back({"speed.weight", &c.speed_weight, Range::Positive});
  k.push_back({"speed.min", &c.speedup_min, Range::Open01});
  k.push_back({"speed.max", &c.speedup_max, Range::AboveOne});
  k.push_back({"speed.min_separation", &c.min_separation, Range::HalfOpen01});
  k.push_back({"structure.weight", &c.structure_weight, Range::NonNegative});
  for (auto& [name, w] : c.feature_weights)
    k.push_back({fmt::format("structure.features.{}", name), &w, Range::NonNegative});
  k.push_back({"rank.weight", &c.rank_weight, Range::NonNegative});
  k.push_back({"trajectory.discount", &c.discount, Range::Unit});
  return k;
}

const char* kSections[] = {"gate", "speed", "structure", "structure.features", "rank", "trajectory"};
constexpr const char* kAggregationKey = "trajectory.aggregation";

// nullptr when v is inside the range, else what the range is.
const char* range_violation(double v, Range r) {
  if (!std::isfinite(v)) return "a finite number";
  switch (r) {
    case Range::Finite: return nullptr;
    case Range::Positive: return v > 0 ? nullptr : "> 0";
    case Range::NonNegative: return v >= 0 ? nullptr : ">= 0";
    case Range::Open01: return v > 0 && v < 1 ? nullptr : "in (0, 1)";
    case Range::HalfOpen01: return v > 0 && v <= 1 ? nullptr : "in (0, 1]";
    case Range::Unit: return v >= 0 && v <= 1 ? nullptr : "in [0, 1]";
    case Range::AboveOne: return v > 1 ? nullptr : "> 1";
  }
  return nullptr;
}

// a < b with a margin far above rounding, so no two tiers can tie after a few additions.
bool clearly_below(double a, double b) { return b - a >= 1e-9 * std::max({1.0, std::fabs(a), std::fabs(b)}); }

struct Problem {
  std::string key;  // the key to point at
  std::string message;
};

std::vector<Problem> config_problems(RewardConfig c) {
  std::vector<Problem> out;
  std::set<std::string> features;
  for (const auto& [name, w] : c.feature_weights) features.insert(name);
  for (const char* f : kFeatureNames)
    if (!features.erase(f)) out.push_back({"structure.features", fmt::format("structure.features is missing '{}'", f)});
  for (const auto& f : features)
    out.push_back({"structure.features", fmt::format("unknown feature '{}' in structure.features (known: {})", f,
                                                     fmt::join(kFeatureNames, ", "))});
  for (const auto& k : number_keys(c))
    if (const char* want = range_violation(*k.value, k.range))
      out.push_back({k.key, fmt::format("{} = {} is out of range: must be {}", k.key, *k.value, want)});
  if (!out.empty()) return out;  // the cross-key rules assume every value is in range

  for (int t = 1; t <= static_cast<int>(Tier::WrongAnswer); ++t)
    if (!clearly_below(c.gate[t - 1], c.gate[t]))
      out.push_back({fmt::format("gate.{}", kTierNames[t]),
                     fmt::format("gate.{} = {} must be above gate.{} = {} (tiers: hack < compile_error < "
                                 "runtime_error < wrong_answer < correct_slower < correct_faster)",
                                 kTierNames[t], c.gate[t], kTierNames[t - 1], c.gate[t - 1])});
  const double bonus = c.structure_weight + c.rank_weight;
  if (!(bonus < c.bonus_limit()))
    out.push_back({"structure.weight",
                   fmt::format("structure.weight + rank.weight = {} must be below speed.weight * ln(1 + "
                               "speed.min_separation) = {:.6g}: otherwise structure and rank could outweigh a "
                               "measurably faster kernel",
                               bonus, c.bonus_limit())});
  const double lowest_correct = c.gate_of(Tier::CorrectSlower) + c.speed_weight * std::log(c.speedup_min);
  if (!clearly_below(c.gate_of(Tier::WrongAnswer), lowest_correct))
    out.push_back({"gate.wrong_answer",
                   fmt::format("gate.wrong_answer = {} must be below the lowest correct score, gate.correct_slower + "
                               "speed.weight * ln(speed.min) = {:.6g}",
                               c.gate_of(Tier::WrongAnswer), lowest_correct)});
  const double highest_slower = c.gate_of(Tier::CorrectSlower) + bonus;
  if (!clearly_below(highest_slower, c.gate_of(Tier::CorrectFaster)))
    out.push_back({"gate.correct_faster",
                   fmt::format("gate.correct_faster = {} must be above gate.correct_slower + structure.weight + "
                               "rank.weight = {:.6g}, the highest score of a slower kernel",
                               c.gate_of(Tier::CorrectFaster), highest_slower)});
  return out;
}

// ------------------------------------------------------------------------------------------------
// TOML reading: the file's keys are walked, each leaf matched to a config field by its dotted path.

class Parser {
 public:
  explicit Parser(std::string file) : file_(std::move(file)) {
    for (const auto& k : number_keys(cfg_)) known_.insert(k.key);
    for (const char* s : kSections) known_.insert(s);
    known_.insert(kAggregationKey);
  }

  Result<RewardConfig> parse(const std::string& text) {
    toml::table root;
    try {
      root = toml::parse(text, file_);
    } catch (const toml::parse_error& e) {
      return Diagnostic{file_, static_cast<int>(e.source().begin.line), static_cast<int>(e.source().begin.column),
                        fmt::format("invalid TOML: {}", e.description())};
    }
    walk(root, "");
    if (!errors_.empty()) return errors_;
    for (auto& p : config_problems(cfg_)) {
      auto it = lines_.find(p.key);
      errors_.push_back({file_, it == lines_.end() ? 0 : it->second, 0, std::move(p.message)});
    }
    if (!errors_.empty()) return errors_;
    return cfg_;
  }

 private:
  std::string file_;
  RewardConfig cfg_ = default_reward_config();
  std::set<std::string> known_;
  std::map<std::string, int> lines_;
  std::vector<Diagnostic> errors_;

  void error(int line, std::string msg) { errors_.push_back({file_, line, 0, std::move(msg)}); }

  static bool is_section(const std::string& path) {
    return std::find_if(std::begin(kSections), std::end(kSections), [&](const char* s) { return path == s; }) !=
           std::end(kSections);
  }

  std::string known_under(const std::string& prefix) const {
    std::vector<std::string> names;
    for (const auto& k : known_) {
      if (!prefix.empty() && k.rfind(prefix + ".", 0) != 0) continue;
      std::string rest = prefix.empty() ? k : k.substr(prefix.size() + 1);
      if (rest.find('.') == std::string::npos) names.push_back(rest);
    }
    return fmt::format("{}", fmt::join(names, ", "));
  }

  void walk(const toml::table& table, const std::string& prefix) {
    for (auto&& [k, node] : table) {
      const std::string path = prefix.empty() ? std::string(k.str()) : fmt::format("{}.{}", prefix, k.str());
      const int line = static_cast<int>(node.source().begin.line);
      lines_[path] = line;
      if (!known_.count(path)) {
        error(line, prefix.empty() ? fmt::format("unknown section '{}' (known: {})", path, known_under(""))
                                   : fmt::format("unknown key '{}' in [{}] (known: {})", k.str(), prefix,
                                                 known_under(prefix)));
      } else if (is_section(path)) {
        if (const toml::table* sub = node.as_table()) walk(*sub, path);
        else error(line, fmt::format("'{}' must be a table ([{}])", path, path));
      } else if (path == kAggregationKey) {
        auto s = node.value<std::string>();
        if (!s || !parse_aggregation(*s, cfg_.aggregation))
          error(line, fmt::format("{} must be one of \"best\", \"last\", \"discounted\"", path));
      } else {
        auto v = node.is_number() ? node.value<double>() : std::nullopt;
        if (!v) error(line, fmt::format("{} must be a number", path));
        else
          for (auto& nk : number_keys(cfg_))
            if (nk.key == path) *nk.value = *v;
      }
    }
  }
};

// ------------------------------------------------------------------------------------------------
// The terms.

double log_speedup(double s, const RewardConfig& c) { return std::log(std::clamp(s, c.speedup_min, c.speedup_max)); }

std::optional<double> structure_mean(const std::map<std::string, std::optional<double>>& features,
                                     const RewardConfig& c, std::vector<std::string>& notes) {
  double num = 0, den = 0;
  for (const auto& [name, value] : features) {
    auto w = c.feature_weights.find(name);
    if (w == c.feature_weights.end()) {
      notes.push_back(fmt::format("unknown feature '{}' ignored (known: {})", name, fmt::join(kFeatureNames, ", ")));
      continue;
    }
    if (!value) continue;
    double x = *value;
    if (std::isnan(x)) {
      notes.push_back(fmt::format("feature {} is NaN: treated as missing", name));
      continue;
    }
    if (x < 0 || x > 1) {
      notes.push_back(fmt::format("feature {} = {} is outside [0, 1]: clamped", name, x));
      x = std::clamp(x, 0.0, 1.0);
    }
    num += w->second * x;
    den += w->second;
  }
  if (den <= 0) {
    notes.push_back("no structural feature known (or all have weight 0): structure term 0");
    return std::nullopt;
  }
  return std::clamp(num / den, 0.0, 1.0);
}

std::optional<double> rank_score(std::optional<double> rank, std::vector<std::string>& notes) {
  if (!rank) {
    notes.push_back("no ranker score: rank term 0");
    return std::nullopt;
  }
  if (std::isnan(*rank)) {
    notes.push_back("ranker score is NaN: rank term 0");
    return std::nullopt;
  }
  if (*rank < 0 || *rank > 1) {
    notes.push_back(fmt::format("ranker score {} is outside [0, 1]: clamped", *rank));
    return std::clamp(*rank, 0.0, 1.0);
  }
  return rank;
}

std::optional<Diagnostic> check_turns(const std::vector<double>& per_turn, double discount) {
  if (per_turn.empty()) return Diagnostic{"", 0, 0, "trajectory has no turns"};
  for (size_t t = 0; t < per_turn.size(); ++t)
    if (!std::isfinite(per_turn[t]))
      return Diagnostic{"", 0, 0, fmt::format("turn {} has a non-finite reward ({})", t, per_turn[t])};
  if (!(discount >= 0 && discount <= 1))
    return Diagnostic{"", 0, 0, fmt::format("discount {} is out of range: must be in [0, 1]", discount)};
  return std::nullopt;
}

}  // namespace

const char* tier_name(Tier t) {
  const int i = static_cast<int>(t);
  return i >= 0 && i < kTierCount ? kTierNames[i] : "?";
}

std::optional<Tier> reward_tier(verify::Verdict v, std::optional<double> speedup) {
  if (v == verify::Verdict::Ok) {
    auto s = valid_speedup(speedup);
    return s && *s >= 1 ? Tier::CorrectFaster : Tier::CorrectSlower;
  }
  auto t = verify::verdict_tier(v);
  if (!t) return std::nullopt;
  // A failing verdict never reaches a correct tier, whatever verdict_tier says of it.
  return static_cast<Tier>(std::clamp(*t, 0, static_cast<int>(Tier::WrongAnswer)));
}

const char* aggregation_name(Aggregation a) {
  const auto i = static_cast<size_t>(a);
  return i < std::size(kAggregationNames) ? kAggregationNames[i] : "?";
}

bool parse_aggregation(const std::string& name, Aggregation& out) {
  const auto* it = std::find(std::begin(kAggregationNames), std::end(kAggregationNames), name);
  if (it == std::end(kAggregationNames)) return false;
  out = static_cast<Aggregation>(it - std::begin(kAggregationNames));
  return true;
}

double RewardConfig::bonus_limit() const { return speed_weight * std::log1p(min_separation); }

RewardConfig default_reward_config() { return RewardConfig{}; }

Result<RewardConfig> check_reward_config(RewardConfig c) {
  std::vector<Diagnostic> errors;
  for (auto& p : config_problems(c)) errors.push_back({"", 0, 0, std::move(p.message)});
  if (!errors.empty()) return errors;
  return c;
}

Result<RewardConfig> parse_reward_config(const std::string& text, const std::string& file_name) {
  return Parser(file_name).parse(text);
}

Result<RewardConfig> load_reward_config(const std::filesystem::path& file) {
  auto text = read_file(file);
  if (!text) return Diagnostic{file.string(), 0, 0, "reward config not found or unreadable"};
  return parse_reward_config(*text, file.string());
}

Result<RewardBreakdown> compute_reward(const RewardInputs& in, const RewardConfig& c) {
  RewardBreakdown b;
  b.speedup = valid_speedup(in.speedup);
  auto tier = reward_tier(in.verdict, b.speedup);
  if (!tier)
    return Diagnostic{"", 0, 0, fmt::format("verdict {} has no reward tier: the task or the engine failed, not the candidate, "
                                            "so there is no reward to give", verify::verdict_name(in.verdict))};
  if (in.speedup && !b.speedup)
    b.notes.push_back(fmt::format("speedup {} is not a positive finite number: ignored", *in.speedup));
  b.tier = *tier;
  b.gate = c.gate_of(b.tier);
  if (in.verdict != verify::Verdict::Ok) {
    b.total = b.gate;
    b.notes.push_back(fmt::format("verdict {}: gate only (speed, structure and rank apply to correct kernels)",
                                  verify::verdict_name(in.verdict)));
    return b;
  }

  double s = c.speedup_min;
  if (!b.speedup) b.notes.push_back(fmt::format("no valid speedup: scored at speed.min = {}", c.speedup_min));
  else s = *b.speedup;
  if (s < c.speedup_min) b.notes.push_back(fmt::format("speedup {} is below speed.min = {}: clipped", s, c.speedup_min));
  if (s > c.speedup_max) b.notes.push_back(fmt::format("speedup {} is above speed.max = {}: clipped", s, c.speedup_max));
  // g at this speedup and at the smallest measurably faster one; with no clip in between the gap is
  // ln(1 + min_separation), and the bonus is scaled by how much of that gap the clips leave.
  const double faster = s * (1.0 + c.min_separation);
  const double g0 = log_speedup(s, c);
  const double g1 = log_speedup(faster, c);
  b.speed = c.speed_weight * g0;
  b.bonus_scale = s >= c.speedup_min && faster <= c.speedup_max
                      ? 1.0
                      : std::clamp((g1 - g0) / std::log1p(c.min_separation), 0.0, 1.0);
  if (b.bonus_scale < 1)
    b.notes.push_back(fmt::format("speedup within min_separation of a clip of g: structure and rank scaled by {:.4g}",
                                  b.bonus_scale));
  b.structure_score = structure_mean(in.features, c, b.notes);
  b.rank_score = rank_score(in.rank, b.notes);
  b.structure = c.structure_weight * b.structure_score.value_or(0) * b.bonus_scale;
  b.rank = c.rank_weight * b.rank_score.value_or(0) * b.bonus_scale;
  // Speed plus bonus in units of g, never past g1: a kernel measurably faster than this one has
  // g >= g1, so it scores at least as much even after rounding (the min only bites in the last ulp).
  const double h = std::min(g0 + (b.structure + b.rank) / c.speed_weight, g1);
  b.total = b.gate + c.speed_weight * h;
  return b;
}

nlohmann::json RewardBreakdown::to_json() const {
  auto opt = [](const std::optional<double>& v) { return v ? nlohmann::json(*v) : nlohmann::json(nullptr); };
  return {{"total", total},
          {"tier", tier_name(tier)},
          {"gate", gate},
          {"speed", speed},
          {"structure", structure},
          {"rank", rank},
          {"speedup", opt(speedup)},
          {"structure_score", opt(structure_score)},
          {"rank_score", opt(rank_score)},
          {"bonus_scale", bonus_scale},
          {"notes", notes}};
}

Result<double> trajectory_reward(const std::vector<double>& per_turn, Aggregation a, double discount) {
  if (auto bad = check_turns(per_turn, discount)) return *bad;
  switch (a) {
    case Aggregation::Best: return *std::max_element(per_turn.begin(), per_turn.end());
    case Aggregation::Last: return per_turn.back();
    case Aggregation::Discounted: return discounted_returns(per_turn, discount).value().front();
  }
  return Diagnostic{"", 0, 0, "unknown aggregation"};
}

Result<double> trajectory_reward(const std::vector<double>& per_turn, const RewardConfig& c) {
  return trajectory_reward(per_turn, c.aggregation, c.discount);
}

Result<std::vector<double>> discounted_returns(const std::vector<double>& per_turn, double discount) {
  if (auto bad = check_turns(per_turn, discount)) return *bad;
  std::vector<double> g(per_turn.size());
  double next = 0;
  for (size_t t = per_turn.size(); t-- > 0;) g[t] = next = per_turn[t] + discount * next;
  return g;
}

}  // namespace cudaperf::reward
