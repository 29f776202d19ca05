#include "cudaperf/sandbox/launcher_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <vector>

extern char** environ;

namespace cudaperf::sandbox {

namespace {

constexpr size_t kKeptOutput = 64 * 1024;

// Only what the CUDA runtime and a profiler's injection need: no seed, no key, no path of ours.
bool passes_environment(const char* kv) {
  static const char* exact[] = {"PATH=", "LD_LIBRARY_PATH=", "CUDAPERF_NO_SECCOMP=", "CUDAPERF_ALLOW_EXEC_MAPPINGS="};
  for (const char* e : exact)
    if (std::strncmp(kv, e, std::strlen(e)) == 0) return true;
  return std::strncmp(kv, "CUDA_", 5) == 0 || std::strncmp(kv, "NV", 2) == 0;
}

}  // namespace

struct LauncherProcess::Drain {
  int fd = -1;
  std::mutex mu;
  std::string kept;
  std::thread thread;
  void run() {
    char buf[16384];
    for (;;) {
      ssize_t n = read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      std::lock_guard lock(mu);
      if (kept.size() < kKeptOutput) kept.append(buf, std::min<size_t>(static_cast<size_t>(n), kKeptOutput - kept.size()));
    }
    close(fd);
  }
};

std::string launcher_path() {
  if (const char* p = std::getenv("CUDAPERF_LAUNCHER"); p && *p) return p;
  std::error_code ec;
  auto self = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    auto next = self.parent_path() / "cudaperf-launcher";
    if (std::filesystem::exists(next, ec)) return next.string();
  }
#ifdef CUDAPERF_LAUNCHER_BUILD_PATH
  return CUDAPERF_LAUNCHER_BUILD_PATH;
#else
  return "cudaperf-launcher";
#endif
}

bool LauncherProcess::spawn(const std::string& path) {
  int sv[2], out[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0 || pipe2(out, O_CLOEXEC) != 0) {
    error_ = std::string("cannot make the launcher's channels: ") + std::strerror(errno);
    return false;
  }
  // dup2 onto 3 clears close-on-exec only when the descriptor is not already 3
  int child_end = sv[1];
  if (child_end == 3) {
    child_end = fcntl(sv[1], F_DUPFD_CLOEXEC, 10);
    close(sv[1]);
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_adddup2(&fa, out[1], 2);
  posix_spawn_file_actions_adddup2(&fa, child_end, 3);
  posix_spawnattr_t at;
  posix_spawnattr_init(&at);
  posix_spawnattr_setflags(&at, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawnattr_setpgroup(&at, 0);
  sigset_t all, none;
  sigfillset(&all);
  sigemptyset(&none);
  posix_spawnattr_setsigdefault(&at, &all);
  posix_spawnattr_setsigmask(&at, &none);
  std::vector<char*> env;
  for (char** e = environ; e && *e; ++e)
    if (passes_environment(*e)) env.push_back(*e);
  env.push_back(nullptr);
  std::string arg0 = path;
  char* argv[] = {arg0.data(), nullptr};
  pid_t pid = -1;
  int rc = posix_spawn(&pid, path.c_str(), &fa, &at, argv, env.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&at);
  close(child_end);
  close(out[1]);
  if (rc != 0) {
    close(sv[0]);
    close(out[0]);
    error_ = "cannot start " + path + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  channel_ = LineChannel(sv[0]);
  drain_ = std::make_unique<Drain>();
  drain_->fd = out[0];
  drain_->thread = std::thread([d = drain_.get()] { d->run(); });
  return true;
}

void LauncherProcess::kill_now() {
  if (pid_ > 0 && !reaped_) {
    ::kill(-pid_, SIGKILL);
    ::kill(pid_, SIGKILL);
  }
}

ProcessResult LauncherProcess::finish(std::chrono::milliseconds timeout) {
  if (pid_ <= 0 || reaped_) return result_;
  auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid_, &status, WNOHANG);
    if (w == pid_) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      kill_now();
      waitpid(pid_, &status, 0);
      result_.timed_out = true;
      break;
    }
    usleep(2000);
  }
  reaped_ = true;
  if (WIFEXITED(status)) result_.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result_.signal = WTERMSIG(status);
  if (channel_.fd() >= 0) close(channel_.fd());
  channel_ = LineChannel(-1);
  if (drain_ && drain_->thread.joinable()) drain_->thread.join();
  return result_;
}

std::string LauncherProcess::output() const {
  if (!drain_) return "";
  std::lock_guard lock(drain_->mu);
  return drain_->kept;
}

LauncherProcess::LauncherProcess() = default;

LauncherProcess::~LauncherProcess() {
  if (pid_ > 0 && !reaped_) {
    kill_now();
    finish(std::chrono::milliseconds(2000));
  }
}

}  // namespace cudaperf::sandbox
