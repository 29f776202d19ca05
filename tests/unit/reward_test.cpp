#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>

#include "cudaperf/reward/reward.hpp"

namespace cudaperf::reward {
namespace {

using verify::Verdict;

constexpr Verdict kFailing[] = {Verdict::CompileError,  Verdict::LinkError,    Verdict::RuntimeError,
                                Verdict::Timeout,       Verdict::WrongAnswer,  Verdict::OutOfBounds,
                                Verdict::InputMutated,  Verdict::Nondeterministic, Verdict::HackSuspected};

std::string joined(const std::vector<Diagnostic>& errors) {
  std::string s;
  for (const auto& e : errors) s += e.to_string() + "\n";
  return s;
}

// compute_reward of a verdict with a tier (every one but task_error, which it refuses: verdict_test).
RewardBreakdown score(const RewardInputs& in, const RewardConfig& c) {
  auto r = compute_reward(in, c);
  EXPECT_TRUE(r.ok()) << joined(r.errors());
  return r.ok() ? r.value() : RewardBreakdown{};
}

// Random inputs that reach every corner: speedups far past both clips, at the clips, within
// min_separation of them, at and around 1; features absent, unknown, out of range, NaN, 0 or 1.
class Gen {
 public:
  explicit Gen(const RewardConfig& c, uint64_t seed = 20240611) : c_(c), rng_(seed) {}

  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }

  double speedup() {
    const double m = c_.min_separation;
    const double wiggle = std::exp(uniform(-1e-9, 1e-9));
    switch (pick(10)) {
      case 0: return c_.speedup_min * wiggle;
      case 1: return c_.speedup_max * wiggle;
      case 2: return c_.speedup_max / (1 + m) * std::exp(uniform(-2 * m, 2 * m));
      case 3: return c_.speedup_min / (1 + m) * std::exp(uniform(-2 * m, 2 * m));
      case 4: return pick(2) ? 1.0 : std::nextafter(1.0, pick(2) ? 0.0 : 2.0);
      case 5: return std::exp(uniform(-2 * m, 2 * m));
      case 6: return pick(2) ? c_.speedup_min : c_.speedup_max;
      default: return std::exp(uniform(std::log(1e-5), std::log(1e6)));
    }
  }

  std::optional<double> feature() {
    switch (pick(8)) {
      case 0: return std::nullopt;
      case 1: return 0.0;
      case 2: return 1.0;
      case 3: return uniform(-2, 3);  // out of range: clamped
      case 4: return std::numeric_limits<double>::quiet_NaN();
      default: return uniform(0, 1);
    }
  }

  RewardInputs inputs(Verdict v) {
    RewardInputs in;
    in.verdict = v;
    if (pick(8)) in.speedup = speedup();
    else if (pick(2)) in.speedup = pick(2) ? 0.0 : -1.0;  // invalid: ignored
    for (const char* f : kFeatureNames)
      if (pick(4)) in.features[f] = feature();
    if (!pick(10)) in.features["bank_conflicts"] = 1.0;  // unknown: ignored
    if (pick(4)) in.rank = feature();
    return in;
  }

  // The best or worst structure and rank there are, or random ones.
  void set_extreme(RewardInputs& in, double value) {
    for (const char* f : kFeatureNames) in.features[f] = value;
    in.rank = value;
  }

