#include <gtest/gtest.h>

#include "cudaperf/reward/reward.hpp"
#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::verify {
namespace {

constexpr Verdict kCandidateVerdicts[] = {Verdict::Ok,          Verdict::CompileError, Verdict::LinkError,
                                          Verdict::RuntimeError, Verdict::Timeout,     Verdict::WrongAnswer,
                                          Verdict::OutOfBounds,  Verdict::InputMutated, Verdict::Nondeterministic,
                                          Verdict::HackSuspected};

TEST(Verdict, NamesRoundTrip) {
  for (Verdict v : kCandidateVerdicts) {
    Verdict back = Verdict::Ok;
    ASSERT_TRUE(parse_verdict(verdict_name(v), back)) << verdict_name(v);
    EXPECT_EQ(back, v);
  }
  Verdict back = Verdict::Ok;
  ASSERT_TRUE(parse_verdict("task_error", back));
  EXPECT_EQ(back, Verdict::TaskError);
  EXPECT_STREQ(verdict_name(Verdict::TaskError), "task_error");
  Verdict v;
  EXPECT_FALSE(parse_verdict("fine", v));
}

TEST(Verdict, TiersOrderHackBelowCompileBelowRuntimeBelowWrongBelowOk) {
  auto tier = [](Verdict v) { return verdict_tier(v).value(); };
  EXPECT_LT(tier(Verdict::HackSuspected), tier(Verdict::CompileError));
  EXPECT_EQ(tier(Verdict::LinkError), tier(Verdict::HackSuspected));
  EXPECT_EQ(tier(Verdict::InputMutated), tier(Verdict::HackSuspected));
  EXPECT_LT(tier(Verdict::CompileError), tier(Verdict::RuntimeError));
  EXPECT_EQ(tier(Verdict::Timeout), tier(Verdict::RuntimeError));
  EXPECT_LT(tier(Verdict::RuntimeError), tier(Verdict::WrongAnswer));
  EXPECT_LT(tier(Verdict::WrongAnswer), tier(Verdict::Ok));
}

// A task error (the task or the engine failed, not the candidate) is a verdict of its own with no
// tier, so nothing downstream can turn it into a reward: compute_reward refuses it.
TEST(Verdict, TaskErrorHasNoTierAndNoReward) {
  EXPECT_FALSE(verdict_tier(Verdict::TaskError).has_value());
  auto j = verdict_fields(Verdict::TaskError, true);
  EXPECT_EQ(j["verdict"], "task_error");
  EXPECT_TRUE(j["tier"].is_null());
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["gpu_stages"], "run");
  EXPECT_EQ(verdict_fields(Verdict::TaskError, false)["verdict"], "task_error");  // never pending_gpu
  auto k = verdict_fields(Verdict::RuntimeError, true);
  EXPECT_EQ(k["verdict"], "runtime_error");
  EXPECT_EQ(k["tier"], verdict_tier(Verdict::RuntimeError).value());
  EXPECT_TRUE(k["complete"].get<bool>());

  const auto cfg = reward::default_reward_config();
  EXPECT_FALSE(reward::reward_tier(Verdict::TaskError, 2.0).has_value());
  for (std::optional<double> s : {std::optional<double>(), std::optional<double>(0.5), std::optional<double>(3.0)}) {
    auto r = reward::compute_reward({Verdict::TaskError, s, {{"coalescing", 1.0}}, 1.0}, cfg);
    ASSERT_FALSE(r.ok()) << "a task_error was scored " << r->total;
    ASSERT_FALSE(r.errors().empty());
    EXPECT_NE(r.errors().front().message.find("task_error"), std::string::npos) << r.errors().front().message;
  }
  // every verdict of a candidate has a tier and a reward
  for (Verdict v : kCandidateVerdicts) {
    EXPECT_TRUE(verdict_tier(v).has_value()) << verdict_name(v);
    EXPECT_TRUE(reward::reward_tier(v, 1.5).has_value()) << verdict_name(v);
    EXPECT_TRUE(reward::compute_reward({v, 1.5, {}, {}}, cfg).ok()) << verdict_name(v);
  }
}

}  // namespace
}  // namespace cudaperf::verify
