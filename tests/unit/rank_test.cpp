// The ranker (src/rank): records → timings, pairs separated beyond noise, levels, and the
// XGBoost rank:pairwise wiring on synthetic data where one feature decides the speed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <unistd.h>

#include "cudaperf/rank/ranker.hpp"

namespace cr = cudaperf::rank;

namespace {
const std::string kRecords = std::string(CUDAPERF_TEST_DATA) + "/rank/records.jsonl";

const cr::Timing* find(const std::vector<cr::Timing>& v, const std::string& impl) {
  for (const auto& t : v)
    if (t.impl == impl) return &t;
  return nullptr;
}
}  // namespace

TEST(RankRecords, KeepsOkPerfRecordsAndTheNewestOfRepeats) {
  auto t = cr::load_timings(kRecords);
  ASSERT_TRUE(t.ok()) << t.errors().front().message;
  EXPECT_EQ(t->size(), 6u);                 // broken (wrong_answer) and the tiny config are dropped
  EXPECT_EQ(find(t.value(), "broken"), nullptr);
  ASSERT_NE(find(t.value(), "mid"), nullptr);
  EXPECT_DOUBLE_EQ(find(t.value(), "mid")->median_ms, 2.0);  // 2026 beats 2025
  EXPECT_EQ(find(t.value(), "x")->category, "b");
}

// A task whose newest record somewhere is a task_error (the task failed, not an impl) gives no
// timings, so no ranker pairs; an older task_error superseded by a newer record does not count.
TEST(RankRecords, TaskErrorTasksGiveNoTimings) {
  auto file = std::filesystem::temp_directory_path() / ("cudaperf-rank-task-error-" + std::to_string(::getpid()) + ".jsonl");
  {
    std::ofstream f(file);
    auto rec = [&](const char* task, const char* impl, const char* config, const char* status, double ms, const char* date) {
      f << R"({"task":")" << task << R"(","impl":")" << impl << R"(","config":")" << config << R"(","perf":true,"status":")" << status
        << R"(","median_ms":)" << ms << R"(,"q1_ms":)" << ms << R"(,"q3_ms":)" << ms << R"(,"date":")" << date << "\"}\n";
    };
    rec("c/bad", "fast", "perf", "ok", 1.0, "2026-01-01");
    rec("c/bad", "slow", "perf", "ok", 5.0, "2026-01-01");
    rec("c/bad", "slow", "perf2", "task_error", -1, "2026-01-01");
    rec("c/fixed", "fast", "perf", "ok", 1.0, "2026-02-01");
    rec("c/fixed", "slow", "perf", "ok", 5.0, "2026-02-01");
    rec("c/fixed", "slow", "perf", "task_error", -1, "2026-01-01");
  }
  auto t = cr::load_timings(file);
  std::filesystem::remove(file);
  ASSERT_TRUE(t.ok()) << t.errors().front().message;
  ASSERT_EQ(t->size(), 2u);
  for (const auto& x : t.value()) EXPECT_EQ(x.task, "c/fixed");
  EXPECT_EQ(cr::build_pairs(t.value(), 0.05).size(), 1u);
}

TEST(RankRecords, MissingFolderIsAnError) {
  auto t = cr::load_timings("/nonexistent/records");
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.errors().front().message.find("no records"), std::string::npos);
}

TEST(RankPairs, OnlyPairsSeparatedBeyondNoise) {
  auto t = cr::load_timings(kRecords).value();
  auto pairs = cr::build_pairs(t, 0.03);
  auto has = [&](const std::string& f, const std::string& s) {
    return std::any_of(pairs.begin(), pairs.end(), [&](const cr::Pair& p) { return p.faster == f && p.slower == s; });
  };
  EXPECT_TRUE(has("fast", "naive"));
  EXPECT_TRUE(has("fast", "mid"));
  EXPECT_TRUE(has("mid", "naive"));
  EXPECT_FALSE(has("fast", "fast2"));  // 1 % apart: noise
  EXPECT_FALSE(has("fast2", "fast"));
  EXPECT_FALSE(has("x", "y"));         // 17 % apart but x's IQR reaches y's
  EXPECT_EQ(pairs.size(), 5u);         // fast,fast2 x mid,naive + mid,naive
  for (const auto& p : pairs) EXPECT_GT(p.ratio, 1.03);
}

TEST(RankLevels, WithinNoiseShareALevelFasterIsHigher) {
  auto t = cr::load_timings(kRecords).value();
  std::vector<cr::Sample> s;
  for (const auto& x : t) s.push_back({x.task, x.category, x.config, x.impl, {}, -1});
  cr::assign_levels(s, t, 0.03);
  std::map<std::string, int> level;
  for (const auto& x : s) level[x.impl] = x.level;
  EXPECT_EQ(level["naive"], 0);
  EXPECT_EQ(level["mid"], 1);
  EXPECT_EQ(level["fast"], 2);
  EXPECT_EQ(level["fast2"], 2);
  EXPECT_EQ(level["x"], level["y"]);
}

