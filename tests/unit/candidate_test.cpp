// ptxas resource parsing (data-driven: tests/data/ptxas/<name>.log beside <name>.expected), the
// link allowlist's decisions on individual symbols, and candidate builds (nvcc) whose verdict must
// not depend on the machine's compiler defaults.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/task/task.hpp"
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

// _FORTIFY_SOURCE turns X into __X_chk (and glibc's C99/C23 modes scanf/strtol into __isoc99_X,
// __isoc23_X): whether a compiler does is a property of the machine, so each variant is X.
TEST(LinkPolicy, CompilerVariantsAreTheirBaseFunction) {
  EXPECT_EQ(base_function("__memcpy_chk"), "memcpy");
  EXPECT_EQ(base_function("__printf_chk"), "printf");
  EXPECT_EQ(base_function("__snprintf_chk"), "snprintf");
  EXPECT_EQ(base_function("__isoc99_sscanf"), "sscanf");
  EXPECT_EQ(base_function("__isoc23_strtol"), "strtol");
  for (const char* same : {"memcpy", "__stack_chk_fail", "__chk_fail", "__cudaLaunchKernel", "_chk", "__chk"})
    EXPECT_EQ(base_function(same), same);
  for (const char* ok : {"__memcpy_chk", "__memmove_chk", "__memset_chk", "__printf_chk", "__chk_fail", "__stack_chk_fail"})
    EXPECT_EQ(link_violation_reason(ok), "") << ok;
  for (const char* refused : {"__snprintf_chk", "__fprintf_chk", "__read_chk", "__longjmp_chk", "__isoc99_sscanf",
                              "__isoc23_strtol", "__open_2"}) {
    std::string why = link_violation_reason(refused), base = link_violation_reason(base_function(refused));
    EXPECT_FALSE(why.empty()) << refused;
    EXPECT_EQ(why.rfind(base, 0), 0u) << refused << ": '" << why << "' does not give the reason of its base: '" << base << "'";
  }
  EXPECT_EQ(base_function("__open64_2"), "open64");
  EXPECT_NE(link_violation_reason("__fprintf_chk").find("files"), std::string::npos);
  EXPECT_NE(link_violation_reason("__open_2").find("files"), std::string::npos);
}

// Host inline assembly naming a system-call instruction, however the literal is split; PTX (device
// asm), comments, strings outside asm and operands outside the template are not.
TEST(LinkPolicy, SourceRulesCatchSystemCallAssembly) {
  for (const char* bad : {"asm volatile(\"syscall\" : \"=a\"(r) : \"a\"(39L) : \"rcx\", \"r11\");",
                          "__asm__ __volatile__(\"sys\" \"call\");", "__asm(\"movl $1, %eax; int $0x80\");",
                          "asm(\"int $128\");", "asm volatile (\n  \"SYSENTER\"\n);", "asm goto(\"syscall\" :::: out);",
                          "asm(\".globl f\\nf: syscall\\n ret\");"}) {
    auto v = check_source_rules(std::string("void f() {\n") + bad + "\n}\n");
    ASSERT_EQ(v.size(), 1u) << bad;
    EXPECT_NE(v[0].reason.find("system calls"), std::string::npos) << bad;
  }
  for (const char* fine : {"asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));",
                           "asm(\"add.s32 %0, %1, %2;\" : \"=r\"(c) : \"n\"((int)128), \"r\"(b));",
                           "// asm(\"syscall\") would be refused\n", "/* __asm__(\"int $0x80\") */",
                           "printf(\"asm(syscall) in a string\");", "int syscall_count = 0; asm(\"membar.gl;\");",
                           "const char* s = \"asm(\\\"syscall\\\")\";"})
    EXPECT_TRUE(check_source_rules(std::string("void f() {\n") + fine + "\n}\n").empty()) << fine;
}

// Names and texts are the candidate's: none may be long enough to overflow std::regex's recursion.
TEST(LinkPolicy, HugeNamesAndSourcesDoNotCrash) {
  for (const std::string& name : {std::string(300000, 'a'), "_ZTI" + std::string(300000, 'a'),
                                  "_ZSt1__throw_" + std::string(300000, 'a'), "__" + std::string(300000, 'a') + "_chk"})
  {
    EXPECT_FALSE(link_violation_reason(name).empty());
    EXPECT_EQ(base_function(name), name);
  }
  std::string big = "/*" + std::string(1 << 20, ' ') + "*/ asm(\"" + std::string(1 << 20, ' ') + "syscall\");";
  EXPECT_EQ(check_source_rules(big).size(), 1u);
  EXPECT_TRUE(parse_ptxas_info("ptxas info    : Compiling entry function '" + std::string(300000, 'k') + "'\n").empty());
}

