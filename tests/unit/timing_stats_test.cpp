#include <gtest/gtest.h>

#include <cmath>

#include "cudaperf/timing/stats.hpp"

namespace cudaperf::timing {
namespace {

TEST(Stats, QuartilesMedianAndSpread) {
  auto s = summarize({5, 1, 3, 2, 4});
  EXPECT_EQ(s.samples, 5);
  EXPECT_DOUBLE_EQ(s.median, 3);
  EXPECT_DOUBLE_EQ(s.q1, 2);
  EXPECT_DOUBLE_EQ(s.q3, 4);
  EXPECT_DOUBLE_EQ(s.iqr(), 2);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.mean, 3);
  EXPECT_NEAR(s.rel_stdev, std::sqrt(2.5) / 3, 1e-12);
  auto even = summarize({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(even.median, 2.5);
  EXPECT_EQ(summarize({}).samples, 0);
}

TEST(Measure, StopsAtMinimumWhenSteady) {
  int calls = 0;
  auto m = measure([&](bool&) { ++calls; return 1.0; }, StoppingRule{});
  EXPECT_EQ(m.reason, StopReason::Converged);
  EXPECT_EQ(m.summary.samples, 10);
  EXPECT_EQ(calls, 10);
}

TEST(Measure, KeepsSamplingNoisyDataUntilMax) {
  int i = 0;
  StoppingRule r;
  r.max_samples = 40;
  r.budget_s = 60;
  auto m = measure([&](bool&) { return (i++ % 2) ? 1.0 : 2.0; }, r);
  EXPECT_EQ(m.reason, StopReason::MaxSamples);
  EXPECT_EQ(m.summary.samples, 40);
}

TEST(Measure, DiscardsThrottledSamplesAndCountsThem) {
  int i = 0;
  auto m = measure(
      [&](bool& throttled) {
        throttled = (i++ % 3 == 0);
        return throttled ? 100.0 : 1.0;
      },
      StoppingRule{});
  EXPECT_EQ(m.summary.samples, 10);
  EXPECT_GE(m.summary.discarded, 4);
  EXPECT_DOUBLE_EQ(m.summary.max, 1.0);  // no throttled value leaked in
}

TEST(Measure, FailureStopsAndSaysSo) {
  int i = 0;
  auto m = measure([&](bool&) { return ++i < 4 ? 1.0 : -1.0; }, StoppingRule{});
  EXPECT_EQ(m.reason, StopReason::Failed);
  EXPECT_EQ(m.summary.samples, 3);
}

TEST(Measure, BudgetEndsSlowSampling) {
  StoppingRule r;
  r.budget_s = 0.05;
  int i = 0;
  auto m = measure(
      [&](bool&) {
        auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(20);
        while (std::chrono::steady_clock::now() < until) {}
        return (i++ % 2) ? 1.0 : 3.0;
      },
      r);
  EXPECT_EQ(m.reason, StopReason::Budget);
  EXPECT_GE(m.summary.samples, 3);
  EXPECT_LT(m.summary.samples, 10);
}

TEST(Measure, CpuBaselineTimesTheFunction) {
  volatile double sink = 0;
  StoppingRule r;
  r.budget_s = 0.5;
  auto m = measure_cpu([&] { for (int k = 0; k < 100000; ++k) sink = sink + k; }, r);
  EXPECT_GE(m.summary.samples, 3);
  EXPECT_GT(m.summary.median, 0);
}

}  // namespace
}  // namespace cudaperf::timing

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/timing/cpu_baseline.hpp"

namespace cudaperf::timing {
namespace {

TEST(CpuBaseline, TimesTheReferenceOnOneCore) {
  auto t = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(t.ok());
  auto so = compile::compile_reference_baseline(t.value());
  ASSERT_TRUE(so.ok) << so.diagnostics;
  StoppingRule r;
  r.budget_s = 0.5;
  auto b = time_cpu_baseline(t.value(), so.path, t->configs[1], 7, r, 30);
  ASSERT_TRUE(b.ms.has_value()) << b.error;
  EXPECT_GE(b.ms->summary.samples, 3);
  EXPECT_GT(b.ms->summary.median, 0);
  EXPECT_LT(b.ms->summary.median, 100);  // n = 1001: far below 100 ms per call
}

TEST(CpuBaseline, ATimeoutIsReportedNotHidden) {
  auto t = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/bad_tasks/reference_hangs");
  ASSERT_TRUE(t.ok());  // the folder is well-formed; only its reference never returns
  auto so = compile::compile_reference_baseline(t.value());
  ASSERT_TRUE(so.ok) << so.diagnostics;
  auto b = time_cpu_baseline(t.value(), so.path, t->configs[0], 1, StoppingRule{}, 1);
  EXPECT_FALSE(b.ms.has_value());
  EXPECT_NE(b.error.find("did not finish within 1 s"), std::string::npos) << b.error;
}

}  // namespace
}  // namespace cudaperf::timing
