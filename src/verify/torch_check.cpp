// torch2cuda: static guards, validation and the supervisor of the Python worker (torch_check.hpp).
#include "cudaperf/verify/torch_check.hpp"

#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <poll.h>
#include <pwd.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"
#include "cudaperf/util/file.hpp"
#include "cudaperf/util/parallel.hpp"
#include "cudaperf/verify/gpu_check.hpp"
#include "cudaperf/verify/verdict.hpp"

extern char** environ;

#ifndef CUDAPERF_PYTHON_DIR
#define CUDAPERF_PYTHON_DIR ""
#endif

namespace cudaperf::verify {

namespace fs = std::filesystem;
using nlohmann::json;
using Clock = std::chrono::steady_clock;

namespace {

std::string env_or(const char* name, const std::string& fallback) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

// ---------------------------------------------------------------- the build's confinement

// How a build worker is confined (issue 24): the candidate's flags reach ninja, which runs its commands
// through /bin/sh, and its sources reach nvcc and the host compiler. Everything here is prepared in the
// parent; the child only makes system calls between fork and exec.
//   root:     own network and mount namespaces; every mount read-only but the build folder (bound on
//             itself); then the uid/gid of `nobody` (the build folder is theirs), or, where that user
//             cannot import torch, root without any capability (it cannot remount or reach the network).
//   not root: a network namespace where the kernel allows one (user namespace), the invoking user.
// In every case: a scrubbed environment, no new privileges, file size and core limits.
struct BuildJail {
  bool root = false, drop_uid = false;
  uid_t uid = 65534;
  gid_t gid = 65534;
  std::string work;                                     // the only writable folder
  std::vector<std::pair<std::string, unsigned long>> mounts;  // mount points to remount read-only, their flags
  std::string describe() const {
    if (!root) return "not root: the invoking user, a network namespace where unprivileged user namespaces are allowed";
    return drop_uid ? fmt::format("uid {} gid {}, network and mount namespaces, every mount read-only but the build folder", uid, gid)
                    : "root without capabilities (the build user cannot import torch), network and mount namespaces, every "
                      "mount read-only but the build folder";
  }
};

// The mount points to remount read-only (all but /proc and /sys), each with its own flags kept.
std::vector<std::pair<std::string, unsigned long>> remount_points() {
  std::vector<std::pair<std::string, unsigned long>> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string id, parent, dev, root, point;
    f >> id >> parent >> dev >> root >> point;
    std::string p;  // mountinfo escapes space, tab, newline and backslash as \ooo
    for (size_t i = 0; i < point.size(); ++i) {
      if (point[i] == '\\' && i + 3 < point.size() && std::isdigit(static_cast<unsigned char>(point[i + 1]))) {
        p += static_cast<char>(std::stoi(point.substr(i + 1, 3), nullptr, 8));
        i += 3;
      } else {
        p += point[i];
      }
    }
    if (p.empty() || p == "/proc" || p.rfind("/proc/", 0) == 0 || p == "/sys" || p.rfind("/sys/", 0) == 0) continue;
    struct statvfs sv {};
    unsigned long flags = 0;
    if (statvfs(p.c_str(), &sv) == 0) {
      if (sv.f_flag & ST_NOSUID) flags |= MS_NOSUID;
      if (sv.f_flag & ST_NODEV) flags |= MS_NODEV;
      if (sv.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
      if (sv.f_flag & ST_NOATIME) flags |= MS_NOATIME;
      if (sv.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    }
    out.emplace_back(p, flags);
  }
  return out;
}

// In the child, between fork and exec (system calls only). Returns a message on a step that must not
// fail (the build then does not run), nullptr when confined.
const char* enter_build_jail(const BuildJail& j) {
  rlimit fsize{8ull << 30, 8ull << 30};
  setrlimit(RLIMIT_FSIZE, &fsize);
  if (j.root) {
    if (unshare(CLONE_NEWNET | CLONE_NEWNS) != 0) return "build jail: unshare(network, mount) failed\n";
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "build jail: cannot make mounts private\n";
    if (mount(j.work.c_str(), j.work.c_str(), nullptr, MS_BIND, nullptr) != 0) return "build jail: cannot bind the build folder\n";
    for (const auto& [point, flags] : j.mounts)
      if (point != j.work)  // best effort per mount (one that refuses stays as it was; the uid drop still applies)
        mount(nullptr, point.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | flags, nullptr);
    if (j.drop_uid) {
      if (setgroups(0, nullptr) != 0 || setresgid(j.gid, j.gid, j.gid) != 0 || setresuid(j.uid, j.uid, j.uid) != 0)
        return "build jail: cannot drop to the build user\n";
    } else {
      for (int cap = 0; cap <= 63; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
      __user_cap_header_struct head{_LINUX_CAPABILITY_VERSION_3, 0};
      __user_cap_data_struct none[2] = {};
      if (syscall(SYS_capset, &head, none) != 0) return "build jail: cannot drop capabilities\n";
    }
  } else if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
    unshare(CLONE_NEWNET);  // (fails without privileges: the reason is in the report)
  }
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  if (chdir(j.work.c_str()) != 0) return "build jail: cannot enter the build folder\n";
  return nullptr;
}

// ---------------------------------------------------------------- one worker process

// A Python worker: stdin (commands), a result channel (its fd 3), stdout+stderr (kept, capped).
struct WorkerProcess {
  pid_t pid = -1;
  int in_fd = -1, chan_fd = -1, out_fd = -1;
  std::string channel, output;
  bool overflow = false, exited = false, timed_out = false;
  int status = 0;
  Clock::time_point t0;

  ~WorkerProcess() { kill_all(); }

  bool start(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string& err,
             const BuildJail* jail = nullptr) {
    int in[2], ch[2], out[2];
    if (pipe2(in, O_CLOEXEC) || pipe2(ch, O_CLOEXEC) || pipe2(out, O_CLOEXEC)) {
      err = "pipe failed";
      return false;
    }
    std::vector<char*> av, ev;
    for (auto& a : argv) av.push_back(const_cast<char*>(a.c_str()));
    av.push_back(nullptr);
    for (auto& e : env) ev.push_back(const_cast<char*>(e.c_str()));
    ev.push_back(nullptr);
    t0 = Clock::now();
    pid = fork();
    if (pid < 0) {
      err = "fork failed";
      return false;
    }
    if (pid == 0) {
      // Only async-signal-safe calls until exec.
      setpgid(0, 0);
      rlimit zero{0, 0};
      setrlimit(RLIMIT_CORE, &zero);
      dup2(in[0], 0);
      dup2(out[1], 1);
      dup2(out[1], 2);
      if (jail) {
        if (const char* why = enter_build_jail(*jail)) {
          ssize_t n = ::write(2, why, std::strlen(why));
          (void)n;
          _exit(126);
        }
      } else {
        unshare(CLONE_NEWNET);  // no network where permitted (the seccomp filter refuses sockets anyway)
      }
      dup2(ch[1], 3);
      for (int fd = 4; fd < 1024; ++fd) close(fd);
      execvpe(av[0], av.data(), ev.data());
      _exit(127);
    }
    close(in[0]);
    close(ch[1]);
    close(out[1]);
    in_fd = in[1];
    chan_fd = ch[0];
    out_fd = out[0];
    return true;
  }

  void write_line(const std::string& s) {
    if (in_fd < 0) return;
    std::string line = s + "\n";
    signal(SIGPIPE, SIG_IGN);
    ssize_t n = ::write(in_fd, line.data(), line.size());
    (void)n;
  }
  void close_stdin() {
    if (in_fd >= 0) close(in_fd);
    in_fd = -1;
  }

  // Reads until pred() holds, the process exits, or the deadline; true when pred() held.
  bool pump(Clock::time_point deadline, const std::function<bool()>& pred) {
    while (true) {
      if (pred && pred()) return true;
      if (finished()) return false;
      auto now = Clock::now();
      if (now >= deadline) {
        if (!exited) {
          timed_out = true;
          kill_all();
        }
        return pred && pred();
      }
      step(static_cast<int>(std::min<long long>(50, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1)));
    }
  }

  // Exited, and both pipes read to their end.
  bool finished() const { return exited && chan_fd < 0 && out_fd < 0; }

  // One round of pump(): what the pipes hold (waiting up to ms for it), then whether the process exited.
  void step(int ms) {
    char buf[65536];
    pollfd p[2];
    int n = 0;
    if (chan_fd >= 0) p[n++] = {chan_fd, POLLIN, 0};
    if (out_fd >= 0) p[n++] = {out_fd, POLLIN, 0};
    if (n > 0 && poll(p, static_cast<nfds_t>(n), ms) > 0) {
      for (int i = 0; i < n; ++i) {
        if (!(p[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
        ssize_t r = read(p[i].fd, buf, sizeof buf);
        bool is_chan = p[i].fd == chan_fd;
        if (r <= 0) {
          close(p[i].fd);
          (is_chan ? chan_fd : out_fd) = -1;
          continue;
        }
        std::string& dst = is_chan ? channel : output;
        size_t cap = is_chan ? kChannelCap : (1 << 16);
        if (dst.size() + static_cast<size_t>(r) > cap) {
          if (is_chan) overflow = true;
          dst.append(buf, std::min(static_cast<size_t>(r), cap - std::min(cap, dst.size())));
        } else {
          dst.append(buf, static_cast<size_t>(r));
        }
      }
    } else if (n == 0 && ms > 0) {
      usleep(5000);
    }
    if (!exited) {
      int st = 0;
      if (waitpid(pid, &st, WNOHANG) == pid) {
        exited = true;
        status = st;
      }
    }
  }

  void wait_exit(Clock::time_point deadline) { pump(deadline, nullptr); }

  void kill_all() {
    if (pid > 0 && !exited) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      int st = 0;
      waitpid(pid, &st, 0);
      exited = true;
      status = st;
    }
    for (int* fd : {&in_fd, &chan_fd, &out_fd})
      if (*fd >= 0) {
        close(*fd);
        *fd = -1;
      }
  }

  int signal_number() const { return exited && WIFSIGNALED(status) ? WTERMSIG(status) : 0; }
  int exit_code() const { return exited && WIFEXITED(status) ? WEXITSTATUS(status) : -1; }
  std::string describe() const {
    if (timed_out) return fmt::format("timed out after {:.1f} s", since(t0));
    if (int s = signal_number()) return fmt::format("killed by signal {} ({})", s, strsignal(s));
    return fmt::format("exit code {}", exit_code());
  }
  std::string output_tail(size_t n = 1500) const { return output.size() > n ? output.substr(output.size() - n) : output; }
  bool has_event(const std::string& ev) const {
    return channel.find("\"event\": \"" + ev + "\"") != std::string::npos ||
           channel.find("\"event\":\"" + ev + "\"") != std::string::npos;
  }
};

std::vector<std::string> worker_env(const TorchRuntime& rt) {
  std::vector<std::string> env;
  std::string pp = rt.python_dir.string();
  if (const char* old = std::getenv("PYTHONPATH"); old && *old) pp += std::string(":") + old;
  env.push_back("PYTHONPATH=" + pp);
  env.push_back("PYTHONDONTWRITEBYTECODE=1");
  env.push_back("PYTHONUNBUFFERED=1");
  for (const char* keep : {"PATH", "HOME", "LD_LIBRARY_PATH", "CUDA_HOME", "CUDA_VISIBLE_DEVICES", "CUDAPERF_NO_SECCOMP",
                           "TMPDIR", "LANG", "CXX", "CC", "TORCH_CUDA_ARCH_LIST", "MAX_JOBS"})
    if (const char* v = std::getenv(keep)) env.push_back(std::string(keep) + "=" + v);
  // torch.compile's on-disk cache beside ours, the same for every worker (prewarm_torch_baselines fills it)
  if (const char* v = std::getenv("TORCHINDUCTOR_CACHE_DIR")) env.push_back(std::string("TORCHINDUCTOR_CACHE_DIR=") + v);
  else env.push_back("TORCHINDUCTOR_CACHE_DIR=" + (compile::default_cache_dir() / "inductor").string());
  // No Inductor compile pool (a process per core, started at the first torch.compile and shut down
  // at exit): the baselines compile from the warm cache, and warm-ups run several tasks side by side.
  if (const char* v = std::getenv("TORCHINDUCTOR_COMPILE_THREADS")) env.push_back(std::string("TORCHINDUCTOR_COMPILE_THREADS=") + v);
  else env.push_back("TORCHINDUCTOR_COMPILE_THREADS=1");
  if (rt.test_mode) {
    env.push_back("CUDAPERF_TORCH_TEST_MODE=1");
    for (char** e = environ; *e; ++e)
      if (std::strncmp(*e, "CUDAPERF_TEST_", 14) == 0) env.push_back(*e);  // scenarios of the fake worker
  }
  return env;
}

std::vector<std::string> worker_argv(const TorchRuntime& rt, const std::string& role) {
  std::vector<std::string> a{rt.python};
  if (rt.worker.empty()) a.insert(a.end(), {"-m", "cudaperf.torch_worker"});
  else a.push_back(rt.worker);
  a.insert(a.end(), {role, "--channel-fd", "3"});
  return a;
}

// A worker started ahead for the next run's reference: torch imported, its role and arguments still
// to come on its stdin (torch_worker "spare"). Process-wide; used by one run at a time.
struct Spare {
  std::mutex mu;
  std::unique_ptr<WorkerProcess> w;
  std::string key;  // the runtime it was started for (interpreter, worker, environment)
};
Spare& spare() {
  static Spare s;
  return s;
}
std::string spare_key(const TorchRuntime& rt, const std::vector<std::string>& env) {
  std::string k = rt.python + "\n" + rt.worker;
  for (const auto& e : env) k += "\n" + e;
  return k;
}
void start_spare(const TorchRuntime& rt, const std::vector<std::string>& env) {
  auto w = std::make_unique<WorkerProcess>();
  std::string err;
  if (!w->start(worker_argv(rt, "spare"), env, err)) return;
  std::lock_guard<std::mutex> lock(spare().mu);
  spare().w = std::move(w);  // an unused older one is killed here
  spare().key = spare_key(rt, env);
}
// The spare, when it was started for this runtime and is still alive; told its role and arguments.
std::unique_ptr<WorkerProcess> take_spare(const TorchRuntime& rt, const std::vector<std::string>& env,
                                          const std::vector<std::string>& argv) {
  std::lock_guard<std::mutex> lock(spare().mu);
  auto w = std::move(spare().w);
  if (!w || spare().key != spare_key(rt, env)) return nullptr;
  w->step(0);  // gone since it started? (reaped here)
  if (w->exited) return nullptr;
  size_t skip = worker_argv(rt, "spare").size() - 3;  // interpreter [and -m module]: the rest is the role's argv
  w->write_line(json{{"argv", std::vector<std::string>(argv.begin() + static_cast<long>(skip), argv.end())}}.dump());
  w->t0 = Clock::now();
  return w;
}

uint64_t fresh_seed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd() ^ static_cast<uint64_t>(Clock::now().time_since_epoch().count());
}

// A private folder for one evaluation's tensors (RAM-backed where possible).
fs::path make_exchange_dir() {
  for (const char* base : {"/dev/shm", "/tmp"}) {
    std::string tmpl = std::string(base) + "/cudaperf-t2c-XXXXXX";
    std::vector<char> b(tmpl.begin(), tmpl.end());
    b.push_back(0);
    if (mkdtemp(b.data())) return fs::path(b.data());
  }
  return {};
}

json plan_configs(const task::TorchTask& t, bool perf_too) {
  json arr = json::array();
  for (const auto& c : t.configs) {
    if (c.perf && !perf_too) continue;
    json g = json::object();
    for (const auto& [k, v] : c.globals) g[k] = json::parse(v, nullptr, false);
    arr.push_back({{"name", c.name}, {"perf", c.perf}, {"globals", g}});
  }
  return arr;
}

}  // namespace

// ---------------------------------------------------------------- runtime, static guards

bool valid_torch_mode(const std::string& mode) { return mode == "strict" || mode == "kernelbench"; }

TorchRuntime torch_runtime() {
  TorchRuntime rt;
  rt.python = env_or("CUDAPERF_PYTHON", "python3");
  rt.python_dir = env_or("CUDAPERF_PYTHON_DIR", CUDAPERF_PYTHON_DIR);
  rt.worker = env_or("CUDAPERF_TORCH_WORKER", "");
  rt.test_mode = env_or("CUDAPERF_TORCH_TEST_MODE", "") == "1";
  std::string lib = env_or("CUDAPERF_CONFINE_LIB", "");
  if (lib.empty()) {
    std::error_code ec;
    fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    for (const fs::path& p : {exe.parent_path() / "libcudaperf_confine.so", exe.parent_path() / "lib" / "libcudaperf_confine.so"})
      if (!ec && fs::is_regular_file(p)) {
        lib = p.string();
        break;
      }
  }
  rt.confine_lib = lib;
  return rt;
}

namespace {
struct TorchProbe {
  bool ok = false;
  std::string why, salt;
};
// `import torch` once per interpreter per process (it takes seconds): whether it works, and the
// toolchain salt of extension cache keys (the same string as torch_worker.toolchain_salt).
const TorchProbe& torch_probe(const TorchRuntime& rt) {
  static std::mutex mu;
  static std::map<std::string, TorchProbe> cache;
  std::lock_guard lock(mu);
  if (auto it = cache.find(rt.python); it != cache.end()) return it->second;
  TorchProbe p;
  auto r = sandbox::run_process({rt.python, "-c",
                                 "import sys, torch; print(f'torch {torch.__version__} cuda {torch.version.cuda} "
                                 "python {sys.version_info[:2]}')"},
                                std::chrono::seconds(120));
  std::string out = r.output;
  while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
  auto nl = out.find_last_of('\n');
  std::string last = out.substr(nl == std::string::npos ? 0 : nl + 1);
  if (r.ok()) {
    p.ok = true;
    p.salt = last;
  } else {
    p.why = fmt::format("torch is not importable by {} ({})", rt.python, r.spawn_failed ? "cannot run it" : last.substr(0, 200));
  }
  return cache.emplace(rt.python, p).first->second;
}
}  // namespace

bool torch_importable(const TorchRuntime& rt, std::string& why) {
  const auto& p = torch_probe(rt);
  if (!p.ok) why = p.why;
  return p.ok;
}

TorchStatic torch_static_check(const fs::path& candidate, const TorchRuntime& rt, const std::string& salt) {
  TorchStatic s;
  std::string py = env_or("CUDAPERF_STATIC_PYTHON", "python3");  // standard library only: any python3
  std::vector<std::string> argv = {py, "-c",
                                   "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_static; "
                                   "sys.exit(torch_static.main(['torch_static', 'candidate'] + sys.argv[2:]))",
                                   rt.python_dir.string(), candidate.string()};
  if (!salt.empty()) argv.push_back(salt);
  auto r = sandbox::run_process(argv, std::chrono::seconds(60), 4 << 20);
  auto j = json::parse(r.output.substr(0, r.output.find_last_of('}') + 1), nullptr, false);
  if (!r.ok() || j.is_discarded() || !j.is_object()) {
    s.error = fmt::format("the static checker did not run ({}): {}", r.describe(), r.output.substr(0, 400));
    return s;
  }
  if (j.contains("syntax_error")) {
    s.syntax_error = true;
    s.error = j["syntax_error"].get<std::string>();
  }
  for (const auto& f : j.value("findings", json::array()))
    s.findings.push_back({f.value("rule", "?"), f.value("line", 0), f.value("message", "")});
  for (const auto& e : j.value("extensions", json::array()))
    if (e.contains("unresolved")) s.unresolved.push_back(fmt::format("line {}: {}", e.value("line", 0), e.value("unresolved", "")));
  for (const auto& k : j.value("kernels", json::array())) s.kernels.push_back(k.get<std::string>());
  s.extensions = j.value("extensions", json::array());
  return s;
}

// ---------------------------------------------------------------- channel

ChannelParse parse_channel(const std::string& bytes, bool overflowed, bool strict) {
  ChannelParse p;
  if (overflowed) p.forged = fmt::format("rule result_channel: more than {} bytes on the result channel", kChannelCap);
  static const std::set<std::string> kEvents = {"ready", "built", "done", "fatal", "sandbox", "result", "measured",
                                                "baseline", "validate", "initialized"};
  std::istringstream in(bytes);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    auto j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("event") || !j["event"].is_string() ||
        !kEvents.count(j["event"].get<std::string>())) {
      if (strict && p.forged.empty()) p.forged = fmt::format("rule result_channel: line {} is not a harness message", n);
      continue;
    }
    std::string ev = j["event"];
    // A candidate worker only launches (torch_launch.py): it says initialized, sandbox, done or fatal.
    // Anything else on its channel (a result, a measurement) is a forgery attempt.
    if (strict && ev != "sandbox" && ev != "done" && ev != "fatal" && ev != "initialized" && p.forged.empty())
      p.forged = fmt::format("rule result_channel: event '{}' does not come from a candidate worker (line {})", ev, n);
    p.events.push_back(std::move(j));
  }
  return p;
}

// ---------------------------------------------------------------- validation

std::vector<TorchTaskCheck> check_torch_tasks(const fs::path& root, const TorchCheckOptions& o) {
  std::vector<TorchTaskCheck> out;
  auto dirs = task::find_task_dirs(root, task::TaskKind::Torch2Cuda);
  out.resize(dirs.size());
  std::map<std::string, fs::path> ids;
  for (size_t i = 0; i < dirs.size(); ++i) {
    auto& tc = out[i];
    tc.dir = dirs[i];
    auto r = task::load_torch_task(dirs[i]);
    if (r) tc.task = r.value();
    else tc.problems = r.errors();
    if (tc.task) {
      auto [it, fresh] = ids.emplace(tc.task->id, tc.dir);
      if (!fresh) tc.problems.push_back({(tc.dir / "task.toml").string(), 0, 0, fmt::format("id '{}' is also used by {}", tc.task->id, it->second.string())});
      std::map<std::string, std::string> seen;
      for (const auto& im : tc.task->impls) {
        std::string src = read_file(im.path).value_or("");
        auto [hit, fresh_src] = seen.emplace(src, im.strategy);
        if (!fresh_src) tc.problems.push_back({im.path.string(), 0, 0, fmt::format("identical to impls/{}.py: strategies must be distinct", hit->second)});
      }
    }
  }
  if (out.empty()) return out;
  TorchRuntime rt = torch_runtime();
  // CPU side, standard library only: reference.py names, config keys, every impl's static guards.
  json req = {{"tasks", json::array()}};
  std::vector<size_t> idx;
  for (size_t i = 0; i < out.size(); ++i) {
    if (!out[i].task) {
      // a folder whose task.toml did not load: still check reference.py when present
      continue;
    }
    const auto& t = *out[i].task;
    json keys = json::array();
    std::set<std::string> ks;
    for (const auto& c : t.configs)
      for (const auto& [k, v] : c.globals)
        if (ks.insert(k).second) keys.push_back(k);
    json impls = json::object();
    for (const auto& im : t.impls) impls[im.strategy] = im.path.string();
    req["tasks"].push_back({{"dir", t.dir.string()}, {"reference", t.reference.string()}, {"config_keys", keys}, {"impls", impls}});
    idx.push_back(i);
  }
  if (!idx.empty()) {
    char tmpl[] = "/tmp/cudaperf-t2c-req-XXXXXX";
    int fd = mkstemp(tmpl);
    if (fd >= 0) {
      std::string text = req.dump();
      ssize_t w = ::write(fd, text.data(), text.size());
      (void)w;
      close(fd);
      std::string py = env_or("CUDAPERF_STATIC_PYTHON", "python3");
      auto r = sandbox::run_process({py, "-c",
                                     "import sys; sys.path.insert(0, sys.argv[1]); from cudaperf import torch_static; "
                                     "sys.exit(torch_static.main(['torch_static', 'tasks', sys.argv[2]]))",
                                     rt.python_dir.string(), tmpl},
                                    std::chrono::seconds(300), 16 << 20);
      fs::remove(tmpl);
      auto j = json::parse(r.output.substr(0, r.output.find_last_of('}') + 1), nullptr, false);
      if (!r.ok() || j.is_discarded()) {
        for (size_t i : idx)
          out[i].problems.push_back({out[i].dir.string(), 0, 0, fmt::format("the static checker did not run ({}): {}", r.describe(), r.output.substr(0, 300))});
      } else {
        const auto& arr = j["tasks"];
        for (size_t k = 0; k < idx.size() && k < arr.size(); ++k) {
          auto& tc = out[idx[k]];
          for (const auto& p : arr[k].value("reference", json::array())) tc.problems.push_back({"", 0, 0, p.get<std::string>()});
          for (auto& [name, ps] : arr[k]["impls"].items())
            for (const auto& p : ps) tc.problems.push_back({"", 0, 0, p.get<std::string>()});
        }
      }
    }
  }
  // The reference twice per config (deterministic, finite) and the null battery, with torch.
  std::string why;
  bool have_torch = o.battery && torch_importable(rt, why);
  if (!o.battery) why = "not requested";
  bool have_gpu = false;
  if (have_torch && !rt.test_mode) describe_gpu(have_gpu);
  std::string device = have_gpu ? "cuda" : "cpu";
  parallel_for(out.size(), have_gpu ? 1 : (o.jobs ? o.jobs : default_jobs()), [&](size_t i) {
    auto& tc = out[i];
    if (!tc.task) return;
    if (!have_torch) {
      tc.battery = "skipped: " + why;
      return;
    }
    bool small = std::any_of(tc.task->configs.begin(), tc.task->configs.end(), [](const task::TorchConfig& c) { return !c.perf; });
    if (!small) {
      tc.battery = "skipped: no non-perf config (the battery runs at small sizes)";
      return;
    }
    bool static_ok = std::none_of(tc.problems.begin(), tc.problems.end(), [](const Diagnostic& d) { return d.message.find("reference.py") != std::string::npos; });
    if (!static_ok) {
      tc.battery = "skipped: reference.py has problems";
      return;
    }
    fs::path x = make_exchange_dir();
    json plan = {{"mode", "validate"}, {"eval_mode", o.mode}, {"reference", fs::absolute(tc.task->reference).string()}, {"rtol", tc.task->rtol},
                 {"atol", tc.task->atol}, {"deterministic", tc.task->deterministic}, {"input_dist", tc.task->input_dist},
                 {"configs", plan_configs(*tc.task, false)}, {"device", device}, {"trials", 2}, {"xdir", x.string()}};
    std::ofstream(x / "plan.json") << plan.dump();
    WorkerProcess w;
    std::string err;
    auto argv = worker_argv(rt, "reference");
    argv.insert(argv.end(), {"--plan", (x / "plan.json").string()});
    if (!w.start(argv, worker_env(rt), err)) {
      tc.problems.push_back({tc.dir.string(), 0, 0, "cannot start the torch worker: " + err});
    } else {
      w.write_line(R"({"seed": 1592700966})");
      w.wait_exit(Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.reference_timeout_s * 1000)));
      auto cp = parse_channel(w.channel, w.overflow, false);
      bool got = false;
      for (const auto& e : cp.events) {
        if (e["event"] == "fatal")
          tc.problems.push_back({tc.task->reference.string(), 0, 0, e.value("message", "reference failed")});
        if (e["event"] != "validate") continue;
        got = true;
        for (const auto& p : e["problems"]) tc.problems.push_back({tc.task->reference.string(), 0, 0, p.get<std::string>()});
        for (auto& [name, r] : e["nulls"].items()) {
          tc.nulls[name] = {r.value("rejected", 0), r.value("tested", 0)};
          if (r.value("tested", 0) > 0 && r.value("rejected", 0) == 0)
            tc.problems.push_back({tc.task->reference.string(), 0, 0,
                                   fmt::format("null-solution battery ({} mode): '{}' passes every non-perf config within the "
                                               "task's tolerance{}: a degenerate problem (a trivial answer would be rewarded; "
                                               "fix its inputs or outputs, or leave it out)", o.mode, name,
                                               o.mode == "strict" ? ", even on the hidden input families" : "")});
        }
      }
      if (!got && tc.problems.empty())
        tc.problems.push_back({tc.task->reference.string(), 0, 0, fmt::format("the reference worker did not finish ({}): {}", w.describe(), w.output_tail(600))});
      tc.battery = got ? "run" : "failed";
    }
    std::error_code ec;
    fs::remove_all(x, ec);
  });
  return out;
}

