// check-gpu's C-to-CUDA library half: the per-implementation summary of a task's results, and the
// whole dataset loop run without a GPU (every implementation a clear failure, nothing "ok").
#include <gtest/gtest.h>

#include "cudaperf/verify/gpu_dataset.hpp"

namespace cudaperf::verify {
namespace {

task::Task fixture() {
  auto t = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix");
  EXPECT_TRUE(t.ok());
  return t.value();
}

GpuImplResult result(const std::string& impl, const std::string& config, const std::string& status, double ms = -1) {
  GpuImplResult r;
  r.impl = impl;
  r.config = config;
  r.status = status;
  r.message = status == "ok" ? "" : "went wrong";
  r.median_ms = ms;
  return r;
}

TEST(GpuDatasetSummary, CountsSmallConfigsAndTakesThePerfMedian) {
  auto t = fixture();
  std::string perf, small;
  for (const auto& c : t.configs) (c.perf ? perf : small) = c.name;
  ASSERT_FALSE(perf.empty());
  ASSERT_FALSE(small.empty());
  std::vector<GpuImplResult> rs = {result("naive", small, "ok"), result("naive", perf, "ok", 4.0),
                                   result("wide", small, "ok"), result("wide", perf, "ok", 0.5),
                                   result("grid", small, "wrong_answer"), result("grid", perf, "hack_suspected")};
  auto wide = summarize_impl(t, "wide", rs);
  EXPECT_EQ(wide.ok, 1);
  EXPECT_EQ(wide.total, 1);
  EXPECT_DOUBLE_EQ(wide.perf_ms, 0.5);
  EXPECT_DOUBLE_EQ(wide.naive_ms, 4.0);
  EXPECT_FALSE(wide.failed);
  EXPECT_TRUE(wide.note.empty());
  auto grid = summarize_impl(t, "grid", rs);
  EXPECT_TRUE(grid.failed);
  EXPECT_EQ(grid.ok, 0);
  EXPECT_DOUBLE_EQ(grid.perf_ms, -1);
  EXPECT_EQ(grid.note.rfind("wrong_answer @" + small, 0), 0u) << grid.note;  // the small config's problem first
  // a perf-only failure is the note; a result for impl "*" (the worker did not start) counts for every impl
  auto perf_bad = summarize_impl(t, "grid", {result("grid", small, "ok"), result("grid", perf, "timeout")});
  EXPECT_TRUE(perf_bad.failed);
  EXPECT_EQ(perf_bad.note.rfind("perf timeout", 0), 0u) << perf_bad.note;
  auto star = summarize_impl(t, "wide", {result("*", small, "runtime_error")});
  EXPECT_TRUE(star.failed);
  EXPECT_EQ(star.total, 1);
  // no small-config result at all is a failure, never a silent pass
  EXPECT_TRUE(summarize_impl(t, "wide", {}).failed);
}

TEST(GpuDatasetWithoutGpu, EveryImplementationFailsClearly) {
  bool have = false;
  describe_gpu(have);
  if (have) GTEST_SKIP() << "a GPU is present: the gpu-labelled tests cover this path";
  GpuDatasetOptions o;
  o.perf = false;
  int seen = 0;
  auto run = check_gpu_dataset(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix", o,
                               [&](const TaskOutcome& out) {
                                 ++seen;
                                 ASSERT_TRUE(out.reference_built);
                                 ASSERT_EQ(out.impls.size(), out.task->impls.size());
                                 for (const auto& s : out.impls) {
                                   EXPECT_TRUE(s.failed) << s.impl;
                                   EXPECT_NE(s.note.find("no CUDA device"), std::string::npos) << s.note;
                                 }
                               });
  EXPECT_EQ(seen, 1);
  ASSERT_EQ(run.tasks.size(), 1u);
  EXPECT_EQ(run.failures, run.tasks[0].impls.size());
  EXPECT_EQ(run.sources, 1 + run.tasks[0].impls.size());
  EXPECT_EQ(run.cold_s.size() + run.cached_s.size(), run.tasks[0].impls.size());  // nvcc builds only
}

}  // namespace
}  // namespace cudaperf::verify
