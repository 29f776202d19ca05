// The host-code launch scanner (src/analysis/launch_scan.cpp): which launches it finds, which
// block sizes and dynamic shared memory sizes it resolves, which it refuses (and why), how launch
// sites are matched to demangled kernel names, and how `cudaperf analyze` uses the result.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "cudaperf/analysis/launch_scan.hpp"
#include "cudaperf/analysis/report.hpp"
#include "cudaperf/compile/compile.hpp"

namespace ca = cudaperf::analysis;

namespace {

// The only launch of `src`.
ca::LaunchSite one(const std::string& src) {
  auto s = ca::scan_launches(src);
  EXPECT_EQ(s.size(), 1u) << src;
  return s.empty() ? ca::LaunchSite{} : s.front();
}

int64_t block_of(const std::string& src) {
  auto s = one(src);
  EXPECT_TRUE(s.block.known()) << s.block.why << "\n" << src;
  return s.block.known() ? s.block.values[0] : -1;
}

std::string block_why(const std::string& src) {
  auto s = one(src);
  EXPECT_FALSE(s.block.known()) << src;
  return s.block.why;
}

}  // namespace

TEST(LaunchScan, LiteralsAndArithmetic) {
  auto s = one("void f(int n, cudaStream_t st) { k<<<(n + 255) / 256, 256, 0, st>>>(n); }");
  EXPECT_EQ(s.base, "k");
  EXPECT_EQ(s.kernel, "k");
  EXPECT_EQ(s.line, 1);
  EXPECT_EQ(s.block.expr, "256");
  ASSERT_TRUE(s.block.known());
  EXPECT_EQ(s.block.values[0], 256);
  ASSERT_TRUE(s.dynamic_smem.known());
  EXPECT_EQ(s.dynamic_smem.values[0], 0);
  EXPECT_EQ(block_of("void f() { k<<<1, 4 * 32 + (1 << 6) - 64>>>(); }"), 128);
  EXPECT_EQ(block_of("void f() { k<<<1, 0x40>>>(); }"), 64);
  EXPECT_EQ(block_of("void f() { k<<<1, 1'024u>>>(); }"), 1024);
  EXPECT_EQ(block_of("void f() { k<<<1, (int)(256)>>>(); }"), 256);
  EXPECT_EQ(block_of("void f() { k<<<1, static_cast<unsigned>(512 >> 1)>>>(); }"), 256);
  EXPECT_EQ(block_of("void f() { k<<<1, std::min(1024, 128)>>>(); }"), 128);
  EXPECT_EQ(block_of("void f() { k<<<1, sizeof(float4) * 8>>>(); }"), 128);
  EXPECT_EQ(block_of("void f() { k<<<1, true ? 64 : 32>>>(); }"), 64);
}

TEST(LaunchScan, NoThirdArgumentMeansNoDynamicSharedMemory) {
  auto s = one("void f() { k<<<8, 32>>>(); }");
  ASSERT_TRUE(s.dynamic_smem.known());
  EXPECT_EQ(s.dynamic_smem.values[0], 0);
  EXPECT_EQ(s.dynamic_smem.expr, "");
}

TEST(LaunchScan, NamedConstants) {
  // constexpr in an anonymous namespace, used from an extern "C" function outside it.
  EXPECT_EQ(block_of(R"(
namespace {
constexpr int kThreads = 128;
__global__ void k(float* x) {}
}
extern "C" void run(float* x, cudaStream_t s) { k<<<4, kThreads, 0, s>>>(x); }
)"),
            128);
  EXPECT_EQ(block_of("static constexpr int kThreads = 256;\nstatic constexpr int kWarps = kThreads / 32;\n"
                     "void f() { k<<<1, kWarps * 32>>>(); }"),
            256);
  EXPECT_EQ(block_of("#define BLOCK 64\nvoid f() { k<<<1, BLOCK>>>(); }"), 64);
  EXPECT_EQ(block_of("#define NW 8 // warps\n#define THREADS (NW * 32)\nvoid f() { k<<<1, THREADS>>>(); }"), 256);
  EXPECT_EQ(block_of("void f() {\n  const int threads = 32;\n  k<<<1, threads>>>();\n}"), 32);
  EXPECT_EQ(block_of("static const unsigned int kT = 96;\nvoid f() { k<<<1, kT>>>(); }"), 96);
  EXPECT_EQ(block_of("void f() { const long long per = 64, threads = per * 2; k<<<1, threads>>>(); }"), 128);
  EXPECT_EQ(block_of("#define LONG \\\n  512\nvoid f() { k<<<1, LONG>>>(); }"), 512);
}

