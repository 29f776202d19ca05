// Replays the kept libFuzzer corpus (fuzz/corpus) through the fuzz target: none may crash,
// and every input is either accepted or rejected with diagnostics.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "../../fuzz/task_toml_target.hpp"
#include "cudaperf/util/file.hpp"

TEST(FuzzCorpus, ReplaysWithoutCrashing) {
  namespace fs = std::filesystem;
  size_t n = 0;
  for (const auto& e : fs::directory_iterator(CUDAPERF_FUZZ_CORPUS)) {
    std::string s = cudaperf::read_file(e.path()).value_or("");
    cudaperf::fuzz::task_toml_target(reinterpret_cast<const uint8_t*>(s.data()), s.size());
    ++n;
  }
  EXPECT_GE(n, 20u) << "the kept corpus should not be empty";
}