fs::path gcc_so(const fs::path& dir, const std::string& name, const std::string& code, std::vector<std::string> flags = {}) {
  fs::create_directories(dir);
  std::ofstream(dir / (name + ".c")) << code;
  std::vector<std::string> argv = {"gcc", "-shared", "-fPIC", "-O2", (dir / (name + ".c")).string(), "-o", (dir / (name + ".so")).string()};
  argv.insert(argv.end(), flags.begin(), flags.end());
  auto r = sandbox::run_process(argv, std::chrono::seconds(60));
  EXPECT_TRUE(r.ok()) << r.output;
  return dir / (name + ".so");
}

std::string all_symbols(const std::vector<LinkViolation>& v) {
  std::string out;
  for (const auto& x : v) out += x.symbol + "\n";
  return out;
}

// The object's code: every system-call instruction with the function it is in, however it got
// there (asm text, raw bytes); code that could be rewritten at run time. The crt code and PLT of an
// ordinary shared object pass.
TEST(CodeScan, FindsSystemCallInstructionsAndWritableCode) {
  auto dir = fs::temp_directory_path() / ("cudaperf-codescan-" + std::to_string(getpid()));
  std::string err;
  auto clean = check_code(gcc_so(dir, "clean", "#include <string.h>\nint launch(char* d, const char* s, int n) { memcpy(d, s, n); return n + 1; }\n"), err);
  EXPECT_TRUE(err.empty()) << err;
  EXPECT_TRUE(clean.empty()) << all_symbols(clean);
  auto v = check_code(gcc_so(dir, "raw",
                             "long evil(long n) { long r; __asm__ volatile(\"syscall\" : \"=a\"(r) : \"a\"(n) : \"rcx\", \"r11\", \"memory\"); return r; }\n"
                             "void old(void) { __asm__ volatile(\"int $0x80\" ::: \"memory\"); }\n"
                             "void hidden(void) { __asm__ volatile(\".byte 0x0f, 0x05\"); }\n"
                             "void sys32(void) { __asm__ volatile(\"sysenter\"); }\n"
                             "int calls_the_wrapper(void) { extern long syscall(long, ...); return (int)syscall(39); }\n"),
                      err);
  EXPECT_TRUE(err.empty()) << err;
  std::string got = all_symbols(v);
  for (const char* want : {"syscall instruction in evil", "int $0x80 instruction in old", "syscall instruction in hidden",
                           "sysenter instruction in sys32"})
    EXPECT_NE(got.find(want), std::string::npos) << want << " not in:\n" << got;
  EXPECT_EQ(got.find("calls_the_wrapper"), std::string::npos) << "a call to syscall@plt is an import, not an instruction:\n" << got;
  EXPECT_EQ(v.size(), 4u) << got;
  auto wx = all_symbols(check_code(gcc_so(dir, "wx", "__asm__(\".section .wxs,\\\"awx\\\",@progbits\\n.byte 0xc3\\n.previous\\n\");\nint f(int x) { return x; }\n"), err));
  EXPECT_NE(wx.find("writable and executable segment"), std::string::npos) << wx;
  auto es = all_symbols(check_code(gcc_so(dir, "es", "int f(int x) { return x; }\n", {"-Wl,-z,execstack"}), err));
  EXPECT_NE(es.find("executable stack"), std::string::npos) << es;
  auto tr = all_symbols(check_code(gcc_so(dir, "tr", "__asm__(\".text\\n.globl tt\\ntt: .quad tt\\n\");\nint f(int x) { return x; }\n"), err));
  EXPECT_NE(tr.find("text relocations"), std::string::npos) << tr;
  // check_link runs it too: the raw object is a link error naming the instruction.
  auto rep = check_link(dir / "raw.so");
  EXPECT_FALSE(rep.ok());
  EXPECT_NE(rep.message().find("syscall instruction in evil"), std::string::npos) << rep.message();
  std::string missing;
  check_code(dir / "no-such.so", missing);
  EXPECT_FALSE(missing.empty());
  fs::remove_all(dir);
}

