#include "cudaperf/compile/compile.hpp"
#include "cudaperf/util/file.hpp"

#include <xxhash.h>

#include <cstdlib>
#include <fmt/format.h>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::compile {

namespace fs = std::filesystem;
using sandbox::run_process;

namespace {

bool write_text(const fs::path& p, const std::string& s) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out << s;
  return static_cast<bool>(out);
}

std::string hash_hex(const std::vector<std::string>& parts) {
  XXH3_state_t* st = XXH3_createState();
  XXH3_128bits_reset(st);
  for (const auto& p : parts) {
    uint64_t n = p.size();
    XXH3_128bits_update(st, &n, sizeof n);
    XXH3_128bits_update(st, p.data(), p.size());
  }
  XXH128_hash_t h = XXH3_128bits_digest(st);
  XXH3_freeState(st);
  return fmt::format("{:016x}{:016x}", h.high64, h.low64);
}

// First line of `tool --version` output (cached per process).
std::string tool_version(const std::string& tool) {
  static std::mutex mu;
  static std::map<std::string, std::string> cache;
  std::lock_guard lock(mu);
  auto it = cache.find(tool);
  if (it != cache.end()) return it->second;
  auto r = run_process({tool, "--version"}, std::chrono::seconds(30), 4096);
  std::string v = r.ok() ? r.output : std::string("unavailable");
  cache[tool] = v;
  return v;
}

// The ptxas in the folder of the compiler `tool` (the one nvcc runs), when there is one.
std::optional<std::string> ptxas_beside(const std::string& tool) {
  fs::path dir = fs::path(tool).parent_path();
  std::error_code ec;
  if (dir.empty() || !fs::exists(dir / "ptxas", ec)) return std::nullopt;
  return (dir / "ptxas").string();
}

// What decides the machine code: the compiler's version and, for nvcc, the ptxas it runs. nvcc runs the
// ptxas beside itself (its nvcc.profile puts its own folder first on PATH), so a toolkit overlay
// (tools/ptxas-overlay.sh: the toolkit's nvcc, a newer ptxas) reports nvcc's version unchanged; the
// cache must still not hand back code from the other ptxas.
std::string toolchain_id(const std::string& tool) {
  std::string id = tool_version(tool);
  if (auto p = ptxas_beside(tool)) id += "|" + tool_version(*p);
  return id;
}

// "release 13.0, V13.0.88" out of a `--version` text (its whole first such line), else the text's first line.
std::string release_line(const std::string& version) {
  auto at = version.find("release");
  std::string line = version.substr(at == std::string::npos ? 0 : at);
  return line.substr(0, line.find('\n'));
}

bool defines_symbol(const fs::path& so, const std::string& fn, std::string& why) {
  auto r = run_process({"nm", "-D", "--defined-only", so.string()}, std::chrono::seconds(30));
  if (!r.ok()) {
    why = fmt::format("nm failed ({}): {}", r.describe(), r.output);
    return false;
  }
  std::istringstream ss(r.output);
  std::string line;
  while (std::getline(ss, line)) {
    // "<addr> T name"
    auto sp = line.rfind(' ');
    if (sp != std::string::npos && line.substr(sp + 1) == fn && sp >= 2 &&
        (line[sp - 1] == 'T' || line[sp - 1] == 'W'))
      return true;
  }
  why = fmt::format("the object does not define extern \"C\" function '{}'", fn);
  return false;
}

// Builds (or fetches from the cache) one shared object.
Artifact build(const std::string& kind, const std::vector<std::string>& cmd_prefix,
               const std::vector<std::string>& cmd_suffix, const std::string& decl,
               const fs::path& source, const std::string& function, const Options& o) {
  Artifact a;
  fs::path dir = o.cache_dir.empty() ? default_cache_dir() : o.cache_dir;
  std::error_code ec;
  fs::create_directories(dir, ec);
  std::ifstream probe(source);
  if (!probe) {
    a.diagnostics = fmt::format("{}: cannot read source file", source.string());
    return a;
  }
  std::string src = read_file(source).value_or("");
  std::string flags = fmt::format("{}", fmt::join(cmd_prefix, " ")) + "|" + fmt::format("{}", fmt::join(cmd_suffix, " "));
  std::string key = hash_hex({kind, toolchain_id(cmd_prefix[0]), flags, decl, src, source.filename().string()});
  fs::path so = dir / (key + ".so");
  fs::path log = dir / (key + ".log");
  fs::path fail = dir / (key + ".fail");
  if (fs::exists(so)) {
    a.ok = true;
    a.path = so;
    a.cache_hit = true;
    a.diagnostics = fs::exists(log) ? read_file(log).value_or("") : "";
    return a;
  }
  if (fs::exists(fail)) {
    a.cache_hit = true;
    a.diagnostics = read_file(fail).value_or("");
    return a;
  }
  std::string tag = fmt::format("{}.{}", getpid(), std::hash<std::string>{}(key + std::to_string(reinterpret_cast<uintptr_t>(&a))));
  fs::path decl_path = dir / (key + "." + tag + ".decl.h");
  fs::path tmp_so = dir / (key + "." + tag + ".tmp.so");
  write_text(decl_path, decl);
  std::vector<std::string> argv = cmd_prefix;
  argv.insert(argv.end(), {kind == "cuda" ? "--pre-include" : "-include", decl_path.string(), source.string(), "-o", tmp_so.string()});
  argv.insert(argv.end(), cmd_suffix.begin(), cmd_suffix.end());
  auto r = run_process(argv, o.timeout);
  a.seconds = r.seconds;
  fs::remove(decl_path, ec);
  // Keep the user's file name in messages, not the cache's temp names.
  std::string out = r.output;
  for (size_t pos; (pos = out.find(decl_path.string())) != std::string::npos;)
    out.replace(pos, decl_path.string().size(), "<declaration from task.toml>");
  if (!r.ok()) {
    a.diagnostics = r.timed_out ? fmt::format("compiler {}", r.describe()) : trim_diagnostics(out);
    if (a.diagnostics.empty()) a.diagnostics = fmt::format("compiler failed: {}", r.describe());
    fs::remove(tmp_so, ec);
    if (!r.timed_out && !r.spawn_failed) write_text(fail, a.diagnostics);
    return a;
  }
  std::string why;
  if (!defines_symbol(tmp_so, function, why)) {
    a.diagnostics = why;
    fs::remove(tmp_so, ec);
    write_text(fail, why);
    return a;
  }
  write_text(log, out);
  fs::rename(tmp_so, so, ec);
  if (ec) {
    a.diagnostics = fmt::format("cannot store artifact in cache {}: {}", dir.string(), ec.message());
    return a;
  }
  a.ok = true;
  a.path = so;
  a.diagnostics = out;
  return a;
}

}  // namespace

