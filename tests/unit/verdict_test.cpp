#include <gtest/gtest.h>

#include "cudaperf/verify/verdict.hpp"

namespace cudaperf::verify {
namespace {

TEST(Verdict, NamesRoundTrip) {
  for (Verdict v : {Verdict::Ok, Verdict::CompileError, Verdict::LinkError, Verdict::RuntimeError, Verdict::Timeout,
                    Verdict::WrongAnswer, Verdict::OutOfBounds, Verdict::InputMutated, Verdict::Nondeterministic,
                    Verdict::HackSuspected}) {
    Verdict back = Verdict::Ok;
    ASSERT_TRUE(parse_verdict(verdict_name(v), back)) << verdict_name(v);
    EXPECT_EQ(back, v);
  }
  Verdict v;
  EXPECT_FALSE(parse_verdict("fine", v));
}

TEST(Verdict, TiersOrderHackBelowCompileBelowRuntimeBelowWrongBelowOk) {
  EXPECT_LT(verdict_tier(Verdict::HackSuspected), verdict_tier(Verdict::CompileError));
  EXPECT_EQ(verdict_tier(Verdict::LinkError), verdict_tier(Verdict::HackSuspected));
  EXPECT_EQ(verdict_tier(Verdict::InputMutated), verdict_tier(Verdict::HackSuspected));
  EXPECT_LT(verdict_tier(Verdict::CompileError), verdict_tier(Verdict::RuntimeError));
  EXPECT_EQ(verdict_tier(Verdict::Timeout), verdict_tier(Verdict::RuntimeError));
  EXPECT_LT(verdict_tier(Verdict::RuntimeError), verdict_tier(Verdict::WrongAnswer));
  EXPECT_LT(verdict_tier(Verdict::WrongAnswer), verdict_tier(Verdict::Ok));
}

// A task error (the task or the engine failed, not the candidate) has no tier whatever the verdict
// underneath, so nothing downstream can turn it into a reward.
TEST(Verdict, TaskErrorHasNoTier) {
  auto j = verdict_fields(Verdict::RuntimeError, true, "task error in t: shapes changed");
  EXPECT_EQ(j["verdict"], "task_error");
  EXPECT_TRUE(j["tier"].is_null());
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_EQ(j["task_error"], "task error in t: shapes changed");
  auto k = verdict_fields(Verdict::RuntimeError, true);
  EXPECT_EQ(k["verdict"], "runtime_error");
  EXPECT_EQ(k["tier"], verdict_tier(Verdict::RuntimeError));
  EXPECT_FALSE(k.contains("task_error"));
}

}  // namespace
}  // namespace cudaperf::verify