TEST(RankFeatures, FromAReportAggregatesKernels) {
  nlohmann::json r = {{"kernels",
                       {{{"scores", {{"coalescing", 1.0}, {"occupancy", 0.5}, {"intensity", 0.2}, {"sync", 1.0}}},
                         {"coalescing", {{"known", 3}, {"unknown", 1}}},
                         {"resources", {{"registers", 32}, {"shared_static_bytes", 0}}},
                         {"census", {{"ld_global", {{"16", 2}, {"4", 1}}}, {"fp32", {{"add", 1}, {"mul", 0}, {"fma", 2}, {"other", 0}}}}},
                         {"launch", {{"block_size", 256}}}},
                        {{"scores", {{"coalescing", 0.25}, {"occupancy", 1.0}, {"intensity", nullptr}, {"sync", 0.5}}},
                         {"coalescing", {{"known", 1}, {"unknown", 3}}},
                         {"resources", {{"registers", 64}, {"shared_static_bytes", 4096}}},
                         {"census", {{"shuffles", 5}}},
                         {"launch", {{"block_size", 128}}}}}}};
  auto x = cr::features_from_report(r);
  const auto& n = cr::feature_names();
  auto at = [&](const char* name) { return x[static_cast<size_t>(std::find(n.begin(), n.end(), name) - n.begin())]; };
  EXPECT_FLOAT_EQ(at("kernels"), 2);
  EXPECT_FLOAT_EQ(at("coalescing_min"), 0.25f);
  EXPECT_FLOAT_EQ(at("coalescing_mean"), 0.625f);
  EXPECT_FLOAT_EQ(at("coalescing_unknown_frac"), 0.5f);
  EXPECT_FLOAT_EQ(at("occupancy_min"), 0.5f);
  EXPECT_FLOAT_EQ(at("intensity_max"), 0.2f);
  EXPECT_FLOAT_EQ(at("sync_min"), 0.5f);
  EXPECT_FLOAT_EQ(at("registers_max"), 64);
  EXPECT_FLOAT_EQ(at("ld_global"), 3);
  EXPECT_FLOAT_EQ(at("ld_global_width"), 16);
  EXPECT_FLOAT_EQ(at("fp32_ops"), 5);
  EXPECT_FLOAT_EQ(at("shuffles"), 5);
  EXPECT_FLOAT_EQ(at("block_size_max"), 256);
  EXPECT_TRUE(std::isnan(at("task_intensity")));  // no roofline in the report: missing, not 0
}

// Synthetic tasks: speed decided by feature 1 ("coalescing_min") while feature 0 is noise. A
// model trained on some categories must order held-out pairs by feature 1.
TEST(RankModel, LearnsTheFeatureThatDecidesAndRoundTripsThroughAFile) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(0, 1);
  const size_t nf = cr::feature_names().size();
  std::vector<cr::Sample> samples;
  std::vector<cr::Timing> timings;
  for (int task = 0; task < 40; ++task)
    for (int impl = 0; impl < 4; ++impl) {
      cr::Sample s;
      s.task = "c" + std::to_string(task % 4) + "/t" + std::to_string(task);
      s.category = "c" + std::to_string(task % 4);
      s.config = "perf";
      s.impl = "i" + std::to_string(impl);
      s.x.assign(nf, std::nanf(""));
      s.x[0] = u(rng);
      s.x[1] = u(rng);
      double ms = 10.0 / (0.1 + s.x[1]);
      timings.push_back({s.task, s.category, s.impl, s.config, ms, ms * 0.999, ms * 1.001});
      samples.push_back(s);
    }
  cr::assign_levels(samples, timings, 0.03);
  auto rows = cr::evaluate_by_category(samples, timings, 0.03, cr::TrainOptions{});
  ASSERT_TRUE(rows.ok()) << rows.errors().front().message;
  ASSERT_EQ(rows->size(), 4u);
  for (const auto& r : rows.value()) {
    EXPECT_GT(r.pairs, 40);  // 10 tasks of 4 impls: at most 60
    EXPECT_GT(r.model_accuracy, 0.85) << r.category;  // a coin is 0.5; inverted labels give ~0
    EXPECT_DOUBLE_EQ(r.heuristic_accuracy.at("coalescing_mean"), 0.5);  // missing in every sample: a coin
  }
  auto m = cr::Model::train(samples, cr::TrainOptions{});
  ASSERT_TRUE(m.ok());
  auto file = std::filesystem::temp_directory_path() / "cudaperf_rank_test_model.json";
  ASSERT_TRUE(m->save(file).ok());
  auto back = cr::Model::load(file);
  ASSERT_TRUE(back.ok()) << back.errors().front().message;
  std::vector<std::vector<float>> two = {samples[0].x, samples[1].x};
  auto a = m->score(two), b = back->score(two);
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.value(), b.value());
  std::filesystem::remove(file);
  EXPECT_FALSE(cr::Model::load(file).ok());
}
