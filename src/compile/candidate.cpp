#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/util/file.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::compile {

namespace fs = std::filesystem;

namespace {

std::string demangle(const std::string& m) {
  int status = 0;
  char* d = abi::__cxa_demangle(m.c_str(), nullptr, nullptr, &status);
  std::string out = (status == 0 && d) ? d : m;
  std::free(d);
  return out;
}

int int_before(const std::string& line, const std::string& unit) {
  auto pos = line.find(unit);
  if (pos == std::string::npos) return 0;
  size_t end = pos;
  while (end > 0 && line[end - 1] == ' ') --end;
  size_t start = end;
  while (start > 0 && std::isdigit(static_cast<unsigned char>(line[start - 1]))) --start;
  return start < end ? std::atoi(line.substr(start, end - start).c_str()) : 0;
}

// What a kernel launcher needs, and nothing more.
const std::set<std::string, std::less<>> kAllowed = {
    // nvcc's registration and launch stubs
    "__cudaRegisterFatBinary", "__cudaRegisterFatBinaryEnd", "__cudaUnregisterFatBinary", "__cudaRegisterFunction",
    "__cudaRegisterVar", "__cudaInitModule", "__cudaPushCallConfiguration", "__cudaPopCallConfiguration",
    "__cudaLaunchKernel", "__cudaGetKernel",
    // runtime calls a launcher may make on the given stream
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cudaLaunchCooperativeKernel", "cudaGetLastError",
    "cudaPeekAtLastError", "cudaGetErrorString", "cudaGetErrorName", "cudaMemcpyAsync", "cudaMemsetAsync",
    "cudaMemcpy2DAsync", "cudaMemset2DAsync", "cudaMemcpyToSymbolAsync", "cudaMemcpyFromSymbolAsync",
    "cudaMallocAsync", "cudaFreeAsync", "cudaFuncSetAttribute", "cudaFuncGetAttributes", "cudaFuncSetCacheConfig",
    "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",
    "cudaOccupancyAvailableDynamicSMemPerBlock", "cudaGetDevice", "cudaDeviceGetAttribute", "cudaGetDeviceProperties",
    // C and C++ runtime support emitted by the compiler
    "__cxa_atexit", "__cxa_finalize", "__cxa_guard_acquire", "__cxa_guard_release", "__cxa_guard_abort",
    "__gxx_personality_v0", "_Unwind_Resume", "__stack_chk_fail", "_ZSt9terminatev", "__cxa_begin_catch",
    "__cxa_end_catch", "__cxa_rethrow", "__cxa_allocate_exception", "__cxa_free_exception", "__cxa_throw",
    "__cxa_pure_virtual", "_Znwm", "_Znam", "_ZdlPv", "_ZdlPvm", "_ZdaPv", "_ZdaPvm", "memcpy", "memmove", "memset",
    "memcmp", "strlen", "abort", "__assert_fail", "printf", "puts", "putchar",
    // nvcc's host-side stubs of __device__ functions call exit(); a launcher that calls it
    // itself is caught at run time (the worker ends without finishing the call)
    "exit",
    // host math
    "sqrt", "sqrtf", "exp", "expf", "exp2", "exp2f", "log", "logf", "log2", "log2f", "pow", "powf", "fabs", "fabsf",
    "floor", "floorf", "ceil", "ceilf", "sin", "sinf", "cos", "cosf", "tanh", "tanhf", "erf", "erff", "fmin", "fminf",
    "fmax", "fmaxf", "round", "roundf", "lround", "frexp", "ldexp",
    // weak references every shared object carries
    "_ITM_deregisterTMCloneTable", "_ITM_registerTMCloneTable", "__gmon_start__"};

struct Rule {
  const char* pattern;  // ECMAScript regex on the symbol
  const char* reason;
};
const Rule kDenied[] = {
    {"^cudaStream(Create|Destroy|Query|WaitEvent|Synchronize|BeginCapture|EndCapture|AddCallback|AttachMemAsync)",
     "stream management or synchronisation: all work must run on the given stream"},
    {"^cudaStreamSetAttribute|^cudaCtx|^cudaDeviceSet|^cudaDeviceReset|^cudaSetDevice|^cudaDeviceSetLimit|^cudaCtxResetPersistingL2Cache",
     "changes device-wide state (L2 persistence, limits, device selection)"},
    {"^cudaDeviceSynchronize|^cudaEvent|^cudaGraph|^cudaLaunchHostFunc|^cudaThreadSynchronize",
     "host synchronisation, events or graphs: the harness owns the clocks and the synchronisation"},
    {"^cudaMalloc$|^cudaMallocManaged|^cudaMallocHost|^cudaHostAlloc|^cudaHostRegister|^cudaMallocPitch|^cudaMalloc3D|^cudaMallocArray|^cudaFree$|^cudaFreeHost|^cudaMemPool|^cudaMemPrefetch|^cudaMemAdvise",
     "allocates outside the stream (use cudaMallocAsync/cudaFreeAsync on the given stream)"},
    {"^cudaMemcpy$|^cudaMemset$|^cudaMemcpyToSymbol$|^cudaMemcpyFromSymbol$|^cudaMemcpy2D$|^cudaMemcpyPeer",
     "synchronous copy outside the given stream"},
    {"^cu[A-Z]|^cuda(Get|Set)?DriverEntryPoint", "calls the CUDA driver API directly"},
    {"^(cublas|cublasLt|cudnn|cufft|curand|cusparse|cusolver|nccl|nvrtc|nvjitlink)",
     "calls a library instead of its own kernels"},
    {"^_ZN6thrust|^_ZN3cub", "uses Thrust/CUB instead of its own kernels"},
    {"^pthread_|^_ZNSt6thread|^thrd_|^clone|^__clone|^_ZSt5async|^std::thread", "starts host threads"},
    {"^(fork|vfork|exec[lv]p?e?|execve|execveat|system|popen|posix_spawnp?|kill|ptrace|_exit|_Exit|quick_exit|signal|sigaction|raise)$",
     "spawns, signals or ends processes"},
    {"^(socket|connect|bind|listen|accept4?|send|sendto|sendmsg|recv|recvfrom|recvmsg|getaddrinfo|gethostbyname)$",
     "uses the network"},
    {"^(fopen|fopen64|freopen|open|open64|openat|creat|read|write|pread|pwrite|fread|fwrite|fgets|fputs|fprintf|fscanf|unlink|remove|rename|mkdir|opendir|readdir|stat|lstat|fstat|access|readlink|ioctl)$|^_ZNSt(14basic_ifstream|14basic_ofstream|13basic_fstream)",
     "touches files or devices"},
    {"^(dlopen|dlsym|dlmopen|dlvsym|dlerror|dlclose|dladdr)$", "loads code at run time"},
    {"^(mmap|mmap64|munmap|mprotect|mremap|madvise|syscall|shmget|shmat|memfd_create|process_vm_readv|process_vm_writev)$",
     "maps memory or makes raw system calls"},
    {"^(getenv|secure_getenv|setenv|putenv|unsetenv|getpid|getppid)$", "reads the environment or process identity"},
    {"^(time|clock|clock_gettime|gettimeofday|nanosleep|usleep|sleep|sched_yield|rand|srand|random|getrandom)$",
     "uses clocks, sleeps or host randomness"},
};

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream ss(s);
  for (std::string l; std::getline(ss, l);) out.push_back(l);
  return out;
}

}  // namespace

