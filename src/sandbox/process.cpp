#include "cudaperf/sandbox/process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fmt/format.h>

extern char** environ;

namespace cudaperf::sandbox {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

// The first steps of every forked child: a process group of its own (a timeout kills it whole), and
// a crash ends it by its signal, whatever handlers the parent (or a sanitizer) set.
void child_defaults() {
  setpgid(0, 0);
  for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGSYS, SIGTRAP}) signal(sig, SIG_DFL);
}

// fn()'s return value as the child's exit code; an exception that escapes it: 125.
int call_guarded(const std::function<int()>& fn) {
  try {
    return fn();
  } catch (...) {
    return 125;
  }
}

// Waits for `pid`, draining `fd` (may be -1) until exit or timeout; kills the process group on timeout.
void wait_child(pid_t pid, int fd, std::chrono::milliseconds timeout, size_t max_output,
                ProcessResult& r, Clock::time_point t0) {
  auto deadline = t0 + timeout;
  bool fd_open = fd >= 0;
  char buf[8192];
  int status = 0;
  for (;;) {
    pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    auto now = Clock::now();
    if (now >= deadline) {
      kill(-pid, SIGKILL);
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      r.timed_out = true;
      break;
    }
    int wait_ms = static_cast<int>(std::min<long long>(
        50, std::chrono::duration_cast<std::chrono::milliseconds>(deadline - now).count() + 1));
    if (fd_open) {
      pollfd p{fd, POLLIN, 0};
      if (poll(&p, 1, wait_ms) > 0) {
        ssize_t n = read(fd, buf, sizeof buf);
        if (n > 0) {
          if (r.output.size() < max_output) r.output.append(buf, std::min<size_t>(n, max_output - r.output.size()));
        } else {
          fd_open = false;
        }
      }
    } else {
      usleep(static_cast<useconds_t>(std::min(wait_ms, 5)) * 1000);
    }
  }
  if (fd_open) {  // drain what is left
    int flags = fcntl(fd, F_GETFL);
    fcntl(fd, F_SETFL, flags | O_NONBLOCK);
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
      if (r.output.size() < max_output) r.output.append(buf, std::min<size_t>(n, max_output - r.output.size()));
  }
  if (!r.timed_out) {
    if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
    if (WIFSIGNALED(status)) r.signal = WTERMSIG(status);
  }
  r.seconds = since(t0);
}

}  // namespace

std::string ProcessResult::describe() const {
  if (spawn_failed) return "could not start the process";
  if (timed_out) return fmt::format("timed out after {:.1f} s", seconds);
  if (signal) return fmt::format("killed by signal {} ({})", signal, strsignal(signal));
  return fmt::format("exit code {}", exit_code);
}

ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          size_t max_output) {
  ProcessResult r;
  auto t0 = Clock::now();
  int pipefd[2];
  if (argv.empty() || pipe2(pipefd, O_CLOEXEC) != 0) {
    r.spawn_failed = true;
    return r;
  }
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
  posix_spawn_file_actions_adddup2(&fa, pipefd[1], 2);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &fa, &attr, args.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  close(pipefd[1]);
  if (rc != 0) {
    close(pipefd[0]);
    r.spawn_failed = true;
    r.output = fmt::format("cannot run '{}': {}", argv[0], strerror(rc));
    return r;
  }
  wait_child(pid, pipefd[0], timeout, max_output, r, t0);
  close(pipefd[0]);
  return r;
}

ProcessResult run_forked(const std::function<int()>& fn, std::chrono::milliseconds timeout) {
  ProcessResult r;
  auto t0 = Clock::now();
  pid_t pid = fork();
  if (pid < 0) {
    r.spawn_failed = true;
    return r;
  }
  if (pid == 0) {
    child_defaults();
    _exit(call_guarded(fn));
  }
  wait_child(pid, -1, timeout, 0, r, t0);
  return r;
}