TEST(LaunchScan, Dim3) {
  EXPECT_EQ(block_of("void f() { dim3 block(16, 16); k<<<1, block>>>(); }"), 256);
  EXPECT_EQ(block_of("#define TS 32\n#define TY 8\nvoid f() { k<<<1, dim3(TS, TY)>>>(); }"), 256);
  EXPECT_EQ(block_of("constexpr int kT = 8;\nvoid f() { const dim3 b{kT, kT, 2}; k<<<1, b>>>(); }"), 128);
  EXPECT_EQ(block_of("void f(int n) { dim3 block(32, 8), grid((n + 31) / 32, 4); k<<<grid, block>>>(); }"), 256);
  EXPECT_EQ(block_of("void f() { dim3 b = dim3(64); k<<<1, b>>>(); }"), 64);
  EXPECT_EQ(block_of("void f() { auto b = dim3(4, 4, 4); k<<<1, b>>>(); }"), 64);
  // A dim3 changed after its construction is not known.
  EXPECT_NE(block_why("void f(int n) { dim3 b(16, 16); if (n < 100) b.x = 8; k<<<1, b>>>(); }").find("assigned"),
            std::string::npos);
}

TEST(LaunchScan, DynamicSharedMemory) {
  auto s = one("void f() { const int threads = 128; k<<<1, threads, threads * sizeof(float), 0>>>(); }");
  ASSERT_TRUE(s.dynamic_smem.known()) << s.dynamic_smem.why;
  EXPECT_EQ(s.dynamic_smem.values[0], 512);
  EXPECT_EQ(s.dynamic_smem.expr, "threads * sizeof(float)");
  auto r = one("void f(int nbins) { k<<<1, 256, (size_t)nbins * sizeof(int)>>>(); }");
  EXPECT_TRUE(r.block.known());
  EXPECT_FALSE(r.dynamic_smem.known());
  EXPECT_NE(r.dynamic_smem.why.find("'nbins' is a parameter"), std::string::npos) << r.dynamic_smem.why;
  auto t = one("struct Foo { int a[7]; };\nvoid f() { k<<<1, 256, 4 * sizeof(Foo)>>>(); }");
  EXPECT_FALSE(t.dynamic_smem.known());
  EXPECT_NE(t.dynamic_smem.why.find("sizeof(Foo)"), std::string::npos) << t.dynamic_smem.why;
}

TEST(LaunchScan, RuntimeValuesAreUnknown) {
  EXPECT_NE(block_why("void f(int threads) { k<<<1, threads>>>(); }").find("'threads' is a parameter"),
            std::string::npos);
  // A parameter shadows a constant of the same name.
  EXPECT_NE(block_why("constexpr int kT = 256;\nvoid f(int kT) { k<<<1, kT>>>(); }").find("parameter"),
            std::string::npos);
  EXPECT_NE(block_why("template <int BS> void f() { k<<<1, BS>>>(); }").find("parameter"), std::string::npos);
  EXPECT_NE(block_why("void f() { k<<<1, blockDim.x>>>(); }").find("blockDim.x"), std::string::npos);
  EXPECT_NE(block_why("void f() { k<<<1, pick_block()>>>(); }").find("calls pick_block()"), std::string::npos);
  EXPECT_NE(block_why("void f() { k<<<1, kUndefined>>>(); }").find("no definition"), std::string::npos);
  EXPECT_NE(block_why("int gThreads = 128;\nvoid f() { k<<<1, gThreads>>>(); }").find("non-const"),
            std::string::npos);
  EXPECT_NE(block_why("#define B(x) (x * 32)\nvoid f() { k<<<1, B>>>(); }").find("function-like"), std::string::npos);
  EXPECT_NE(block_why("void f() { k<<<1, 1.5f>>>(); }").find("not an integer"), std::string::npos);
  EXPECT_NE(block_why("void f() { const float t = 128; k<<<1, t>>>(); }").find("type 'const float'"),
            std::string::npos);
}