std::vector<KernelResources> parse_ptxas_info(const std::string& log) {
  std::vector<KernelResources> out;
  KernelResources* cur = nullptr;
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  for (const auto& line : lines_of(log)) {
    std::smatch m;
    if (std::regex_search(line, m, entry)) {
      out.push_back({});
      cur = &out.back();
      cur->mangled = m[1];
      cur->name = demangle(cur->mangled);
    } else if (std::regex_search(line, m, props)) {
      cur = nullptr;
      for (auto& k : out)
        if (k.mangled == m[1].str()) cur = &k;
    } else if (cur && line.find("stack frame") != std::string::npos) {
      cur->stack_frame = int_before(line, "bytes stack frame");
      cur->spill_stores = int_before(line, "bytes spill stores");
      cur->spill_loads = int_before(line, "bytes spill loads");
    } else if (cur && line.find("Used ") != std::string::npos && line.find("registers") != std::string::npos) {
      cur->registers = int_before(line, "registers");
      cur->barriers = int_before(line, "barriers");
      cur->shared_static = int_before(line, "bytes smem");
      cur->constant0 = int_before(line, "bytes cmem[0]");
    }
  }
  return out;
}

std::string link_violation_reason(const std::string& symbol) {
  if (kAllowed.count(symbol)) return "";
  // Exception helpers libstdc++ emits (std::__throw_length_error and friends), RTTI vtables.
  static const std::regex support(R"(^_ZSt\d+__throw_\w+|^_ZTVN10__cxxabiv1\w+|^_ZTI[A-Za-z0-9_]+$)");
  if (std::regex_search(symbol, support)) return "";
  for (const auto& r : kDenied)
    if (std::regex_search(symbol, std::regex(r.pattern))) return r.reason;
  return "not on the allowlist of calls a kernel launcher needs";
}