 private:
  RewardConfig c_;
  std::mt19937_64 rng_;
};

RewardConfig edge_config() {
  // structure + rank weights a hair below the bound, the slower/faster gap and the wrong/correct gap
  // a hair above their minimum, narrow clips: the configuration where every ordering is tightest.
  const double w = 0.3, m = 0.01, bonus = w * std::log1p(m) * (1 - 1e-8);
  return RewardConfig{.gate = {-3.0, -2.0, -1.0, w * std::log(0.5) - 1e-8, 0.0, bonus + 1e-8},
                      .speed_weight = w,
                      .speedup_min = 0.5,
                      .speedup_max = 4.0,
                      .min_separation = m,
                      .structure_weight = 0.75 * bonus,
                      .rank_weight = 0.25 * bonus};
}

std::vector<RewardConfig> configs_under_test() {
  auto edge = edge_config();
  EXPECT_TRUE(check_reward_config(edge).ok()) << joined(check_reward_config(edge).errors());
  return {default_reward_config(), edge};
}

// ------------------------------------------------------------------------------------------------
// Tiers.

TEST(RewardTier, VerdictsMapToTiersAsListed) {
  EXPECT_EQ(reward_tier(Verdict::HackSuspected, 5.0), Tier::Hack);
  EXPECT_EQ(reward_tier(Verdict::LinkError, std::nullopt), Tier::Hack);
  EXPECT_EQ(reward_tier(Verdict::InputMutated, 5.0), Tier::Hack);
  EXPECT_EQ(reward_tier(Verdict::CompileError, std::nullopt), Tier::CompileError);
  EXPECT_EQ(reward_tier(Verdict::RuntimeError, 2.0), Tier::RuntimeError);
  EXPECT_EQ(reward_tier(Verdict::Timeout, std::nullopt), Tier::RuntimeError);
  EXPECT_EQ(reward_tier(Verdict::OutOfBounds, 2.0), Tier::RuntimeError);
  EXPECT_EQ(reward_tier(Verdict::WrongAnswer, 9.0), Tier::WrongAnswer);
  EXPECT_EQ(reward_tier(Verdict::Nondeterministic, 9.0), Tier::WrongAnswer);
  EXPECT_EQ(reward_tier(Verdict::Ok, 0.5), Tier::CorrectSlower);
  EXPECT_EQ(reward_tier(Verdict::Ok, std::nextafter(1.0, 0.0)), Tier::CorrectSlower);
  EXPECT_EQ(reward_tier(Verdict::Ok, 1.0), Tier::CorrectFaster);
  EXPECT_EQ(reward_tier(Verdict::Ok, 3.0), Tier::CorrectFaster);
  EXPECT_EQ(reward_tier(Verdict::Ok, std::nullopt), Tier::CorrectSlower);
  EXPECT_EQ(reward_tier(Verdict::Ok, std::numeric_limits<double>::infinity()), Tier::CorrectSlower);
  EXPECT_EQ(reward_tier(Verdict::TaskError, 3.0), std::nullopt);  // the task failed: no tier at all
  EXPECT_STREQ(tier_name(Tier::Hack), "hack");
  EXPECT_STREQ(tier_name(Tier::CorrectFaster), "correct_faster");
}

TEST(RewardTier, EveryScoreOfATierIsBelowEveryScoreOfTheNext) {
  for (const auto& c : configs_under_test()) {
    Gen gen(c);
    std::array<double, kTierCount> lo, hi;
    lo.fill(std::numeric_limits<double>::infinity());
    hi.fill(-std::numeric_limits<double>::infinity());
    for (int i = 0; i < 20000; ++i) {
      const Verdict v = gen.pick(3) ? Verdict::Ok : kFailing[gen.pick(std::size(kFailing))];
      RewardInputs in = gen.inputs(v);
      if (v == Verdict::Ok && gen.pick(4) == 0) gen.set_extreme(in, gen.pick(2) ? 1.0 : 0.0);
      const auto b = score(in, c);
      const int t = static_cast<int>(b.tier);
      lo[t] = std::min(lo[t], b.total);
      hi[t] = std::max(hi[t], b.total);
    }
    for (int t = 0; t + 1 < kTierCount; ++t) {
      ASSERT_TRUE(std::isfinite(lo[t]) && std::isfinite(lo[t + 1])) << "tier never drawn: " << t;
      EXPECT_LT(hi[t], lo[t + 1]) << tier_name(static_cast<Tier>(t)) << " reaches "
                                  << tier_name(static_cast<Tier>(t + 1));
    }
  }
}

TEST(RewardTier, HacksGetTheLowestRewardStrictlyBelowCompileErrors) {
  const auto c = default_reward_config();
  for (Verdict v : {Verdict::HackSuspected, Verdict::LinkError, Verdict::InputMutated}) {
    RewardInputs in{v, 1000.0, {{"coalescing", 1.0}}, 1.0};
    const auto b = score(in, c);
    EXPECT_EQ(b.tier, Tier::Hack);
    EXPECT_EQ(b.total, c.gate_of(Tier::Hack));
    EXPECT_LT(b.total, score({Verdict::CompileError, {}, {}, {}}, c).total);
  }
}

TEST(RewardTier, SlowerJustBelowOneStaysBelowFasterAtOne) {
  const auto c = default_reward_config();
  RewardInputs slow{Verdict::Ok, std::nextafter(1.0, 0.0), {}, 1.0};
  for (const char* f : kFeatureNames) slow.features[f] = 1.0;
  const RewardInputs fast{Verdict::Ok, 1.0, {}, std::nullopt};
  EXPECT_LT(score(slow, c).total, score(fast, c).total);
}

// ------------------------------------------------------------------------------------------------
// The two properties.

TEST(RewardProperty, CorrectNeverScoresBelowIncorrect) {
  for (const auto& c : configs_under_test()) {
    Gen gen(c, 7);
    for (int i = 0; i < 20000; ++i) {
      RewardInputs good = gen.inputs(Verdict::Ok);
      if (gen.pick(2)) gen.set_extreme(good, 0.0);
      RewardInputs bad = gen.inputs(kFailing[gen.pick(std::size(kFailing))]);
      if (gen.pick(2)) gen.set_extreme(bad, 1.0);
      const auto g = score(good, c), b = score(bad, c);
      ASSERT_GT(g.total, b.total) << g.to_json().dump() << "\nvs\n" << b.to_json().dump();
    }
  }
}

TEST(RewardProperty, MeasurablyFasterNeverScoresBelowSlowerWhateverTheStructure) {
  for (const auto& c : configs_under_test()) {
    Gen gen(c, 11);
    int strictly = 0;
    for (int i = 0; i < 50000; ++i) {
      const double slow_s = gen.speedup();
      // "measurably faster": exactly the boundary, or a little or a lot beyond it.
      double fast_s = slow_s * (1 + c.min_separation);
      if (gen.pick(3) == 1) fast_s = std::nextafter(fast_s, 1e300);
      if (gen.pick(3) == 2) fast_s *= std::exp(gen.uniform(0, 3));
      ASSERT_GE(fast_s, slow_s * (1 + c.min_separation));
      RewardInputs slow = gen.inputs(Verdict::Ok), fast = gen.inputs(Verdict::Ok);
      slow.speedup = slow_s;
      fast.speedup = fast_s;
      if (gen.pick(2)) {  // the adversarial case: perfect structure against none
        gen.set_extreme(slow, 1.0);
        gen.set_extreme(fast, 0.0);
      }
      const auto a = score(fast, c), b = score(slow, c);
      ASSERT_GE(a.total, b.total) << a.to_json().dump() << "\nvs\n" << b.to_json().dump();
      // Ties only where both sit at the same clip of g (within rounding of it).
      if (a.total == b.total)
        ASSERT_TRUE(slow_s >= c.speedup_max * (1 - 1e-6) || fast_s <= c.speedup_min * (1 + 1e-6))
            << slow_s << " " << fast_s;
      else ++strictly;
    }
    EXPECT_GT(strictly, 25000);
  }
}

TEST(RewardProperty, HoldsInTheLastUlpWithTheBonusAtItsBound) {
  // structure.weight one ulp below the bound and speedups fading into the upper clip: without the
  // cap h <= g(speedup * (1 + min_separation)) in compute_reward about 2 % of these pairs invert
  // by one ulp.
  RewardConfig c;
  c.rank_weight = 0;
  c.structure_weight = std::nextafter(c.bonus_limit(), 0.0);
  c.gate[static_cast<int>(Tier::CorrectFaster)] = 1.0;
  ASSERT_TRUE(check_reward_config(c).ok()) << joined(check_reward_config(c).errors());
  Gen gen(c, 5);
  for (int i = 0; i < 100000; ++i) {
    const double slow_s = c.speedup_max * std::exp(-gen.uniform(0, 0.06));
    RewardInputs slow{Verdict::Ok, slow_s, {}, {}}, fast{Verdict::Ok, slow_s * (1 + c.min_separation), {}, {}};
    for (const char* f : kFeatureNames) slow.features[f] = 1.0;
    ASSERT_GE(score(fast, c).total, score(slow, c).total) << slow_s;
  }
}

TEST(RewardProperty, FasterIsStrictlyBetterBetweenTheClips) {
  // Between the clips a measurable speedup wins strictly even against perfect structure.
  const auto c = default_reward_config();
  Gen gen(c, 3);
  for (int i = 0; i < 10000; ++i) {
    const double s = std::exp(gen.uniform(std::log(c.speedup_min), std::log(c.speedup_max / (1 + c.min_separation))));
    RewardInputs slow{Verdict::Ok, s, {}, 1.0}, fast{Verdict::Ok, s * (1 + c.min_separation), {}, 0.0};
    for (const char* f : kFeatureNames) slow.features[f] = 1.0, fast.features[f] = 0.0;
    ASSERT_GT(score(fast, c).total, score(slow, c).total) << s;
  }
}

// ------------------------------------------------------------------------------------------------
// The terms.

TEST(RewardTerms, FormulaBetweenTheClips) {
  const auto c = default_reward_config();
  RewardInputs in{Verdict::Ok, 4.0, {{"coalescing", 1.0}, {"occupancy", 0.5}, {"intensity", std::nullopt}}, 0.5};
  const auto b = score(in, c);
  EXPECT_EQ(b.tier, Tier::CorrectFaster);
  EXPECT_DOUBLE_EQ(b.gate, 0.1);
  EXPECT_DOUBLE_EQ(b.speed, std::log(4.0));
  EXPECT_DOUBLE_EQ(b.bonus_scale, 1.0);
  ASSERT_TRUE(b.structure_score.has_value());
  EXPECT_DOUBLE_EQ(*b.structure_score, (2.0 * 1.0 + 1.0 * 0.5) / 3.0);  // intensity and sync absent
  EXPECT_DOUBLE_EQ(b.structure, 0.03 * 2.5 / 3.0);
  EXPECT_DOUBLE_EQ(b.rank, 0.015 * 0.5);
  EXPECT_NEAR(b.total, b.gate + b.speed + b.structure + b.rank, 1e-12);
  const auto j = b.to_json();
  EXPECT_EQ(j["tier"], "correct_faster");
  EXPECT_DOUBLE_EQ(j["total"].get<double>(), b.total);
}

TEST(RewardTerms, MissingStructureAndRankGiveZeroAndSaySo) {
  const auto c = default_reward_config();
  const auto b = score({Verdict::Ok, 2.0, {{"sync", std::nullopt}, {"warp_divergence", 0.9}}, {}}, c);
  EXPECT_FALSE(b.structure_score.has_value());
  EXPECT_FALSE(b.rank_score.has_value());
  EXPECT_EQ(b.structure, 0.0);
  EXPECT_EQ(b.rank, 0.0);
  EXPECT_DOUBLE_EQ(b.total, 0.1 + std::log(2.0));
  auto has = [&](const std::string& part) {
    for (const auto& n : b.notes)
      if (n.find(part) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("no ranker score")) << b.to_json().dump();
  EXPECT_TRUE(has("no structural feature")) << b.to_json().dump();
  EXPECT_TRUE(has("unknown feature 'warp_divergence'")) << b.to_json().dump();
}

TEST(RewardTerms, ClipsAndTheFadingBonus) {
  const auto c = default_reward_config();
  RewardInputs in{Verdict::Ok, 1e6, {{"coalescing", 1.0}}, 1.0};
  auto above = score(in, c);
  EXPECT_DOUBLE_EQ(above.speed, std::log(c.speedup_max));
  EXPECT_EQ(above.bonus_scale, 0.0);  // past the upper clip nothing can be measurably faster
  EXPECT_EQ(above.structure + above.rank, 0.0);
  in.speedup = c.speedup_max / std::sqrt(1 + c.min_separation);  // halfway through the fade (in log)
  EXPECT_NEAR(score(in, c).bonus_scale, 0.5, 1e-9);
  in.speedup = 1e-6;  // far below the lower clip: scored at speed.min, no bonus
  auto below = score(in, c);
  EXPECT_DOUBLE_EQ(below.speed, std::log(c.speedup_min));
  EXPECT_EQ(below.bonus_scale, 0.0);
  in.speedup = std::nullopt;  // no speedup: scored at speed.min with the full bonus
  auto none = score(in, c);
  EXPECT_EQ(none.tier, Tier::CorrectSlower);
  EXPECT_DOUBLE_EQ(none.speed, std::log(c.speedup_min));
  EXPECT_EQ(none.bonus_scale, 1.0);
}

TEST(RewardTerms, FailingVerdictsGetTheGateOnly) {
  const auto c = default_reward_config();
  const auto b = score({Verdict::WrongAnswer, 50.0, {{"coalescing", 1.0}}, 1.0}, c);
  EXPECT_EQ(b.total, c.gate_of(Tier::WrongAnswer));
  EXPECT_EQ(b.speed + b.structure + b.rank, 0.0);
}

// ------------------------------------------------------------------------------------------------
// Trajectories.

TEST(RewardTrajectory, Aggregations) {
  const std::vector<double> r = {-5.0, 0.5, 2.0, 1.0};
  EXPECT_DOUBLE_EQ(trajectory_reward(r, Aggregation::Best, 0.4).value(), 2.0);
  EXPECT_DOUBLE_EQ(trajectory_reward(r, Aggregation::Last, 0.4).value(), 1.0);
  EXPECT_DOUBLE_EQ(trajectory_reward(r, Aggregation::Discounted, 0.5).value(), -5.0 + 0.25 + 0.5 + 0.125);
  EXPECT_DOUBLE_EQ(trajectory_reward(r, Aggregation::Discounted, 0.0).value(), -5.0);
  EXPECT_DOUBLE_EQ(trajectory_reward(r, Aggregation::Discounted, 1.0).value(), -1.5);
  auto g = discounted_returns(r, 0.5).value();
  ASSERT_EQ(g.size(), 4u);
  EXPECT_DOUBLE_EQ(g[3], 1.0);
  EXPECT_DOUBLE_EQ(g[2], 2.5);
  EXPECT_DOUBLE_EQ(g[1], 1.75);
  EXPECT_DOUBLE_EQ(g[0], trajectory_reward(r, Aggregation::Discounted, 0.5).value());
  const auto c = default_reward_config();  // best
  EXPECT_DOUBLE_EQ(trajectory_reward(r, c).value(), 2.0);
  Aggregation a;
  ASSERT_TRUE(parse_aggregation("discounted", a));
  EXPECT_EQ(a, Aggregation::Discounted);
  EXPECT_FALSE(parse_aggregation("mean", a));
  EXPECT_STREQ(aggregation_name(Aggregation::Last), "last");
}

TEST(RewardTrajectory, BadInputsAreErrors) {
  EXPECT_FALSE(trajectory_reward({}, Aggregation::Best, 0.4).ok());
  EXPECT_FALSE(trajectory_reward({1.0, std::nan("")}, Aggregation::Last, 0.4).ok());
  auto r = trajectory_reward({1.0}, Aggregation::Discounted, 1.5);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.errors()[0].message.find("discount"), std::string::npos);
  EXPECT_FALSE(discounted_returns({}, 0.5).ok());
}

// ------------------------------------------------------------------------------------------------
// Configuration.

class RewardConfigFile : public ::testing::Test {
 protected:
  std::filesystem::path dir_ = std::filesystem::temp_directory_path() /
                               ("cudaperf-reward-" + std::to_string(getpid()) + "-" +
                                ::testing::UnitTest::GetInstance()->current_test_info()->name());
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  Result<RewardConfig> load(const std::string& text) {
    auto p = dir_ / "reward.toml";
    std::ofstream(p) << text;
    return load_reward_config(p);
  }
  // Each file must fail with exactly one error, on `line` (0: any), whose text contains `fragment`.
  struct BadFile {
    const char* toml;
    int line;
    const char* fragment;
  };
  void expect_errors(std::initializer_list<BadFile> cases) {
    for (const auto& bad : cases) {
      SCOPED_TRACE(bad.toml);
      auto r = load(bad.toml);
      ASSERT_FALSE(r.ok());
      ASSERT_EQ(r.errors().size(), 1u) << joined(r.errors());
      const auto& e = r.errors()[0];
      if (bad.line) {
        EXPECT_EQ(e.line, bad.line) << e.to_string();
      }
      EXPECT_NE(e.message.find(bad.fragment), std::string::npos) << e.to_string();
    }
  }
};

TEST_F(RewardConfigFile, MissingKeysKeepTheirDefaults) {
  auto r = load("[speed]\nweight = 1  # an integer is a number\n\n[trajectory]\naggregation = \"last\"\n");
  ASSERT_TRUE(r.ok()) << joined(r.errors());
  RewardConfig want = default_reward_config();
  want.speed_weight = 1.0;  // written as the integer 1
  want.aggregation = Aggregation::Last;
  EXPECT_EQ(r.value(), want);
  auto empty = load("");
  ASSERT_TRUE(empty.ok()) << joined(empty.errors());
  EXPECT_EQ(empty.value(), default_reward_config());
}

// Unknown keys, out-of-range values, broken cross-key rules, wrong types, bad syntax: one located
// error each.
TEST_F(RewardConfigFile, BadKeysAndValuesAreLocatedErrors) {
  expect_errors({
      {"[speed]\nweight = 1.0\nclip = 10.0\n", 3, "unknown key 'clip' in [speed] (known: max, min, min_separation, weight)"},
      {"[bonus]\nx = 1\n", 1, "unknown section 'bonus' (known: gate, rank, speed, structure, trajectory)"},
      {"[structure.features]\nbank_conflicts = 1.0\n", 2, "unknown key 'bank_conflicts' in [structure.features]"},
      {"[speed]\nmin = 2.0\n", 2, "speed.min = 2 is out of range: must be in (0, 1)"},
      {"[trajectory]\ndiscount = -0.1\n", 2, "trajectory.discount = -0.1 is out of range: must be in [0, 1]"},
      {"[structure.features]\nsync = -1\n", 2, "structure.features.sync = -1 is out of range: must be >= 0"},
      {"[speed]\nweight = nan\n", 2, "speed.weight = nan is out of range: must be a finite number"},
      // Structure and rank could outweigh a 5 % speedup.
      {"[structure]\nweight = 0.04\n[rank]\nweight = 0.01\n", 2, "structure.weight + rank.weight = 0.05 must be below"},
      // Tiers out of order.
      {"[gate]\ncompile_error = -12\n", 2, "gate.compile_error = -12 must be above gate.hack = -10"},
      // A 100x slower correct kernel would fall below a wrong answer.
      {"[gate]\nwrong_answer = -4\n", 2, "gate.wrong_answer = -4 must be below the lowest correct score"},
      // A slower kernel's bonus could reach the faster tier.
      {"[gate]\ncorrect_faster = 0.04\n", 2, "gate.correct_faster = 0.04 must be above"},
      {"[speed]\nweight = \"1\"\n", 2, "speed.weight must be a number"},
      {"speed = 1\n", 1, "'speed' must be a table"},
      {"[trajectory]\naggregation = \"mean\"\n", 2, "must be one of \"best\", \"last\", \"discounted\""},
      {"[speed\n", 0, "invalid TOML"},
  });
}

TEST_F(RewardConfigFile, MissingFileIsAnError) {
  EXPECT_FALSE(load_reward_config(dir_ / "absent.toml").ok());
}

TEST(RewardConfig, DefaultsPassTheirOwnRules) {
  auto r = check_reward_config(default_reward_config());
  ASSERT_TRUE(r.ok()) << joined(r.errors());
  RewardConfig c;
  c.feature_weights.erase("sync");
  c.feature_weights["bank_conflicts"] = 1.0;
  auto bad = check_reward_config(c);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.errors().size(), 2u) << joined(bad.errors());
}

TEST(RewardConfig, ShippedFileEqualsTheCompiledDefaults) {
  const auto path = std::filesystem::path(CUDAPERF_TEST_DATA) / ".." / ".." / "config" / "reward.toml";
  auto r = load_reward_config(path);
  ASSERT_TRUE(r.ok()) << joined(r.errors());
  EXPECT_EQ(r.value(), default_reward_config());
  // And it spells out every key: parsing it over a config with other values gives the same.
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const char* key : {"hack", "compile_error", "runtime_error", "wrong_answer", "correct_slower",
                          "correct_faster", "weight", "min", "max", "min_separation", "coalescing", "occupancy",
                          "intensity", "sync", "aggregation", "discount"})
    EXPECT_NE(text.find(std::string("\n") + key + " "), std::string::npos) << key;
}

}  // namespace
}  // namespace cudaperf::reward