std::string toolkit_description() {
  const std::string nvcc = nvcc_path();
  std::string d = release_line(tool_version(nvcc));
  if (auto ptxas = ptxas_beside(nvcc)) {
    std::string p = release_line(tool_version(*ptxas));
    if (p != d) d += ", ptxas " + p;  // an overlay's newer ptxas (tools/ptxas-overlay.sh)
  }
  return d;
}

fs::path default_cache_dir() {
  if (const char* d = std::getenv("CUDAPERF_CACHE_DIR"); d && *d) return d;
  if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return fs::path(x) / "cudaperf";
  if (const char* h = std::getenv("HOME"); h && *h) return fs::path(h) / ".cache" / "cudaperf";
  return fs::temp_directory_path() / "cudaperf-cache";
}

std::string nvcc_path() {
  if (const char* n = std::getenv("CUDAPERF_NVCC"); n && *n) return n;
  if (fs::exists("/usr/local/cuda/bin/nvcc")) return "/usr/local/cuda/bin/nvcc";
  return "nvcc";
}

Artifact compile_reference(const task::Task& t, const Options& o) {
  return build("c", {"gcc", "-std=c11", "-O2", "-Wall", "-Werror", "-fPIC", "-shared"}, {"-lm"},
               t.c_reference_declaration(), t.reference, t.function, o);
}

Artifact compile_reference_baseline(const task::Task& t, const Options& o) {
  return build("c", {"gcc", "-std=c11", "-O3", "-march=native", "-fPIC", "-shared"}, {"-lm"},
               t.c_reference_declaration(), t.reference, t.function, o);
}

Artifact compile_cuda(const task::Task& t, const fs::path& source, const Options& o, bool verbose_ptxas) {
  // -U_FORTIFY_SOURCE -D_FORTIFY_SOURCE=0: the host compiler's own default (Ubuntu's gcc defines
  // _FORTIFY_SOURCE=2 or 3 when optimising, Debian's does not) would otherwise decide whether
  // printf/memcpy import as themselves or as __printf_chk/__memcpy_chk, and so what the link check
  // sees. Off rather than on: "on" still differs by glibc version and level (3 fortifies more calls),
  // "off" gives the plain names everywhere, and the checks guard the candidate's own buffers only.
  // (A candidate that defines _FORTIFY_SOURCE itself gets the variants: base_function judges them.)
  // -cudart shared: the object holds the candidate's code, nvcc's stubs and the crt start-up code
  // only (no static runtime), so check_code judges the candidate's instructions alone.
  // -z relro -z now: its GOT is bound at load and read-only afterwards (as for every binary of ours).
  std::vector<std::string> cmd = {nvcc_path(), "-arch=sm_90", "-std=c++17", "-O3", "-lineinfo", "-Xcompiler", "-fPIC",
                                  "-Xcompiler", "-U_FORTIFY_SOURCE,-D_FORTIFY_SOURCE=0", "-shared", "-cudart", "shared",
                                  "-Xlinker", "-z,relro,-z,now"};
  if (verbose_ptxas) cmd.insert(cmd.end(), {"-Xptxas", "-v"});
  return build("cuda", cmd, {}, t.cuda_declaration(), source, t.function, o);
}

std::string trim_diagnostics(const std::string& raw, size_t max_lines) {
  std::istringstream ss(raw);
  std::vector<std::string> lines, important;
  std::string line;
  while (std::getline(ss, line)) lines.push_back(line);
  // Errors with the two lines that follow (nvcc prints the source line and a caret).
  for (size_t i = 0; i < lines.size() && important.size() < max_lines; ++i) {
    if (lines[i].find("error") != std::string::npos) {
      for (size_t j = i; j < lines.size() && j < i + 3 && important.size() < max_lines; ++j) important.push_back(lines[j]);
      i += 2;
    }
  }
  if (important.empty())
    for (size_t i = 0; i < lines.size() && important.size() < max_lines; ++i) important.push_back(lines[i]);
  for (auto& l : important)
    if (l.size() > 300) l = l.substr(0, 300) + " [...]";
  std::string out = fmt::format("{}", fmt::join(important, "\n"));
  if (lines.size() > important.size()) out += fmt::format("\n[{} more line(s) omitted]", lines.size() - important.size());
  return out;
}

}  // namespace cudaperf::compile