// ---------------------------------------------------------------- evaluation

json TorchEvalReport::to_json() const {
  // A candidate that passed the CPU-side checks but never ran has no verdict yet: "pending_gpu" and no
  // tier (the name the refinement loop uses), never "ok" with the tier of a correct candidate.
  const bool pending = !base.gpu_stages_run && base.verdict == Verdict::Ok;
  json j = {{"kind", "torch2cuda"},
            {"task", base.task_id},
            {"candidate", base.candidate},
            {"verdict", pending ? "pending_gpu" : verdict_name(base.verdict)},
            {"tier", pending ? json(nullptr) : json(verdict_tier(base.verdict))},
            {"complete", base.gpu_stages_run || base.verdict != Verdict::Ok},
            {"message", base.message},
            {"gpu_stages", base.gpu_stages_run ? "run" : "skipped"},
            {"device", base.device},
            {"mode", mode},
            {"hidden", hidden},
            {"sandbox", sandbox},
            {"build", build},
            {"stages", stages}};
  j["findings"] = json::array();
  for (const auto& f : findings) j["findings"].push_back({{"rule", f.rule}, {"line", f.line}, {"message", f.message}});
  j["configs"] = json::array();
  for (const auto& c : base.configs) {
    json x = {{"config", c.config}, {"perf", c.perf}, {"status", c.status}, {"message", c.message},
              {"median_ms", c.median_ms}, {"min_ms", c.min_ms}, {"q1_ms", c.q1_ms}, {"q3_ms", c.q3_ms},
              {"rel_stdev", c.rel_stdev}, {"samples", c.samples}, {"timed_calls", c.timed_calls}};
    if (c.perf) {
      x["discarded"] = c.discarded;
      if (c.sm_clock_mhz > 0) x["sm_clock_mhz"] = c.sm_clock_mhz;
    }
    if (auto it = eager_ms.find(c.config); it != eager_ms.end()) x["eager_ms"] = it->second;
    if (auto it = compile_ms.find(c.config); it != compile_ms.end()) x["compile_ms"] = it->second;
    if (auto it = baseline_errors.find(c.config); it != baseline_errors.end()) x["baseline_error"] = it->second;
    j["configs"].push_back(x);
  }
  if (speedup_vs_eager) j["speedup_vs_eager"] = *speedup_vs_eager;
  if (speedup_vs_compile) j["speedup_vs_compile"] = *speedup_vs_compile;
  return j;
}

