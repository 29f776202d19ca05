// Without a GPU the worker cannot create a context: every implementation must get a clear
// runtime_error from the supervisor (no crash, no hang, no fake "ok"). Skipped where a GPU exists.
#include <gtest/gtest.h>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::verify {
namespace {

TEST(GpuCheckWithoutGpu, EveryImplGetsAClearError) {
  bool have = false;
  describe_gpu(have);
  if (have) GTEST_SKIP() << "a GPU is present: the gpu-labelled tests cover this path";
  auto t = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(t.ok());
  auto ref = compile::compile_reference(t.value());
  ASSERT_TRUE(ref.ok) << ref.diagnostics;
  std::vector<std::filesystem::path> arts;
  for (const auto& im : t->impls) {
    auto a = compile::compile_cuda(t.value(), im.path);
    ASSERT_TRUE(a.ok) << a.diagnostics;
    arts.push_back(a.path);
  }
  GpuCheckOptions o;
  o.impl_timeout_s = 60;
  auto res = gpu_check_task(t.value(), ref.path, arts, o);
  ASSERT_EQ(res.size(), t->impls.size());
  for (const auto& r : res) {
    EXPECT_EQ(r.status, "runtime_error") << r.impl;
    EXPECT_NE(r.message.find("no CUDA device"), std::string::npos) << r.message;
  }
}

}  // namespace
}  // namespace cudaperf::verify
