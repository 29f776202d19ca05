#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/util/file.hpp"

#include <cxxabi.h>

#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <optional>
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
    // what a fortified call (__X_chk, see base_function) reports a detected overflow with: an abort
    "__chk_fail",
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

constexpr size_t kMaxSymbol = 4096;  // longer names are never on the allowlist (and never parsed by regex)

std::vector<KernelResources> parse_ptxas_info(const std::string& log) {
  std::vector<KernelResources> out;
  KernelResources* cur = nullptr;
  static const std::regex entry(R"(Compiling entry function '([^']+)')");
  static const std::regex props(R"(Function properties for (\S+))");
  for (const auto& line : lines_of(log)) {
    if (line.size() > 2 * kMaxSymbol) continue;  // a kernel name that long (the candidate's) is not parsed by regex
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

std::string base_function(const std::string& symbol) {
  // glibc's fortified variants (_FORTIFY_SOURCE: __memcpy_chk, __printf_chk, __snprintf_chk, ...)
  // and its ISO C scanf/strtol redirects (__isoc99_sscanf, __isoc23_strtol): which of them a
  // compiler emits depends on its defaults and the glibc version, not on the candidate.
  static const std::regex fortified(R"(^__(\w+)_chk$)");
  static const std::regex iso(R"(^__isoc(99|23)_(\w+)$)");
  static const std::regex open2(R"(^__(open|open64|openat|openat64)_2$)");  // fortified open without a mode
  if (symbol.size() > kMaxSymbol) return symbol;  // never through std::regex (it recurses per character)
  std::smatch m;
  if (std::regex_match(symbol, m, fortified)) return m[1];
  if (std::regex_match(symbol, m, iso)) return m[2];
  if (std::regex_match(symbol, m, open2)) return m[1];
  return symbol;
}

std::string link_violation_reason(const std::string& imported) {
  if (kAllowed.count(imported)) return "";
  // Before any regex: std::regex recurses once per character, and the name is the candidate's.
  if (imported.size() > kMaxSymbol) return "not on the allowlist of calls a kernel launcher needs (a name that long never is)";
  const std::string symbol = base_function(imported);
  if (symbol != imported) {
    auto why = link_violation_reason(symbol);
    return why.empty() ? "" : fmt::format("{} (a variant of {})", why, symbol);
  }
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

namespace {

// "syscall", "sysenter" or "int $0x80" when the text names a system-call instruction: one objdump
// line (AT&T syntax, prefixes such as "cs" or "rex.W" allowed) or inline assembly (any case;
// int 0x80, int $128, int 80h); "" otherwise. Names in <...> (objdump's symbols, PTX's %r<10>) are
// not words of it.
std::string system_call_named(const std::string& text) {
  std::vector<std::string> words;
  std::string w;
  int angle = 0;
  for (char c : text + " ") {
    if (c == '<') {
      ++angle;
    } else if (c == '>' && angle > 0) {
      --angle;
    } else if (angle == 0 && (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$')) {
      w += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      continue;
    }
    if (!w.empty()) words.push_back(std::move(w));
    w.clear();
  }
  for (size_t i = 0; i < words.size(); ++i) {
    if (words[i] == "syscall" || words[i] == "sysenter") return words[i];
    if (words[i] == "int" && i + 1 < words.size()) {
      std::string v = words[i + 1];
      if (!v.empty() && v[0] == '$') v.erase(0, 1);
      if (v == "0x80" || v == "128" || v == "80h") return "int $0x80";
    }
  }
  return "";
}

// A tool's whole output over `so`, or nullopt with `error` set. A listing cut at the cap would hide
// what comes after the cut (nm sorts by name: thousands of weak imports named "a..." would push
// "socket" out), so reaching the cap is an error too.
std::optional<std::string> inspect(std::vector<std::string> argv, const fs::path& so, const char* what, std::string& error) {
  constexpr size_t cap = size_t{64} << 20;
  argv.push_back(so.string());
  auto r = sandbox::run_process(argv, std::chrono::seconds(60), cap);
  if (!r.ok()) error = fmt::format("cannot {} {}: {}", what, so.string(), r.describe());
  else if (r.output.size() >= cap) error = fmt::format("cannot {} {}: more than {} MiB of output", what, so.string(), cap >> 20);
  else return std::move(r.output);
  return std::nullopt;
}

}  // namespace

LinkReport check_link(const fs::path& so) {
  LinkReport rep;
  auto nm = inspect({"nm", "-D", "--undefined-only"}, so, "list the imports of", rep.error);
  if (!nm) return rep;
  for (const auto& line : lines_of(*nm)) {
    std::istringstream ls(line);
    std::string kind, sym;
    ls >> kind >> sym;
    if (sym.empty()) continue;
    sym = sym.substr(0, sym.find('@'));
    rep.imports.push_back(sym);
    if (auto why = link_violation_reason(sym); !why.empty())
      rep.violations.push_back({sym.size() > 200 ? sym.substr(0, 200) + "[...]" : sym, why});
  }
  auto re = inspect({"readelf", "-d"}, so, "read the dynamic section of", rep.error);
  if (!re) return rep;
  static const std::regex needed(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
  static const std::regex allowed_lib(R"(^(libcudart\.so\.\d+|libstdc\+\+\.so\.6|libgcc_s\.so\.1|libc\.so\.6|libm\.so\.6)$)");
  for (const auto& line : lines_of(*re)) {
    std::smatch m;
    if (std::regex_search(line, m, needed)) {
      rep.needed.push_back(m[1]);
      if (!std::regex_match(m[1].str(), allowed_lib))
        rep.violations.push_back({m[1], "links a library beyond the CUDA runtime and the C/C++ runtime"});
    }
  }
  for (auto& v : check_code(so, rep.error)) rep.violations.push_back(std::move(v));
  return rep;
}

std::vector<LinkViolation> check_code(const fs::path& so, std::string& error) {
  std::vector<LinkViolation> out;
  // Every section the object marks executable, linearly decoded: the crt start-up code, the PLT,
  // nvcc's registration stubs and the candidate's own functions (with -cudart shared nothing else is
  // linked in, and none of those make system calls themselves; data is not decoded).
  auto od = inspect({"objdump", "-d", "--no-show-raw-insn"}, so, "disassemble", error);
  if (!od) return out;
  // Parsed by hand: the names are the candidate's, and std::regex recurses once per character
  // (a 100 KB name would overflow the stack of this process).
  std::string fn = "?";
  std::set<std::string> seen;
  for (const auto& line : lines_of(*od)) {
    if (line.size() > 2 && line.compare(line.size() - 2, 2, ">:") == 0 && !std::isspace(static_cast<unsigned char>(line[0]))) {
      auto lt = line.find(" <");
      if (lt != std::string::npos) fn = demangle(line.substr(lt + 2, line.size() - lt - 4));
      continue;
    }
    auto colon = line.find(":\t");
    if (line.empty() || !std::isspace(static_cast<unsigned char>(line[0])) || colon == std::string::npos) continue;
    if (auto what = system_call_named(line.substr(colon + 2)); !what.empty() && seen.insert(what + " in " + fn).second)
      out.push_back({fmt::format("{} instruction in {}", what, fn),
                     "makes raw system calls: a launcher calls only the C library functions on the allowlist"});
  }
  // Code that could be written at run time: a segment both writable and executable, text
  // relocations (the loader makes code writable to patch it), an executable stack.
  auto hdr = inspect({"readelf", "-lW", "-d"}, so, "read the program headers of", error);
  if (!hdr) return out;
  static const std::regex textrel(R"(\(TEXTREL\)|\(FLAGS\).*\bTEXTREL\b)");
  static const std::regex segment(R"(^\s*(LOAD|GNU_STACK)\s+\S+\s+\S+\s+\S+\s+\S+\s+\S+\s+([RWE ]+?)\s+0x)");
  for (const auto& line : lines_of(*hdr)) {
    std::smatch m;
    if (std::regex_search(line, m, segment)) {
      std::string flags = m[2];
      bool w = flags.find('W') != std::string::npos, x = flags.find('E') != std::string::npos;
      if (m[1] == "LOAD" && w && x)
        out.push_back({"writable and executable segment", "has code that can be rewritten at run time"});
      if (m[1] == "GNU_STACK" && x) out.push_back({"executable stack", "asks for an executable stack"});
    } else if (std::regex_search(line, textrel)) {
      if (seen.insert("TEXTREL").second)
        out.push_back({"text relocations", "has code the loader must make writable to patch (build position-independent code)"});
    }
  }
  return out;
}

namespace {

// The source with comments blanked and every string literal kept; by hand, not std::regex (which
// recurses once per character: a long comment would overflow the stack).
std::string strip_comments(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '"' || s[i] == '\'') {  // a literal, copied whole
      char q = s[i];
      out += s[i];
      for (++i; i < s.size() && s[i] != q && s[i] != '\n'; ++i) {
        if (s[i] == '\\' && i + 1 < s.size()) out += s[i++];
        out += s[i];
      }
      if (i < s.size()) out += s[i];
    } else if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      auto end = s.find("*/", i + 2);
      i = end == std::string::npos ? s.size() : end + 1;
      out += ' ';
    } else {
      out += s[i];
    }
  }
  return out;
}

bool word_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The text of the string literals in each asm statement (asm, __asm__, __asm, with volatile /
// inline / goto qualifiers): adjacent literals joined ("sys" "call" is "syscall"), operands and
// constraints outside the literals a space.
std::vector<std::string> asm_operands(const std::string& code) {
  std::vector<std::string> out;
  for (size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '"' || code[i] == '\'') {  // a literal outside asm: skipped
      for (char q = code[i++]; i < code.size() && code[i] != q && code[i] != '\n'; ++i)
        if (code[i] == '\\') ++i;
      continue;
    }
    if (!word_char(code[i]) || (i > 0 && word_char(code[i - 1]))) continue;
    size_t e = i;
    while (e < code.size() && word_char(code[e])) ++e;
    std::string word = code.substr(i, e - i);
    if (word != "asm" && word != "__asm__" && word != "__asm") {
      i = e - 1;
      continue;
    }
    size_t p = e;
    for (;;) {  // qualifiers
      while (p < code.size() && std::isspace(static_cast<unsigned char>(code[p]))) ++p;
      size_t q = p;
      while (q < code.size() && word_char(code[q])) ++q;
      std::string qual = code.substr(p, q - p);
      if (qual != "volatile" && qual != "__volatile__" && qual != "inline" && qual != "goto") break;
      p = q;
    }
    if (p >= code.size() || code[p] != '(') continue;
    std::string body;
    int depth = 0;
    bool in_string = false;
    for (; p < code.size(); ++p) {
      char c = code[p];
      if (in_string) {
        if (c == '\\' && p + 1 < code.size()) {
          body += c;
          c = code[++p];
        } else if (c == '"') {
          in_string = false;
          continue;  // the closing quote: the next literal continues this one
        }
        body += c;
      } else if (c == '"') {
        in_string = true;
      } else {
        if (c == '(') ++depth;
        if (c == ')' && --depth == 0) break;
        if (!std::isspace(static_cast<unsigned char>(c)) && (body.empty() || body.back() != ' ')) body += ' ';
      }
    }
    out.push_back(std::move(body));
    i = p;
  }
  return out;
}

}  // namespace

std::vector<LinkViolation> check_source_rules(const std::string& source) {
  std::vector<LinkViolation> out;
  static const std::regex lib(R"(#\s*include\s*[<"](thrust|cub|cublas|cudnn|cutlass|cute)[/_.])");
  std::smatch m;
  if (std::regex_search(source, m, lib))
    out.push_back({fmt::format("#include <{}...>", m[1].str()), "uses a library instead of its own kernels"});
  // Host inline assembly that makes system calls (device asm is PTX, which has no such instruction,
  // so it never matches). Defence in depth: check_code finds them in the built object however spelled.
  for (const auto& body : asm_operands(strip_comments(source)))
    if (auto what = system_call_named(body); !what.empty()) {
      out.push_back({fmt::format("asm(\"{}\")", what),
                     "makes raw system calls from inline assembly: a launcher calls only the C library functions on the allowlist"});
      break;
    }
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
