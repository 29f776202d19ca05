// A torch2cuda worker process (worker_process.hpp).
#include "worker_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <fmt/format.h>
#include <mutex>
#include <nlohmann/json.hpp>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/torch2cuda/channel.hpp"

extern char** environ;

namespace cudaperf::torch2cuda::detail {

using nlohmann::json;

bool WorkerProcess::start(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string& err,
                          const BuildJail* jail) {
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

void WorkerProcess::write_line(const std::string& s) {
  if (in_fd < 0) return;
  std::string line = s + "\n";
  signal(SIGPIPE, SIG_IGN);
  ssize_t n = ::write(in_fd, line.data(), line.size());
  (void)n;
}
void WorkerProcess::close_stdin() {
  if (in_fd >= 0) close(in_fd);
  in_fd = -1;
}

bool WorkerProcess::pump(Clock::time_point deadline, const std::function<bool()>& pred) {
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

void WorkerProcess::step(int ms) {
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

void WorkerProcess::kill_all() {
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

int WorkerProcess::signal_number() const { return exited && WIFSIGNALED(status) ? WTERMSIG(status) : 0; }

int WorkerProcess::exit_code() const { return exited && WIFEXITED(status) ? WEXITSTATUS(status) : -1; }

std::string WorkerProcess::describe() const {
  if (timed_out) return fmt::format("timed out after {:.1f} s", since(t0));
  if (int s = signal_number()) return fmt::format("killed by signal {} ({})", s, strsignal(s));
  return fmt::format("exit code {}", exit_code());
}

bool WorkerProcess::has_event(const std::string& ev) const {
  return channel.find("\"event\": \"" + ev + "\"") != std::string::npos ||
         channel.find("\"event\":\"" + ev + "\"") != std::string::npos;
}

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

namespace {
// The spare (start_spare), process-wide.
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
}  // namespace

void start_spare(const TorchRuntime& rt, const std::vector<std::string>& env) {
  auto w = std::make_unique<WorkerProcess>();
  std::string err;
  if (!w->start(worker_argv(rt, "spare"), env, err)) return;
  std::lock_guard<std::mutex> lock(spare().mu);
  spare().w = std::move(w);  // an unused older one is killed here
  spare().key = spare_key(rt, env);
}
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

}  // namespace cudaperf::torch2cuda::detail