namespace {

void set_verdict(TorchEvalReport& r, Verdict v, std::string msg) {
  r.base.verdict = v;
  r.base.message = std::move(msg);
}

// The status of the config the candidate worker was in when it ended, from how it ended.
std::pair<std::string, std::string> ended_status(const WorkerProcess& w, double call_timeout_s) {
  int sig = w.signal_number();
  if (sig == SIGALRM)
    return {"timeout", fmt::format("one call did not return within {:.0f} s (per-call watchdog; worker killed)", std::max(1.0, std::ceil(call_timeout_s)))};
  if (w.timed_out) return {"timeout", fmt::format("the candidate worker {}", w.describe())};
  if (sig == sandbox::forbidden_call_signal())
    return {"hack_suspected", "rule sandbox: a forbidden system call (network, processes, namespaces, ptrace or signals to others): worker killed by SIGSYS"};
  if (sig == SIGXFSZ) return {"hack_suspected", "rule sandbox: tried to write a file: worker killed by SIGXFSZ"};
  if (sig != 0) return {"runtime_error", fmt::format("the candidate worker crashed: {}; {}", w.describe(), w.output_tail(400))};
  return {"hack_suspected", fmt::format("rule result_channel: the worker ended on its own ({}) without finishing", w.describe())};
}

// The manifest entries of a candidate whose extensions are all in the cache already (keys from the
// static check run with the toolchain salt); nullopt when any is missing or the salt is unknown.
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

struct BuildOutcome {
  Verdict verdict = Verdict::Ok;
  std::string message;
  json build = json::object();     // seconds, extensions, cache_hits
  json manifest = json::object();  // what the candidate worker loads
};

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

// The build worker: the candidate's load_inline extensions, built confined (BuildJail) into a folder of
// its own, without running the candidate's Python; the supervisor then installs the extensions it
// expects (their keys from the static check, never from the worker) into the cache.
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
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{work};
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

}  // namespace

