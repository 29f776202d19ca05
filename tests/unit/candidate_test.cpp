// ptxas resource parsing (data-driven: tests/data/ptxas/<name>.log beside <name>.expected) and the
// link allowlist's decisions on individual symbols.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/util/file.hpp"

namespace cudaperf::compile {
namespace {

namespace fs = std::filesystem;

std::string slurp(const fs::path& p) { return cudaperf::read_file(p).value_or(""); }

TEST(Ptxas, ParsesEveryGoldenLog) {
  size_t files = 0;
  for (const auto& e : fs::directory_iterator(std::string(CUDAPERF_TEST_DATA) + "/ptxas")) {
    if (e.path().extension() != ".log") continue;
    ++files;
    auto kernels = parse_ptxas_info(slurp(e.path()));
    std::ifstream exp(fs::path(e.path()).replace_extension(".expected"));
    ASSERT_TRUE(exp) << "no .expected beside " << e.path();
    size_t rows = 0;
    for (std::string line; std::getline(exp, line);) {
      if (line.empty() || line[0] == '#') continue;
      ++rows;
      auto bar = line.find(" | ");
      std::string name = line.substr(0, bar);
      std::istringstream nums(line.substr(bar + 3));
      int regs, bars, smem, stack, st, ld;
      nums >> regs >> bars >> smem >> stack >> st >> ld;
      auto it = std::find_if(kernels.begin(), kernels.end(), [&](const KernelResources& k) { return k.name == name; });
      ASSERT_NE(it, kernels.end()) << name << " not parsed from " << e.path();
      EXPECT_EQ(it->registers, regs) << name;
      EXPECT_EQ(it->barriers, bars) << name;
      EXPECT_EQ(it->shared_static, smem) << name;
      EXPECT_EQ(it->stack_frame, stack) << name;
      EXPECT_EQ(it->spill_stores, st) << name;
      EXPECT_EQ(it->spill_loads, ld) << name;
    }
    EXPECT_EQ(rows, kernels.size()) << e.path();
  }
  EXPECT_GE(files, 2u);
}

TEST(LinkPolicy, AllowsWhatALauncherNeeds) {
  for (const char* s : {"__cudaRegisterFatBinary", "__cudaLaunchKernel", "__cudaPushCallConfiguration", "cudaGetLastError",
                        "cudaMallocAsync", "cudaFreeAsync", "cudaMemsetAsync", "cudaFuncSetAttribute", "cudaDeviceGetAttribute",
                        "__cxa_guard_acquire", "_Znwm", "_ZSt20__throw_length_errorPKc", "memcpy", "sqrtf", "__gmon_start__"})
    EXPECT_EQ(link_violation_reason(s), "") << s;
}

TEST(LinkPolicy, DeniesEscapesWithAReason) {
  struct Case {
    const char* symbol;
    const char* reason_part;
  };
  for (const Case& c : std::initializer_list<Case>{{"cudaStreamCreate", "stream"},
                                                    {"cudaStreamCreateWithFlags", "stream"},
                                                    {"cudaStreamSynchronize", "stream"},
                                                    {"cudaDeviceSynchronize", "synchronisation"},
                                                    {"cudaEventRecord", "clocks"},
                                                    {"cudaStreamSetAttribute", "device-wide"},
                                                    {"cudaCtxResetPersistingL2Cache", "device-wide"},
                                                    {"cudaMalloc", "allocates"},
                                                    {"cudaMallocManaged", "allocates"},
                                                    {"cudaMemcpy", "synchronous"},
                                                    {"cuLaunchKernel", "driver"},
                                                    {"cublasSgemm_v2", "library"},
                                                    {"cudnnConvolutionForward", "library"},
                                                    {"pthread_create", "threads"},
                                                    {"_ZNSt6thread15_M_start_threadESt10unique_ptrINS_6_StateESt14default_deleteIS1_EEPFvvE", "threads"},
                                                    {"fork", "processes"},
                                                    {"system", "processes"},
                                                    {"socket", "network"},
                                                    {"fopen", "files"},
                                                    {"dlopen", "loads code"},
                                                    {"syscall", "system calls"},
                                                    {"getenv", "environment"},
                                                    {"clock_gettime", "clocks"},
                                                    {"some_unknown_function", "allowlist"}}) {
    std::string why = link_violation_reason(c.symbol);
    EXPECT_NE(why.find(c.reason_part), std::string::npos) << c.symbol << " -> '" << why << "'";
  }
}

TEST(LinkPolicy, SourceRulesCatchHeaderOnlyLibraries) {
  EXPECT_FALSE(check_source_rules("#include <thrust/sort.h>\n").empty());
  EXPECT_FALSE(check_source_rules("#  include \"cub/cub.cuh\"\n").empty());
  EXPECT_TRUE(check_source_rules("#include <cuda_runtime.h>\n// thrust/ is mentioned in a comment only\n").empty());
}

}  // namespace
}  // namespace cudaperf::compile