task::Task saxpy() {
  auto t = task::load_task(std::string(CUDAPERF_TEST_DATA) + "/../../data/tasks/c2cuda/elementwise/saxpy");
  EXPECT_TRUE(t.ok());
  return t.value();
}

// An honest saxpy launcher whose host code formats and copies a string (with `refused_call`, also
// one call the allowlist refuses: snprintf).
fs::path host_calls_candidate(const fs::path& dir, const std::string& name, bool refused_call) {
  fs::create_directories(dir);
  fs::path p = dir / name;
  std::ofstream f(p);
  f << "#include <cstdio>\n#include <cstring>\n#include <cuda_runtime.h>\nchar saxpy_tag[64];\n"
       "__global__ void saxpy_k(int n, float a, const float* x, const float* y, float* out) {\n"
       "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n  if (i < n) out[i] = a * x[i] + y[i];\n}\n"
       "extern \"C\" void saxpy_f32(int n, float a, const float* x, const float* y, float* out, cudaStream_t stream) {\n"
       "  char name[128];\n  volatile size_t cap = sizeof saxpy_tag - 1;  // a bound the compiler cannot fold\n"
       "  size_t len = static_cast<size_t>(n) % 128 < cap ? static_cast<size_t>(n) % 128 : cap;\n"
       "  std::memset(name, 'x', len);\n  name[len] = 0;\n"
       "  std::memcpy(saxpy_tag, name, std::strlen(name) + 1);\n"
       "  std::printf(\"saxpy %s %d\\n\", saxpy_tag, n);\n";
  if (refused_call) f << "  char num[16];\n  std::snprintf(num, sizeof num - len % 8, \"%d\", n);\n  std::puts(num);\n";
  f << "  saxpy_k<<<(n + 255) / 256, 256, 0, stream>>>(n, a, x, y, out);\n}\n";
  return p;
}

// An nvcc that gives the host compiler `flags` before (as a distro's gcc default would) or after
// (forced over ours) compile_cuda's own; CUDAPERF_NVCC points at it until the object is destroyed.
// Its builds get their own cache (the cache key does not see the wrapper).
struct NvccWrapper {
  fs::path dir;
  std::string old = nvcc_path();
  Options options;
  NvccWrapper(const std::string& name, const std::string& flags, bool after) {
    dir = fs::temp_directory_path() / ("cudaperf-" + name + "-" + std::to_string(getpid()));
    fs::create_directories(dir);
    fs::path w = dir / "nvcc";
    std::string x = "-Xcompiler " + flags;
    std::ofstream(w) << "#!/bin/sh\nexec " << old << " " << (after ? "" : x) << " \"$@\" " << (after ? x : "") << "\n";
    fs::permissions(w, fs::perms::owner_all);
    setenv("CUDAPERF_NVCC", w.c_str(), 1);
    options.cache_dir = dir / "cache";
  }
  ~NvccWrapper() {
    setenv("CUDAPERF_NVCC", old.c_str(), 1);
    fs::remove_all(dir);
  }
};

bool imports_any_chk(const LinkReport& r) {
  return std::any_of(r.imports.begin(), r.imports.end(), [](const std::string& s) { return base_function(s) != s; });
}

std::vector<std::string> refused_bases(const LinkReport& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations) out.push_back(base_function(v.symbol));
  std::sort(out.begin(), out.end());
  return out;
}