TorchEvalReport evaluate_torch_candidate(const task::TorchTask& t, const fs::path& candidate, const TorchEvalOptions& o) {
  return evaluate_torch_candidates(t, {candidate}, o).front();
}

namespace {

// The report of one candidate from its worker's run and the reference's comparisons (speedups are
// added once the baselines are in).
// The report of one candidate: every number and status comes from the reference's "result" events
// (the trusted measurer, torch_measure.py); the candidate's own channel is control flow only, and
// anything on it that is not a launcher's event is a forgery attempt.
void judge_candidate(TorchEvalReport& r, const task::TorchTask& t, const TorchEvalOptions& o, const WorkerProcess& cw,
                     const ChannelParse& cp, const std::vector<json>& ref_events, const WorkerProcess& ref) {
  std::map<std::string, json> res;
  std::string worker_fatal;
  for (const auto& e : cp.events) {
    std::string ev = e["event"];
    if (ev == "sandbox") r.sandbox = e.value("status", "");
    else if (ev == "fatal") worker_fatal = e.value("message", "");
  }
  for (const auto& e : ref_events)
    if (e["event"] == "result") res[e.value("config", "")] = e;
  if (!cp.forged.empty()) {
    set_verdict(r, Verdict::HackSuspected, cp.forged);
    return;
  }
  for (const auto& c : t.configs) {
    ConfigResult cr;
    cr.config = c.name;
    cr.perf = c.perf;
    auto it = res.find(c.name);
    if (it == res.end()) {
      cr.status = "runtime_error";
      cr.message = !worker_fatal.empty() ? "internal: the candidate worker failed: " + worker_fatal
                                         : fmt::format("internal: the reference did not measure this config ({}): {}",
                                                       ref.describe(), ref.output_tail(400));
      r.base.configs.push_back(cr);
      continue;
    }
    const json& e = it->second;
    cr.status = e.value("status", "runtime_error");
    cr.message = e.value("message", "");
    if (cr.status == "timeout" || cr.status == "ended") {
      // how the candidate's process ended says what happened (watchdog, forbidden call, crash)
      auto [st, msg] = cw.exited ? ended_status(cw, o.call_timeout_s)
                                 : std::pair<std::string, std::string>{"timeout", cr.message};
      if (cr.status == "timeout" && st == "hack_suspected" && !cw.timed_out && cw.signal_number() == 0) st = "timeout";
      cr.status = st;
      cr.message = msg + (cr.message.empty() ? "" : " (" + cr.message + ")");
    } else if (cr.status == "internal") {
      cr.status = "runtime_error";
      cr.message = "internal: " + cr.message;
    }
    if (e.contains("median_ms") && e["median_ms"].is_number()) {
      cr.median_ms = e.value("median_ms", -1.0);
      cr.min_ms = e.value("min_ms", -1.0);
      cr.q1_ms = e.value("q1_ms", -1.0);
      cr.q3_ms = e.value("q3_ms", -1.0);
      cr.rel_stdev = e.value("rel_stdev", -1.0);
      cr.samples = e.value("samples", 0);
      cr.timed_calls = e.value("timed_calls", 0);
      cr.discarded = e.value("discarded", 0);
    }
    Verdict v;
    if (cr.status != "ok" && cr.status != "not_run" && !parse_verdict(cr.status, v)) {
      cr.message = fmt::format("internal: unknown status '{}' from the reference: {}", cr.status, cr.message);
      cr.status = "runtime_error";
    }
    r.base.configs.push_back(cr);
  }
  // Verdict: a hack anywhere wins; otherwise the first config that failed.
  r.base.verdict = Verdict::Ok;
  for (int pass = 0; pass < 2 && r.base.verdict == Verdict::Ok; ++pass)
    for (const auto& c : r.base.configs) {
      if (c.status == "ok" || c.status == "not_run") continue;
      if (pass == 0 && c.status != "hack_suspected") continue;
      Verdict v = Verdict::RuntimeError;
      parse_verdict(c.status, v);
      set_verdict(r, v, fmt::format("config '{}': {}", c.config, c.message));
      break;
    }
  if (r.base.verdict == Verdict::Ok &&
      std::any_of(r.base.configs.begin(), r.base.configs.end(), [](const ConfigResult& c) { return c.status != "ok"; }))
    set_verdict(r, Verdict::RuntimeError, "the candidate did not run every configuration");
  if (r.base.verdict == Verdict::Ok) r.base.message = "correct on every configuration";
}

// Speedups (geometric mean over perf configs) once the baselines of the run are known.
void add_speedups(TorchEvalReport& r) {
  if (r.base.verdict != Verdict::Ok) return;
  double log_e = 0, log_c = 0;
  int n_e = 0, n_c = 0;
  for (const auto& c : r.base.configs) {
    if (c.status != "ok" || !c.perf || c.median_ms <= 0) continue;
    if (auto b = r.eager_ms.find(c.config); b != r.eager_ms.end() && b->second > 0) log_e += std::log(b->second / c.median_ms), ++n_e;
    if (auto b = r.compile_ms.find(c.config); b != r.compile_ms.end() && b->second > 0) log_c += std::log(b->second / c.median_ms), ++n_c;
  }
  if (n_e) r.speedup_vs_eager = std::exp(log_e / n_e);
  if (n_c) r.speedup_vs_compile = std::exp(log_c / n_c);
}

size_t count_events(const WorkerProcess& w, const std::string& ev) {
  size_t n = 0;
  for (const auto& e : parse_channel(w.channel, w.overflow, false).events) n += e["event"] == ev;
  return n;
}

// How many candidate workers are initialised side by side: CUDAPERF_TORCH_INIT_AHEAD (>= 1), else
// half the cores, at most 8 (a worker's CUDA context, timer and profiler take ~5.7 s on the H200,
// mostly waiting on the driver).
size_t init_ahead() {
  if (const char* v = std::getenv("CUDAPERF_TORCH_INIT_AHEAD"); v && *v) {
    char* end = nullptr;
    long d = std::strtol(v, &end, 10);
    if (*end == 0 && d >= 1) return static_cast<size_t>(d);
  }
  return std::min<size_t>(8, std::max<size_t>(1, std::thread::hardware_concurrency() / 2));
}

// Sends "init" to every worker at once and reads them all until each has said "initialized", has
// ended, or the deadline passed (then it is killed): the seconds each took, -1 where it did not.
std::vector<double> init_workers(const std::vector<WorkerProcess*>& ws, Clock::time_point deadline) {
  auto t0 = Clock::now();
  std::vector<double> secs(ws.size(), -1);
  for (auto* w : ws) w->write_line("init");
  while (true) {
    bool waiting = false;
    for (size_t i = 0; i < ws.size(); ++i) {
      if (secs[i] >= 0 || ws[i]->exited) continue;
      ws[i]->step(0);
      if (ws[i]->has_event("initialized")) secs[i] = since(t0);
      else waiting = waiting || !ws[i]->exited;
    }
    if (!waiting) return secs;
    if (Clock::now() >= deadline) {
      for (size_t i = 0; i < ws.size(); ++i)
        if (secs[i] < 0 && !ws[i]->exited) {
          ws[i]->timed_out = true;
          ws[i]->kill_all();
        }
      return secs;
    }
    usleep(5000);
  }
}

}  // namespace

