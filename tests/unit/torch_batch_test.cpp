// Several torch2cuda candidates of one task in one run (evaluate_torch_candidates): one reference,
// each candidate in its own worker, each judged on its own comparisons, baselines shared. Driven by
// the fake worker (tests/torch_fake_worker.py, no torch): a candidate file's stem is its scenario.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/torch_check.hpp"

namespace cudaperf::verify {
namespace {

namespace fs = std::filesystem;

TEST(TorchBatch, EachCandidateGetsItsOwnVerdictFromOneSharedRun) {
  fs::path data = CUDAPERF_TEST_DATA;
  setenv("CUDAPERF_TORCH_TEST_MODE", "1", 1);
  setenv("CUDAPERF_TORCH_WORKER", (data.parent_path() / "torch_fake_worker.py").c_str(), 1);
  setenv("CUDAPERF_PYTHON", "python3", 1);
  setenv("CUDAPERF_TEST_SCENARIO", "by_file", 1);
  auto t = task::load_torch_task(data / "torch_tasks/torch2cuda/elementwise/leaky_relu");
  ASSERT_TRUE(t) << t.errors().front().to_string();
  fs::path dir = fs::temp_directory_path() / ("cudaperf-torch-batch-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::vector<fs::path> files;
  for (const char* stem : {"good", "wrong", "crash", "good2"}) {
    files.push_back(dir / (std::string(stem) + ".py"));
    std::ofstream(files.back()) << "# fake candidate\n";
  }
  auto reps = evaluate_torch_candidates(t.value(), files, TorchEvalOptions{});
  fs::remove_all(dir);
  unsetenv("CUDAPERF_TEST_SCENARIO");
  unsetenv("CUDAPERF_TORCH_WORKER");
  unsetenv("CUDAPERF_TORCH_TEST_MODE");
  ASSERT_EQ(reps.size(), 4u);
  EXPECT_EQ(reps[0].base.verdict, Verdict::Ok) << reps[0].base.message;
  EXPECT_EQ(reps[1].base.verdict, Verdict::WrongAnswer) << reps[1].base.message;
  EXPECT_NE(reps[1].base.message.find("fake mismatch"), std::string::npos);
  EXPECT_EQ(reps[2].base.verdict, Verdict::RuntimeError) << reps[2].base.message;  // its crash takes no one else down
  EXPECT_NE(reps[2].base.message.find("crashed"), std::string::npos);
  EXPECT_EQ(reps[3].base.verdict, Verdict::Ok) << reps[3].base.message;
  for (size_t k : {0u, 3u}) {
    EXPECT_EQ(reps[k].base.candidate, files[k].string());
    ASSERT_TRUE(reps[k].speedup_vs_eager.has_value());  // baselines once for the run, given to every report
    EXPECT_NEAR(*reps[k].speedup_vs_eager, 4.0, 1e-9);  // fake: eager 2.0 ms, candidate 0.5 ms
    EXPECT_EQ(reps[k].stages.value("reference_shared_by", 0), 4);
    EXPECT_TRUE(reps[k].stages.contains("baselines_s"));
  }
}

}  // namespace
}  // namespace cudaperf::verify
