// The confined build of a candidate's extensions (build.hpp).
#include "build.hpp"

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fmt/format.h>
#include <map>
#include <thread>

#include "build_jail.hpp"
#include "clock.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "exchange.hpp"
#include "worker_process.hpp"

namespace cudaperf::torch2cuda::detail {

namespace fs = std::filesystem;
using nlohmann::json;
using verify::Verdict;

std::optional<json> cached_extensions(const TorchStatic& st, const std::string& salt, const fs::path& cache) {
  if (salt.empty()) return std::nullopt;
  json cached = json::array();
  for (const auto& e : st.extensions) {
    if (!e.contains("key") || !e.contains("module") || !e.contains("canonical")) return std::nullopt;
    fs::path so = cache / "torch_ext" / e["key"].get<std::string>() / (e["module"].get<std::string>() + ".so");
    if (!fs::is_regular_file(so)) return std::nullopt;
    cached.push_back({{"name", e["canonical"].value("name", "")}, {"key", e["key"]}, {"so", so.string()}, {"cached", true}, {"seconds", 0.0}});
  }
  return cached;
}

// The build workers' environment when `builds` of them run at once: each one's ninja gets a share of
// the cores, two jobs when few build (an extension is a .cpp and a .cu that compile side by side;
// with one job each, 3 cold builds on 16 cores took 77.6 s against 43.6 s alone, 2026-12-01 H200).
std::vector<std::string> with_build_jobs(std::vector<std::string> env, size_t builds) {
  if (std::getenv("MAX_JOBS")) return env;
  unsigned w = static_cast<unsigned>(std::max<size_t>(1, builds));
  unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  env.push_back(fmt::format("MAX_JOBS={}", std::clamp((cores + w - 1) / w, 1u, 2u)));
  return env;
}

namespace {

// The environment of a build worker: only what the toolchain needs (the supervisor's own variables,
// credentials and the like never reach the candidate's build commands).
std::vector<std::string> build_env(const TorchRuntime& rt, const std::vector<std::string>& base, const fs::path& work) {
  std::vector<std::string> env{"PYTHONPATH=" + rt.python_dir.string(), "PYTHONDONTWRITEBYTECODE=1", "PYTHONUNBUFFERED=1",
                               "HOME=" + work.string(), "TMPDIR=" + (work / "tmp").string(),
                               "XDG_CACHE_HOME=" + (work / ".cache").string(), "LANG=C.UTF-8"};
  for (const auto& e : base)
    for (const char* keep : {"PATH=", "LD_LIBRARY_PATH=", "CUDA_HOME=", "CUDA_PATH=", "CXX=", "CC=", "TORCH_CUDA_ARCH_LIST=",
                             "MAX_JOBS=", "CUDAPERF_TORCH_SLIM_HEADERS="})
      if (e.rfind(keep, 0) == 0) env.push_back(e);
  return env;
}

// Whether the unprivileged build user could import torch last time (a machine whose torch lives
// in root's home: then builds run as root without capabilities). Process-wide.
std::atomic<bool> g_build_user_ok{true};

// The build user: CUDAPERF_TORCH_BUILD_USER (a name), else `nobody` (65534 when there is none).
std::pair<uid_t, gid_t> build_user() {
  const char* name = std::getenv("CUDAPERF_TORCH_BUILD_USER");
  if (const passwd* pw = getpwnam(name && *name ? name : "nobody")) return {pw->pw_uid, pw->pw_gid};
  return {65534, 65534};
}

// A regular file (never a link) copied into the cache under a temporary name, then renamed: what a
// confined build left in its folder becomes a cache entry only through the supervisor.
bool install_file(const fs::path& from, const fs::path& to, std::string& why) {
  int in = open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  struct stat st {};
  if (in < 0 || fstat(in, &st) != 0 || !S_ISREG(st.st_mode)) {
    if (in >= 0) close(in);
    why = fmt::format("{} is not a regular file the build wrote", from.string());
    return false;
  }
  std::error_code ec;
  fs::create_directories(to.parent_path(), ec);
  fs::path tmp = to.parent_path() / fmt::format(".{}.{}", to.filename().string(), getpid());
  int out = open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  bool ok = out >= 0;
  char buf[1 << 16];
  ssize_t n;
  while (ok && (n = read(in, buf, sizeof buf)) > 0) ok = ::write(out, buf, static_cast<size_t>(n)) == n;
  close(in);
  if (out >= 0) ok = close(out) == 0 && ok;
  if (ok) fs::rename(tmp, to, ec);
  if (!ok || ec) {
    fs::remove(tmp, ec);
    why = fmt::format("cannot install {} into the cache", to.string());
    return false;
  }
  return true;
}

}  // namespace

BuildOutcome run_build(const TorchRuntime& rt, const std::vector<std::string>& base_env, const fs::path& candidate,
                       const fs::path& cache, double timeout_s, const json& expected, const std::string& salt) {
  BuildOutcome out;
  std::string root_dir = env_or("CUDAPERF_TORCH_BUILD_ROOT", "/tmp");
  std::string tmpl = root_dir + "/cudaperf-build-XXXXXX";
  std::vector<char> tb(tmpl.begin(), tmpl.end());
  tb.push_back(0);
  if (!mkdtemp(tb.data())) {
    out.verdict = Verdict::RuntimeError;
    out.message = "internal: cannot make a build folder under " + root_dir;
    return out;
  }
  fs::path work(tb.data());
  RemoveOnExit cleanup{work};
  std::error_code ec;
  fs::create_directories(work / "tmp", ec);
  fs::copy_file(candidate, work / "candidate.py", ec);
  BuildJail jail;
  jail.work = work.string();
  jail.root = geteuid() == 0;
  if (jail.root) {
    jail.drop_uid = g_build_user_ok.load();
    std::tie(jail.uid, jail.gid) = build_user();
    jail.mounts = remount_points();
  }
  auto attempt = [&](WorkerProcess& b) {
    if (jail.drop_uid)  // the build folder is the build user's (and nothing else is writable for it)
      for (const auto& p : {work, work / "tmp", work / "candidate.py"})
        if (chown(p.c_str(), jail.uid, jail.gid) != 0) return false;
    std::string err;
    auto argv = worker_argv(rt, "build");
    argv.insert(argv.end(), {"--candidate", (work / "candidate.py").string(), "--out", work.string()});
    if (!b.start(argv, build_env(rt, base_env, work), err, &jail)) return false;
    b.wait_exit(Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000)));
    return true;
  };
  auto b0 = Clock::now();
  auto b = std::make_unique<WorkerProcess>();
  if (!attempt(*b)) {
    out.verdict = Verdict::RuntimeError;
    out.message = "internal: cannot start the build worker";
    return out;
  }
  if (jail.drop_uid && b->output.find("cudaperf: torch is not importable") != std::string::npos) {
    g_build_user_ok = false;  // this machine's torch is out of the build user's reach: root, no capabilities
    jail.drop_uid = false;
    b = std::make_unique<WorkerProcess>();
    if (!attempt(*b)) {
      out.verdict = Verdict::RuntimeError;
      out.message = "internal: cannot start the build worker";
      return out;
    }
  }
  auto cp = parse_channel(b->channel, b->overflow, false);
  const json* built = nullptr;
  for (const auto& e : cp.events)
    if (e["event"] == "built") built = &e;
  if (!built) {
    std::string why = b->output_tail(1500);
    for (const auto& e : cp.events)
      if (e["event"] == "fatal") why = e.value("message", "") + (why.empty() ? "" : "\n" + why);
    out.verdict = b->timed_out ? Verdict::Timeout : Verdict::CompileError;
    out.message = fmt::format("the build did not finish ({}): {}", b->describe(), why);
    return out;
  }
  out.build = {{"seconds", since(b0)}, {"extensions", json::array()}, {"confinement", jail.describe()}};
  std::string st = built->value("status", "");
  if (st != "ok") {
    out.verdict = st == "refused" ? Verdict::HackSuspected : Verdict::CompileError;
    out.message = built->value("message", "the extension does not build");
    return out;
  }
  // What the worker reports is control flow only: the extensions are the ones the static check
  // resolved, found where their keys say, installed by the supervisor.
  std::map<std::string, json> reported;
  for (const auto& e : built->value("extensions", json::array()))
    if (e.is_object() && e.contains("key") && e["key"].is_string()) reported[e["key"].get<std::string>()] = e;
  json exts = json::array();
  for (const auto& e : expected) {
    std::string key = e.value("key", ""), module = e.value("module", "");
    std::string why;
    fs::path so = cache / "torch_ext" / key / (module + ".so");
    if (key.empty() || module.empty() ||
        (!fs::is_regular_file(so) && !install_file(work / key / (module + ".so"), so, why))) {
      out.verdict = Verdict::CompileError;
      out.message = "the build left no extension for '" + e["canonical"].value("name", "?") + "'" + (why.empty() ? "" : ": " + why);
      return out;
    }
    json x = {{"name", e["canonical"].value("name", "")}, {"key", key}, {"so", so.string()}, {"cached", false}};
    if (auto it = reported.find(key); it != reported.end())
      for (const char* f : {"seconds", "headers", "slim_failed_s"})
        if (it->second.contains(f) && (it->second[f].is_number() || it->second[f].is_string())) x[f] = it->second[f];
    exts.push_back(x);
  }
  out.build["extensions"] = exts;
  out.build["cache_hits"] = 0;
  out.manifest = {{"extensions", exts}, {"salt", salt}};
  return out;
}

}  // namespace cudaperf::torch2cuda::detail