std::vector<TorchEvalReport> evaluate_torch_candidates(const task::TorchTask& t, const std::vector<fs::path>& candidates,
                                                       const TorchEvalOptions& o) {
  const size_t n = candidates.size();
  std::vector<TorchEvalReport> reps(n);
  TorchRuntime rt = torch_runtime();
  // The interpreter's torch, probed once per process: the salt finds cached extension builds.
  std::string salt;
  if (!rt.test_mode && rt.worker.empty())
    if (const auto& p = torch_probe(rt); p.ok) salt = p.salt;
  // 1. Static guards (any machine, no torch), each candidate.
  std::vector<TorchStatic> sts(n);
  std::vector<bool> live(n, true);
  for (size_t k = 0; k < n; ++k) {
    auto& r = reps[k];
    r.base.task_id = t.id;
    r.base.candidate = candidates[k].string();
    r.mode = o.mode;
    if (rt.test_mode) continue;
    auto t0 = Clock::now();
    auto& st = sts[k] = torch_static_check(candidates[k], rt, salt);
    r.stages["static_s"] = since(t0);
    live[k] = false;
    if (st.syntax_error) set_verdict(r, Verdict::CompileError, st.error);
    else if (!st.error.empty()) set_verdict(r, Verdict::RuntimeError, "internal: " + st.error);
    else if (!st.findings.empty()) {
      r.findings = st.findings;
      std::string msg;
      for (const auto& f : st.findings) msg += fmt::format("{}rule {} (line {}): {}", msg.empty() ? "" : "\n", f.rule, f.line, f.message);
      set_verdict(r, Verdict::HackSuspected, msg);
    } else if (!st.unresolved.empty()) {
      set_verdict(r, Verdict::CompileError, "load_inline cannot be built ahead of the run (sources, names and flags must be module-level constants): " + st.unresolved.front());
    } else {
      live[k] = true;
    }
  }
  // 2. Where it runs.
  bool have_gpu = false;
  std::string device = "cpu", where;
  if (rt.test_mode) {
    where = "cpu (test mode: pure-torch candidates, own-kernel guard off)";
  } else {
    where = o.run_gpu ? describe_gpu(have_gpu) : "GPU stages not requested (--no-gpu)";
    device = "cuda";
  }
  for (auto& r : reps) r.base.device = where;
  auto skip_all = [&](const std::string& msg) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) reps[k].base.message = msg;
    return reps;
  };
  if (!rt.test_mode && !have_gpu) return skip_all(fmt::format("passed the static guards; GPU stages skipped: {}", where));
  std::string why;
  if (rt.worker.empty() && !torch_importable(rt, why))
    return skip_all(fmt::format("passed the static guards; GPU stages skipped: {} (set CUDAPERF_PYTHON)", why));
  if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) return reps;
  fs::path x = make_exchange_dir();
  if (x.empty()) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) set_verdict(reps[k], Verdict::RuntimeError, "internal: no exchange folder");
    return reps;
  }
  struct Cleanup {
    fs::path p;
    ~Cleanup() {
      std::error_code ec;
      fs::remove_all(p, ec);
    }
  } cleanup{x};
  auto env = worker_env(rt);
  fs::path cache = compile::default_cache_dir();
  // 3. Build (cached per content hash), before and outside the confined run. The candidates that
  //    miss the cache build side by side, one build worker each, the cores shared among them.
  std::vector<std::optional<json>> hit(n);
  std::vector<size_t> todo;
  for (size_t k = 0; k < n; ++k) {
    if (!live[k] || rt.test_mode) continue;
    // Every extension already in the cache (the keys came with the static check): no build worker.
    hit[k] = cached_extensions(sts[k], salt, cache);
    if (!hit[k]) todo.push_back(k);
  }
  std::vector<BuildOutcome> built(n);
  std::vector<double> build_s(n, 0.0);
  if (!todo.empty()) {
    auto benv = with_build_jobs(env, todo.size());
    parallel_for(todo.size(), std::min<unsigned>(static_cast<unsigned>(todo.size()), default_jobs()), [&](size_t j) {
      auto t0 = Clock::now();
      built[todo[j]] = run_build(rt, benv, candidates[todo[j]], cache, o.build_timeout_s, sts[todo[j]].extensions, salt);
      build_s[todo[j]] = since(t0);
    });
  }
  for (size_t k = 0; k < n; ++k) {
    if (!live[k]) continue;
    auto& r = reps[k];
    json manifest = {{"extensions", json::array()}, {"salt", ""}};
    if (!rt.test_mode) {
      if (hit[k]) {
        r.build = {{"seconds", 0.0}, {"extensions", *hit[k]}, {"cache_hits", hit[k]->size()}, {"worker", false}};
        manifest = {{"extensions", *hit[k]}, {"salt", salt}};
      } else {
        auto& b = built[k];
        r.build = b.build;
        r.stages["build_s"] = build_s[k];
        if (todo.size() > 1) r.stages["builds_side_by_side"] = todo.size();
        if (b.verdict != Verdict::Ok) {
          set_verdict(r, b.verdict, b.message);
          live[k] = false;
          continue;
        }
        manifest = b.manifest;
      }
    }
    std::ofstream(x / fmt::format("manifest-{}.json", k)) << manifest.dump();
    if (!r.stages.contains("build_s")) r.stages["build_s"] = 0.0;
  }
  if (std::none_of(live.begin(), live.end(), [](bool b) { return b; })) return reps;
  // 4. Reference: inputs from the secret seed, expected outputs kept in its memory; shared by every
  //    candidate of this call (one set of inputs, as in one C-to-CUDA GPU run).
  auto ref0 = Clock::now();
  json plan = {{"reference", fs::absolute(t.reference).string()}, {"rtol", t.rtol}, {"atol", t.atol}, {"eval_mode", o.mode},
               {"deterministic", t.deterministic}, {"input_dist", t.input_dist}, {"configs", plan_configs(t, true)},
               {"device", device}, {"trials", o.trials}, {"xdir", x.string()}, {"baselines", o.baselines},
               {"call_timeout_s", o.call_timeout_s}, {"test_mode", rt.test_mode},
               {"timing", {{"min_samples", o.timing.min_samples}, {"max_samples", o.timing.max_samples},
                           {"target_rel_stdev", o.timing.target_rel_stdev}, {"budget_s", o.timing.budget_s}}}};
  std::ofstream(x / "plan.json") << plan.dump();
  auto fail_live = [&](Verdict v, const std::string& msg) {
    for (size_t k = 0; k < n; ++k)
      if (live[k]) set_verdict(reps[k], v, msg);
    return reps;
  };
  std::string err;
  auto rargv = worker_argv(rt, "reference");
  rargv.insert(rargv.end(), {"--plan", (x / "plan.json").string()});
  auto refp = take_spare(rt, env, rargv);  // torch already imported there, when a spare was kept
  const bool from_spare = refp != nullptr;
  if (!refp) {
    refp = std::make_unique<WorkerProcess>();
    if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot start the reference worker: " + err);
  }
  // Candidate workers are started ahead (Python and torch imports take seconds), a batch of D at a
  // time (init_ahead()), and wait on their stdin before they read their plan or touch the GPU: the
  // first batch imports while the reference draws its inputs, each next one while the previous
  // batch runs. Then (step 5) the batch gets "init" all at once — plan, CUDA context, timer,
  // profiler, side by side while no candidate runs — and "go" one worker at a time.
  std::vector<size_t> order;  // the live candidates, in turn
  for (size_t k = 0; k < n; ++k)
    if (live[k]) order.push_back(k);
  const size_t batch_n = std::min(order.size(), init_ahead());
  auto spawn = [&](size_t k) {
    auto w = std::make_unique<WorkerProcess>();
    auto cargv = worker_argv(rt, "candidate");
    cargv.insert(cargv.end(), {"--plan", (x / fmt::format("cplan-{}.json", k)).string(), "--candidate", fs::absolute(candidates[k]).string(),
                               "--manifest", (x / fmt::format("manifest-{}.json", k)).string(), "--wait-for-go"});
    std::string e;
    if (!w->start(cargv, env, e)) w.reset();
    return w;
  };
  std::vector<std::unique_ptr<WorkerProcess>> workers(n);  // started ahead, by candidate; unused ones are killed
  for (size_t j = 0; j < batch_n; ++j) workers[order[j]] = spawn(order[j]);
  const std::string seed_line = json{{"seed", o.seed ? o.seed : fresh_seed()}}.dump();  // never on a command line
  auto ref_deadline = [&] { return Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.reference_timeout_s * 1000)); };
  // A candidate worker's init (CUDA context, timer, profiler) takes ~6 s on the H200; a hung one is
  // killed after this (and replaced once), not after the reference's much longer limit.
  auto init_deadline = [&] { return Clock::now() + std::chrono::seconds(120); };
  auto until_ready = [&](WorkerProcess& w) {
    w.write_line(seed_line);
    w.pump(ref_deadline(), [&] { return w.has_event("ready") || w.has_event("fatal"); });
  };
  until_ready(*refp);
  if (from_spare && !refp->has_event("ready") && !refp->has_event("fatal")) {
    // The spare died before it got ready (killed, or broken since it started): once more, fresh.
    refp = std::make_unique<WorkerProcess>();
    if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot start the reference worker: " + err);
    until_ready(*refp);
  }
  json ready;
  WorkerProcess& ref0_ = *refp;
  for (const auto& e : parse_channel(ref0_.channel, ref0_.overflow, false).events) {
    if (e["event"] == "ready") ready = e;
    if (e["event"] == "fatal")
      return fail_live(Verdict::RuntimeError, "the task's reference failed (a dataset problem, not the candidate's): " + e.value("message", ""));
  }
  if (ready.is_null())
    return fail_live(Verdict::RuntimeError, fmt::format("the task's reference worker did not get ready ({}): {}", ref0_.describe(), ref0_.output_tail(800)));
  double ref_s = since(ref0);
  for (auto& r : reps)
    if (ready.contains("hidden") && ready["hidden"].is_object()) r.hidden = ready["hidden"];
  // 5. Each candidate in turn: confined, sees inputs and weights only; then the reference compares.
  json cplan = plan;
  cplan["ready"] = json::array();
  for (const auto& c : ready["configs"]) cplan["ready"].push_back({{"index", c["index"]}, {"config", c["config"]}});
  cplan["confine_lib"] = rt.confine_lib.string();
  for (size_t k : order) {  // the plans differ only in their FIFOs to the reference; read at "init"
    cplan["cmd_fifo"] = (x / fmt::format("cmd-{}", k)).string();
    cplan["rep_fifo"] = (x / fmt::format("rep-{}", k)).string();
    mkfifo(cplan["cmd_fifo"].get<std::string>().c_str(), 0600);
    mkfifo(cplan["rep_fifo"].get<std::string>().c_str(), 0600);
    std::ofstream(x / fmt::format("cplan-{}.json", k)) << cplan.dump();
  }
  // Starts the workers of `ks` not started yet and gives them all "init" at once (init_workers).
  auto init_batch = [&](const std::vector<size_t>& ks) {
    std::vector<size_t> got;
    std::vector<WorkerProcess*> ws;
    for (size_t k : ks) {
      if (!workers[k]) workers[k] = spawn(k);
      if (workers[k]) {
        got.push_back(k);
        ws.push_back(workers[k].get());
      }
    }
    auto secs = init_workers(ws, init_deadline());
    for (size_t i = 0; i < got.size(); ++i)
      if (secs[i] >= 0) {
        reps[got[i]].stages["candidate_init_s"] = secs[i];
        reps[got[i]].stages["candidate_init_batch"] = ws.size();
      }
  };
  size_t measured_n = 0;
  for (size_t j = 0; j < order.size(); ++j) {
    const size_t k = order[j];
    if (j % batch_n == 0) {
      // A new batch: its workers (started ahead) get "init" all at once while no candidate runs,
      // and the next batch's workers start importing (CPU only) while this one runs.
      init_batch(std::vector<size_t>(order.begin() + static_cast<long>(j),
                                     order.begin() + static_cast<long>(std::min(order.size(), j + batch_n))));
      for (size_t i = j + batch_n; i < std::min(order.size(), j + 2 * batch_n); ++i) workers[order[i]] = spawn(order[i]);
    }
    auto& r = reps[k];
    r.base.gpu_stages_run = true;
    r.stages["reference_s"] = ref_s;
    if (ready.contains("stages") && ready["stages"].is_object())  // the reference's own breakdown
      for (const auto& [key, v] : ready["stages"].items())
        if (v.is_number()) r.stages["reference_" + key] = v;
    if (n > 1) r.stages["reference_shared_by"] = std::count(live.begin(), live.end(), true);
    if (workers[k]) workers[k]->step(0);  // anything new since its "initialized": did it end while it waited?
    if (!workers[k] || workers[k]->exited || !workers[k]->has_event("initialized")) {
      // Not started, or it ended or hung before "go" (no candidate code had run in it): once more,
      // fresh and alone (no candidate runs now).
      r.stages.erase("candidate_init_s");
      r.stages.erase("candidate_init_batch");
      r.stages["candidate_init_retry"] = 1;
      workers[k].reset();
      init_batch({k});
    }
    auto cwp = std::move(workers[k]);
    if (!cwp) {
      set_verdict(r, Verdict::RuntimeError, "internal: cannot start the candidate worker");
      continue;
    }
    WorkerProcess& cw = *cwp;
    if (cw.exited || !cw.has_event("initialized")) {
      cw.wait_exit(Clock::now() + std::chrono::seconds(1));  // the rest of its output, for the message
      set_verdict(r, Verdict::RuntimeError,
                  fmt::format("internal: the candidate worker did not initialise, twice, before any candidate code ran ({}): {}",
                              cw.describe(), cw.output_tail(400)));
      continue;
    }
    auto c0 = Clock::now();
    cw.write_line("go");
    // 6. The reference measures it through its FIFOs ("run K CMD REP"); both processes are read
    //    meanwhile (a candidate that fills its output pipe must not stall), until "measured K".
    WorkerProcess& ref = *refp;
    ref.write_line(fmt::format("run {} {} {}", k, (x / fmt::format("cmd-{}", k)).string(), (x / fmt::format("rep-{}", k)).string()));
    auto deadline = Clock::now() + std::chrono::milliseconds(static_cast<long long>(o.impl_timeout_s * 1000));
    auto measured = [&] { return count_events(ref, "measured") > measured_n || ref.has_event("fatal"); };
    while (!measured() && !ref.finished() && Clock::now() < deadline) {
      ref.step(10);
      cw.step(0);
    }
    bool got = measured();
    ++measured_n;
    cw.close_stdin();
    cw.wait_exit(Clock::now() + std::chrono::seconds(got ? 5 : 0));  // it ends at "exit"; else it is killed
    cw.kill_all();
    auto cp = parse_channel(cw.channel, cw.overflow, true);
    r.stages["candidate_s"] = since(c0);
    for (const auto& e : cp.events)  // the worker's own breakdown: diagnostics only, under its own prefix
      if (e["event"] == "done" && e.contains("stages") && e["stages"].is_object())
        for (const auto& [key, v] : e["stages"].items())
          if (v.is_number() && key.size() < 32) r.stages["candidate_worker_" + key] = v;
    std::vector<json> mine;
    bool usable = false;  // only the reference's own "measured" line says it can go on
    std::set<std::string> have;
    for (const auto& e : parse_channel(ref.channel, ref.overflow, false).events)
      if (e.value("candidate", -1) == static_cast<int>(k)) {
        mine.push_back(e);
        if (e["event"] == "measured") usable = e.value("usable", false);
        if (e["event"] == "result") have.insert(e.value("config", ""));
      }
    if (!got)  // the whole run outlasted its limit (the reference is left waiting on the candidate)
      for (const auto& c : t.configs)
        if (!have.count(c.name))
          mine.push_back({{"event", "result"}, {"config", c.name}, {"status", have.empty() ? "timeout" : "not_run"},
                          {"message", fmt::format("the candidate's run did not finish within {:.0f} s", o.impl_timeout_s)}});
    judge_candidate(r, t, o, cw, cp, mine, ref);
    if (!usable) {
      // A call left the reference's stream waiting on this candidate (or the reference died): a fresh
      // reference from the same seed measures the rest, and the workers started ahead against the
      // old one's buffers are started again.
      measured_n = 0;
      refp = std::make_unique<WorkerProcess>();
      if (!refp->start(rargv, env, err)) return fail_live(Verdict::RuntimeError, "internal: cannot restart the reference worker: " + err);
      until_ready(*refp);
      for (size_t i = j + 1; i < order.size(); ++i) workers[order[i]].reset();
      r.stages["reference_restarted"] = 1;
    }
  }
  // 7. Baselines once for the run: eager PyTorch and torch.compile on the same inputs.
  auto b0 = Clock::now();
  WorkerProcess& ref = *refp;
  if (o.baselines) ref.write_line("baselines");
  if (o.keep_spare) start_spare(rt, env);  // imports while the baselines are timed (CPU only)
  ref.close_stdin();
  ref.wait_exit(ref_deadline());
  std::map<std::string, double> eager, compiled;
  std::map<std::string, std::string> errors;
  // Per kind (summed over perf configs): all of it (setup_s), the warm-up calls, the timed loop, and
  // its samples kept and discarded (throttled SM clock).
  json base_stages = json::object();
  for (const auto& e : parse_channel(ref.channel, ref.overflow, false).events) {
    if (e["event"] != "baseline") continue;
    std::string c = e.value("config", "");
    if (e.contains("error")) {
      errors[c] += fmt::format("{}{}: {}", errors[c].empty() ? "" : "; ", e.value("kind", ""), e.value("error", ""));
      continue;
    }
    (e.value("kind", "") == "eager" ? eager : compiled)[c] = e.value("median_ms", -1.0);
    for (const char* f : {"setup_s", "warmup_s", "timed_s", "samples", "discarded"})
      if (e.contains(f) && e[f].is_number()) {
        auto key = fmt::format("baseline_{}_{}", e.value("kind", "?"), f);
        base_stages[key] = e[f].get<double>() + base_stages.value(key, 0.0);
      }
  }
  double base_s = since(b0);
  for (size_t k = 0; k < n; ++k) {
    if (!reps[k].base.gpu_stages_run) continue;
    reps[k].eager_ms = eager;
    reps[k].compile_ms = compiled;
    reps[k].baseline_errors = errors;
    if (o.baselines) {
      reps[k].stages["baselines_s"] = base_s;
      for (const auto& [key, v] : base_stages.items()) reps[k].stages[key] = v;
    }
    add_speedups(reps[k]);
  }
  return reps;
}

