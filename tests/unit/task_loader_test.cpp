#include <gtest/gtest.h>

#include "cudaperf/task/task.hpp"

namespace cudaperf::task {
namespace {

const std::string kData = CUDAPERF_TEST_DATA;

TEST(TaskLoader, LoadsEveryFieldOfTheFixture) {
  auto r = load_task(kData + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(r.ok()) << (r.errors().empty() ? "" : r.errors().front().to_string());
  const Task& t = r.value();
  EXPECT_EQ(t.id, "fixture/gather_mix");
  EXPECT_EQ(t.category, "fixture");
  EXPECT_EQ(t.function, "gather_mix");
  ASSERT_EQ(t.params.size(), 14u);
  EXPECT_EQ(t.params[1].type, ScalarType::I64);
  EXPECT_EQ(t.params[2].role, Role::Scalar);
  EXPECT_DOUBLE_EQ(*t.params[2].value, 0.5);
  EXPECT_EQ(t.params[5].type, ScalarType::U32);
  EXPECT_TRUE(t.params[5].is_const);
  EXPECT_EQ(t.params[6].dist->kind, Dist::Kind::RowPtr);
  EXPECT_EQ(t.params[11].role, Role::InOut);
  EXPECT_EQ(t.params[13].role, Role::Out);
  ASSERT_EQ(t.configs.size(), 3u);
  EXPECT_FALSE(t.configs[0].perf);
  EXPECT_TRUE(t.configs[2].perf);
  EXPECT_DOUBLE_EQ(t.configs[1].scalars.at("w"), -2.0);
  EXPECT_EQ(std::get<int64_t>(buffer_len(t.params[6], t.configs[1])), 78);
  EXPECT_DOUBLE_EQ(t.rtol, 1e-12);
  ASSERT_EQ(t.impls.size(), 3u);
  EXPECT_EQ(t.impls[1].strategy, "naive");
  EXPECT_TRUE(t.impls[1].weak);
  EXPECT_FALSE(t.impls[0].weak);
  EXPECT_TRUE(t.uses_double());
}

TEST(TaskLoader, GeneratesExactDeclarations) {
  auto r = load_task(kData + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(r.ok());
  std::string cuda = r->cuda_declaration();
  EXPECT_NE(cuda.find("extern \"C\" void gather_mix(int n, long long rows, double w, const double* vals, const int* idx, "
                      "const unsigned int* perm, const int* rowptr, const float* srt, const float* nrm, "
                      "const unsigned char* bytes, const float* c, double* acc, double* out, int* counts, "
                      "cudaStream_t stream);"),
            std::string::npos)
      << cuda;
  std::string c = r->c_reference_declaration();
  EXPECT_NE(c.find("void gather_mix(int n, long long rows, double w,"), std::string::npos) << c;
  EXPECT_EQ(c.find("cudaStream_t"), std::string::npos);
}

TEST(TaskLoader, RooflineAtPerfSize) {
  auto r = load_task(kData + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(r.ok());
  auto rl = std::get<Roofline>(roofline(r.value(), r->configs[2]));
  EXPECT_DOUBLE_EQ(rl.flops, 2.0 * 16777216);
  EXPECT_DOUBLE_EQ(rl.bytes, 8.0 * 16777216 * 3 + 4.0 * 16777216 + 4.0 * 1000003);
  EXPECT_NEAR(rl.floor_s, rl.bytes / 4.8e12, 1e-12);  // memory-bound
}

TEST(TaskLoader, RooflineOverGivenPeaks) {
  auto r = load_task(kData + "/good_tasks/fixture/gather_mix");
  ASSERT_TRUE(r.ok());
  // Measured-style peaks: slower memory moves the floor up; a tiny FLOP rate makes it compute-bound.
  auto mem = std::get<Roofline>(roofline(r.value(), r->configs[2], Peaks{2e12, 60e12, 30e12}));
  EXPECT_NEAR(mem.floor_s, mem.bytes / 2e12, 1e-12);
  auto fp = std::get<Roofline>(roofline(r.value(), r->configs[2], Peaks{4e12, 1e6, 1e6}));
  EXPECT_NEAR(fp.floor_s, fp.flops / 1e6, 1e-9);
}

TEST(TaskLoader, ReportsEveryProblemNotJustTheFirst) {
  const std::string text = R"TOML(
id = "a/b"
summary = "s"
function = "f"
params = [
  { name = "n", type = "int", role = "size" },
  { name = "x", type = "float*", role = "in", len = "n*q", dist = "uniform(0, 1)" },
  { name = "y", type = "float*", role = "sideways", len = "n" },
]
configs = [ { name = "tiny" }, { name = "perf", n = 10 } ]
tolerance = { rtol = 2, atol = 0 }
cost = { flops = "n", bytes = "n" }
)TOML";
  auto r = parse_task_toml(text, "t.toml");
  ASSERT_FALSE(r.ok());
  std::string all;
  for (const auto& d : r.errors()) all += d.to_string() + "\n";
  for (const char* want : {"t.toml:7: input buffer 'x' must be 'const float*'", "t.toml:7: len of 'x' 'n*q' uses unknown name 'q'",
                           "t.toml:8: parameter 'y': unknown role 'sideways'", "t.toml:10: config 'tiny' is missing size 'n'",
                           "configs need one whose name starts with \"odd\"", "t.toml:11: tolerance 'rtol' must be a number in [0, 1)"})
    EXPECT_NE(all.find(want), std::string::npos) << "missing: " << want << "\nall:\n" << all;
}

TEST(TaskLoader, NeverThrowsOnGarbage) {
  for (const char* text : {"", "=", "[[[", "params = 3", "params = [1, 2]", "configs = [\"x\"]", "id = 5\nsummary = []",
                           "params = [ { name = \"n\", type = \"int\", role = \"size\", len = \"n\" } ]",
                           "cost = { flops = \"((((\" }", "params = [ { name = \"x\", type = \"const float*\", role = \"in\", len = \"1\", dist = \"rowptr(\" } ]"}) {
    auto r = parse_task_toml(text, "g.toml");
    EXPECT_FALSE(r.ok()) << text;
    EXPECT_FALSE(r.errors().empty()) << text;
  }
}

TEST(TaskLoader, TorchCostBytesEvaluatePerConfig) {
  const std::string head = R"TOML(kind = "torch2cuda"
id = "torch2cuda/selection/gather"
summary = "s"
deterministic = true
tolerance = { rtol = 1e-5, atol = 1e-6 }
)TOML";
  const std::string configs = R"TOML(configs = [
  { name = "tiny", B = 2, N = 9, k = 4, scale = 0.5 },
  { name = "perf", B = 32, N = 8192, k = 512 },
]
)TOML";
  auto with = parse_torch_task_toml(head + "cost = { bytes = \"4*B*N + 8*B*k\" }\n" + configs, "t.toml");
  ASSERT_TRUE(with.ok()) << with.errors().front().to_string();
  ASSERT_EQ(with.value().configs.size(), 2u);
  EXPECT_EQ(with.value().configs[0].floor_bytes, 4 * 2 * 9 + 8 * 2 * 4);  // the float global is not a name
  EXPECT_EQ(with.value().configs[1].floor_bytes, 4 * 32 * 8192 + 8 * 32 * 512);
  auto without = parse_torch_task_toml(head + configs, "t.toml");
  ASSERT_TRUE(without.ok());
  EXPECT_EQ(without.value().configs[1].floor_bytes, -1);  // the floor counts every input and output byte
  for (const char* bad : {"cost = { bytes = \"4*B*scale\" }", "cost = { bytes = \"B - 3\" }", "cost = { bytes = 12 }",
                          "cost = \"4*B\"", "cost = { bytes = \"4*(B\" }"}) {
    auto r = parse_torch_task_toml(head + bad + "\n" + configs, "t.toml");
    EXPECT_FALSE(r.ok()) << bad;
  }
}

TEST(TaskLoader, FindsTaskFoldersSorted) {
  auto dirs = find_task_dirs(kData + "/bad_tasks");
  ASSERT_GE(dirs.size(), 15u);
  EXPECT_TRUE(std::is_sorted(dirs.begin(), dirs.end()));
}

}  // namespace
}  // namespace cudaperf::task