// Item 7 of issue 18: the same candidate, fortified or not, gets one link verdict. The fortified
// build (-D_FORTIFY_SOURCE=2 -O2 forced after compile_cuda's own flags) really imports the __X_chk
// variants here (checked), so the allowlist sees both spellings. (A candidate cannot turn fortify
// on itself: the pre-included declaration has read <features.h> before its first line.)
TEST(CandidateBuild, FortifiedHostCallsGetTheSameVerdict) {
  auto t = saxpy();
  auto dir = fs::temp_directory_path() / ("cudaperf-fortify-" + std::to_string(getpid()));
  for (bool refused_call : {false, true}) {
    auto src = host_calls_candidate(dir, refused_call ? "refused.cu" : "allowed.cu", refused_call);
    auto plain = build_candidate(t, src);
    CandidateBuild fort;
    {
      NvccWrapper forced("fortified-nvcc", "-D_FORTIFY_SOURCE=2,-O2", /*after=*/true);
      fort = build_candidate(t, src, forced.options);
    }
    ASSERT_TRUE(plain.artifact.ok) << plain.artifact.diagnostics;
    ASSERT_TRUE(fort.artifact.ok) << fort.artifact.diagnostics;
    EXPECT_FALSE(imports_any_chk(plain.link));
    auto has = [&](const char* s) { return std::find(fort.link.imports.begin(), fort.link.imports.end(), s) != fort.link.imports.end(); };
    EXPECT_TRUE(has("__printf_chk") && has("__memcpy_chk") && has("__memset_chk"))
        << "fortify did not take effect: the test proves nothing; imports: " << ::testing::PrintToString(fort.link.imports);
    EXPECT_EQ(plain.link.ok(), !refused_call) << plain.link.message();
    EXPECT_EQ(fort.link.ok(), plain.link.ok()) << fort.link.message();
    EXPECT_EQ(refused_bases(fort.link), refused_bases(plain.link)) << fort.link.message() << "\nvs\n" << plain.link.message();
    if (refused_call) {
      EXPECT_TRUE(has("__snprintf_chk"));
    }
  }
  fs::remove_all(dir);
}

// The build itself is the same everywhere: a host compiler that fortifies by default (emulated by
// an nvcc wrapper passing -D_FORTIFY_SOURCE=2 first, as Ubuntu's gcc spec does) still gives the
// plain imports, because compile_cuda undefines it for the host compiler; and the object is
// linked with full RELRO and immediate binding.
TEST(CandidateBuild, HostCompilerFortifyDefaultIsUndoneAndRelroIsFull) {
  auto t = saxpy();
  auto dir = fs::temp_directory_path() / ("cudaperf-fortify-default-" + std::to_string(getpid()));
  CandidateBuild b;
  {
    NvccWrapper distro("distro-nvcc", "-D_FORTIFY_SOURCE=2", /*after=*/false);
    b = build_candidate(t, host_calls_candidate(dir, "plain.cu", false), distro.options);
    ASSERT_TRUE(b.artifact.ok) << b.artifact.diagnostics;
    auto r = sandbox::run_process({"readelf", "-lW", "-d", b.artifact.path.string()}, std::chrono::seconds(30));
    EXPECT_NE(r.output.find("GNU_RELRO"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("BIND_NOW"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(imports_any_chk(b.link)) << "imports: " << ::testing::PrintToString(b.link.imports);
  EXPECT_TRUE(b.link.ok()) << b.link.message();
  fs::remove_all(dir);
}

// Records name the toolkit that made the code: an overlay's ptxas (tools/ptxas-overlay.sh) beside the
// stock nvcc must show, since nvcc's own version does not change (fake tools print fixed versions).
TEST(Toolkit, DescriptionNamesAnOverlaysPtxas) {
  fs::path dir = fs::temp_directory_path() / ("cudaperf-toolkit-" + std::to_string(getpid()));
  auto tool = [&](const std::string& sub, const std::string& name, const std::string& release) {
    fs::create_directories(dir / sub);
    fs::path p = dir / sub / name;
    std::ofstream(p) << "#!/bin/sh\necho 'Cuda compilation tools, " << release << "'\necho 'Build x'\n";
    fs::permissions(p, fs::perms::owner_all);
  };
  tool("stock", "nvcc", "release 13.0, V13.0.88");
  tool("stock", "ptxas", "release 13.0, V13.0.88");
  tool("overlay", "nvcc", "release 13.0, V13.0.88");
  tool("overlay", "ptxas", "release 13.5, V13.5.37");
  setenv("CUDAPERF_NVCC", (dir / "stock/nvcc").c_str(), 1);
  EXPECT_EQ(toolkit_description(), "release 13.0, V13.0.88");
  setenv("CUDAPERF_NVCC", (dir / "overlay/nvcc").c_str(), 1);
  EXPECT_EQ(toolkit_description(), "release 13.0, V13.0.88, ptxas release 13.5, V13.5.37");
  unsetenv("CUDAPERF_NVCC");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace cudaperf::compile