std::vector<nlohmann::json> prebuild_torch_candidates(const std::vector<fs::path>& candidates, unsigned jobs,
                                                      double timeout_s) {
  std::vector<json> out(candidates.size());
  TorchRuntime rt = torch_runtime();
  if (rt.test_mode) return out;
  auto env = worker_env(rt);
  fs::path cache = compile::default_cache_dir();
  std::string salt;
  if (rt.worker.empty())
    if (const auto& p = torch_probe(rt); p.ok) salt = p.salt;
  unsigned par = jobs ? jobs : default_jobs();
  // First the static guards and the cache lookups (cheap), so the build workers can share the cores
  // among the candidates that really build.
  std::vector<char> miss(candidates.size(), 0);
  std::vector<TorchStatic> sts(candidates.size());
  parallel_for(candidates.size(), par, [&](size_t i) {
    auto& st = sts[i] = torch_static_check(candidates[i], rt, salt);
    if (st.syntax_error || !st.error.empty() || !st.findings.empty() || !st.unresolved.empty()) {
      out[i] = {{"skipped", "static guards"}};
      return;
    }
    if (auto cached = cached_extensions(st, salt, cache)) {
      out[i] = {{"seconds", 0.0}, {"extensions", *cached}, {"cache_hits", cached->size()}, {"verdict", "ok"}};
      return;
    }
    miss[i] = 1;
  });
  std::vector<size_t> todo;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (miss[i]) todo.push_back(i);
  if (todo.empty()) return out;
  unsigned workers = std::max(1u, std::min<unsigned>(static_cast<unsigned>(todo.size()), par));
  env = with_build_jobs(env, workers);
  parallel_for(todo.size(), workers, [&](size_t j) {
    size_t i = todo[j];
    auto b = run_build(rt, env, candidates[i], cache, timeout_s, sts[i].extensions, salt);
    out[i] = b.build;
    out[i]["verdict"] = verdict_name(b.verdict);
    if (b.verdict != Verdict::Ok) out[i]["message"] = b.message.substr(0, 400);
  });
  return out;
}

