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

}  // namespace
}  // namespace cudaperf::verify