TEST(LaunchScan, NonConstLocalsOnlyWhenNeverModified) {
  EXPECT_EQ(block_of("void f(long long n) {\n  int block = 128;\n  k<<<(n + block - 1) / block, block>>>();\n}"), 128);
  auto w = block_why("void f(bool big) { int block = 128; if (big) block = 256; k<<<1, block>>>(); }");
  EXPECT_NE(w.find("assigned at line 1"), std::string::npos) << w;
  EXPECT_NE(block_why("void f() { int b = 64; for (int i = 0; i < 2; ++i) { k<<<1, b>>>(); b *= 2; } }").find("assigned"),
            std::string::npos);
  EXPECT_NE(block_why("void f() { int b = 64; b++; k<<<1, b>>>(); }").find("assigned"), std::string::npos);
  EXPECT_NE(block_why("void f() { int b = 64; tune(&b); k<<<1, b>>>(); }").find("address"), std::string::npos);
  EXPECT_NE(block_why("void f() { int b = 64; tune(b); k<<<1, b>>>(); }").find("reference"), std::string::npos);
  // Passing it to the kernel or reading it is fine.
  EXPECT_EQ(block_of("void f(int n) { int b = 64; k<<<(n + b - 1) / b, b>>>(n, b); }"), 64);
}

TEST(LaunchScan, RuntimeChoiceBetweenConstantsGivesEveryValueButNoneChosen) {
  auto s = one("void f(int gx) { k<<<1, gx >= 256 ? 256 : 64>>>(); }");
  EXPECT_FALSE(s.block.known());
  EXPECT_EQ(s.block.values, (std::vector<int64_t>{64, 256}));
  EXPECT_NE(s.block.why.find("one of 64 or 256"), std::string::npos) << s.block.why;
  EXPECT_NE(s.block.why.find("'gx' is a parameter"), std::string::npos) << s.block.why;
}

TEST(LaunchScan, Scopes) {
  const std::string src = R"(constexpr int threads = 128;
void f() {
  {
    const int threads = 64;
    a<<<1, threads>>>();
  }
  b<<<1, threads>>>();
}
void g() { const int threads = 32; c<<<1, threads>>>(); }
void h() { d<<<1, threads>>>(); }
)";
  auto s = ca::scan_launches(src);
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].base, "a");
  EXPECT_EQ(s[0].block.values, std::vector<int64_t>{64});
  EXPECT_EQ(s[0].line, 5);
  EXPECT_EQ(s[1].block.values, std::vector<int64_t>{128});
  EXPECT_EQ(s[2].block.values, std::vector<int64_t>{32});
  EXPECT_EQ(s[3].block.values, std::vector<int64_t>{128});
  // A definition after the launch is not seen.
  EXPECT_NE(block_why("void f() { k<<<1, late>>>(); }\nconstexpr int late = 64;").find("no definition"),
            std::string::npos);
}

TEST(LaunchScan, PreprocessorBranches) {
  auto s = one("#ifdef BIG\n#define BLOCK 512\n#else\n#define BLOCK 128\n#endif\nvoid f() { k<<<1, BLOCK>>>(); }");
  EXPECT_FALSE(s.block.known());
  EXPECT_EQ(s.block.values, (std::vector<int64_t>{128, 512}));
  EXPECT_EQ(block_of("#define B 512\n#undef B\n#define B 64\nvoid f() { k<<<1, B>>>(); }"), 64);
}

TEST(LaunchScan, IgnoresCommentsStringsAndMacroBodies) {
  auto s = ca::scan_launches(R"src(// k<<<1, 32>>>() in a comment
/* k<<<1, 64>>>() */
const char* doc = "k<<<1, 96>>>()";
#define LAUNCH(g) k<<<g, 128>>>()
void f() { k<<<1, 256>>>(); }
)src");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_EQ(s[0].block.values, std::vector<int64_t>{256});
  EXPECT_EQ(s[0].line, 5);
}