std::vector<nlohmann::json> prewarm_torch_baselines(const std::vector<task::TorchTask>& tasks, unsigned jobs, double timeout_s,
                                                    const std::string& mode) {
  std::vector<json> out(tasks.size());
  TorchRuntime rt = torch_runtime();
  if (rt.test_mode) return out;
  auto env = worker_env(rt);
  parallel_for(tasks.size(), jobs ? jobs : default_jobs(), [&](size_t i) {
    const auto& t = tasks[i];
    fs::path x = make_exchange_dir();
    if (x.empty()) {
      out[i] = {{"error", "no exchange folder"}};
      return;
    }
    json plan = {{"reference", fs::absolute(t.reference).string()}, {"configs", plan_configs(t, true)}, {"device", "cuda"}, {"eval_mode", mode},
                 {"input_dist", t.input_dist}};
    std::ofstream(x / "plan.json") << plan.dump();
    WorkerProcess w;
    std::string err;
    auto argv = worker_argv(rt, "warm");
    argv.insert(argv.end(), {"--plan", (x / "plan.json").string()});
    auto t0 = Clock::now();
    if (!w.start(argv, env, err)) {
      out[i] = {{"error", err}};
    } else {
      w.close_stdin();
      w.wait_exit(Clock::now() + std::chrono::milliseconds(static_cast<long long>(timeout_s * 1000)));
      out[i] = {{"task", t.id}, {"seconds", since(t0)}, {"configs", json::array()}};
      for (const auto& e : parse_channel(w.channel, w.overflow, false).events)
        out[i]["configs"].push_back(e);
      if (w.timed_out || !w.exited || w.exit_code() != 0) out[i]["error"] = fmt::format("{}: {}", w.describe(), w.output_tail(300));
    }
    std::error_code ec;
    fs::remove_all(x, ec);
  });
  return out;
}

}  // namespace cudaperf::verify
