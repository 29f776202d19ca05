// Several torch2cuda candidates of one task in one run (evaluate_torch_candidates): one reference,
// each candidate in its own worker, each judged on its own comparisons, baselines shared. Driven by
// the fake worker (tests/torch_fake_worker.py, no torch): a candidate file's stem is its scenario.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "cudaperf/task/task.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"

namespace cudaperf::torch2cuda {
namespace {

namespace fs = std::filesystem;
using verify::Verdict;

TEST(TorchBatch, EachCandidateGetsItsOwnVerdictFromOneSharedRun) {
  fs::path data = CUDAPERF_TEST_DATA;
  setenv("CUDAPERF_TORCH_TEST_MODE", "1", 1);
  setenv("CUDAPERF_TORCH_WORKER", (data.parent_path() / "torch_fake_worker.py").c_str(), 1);
  setenv("CUDAPERF_PYTHON", "python3", 1);
  setenv("CUDAPERF_TEST_SCENARIO", "by_file", 1);
  setenv("CUDAPERF_TORCH_INIT_AHEAD", "3", 1);  // workers initialised 3 at a time: batches of 3 and 1
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
  unsetenv("CUDAPERF_TORCH_INIT_AHEAD");
  unsetenv("CUDAPERF_TORCH_WORKER");
  unsetenv("CUDAPERF_TORCH_TEST_MODE");
  unsetenv("CUDAPERF_PYTHON");
  ASSERT_EQ(reps.size(), 4u);
  EXPECT_EQ(reps[0].base.verdict, Verdict::Ok) << reps[0].base.message;
  EXPECT_EQ(reps[1].base.verdict, Verdict::WrongAnswer) << reps[1].base.message;
  EXPECT_NE(reps[1].base.message.find("fake mismatch"), std::string::npos);
  EXPECT_EQ(reps[2].base.verdict, Verdict::RuntimeError) << reps[2].base.message;  // its crash takes no one else down
  EXPECT_NE(reps[2].base.message.find("crashed"), std::string::npos);
  EXPECT_EQ(reps[3].base.verdict, Verdict::Ok) << reps[3].base.message;
  for (size_t k = 0; k < 4; ++k) {
    EXPECT_EQ(reps[k].stages.value("candidate_init_batch", 0), k < 3 ? 3 : 1) << k;
    EXPECT_TRUE(reps[k].stages.contains("candidate_init_s")) << k;
    EXPECT_FALSE(reps[k].stages.contains("candidate_init_retry")) << k;
  }
  for (size_t k : {0u, 3u}) {
    EXPECT_EQ(reps[k].base.candidate, files[k].string());
    ASSERT_TRUE(reps[k].speedup_vs_eager.has_value());  // baselines once for the run, given to every report
    EXPECT_NEAR(*reps[k].speedup_vs_eager, 4.0, 1e-9);  // fake: eager 2.0 ms, candidate 0.5 ms
    EXPECT_EQ(reps[k].stages.value("reference_shared_by", 0), 4);
    EXPECT_TRUE(reps[k].stages.contains("baselines_s"));
  }
}

// A crash that leaves the reference's stream waiting (CUDAPERF_TEST_STRANDS: the fake reference calls
// itself unusable, as torch_measure does): a fresh reference measures the rest. When that fresh one
// fails before it is ready (CUDAPERF_TEST_RESTART_FATAL), the judged keep their verdicts and the rest
// are the task's error, never a candidate's failure.
std::vector<TorchEvalReport> run_stranding_batch(bool restart_fails) {
  fs::path data = CUDAPERF_TEST_DATA;
  fs::path dir = fs::temp_directory_path() / ("cudaperf-torch-strand-" + std::to_string(getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  setenv("CUDAPERF_TORCH_TEST_MODE", "1", 1);
  setenv("CUDAPERF_TORCH_WORKER", (data.parent_path() / "torch_fake_worker.py").c_str(), 1);
  setenv("CUDAPERF_PYTHON", "python3", 1);
  setenv("CUDAPERF_TEST_SCENARIO", "by_file", 1);
  setenv("CUDAPERF_TEST_STRANDS", "1", 1);
  setenv("CUDAPERF_TEST_EVENT_LOG", (dir / "events.log").c_str(), 1);
  setenv("CUDAPERF_TEST_RESTART_FATAL", restart_fails ? "1" : "0", 1);
  auto t = task::load_torch_task(data / "torch_tasks/torch2cuda/elementwise/leaky_relu");
  std::vector<TorchEvalReport> reps;
  if (t) {
    std::vector<fs::path> files;
    for (const char* stem : {"good", "crash", "good2"}) {
      files.push_back(dir / (std::string(stem) + ".py"));
      std::ofstream(files.back()) << "# fake candidate\n";
    }
    reps = evaluate_torch_candidates(t.value(), files, TorchEvalOptions{});
  }
  for (const char* v : {"CUDAPERF_TORCH_TEST_MODE", "CUDAPERF_TORCH_WORKER", "CUDAPERF_PYTHON", "CUDAPERF_TEST_SCENARIO",
                        "CUDAPERF_TEST_STRANDS", "CUDAPERF_TEST_EVENT_LOG", "CUDAPERF_TEST_RESTART_FATAL"})
    unsetenv(v);
  fs::remove_all(dir);
  return reps;
}

TEST(TorchBatch, AStrandedReferenceIsRestartedForTheRest) {
  auto reps = run_stranding_batch(false);
  ASSERT_EQ(reps.size(), 3u);
  EXPECT_EQ(reps[0].base.verdict, Verdict::Ok) << reps[0].base.message;
  EXPECT_EQ(reps[1].base.verdict, Verdict::RuntimeError) << reps[1].base.message;
  EXPECT_EQ(reps[1].stages.value("reference_restarted", 0), 1);
  EXPECT_EQ(reps[2].base.verdict, Verdict::Ok) << reps[2].base.message;  // measured by the fresh reference
  EXPECT_FALSE(reps[2].stages.contains("reference_restarted"));
}

TEST(TorchBatch, AReferenceThatCannotRestartIsATaskErrorForTheRestOnly) {
  auto reps = run_stranding_batch(true);
  ASSERT_EQ(reps.size(), 3u);
  EXPECT_EQ(reps[0].base.verdict, Verdict::Ok) << reps[0].base.message;             // judged before: kept
  EXPECT_EQ(reps[1].base.verdict, Verdict::RuntimeError) << reps[1].base.message;   // its own crash: kept
  EXPECT_EQ(reps[2].base.verdict, Verdict::TaskError) << reps[2].base.message;      // not run: no fault of its own
  EXPECT_NE(reps[2].base.message.find("could not be restarted"), std::string::npos) << reps[2].base.message;
  EXPECT_NE(reps[2].base.message.find("the task's reference failed"), std::string::npos) << reps[2].base.message;
}

// The real worker (python/cudaperf/torch_worker.py) in test mode, when an interpreter with torch is
// at hand (CUDAPERF_PYTHON, else the dev venv tests/check_torch_cpu.sh also uses): one reference
// compares several pure-torch candidates in turn, the next one started ahead of its turn.
TEST(TorchBatch, RealWorkerComparesEachCandidateInTurn) {
  std::string py = std::getenv("CUDAPERF_PYTHON") ? std::getenv("CUDAPERF_PYTHON") : "/tmp/t2c-eng/bin/python";
  if (std::system((py + " -c 'import torch' >/dev/null 2>&1").c_str()) != 0) GTEST_SKIP() << "no torch for " << py;
  fs::path data = CUDAPERF_TEST_DATA;
  fs::path dir = fs::temp_directory_path() / ("cudaperf-torch-batch-real-" + std::to_string(getpid()));
  fs::create_directories(dir);
  fs::path task_dir = dir / "torch2cuda/elementwise/leaky_relu";  // the id must match the path
  fs::create_directories(task_dir);
  fs::copy(data / "torch_tasks/torch2cuda/elementwise/leaky_relu", task_dir, fs::copy_options::recursive);
  std::string shrink = "bash " + (data.parent_path() / "shrink_torch_fixtures.sh").string() + " " + dir.string();
  ASSERT_EQ(std::system(shrink.c_str()), 0) << shrink;  // a CPU-sized perf config
  auto t = task::load_torch_task(task_dir);
  ASSERT_TRUE(t) << t.errors().front().to_string();
  setenv("CUDAPERF_TORCH_TEST_MODE", "1", 1);
  setenv("CUDAPERF_PYTHON", py.c_str(), 1);
  unsetenv("CUDAPERF_TORCH_WORKER");
  std::vector<fs::path> files = {data / "torch_cpu/good.py", data / "torch_cpu/wrong.py", data / "torch_cpu/mutates_input.py",
                                 data / "torch_cpu/good.py"};
  TorchEvalOptions o;
  o.timing.budget_s = 0.1;
  auto reps = evaluate_torch_candidates(t.value(), files, o);
  unsetenv("CUDAPERF_TORCH_TEST_MODE");
  fs::remove_all(dir);
  ASSERT_EQ(reps.size(), 4u);
  EXPECT_EQ(reps[0].base.verdict, Verdict::Ok) << reps[0].base.message;
  EXPECT_EQ(reps[1].base.verdict, Verdict::WrongAnswer) << reps[1].base.message;
  EXPECT_EQ(reps[2].base.verdict, Verdict::InputMutated) << reps[2].base.message;
  EXPECT_EQ(reps[3].base.verdict, Verdict::Ok) << reps[3].base.message;
  EXPECT_TRUE(reps[3].speedup_vs_eager.has_value());
}

}  // namespace
}  // namespace cudaperf::torch2cuda