TEST(LaunchScan, TemplatedAndQualifiedCallees) {
  auto s = ca::scan_launches(
      "constexpr int kShared = 4096;\nvoid f(bool fast, int L) {\n"
      "  if (fast) hist<kShared, true><<<1, 512, 0, 0>>>();\n"
      "  else hist<kShared, false><<<1, 256>>>();\n"
      "  ns::g<float><<<1, 64 >> 1>>>();\n"
      "  sub<L><<<1, 128>>>();\n}\n");
  ASSERT_EQ(s.size(), 4u);
  EXPECT_EQ(s[0].base, "hist");
  EXPECT_TRUE(s[0].templated);
  ASSERT_EQ(s[0].template_args.size(), 2u);
  EXPECT_EQ(s[0].template_args[0].kind, ca::TemplateArg::Number);
  EXPECT_EQ(s[0].template_args[0].number, 4096);
  EXPECT_EQ(s[0].template_args[1].number, 1);
  EXPECT_EQ(s[2].base, "g");
  EXPECT_EQ(s[2].kernel, "ns::g<float>");
  EXPECT_EQ(s[2].template_args[0].kind, ca::TemplateArg::Type);
  EXPECT_EQ(s[2].block.values, std::vector<int64_t>{32});
  EXPECT_EQ(s[3].template_args[0].kind, ca::TemplateArg::Unknown);

  // Each instantiation gets the sites that may launch it.
  auto t = ca::launch_shape_for(s, "void hist<4096, true>(int, float const*)");
  ASSERT_EQ(t.sites.size(), 1u);
  EXPECT_EQ(t.block_size, 512);
  auto u = ca::launch_shape_for(s, "void hist<4096, false>(int, float const*)");
  EXPECT_EQ(u.block_size, 256);
  EXPECT_EQ(ca::launch_shape_for(s, "void hist<1024, false>(int)").sites.size(), 0u);
  EXPECT_EQ(ca::launch_shape_for(s, "void ns::g<float>(float*)").block_size, 32);
  EXPECT_EQ(ca::launch_shape_for(s, "void ns::g<double>(double*)").sites.size(), 0u);
  EXPECT_EQ(ca::launch_shape_for(s, "void sub<4>(float*)").block_size, 128);  // L is not a constant: any
  EXPECT_EQ(ca::launch_shape_for(s, "sub<8u>(float*)").block_size, 128);
}

TEST(LaunchScan, KernelResolution) {
  const std::string src = R"(namespace {
__global__ void a(int) {}
__global__ void b(int) {}
__global__ void c(int) {}
}
extern "C" void run(int n, int t, cudaStream_t s) {
  a<<<1, 128, 0, s>>>(n);
  a<<<2, 128, 0, s>>>(n);
  b<<<1, 128>>>(n);
  b<<<1, 256>>>(n);
  c<<<1, 64>>>(n);
  c<<<1, t>>>(n);
}
)";
  auto sites = ca::scan_launches(src);
  auto a = ca::launch_shape_for(sites, "void (anonymous namespace)::a(int)");
  EXPECT_EQ(a.sites.size(), 2u);
  EXPECT_EQ(a.block_size, 128);
  EXPECT_EQ(a.dynamic_smem, 0);
  EXPECT_TRUE(a.block_note.empty());
  // Different sizes at different sites: none is used, all are listed.
  auto b = ca::launch_shape_for(sites, "(anonymous namespace)::b(int)");
  EXPECT_FALSE(b.block_size.has_value());
  EXPECT_NE(b.block_note.find("128 (line 9), 256 (line 10)"), std::string::npos) << b.block_note;
  EXPECT_EQ(b.dynamic_smem, 0);
  // One site unknown: unresolved, though the other is known.
  auto c = ca::launch_shape_for(sites, "(anonymous namespace)::c(int)");
  EXPECT_FALSE(c.block_size.has_value());
  EXPECT_NE(c.block_note.find("line 12"), std::string::npos) << c.block_note;
  auto none = ca::launch_shape_for(sites, "void d(int)");
  EXPECT_TRUE(none.sites.empty());
  EXPECT_FALSE(none.block_size.has_value());
  EXPECT_NE(none.block_note.find("no launch"), std::string::npos);
}

TEST(LaunchScan, MalformedInputDoesNotCrash) {
  for (const char* src : {"", "<<<", "k<<<", "k<<<1,", "k<<<1, 2", ">>> <<< >>>", "}}}{{{ k<<<1, 32>>>()",
                          "#define", "#define A A\nvoid f() { k<<<1, A>>>(); }", "\"unterminated",
                          "/* unterminated", "R\"x(raw", "k<<<1, (((>>>", "template <<<", "a<b<c<<<1,2>>>",
                          "#define A B\n#define B A\nvoid f() { k<<<1, A>>>(); }",
                          "void f() { k<<<1, 1 << 70>>>(); k<<<1, 9223372036854775807 * 2>>>(); k<<<1, 1 / 0>>>(); }"}) {
    auto s = ca::scan_launches(src);
    for (const auto& x : s) EXPECT_LE(x.block.values.size(), 16u);
  }
  auto s = ca::scan_launches("#define A B\n#define B A\nvoid f() { k<<<1, A>>>(); }");
  ASSERT_EQ(s.size(), 1u);
  EXPECT_FALSE(s[0].block.known());
}