std::string LinkReport::message() const {
  if (!error.empty()) return error;
  std::string out;
  for (const auto& v : violations) out += fmt::format("{}: {}\n", v.symbol, v.reason);
  if (!out.empty()) out.pop_back();
  return out;
}

LinkReport check_link(const fs::path& so) {
  LinkReport rep;
  auto nm = sandbox::run_process({"nm", "-D", "--undefined-only", so.string()}, std::chrono::seconds(30));
  if (!nm.ok()) {
    rep.error = fmt::format("cannot list the imports of {}: {}", so.string(), nm.describe());
    return rep;
  }
  for (const auto& line : lines_of(nm.output)) {
    std::istringstream ls(line);
    std::string kind, sym;
    ls >> kind >> sym;
    if (sym.empty()) continue;
    sym = sym.substr(0, sym.find('@'));
    rep.imports.push_back(sym);
    if (auto why = link_violation_reason(sym); !why.empty()) rep.violations.push_back({sym, why});
  }
  auto re = sandbox::run_process({"readelf", "-d", so.string()}, std::chrono::seconds(30));
  static const std::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  static const std::regex allowed_lib(R"(^(libcudart\.so\.\d+|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libc\.so\.6|libm\.so\.6)$)");
  for (const auto& line : lines_of(re.output)) {
    std::smatch m;
    if (std::regex_search(line, m, needed)) {
      rep.needed.push_back(m[1]);
      if (!std::regex_match(m[1].str(), allowed_lib))
        rep.violations.push_back({m[1], "links a library beyond the CUDA runtime and the C/C++ runtime"});
    }
  }
  return rep;
}

std::vector<LinkViolation> check_source_rules(const std::string& source) {
  std::vector<LinkViolation> out;
  static const std::regex lib(R"(#\s*include\s*[<"](thrust|cub|cublas|cudnn|cutlass|cute)[/_.])");
  std::smatch m;
  if (std::regex_search(source, m, lib))
    out.push_back({fmt::format("#include <{}...>", m[1].str()), "uses a library instead of its own kernels"});
  return out;
}

CandidateBuild build_candidate(const task::Task& t, const fs::path& source, const Options& o) {
  CandidateBuild b;
  // Source rules first: a forbidden library is a link error whether or not the file compiles.
  b.link.violations = check_source_rules(read_file(source).value_or(""));
  if (!b.link.violations.empty()) {
    b.artifact.ok = true;  // not built: the link verdict is already decided
    return b;
  }
  b.artifact = compile_cuda(t, source, o, /*verbose_ptxas=*/true);
  if (!b.artifact.ok) return b;
  b.kernels = parse_ptxas_info(b.artifact.diagnostics);
  b.link = check_link(b.artifact.path);
  return b;
}

}  // namespace cudaperf::compile