void close_inherited_descriptors(int keep_a, int keep_b) {
  auto close_from_to = [](long first, long last) {
    if (first > last) return;
    if (syscall(SYS_close_range, static_cast<unsigned>(first), static_cast<unsigned>(std::min<long>(last, ~0U)), 0) == 0) return;
    long top = std::min<long>(sysconf(_SC_OPEN_MAX) > 0 ? sysconf(_SC_OPEN_MAX) : 65536, 65536);
    for (long fd = first; fd <= std::min(last, top); ++fd) close(static_cast<int>(fd));
  };
  long from = 3;
  for (long keep : {std::min(keep_a, keep_b), std::max(keep_a, keep_b)}) {
    if (keep < from) continue;
    close_from_to(from, keep - 1);
    from = keep + 1;
  }
  close_from_to(from, ~0U);
}

GatedChild::GatedChild(const std::function<int()>& prepare, const std::function<int()>& fn, bool close_inherited) {
  int ready[2], go[2];
  if (pipe2(ready, O_CLOEXEC) != 0) {
    spawn_failed_ = true;
    return;
  }
  // "go" goes over a socket: send(MSG_NOSIGNAL) to a child that already ended cannot SIGPIPE the caller
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, go) != 0) {
    close(ready[0]);
    close(ready[1]);
    spawn_failed_ = true;
    return;
  }
  pid_t pid = fork();
  if (pid < 0) {
    for (int fd : {ready[0], ready[1], go[0], go[1]}) close(fd);
    spawn_failed_ = true;
    return;
  }
  if (pid == 0) {
    child_defaults();
    close(ready[0]);
    close(go[1]);
    if (close_inherited) close_inherited_descriptors(ready[1], go[0]);
    if (int code = call_guarded(prepare); code != 0) _exit(code);
    char c = 'r';
    if (write(ready[1], &c, 1) != 1) _exit(0);
    close(ready[1]);
    ssize_t n;
    while ((n = read(go[0], &c, 1)) < 0 && errno == EINTR) {}
    if (n != 1) _exit(0);  // the parent went away, or dropped this child without starting it
    close(go[0]);
    _exit(call_guarded(fn));
  }
  close(ready[1]);
  close(go[0]);
  pid_ = pid;
  ready_fd_ = ready[0];
  go_fd_ = go[1];
}

GatedChild::~GatedChild() {
  if (pid_ > 0 && !reaped_) {
    kill(-pid_, SIGKILL);
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
  for (int fd : {ready_fd_, go_fd_})
    if (fd >= 0) close(fd);
}

bool GatedChild::wait_ready(std::chrono::milliseconds timeout) {
  if (spawn_failed_ || reaped_) return false;
  auto t0 = Clock::now();
  pollfd p{ready_fd_, POLLIN, 0};
  int rc;
  while ((rc = poll(&p, 1, static_cast<int>(timeout.count()))) < 0 && errno == EINTR) {}
  char c = 0;
  if (rc > 0 && read(ready_fd_, &c, 1) == 1 && c == 'r') return true;
  // EOF (prepare failed, the child ended) or the time ran out: reap it now, killed if still there.
  wait_child(pid_, -1, rc == 0 ? std::chrono::milliseconds(0) : std::chrono::milliseconds(10000), 0, early_, t0);
  reaped_ = true;
  return false;
}

ProcessResult GatedChild::start(std::chrono::milliseconds timeout) {
  if (spawn_failed_) {
    ProcessResult r;
    r.spawn_failed = true;
    return r;
  }
  if (reaped_) return early_;
  auto t0 = Clock::now();
  char c = 'g';
  if (send(go_fd_, &c, 1, MSG_NOSIGNAL) != 1) {}  // a child that already ended is reaped below
  close(go_fd_);
  go_fd_ = -1;
  ProcessResult r;
  wait_child(pid_, -1, timeout, 0, r, t0);
  reaped_ = true;
  return r;
}

SharedArena::SharedArena(size_t bytes) : size_(bytes) {
  if (bytes == 0) bytes = 64;
  void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (p != MAP_FAILED) base_ = static_cast<unsigned char*>(p);
  size_ = bytes;
}

SharedArena::~SharedArena() {
  if (base_) munmap(base_, size_);
}

void* SharedArena::allocate(size_t bytes) {
  size_t start = (used_ + 63) & ~size_t{63};
  if (!base_ || start + bytes > size_) return nullptr;
  used_ = start + bytes;
  return base_ + start;
}

}  // namespace cudaperf::sandbox