// End to end: `cudaperf analyze` takes the block size from the launch when there are no launch
// bounds and no --block-size; the option still wins; unresolved launches keep the assumption.
TEST(LaunchScan, AnalyzeUsesTheHostLaunch) {
  namespace fs = std::filesystem;
  const std::string nvcc = cudaperf::compile::nvcc_path();
  if (nvcc.find('/') != std::string::npos ? !fs::exists(nvcc) : std::system("command -v nvcc >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "nvcc not available";
  fs::path dir = fs::temp_directory_path() / ("launch_scan_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path cu = dir / "k.cu";
  std::ofstream(cu) << R"(#include <cuda_runtime.h>
__global__ void fixed(float* x) { extern __shared__ float s[]; s[threadIdx.x] = x[threadIdx.x]; x[threadIdx.x] = s[threadIdx.x] + 1; }
__global__ void chosen(float* x) { x[threadIdx.x] += 1; }
__global__ void __launch_bounds__(512) bounded(float* x) { x[threadIdx.x] += 1; }
extern "C" void run(float* x, int n, cudaStream_t s) {
  const int threads = 96;
  fixed<<<1, threads, threads * sizeof(float), s>>>(x);
  chosen<<<1, n > 1000 ? 1024 : 32, 0, s>>>(x);
  bounded<<<1, 512, 0, s>>>(x);
}
)";
  ca::AnalyzeOptions o;
  auto r = ca::analyze_file(cu, o);
  ASSERT_TRUE(r.ok()) << r.errors().front().to_string();
  std::map<std::string, nlohmann::json> k;
  for (const auto& x : r.value()["kernels"]) k[x["name"].get<std::string>().substr(0, x["name"].get<std::string>().find('('))] = x;
  ASSERT_EQ(k.size(), 3u);
  EXPECT_EQ(k["fixed"]["launch"]["block_size"], 96);
  EXPECT_EQ(k["fixed"]["launch"]["block_size_source"], "launch");
  EXPECT_EQ(k["fixed"]["launch"]["dynamic_shared_bytes"], 384);
  EXPECT_EQ(k["fixed"]["launch"]["dynamic_shared_source"], "launch");
  EXPECT_EQ(k["fixed"]["launch_scan"]["sites"][0]["line"], 7);
  EXPECT_EQ(k["fixed"]["occupancy"]["warps_per_block"], 3);
  EXPECT_EQ(k["chosen"]["launch"]["block_size"], 256);
  EXPECT_EQ(k["chosen"]["launch"]["block_size_source"], "assumed");
  EXPECT_TRUE(k["chosen"]["launch_scan"]["block_size"].is_null());
  bool said = false;
  for (const auto& f : k["chosen"]["findings"])
    if (f["kind"] == "assumption" && f["message"].get<std::string>().find("one of 32 or 1024") != std::string::npos)
      said = true;
  EXPECT_TRUE(said) << k["chosen"]["findings"].dump();
  EXPECT_EQ(k["bounded"]["launch"]["block_size_source"], "maxntid");
  EXPECT_EQ(k["bounded"]["launch_scan"]["block_size"], 512);

  o.block_size = 64;
  o.dynamic_smem = 0;
  auto r2 = ca::analyze_file(cu, o);
  ASSERT_TRUE(r2.ok());
  for (const auto& x : r2.value()["kernels"]) {
    std::string name = x["name"];
    if (name.rfind("fixed", 0) == 0) {
      EXPECT_EQ(x["launch"]["block_size"], 64);
      EXPECT_EQ(x["launch"]["block_size_source"], "option");
      EXPECT_EQ(x["launch"]["dynamic_shared_source"], "option");
    }
    if (name.rfind("bounded", 0) == 0) {
      EXPECT_EQ(x["launch"]["block_size_source"], "maxntid");
    }
  }
  std::error_code ec;
  fs::remove_all(dir, ec);
}
