// The confinement of candidate processes, exercised in forked children on the CPU: every forbidden
// call ends the child with SIGSYS (or fails with EACCES for file writes), while what CUDA and a
// launcher need (threads, reading files, signals to itself) keeps working.
#include <arpa/inet.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "cudaperf/sandbox/confine.hpp"
#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::sandbox {
namespace {

// Runs body in a confined child; returns how it ended.
ProcessResult confined(const std::function<int()>& body) {
  return run_forked(
      [&] {
        isolate();
        if (lock_down()) return 99;
        return body();
      },
      std::chrono::seconds(20));
}

TEST(Confine, SocketsKillTheProcess) {
  auto r = confined([] { return socket(AF_INET, SOCK_STREAM, 0) >= 0 ? 0 : 1; });
  EXPECT_EQ(r.signal, SIGSYS) << r.describe();
}

TEST(Confine, RawSyscallSocketToo) {
  auto r = confined([] { return syscall(SYS_socket, AF_UNIX, SOCK_DGRAM, 0) >= 0 ? 0 : 1; });
  EXPECT_EQ(r.signal, SIGSYS) << r.describe();
}

TEST(Confine, ForkAndExecKill) {
  EXPECT_EQ(confined([] { return fork() >= 0 ? 0 : 1; }).signal, SIGSYS);
  EXPECT_EQ(confined([] {
              char* argv[] = {const_cast<char*>("/bin/true"), nullptr};
              execv("/bin/true", argv);
              return 1;
            }).signal,
            SIGSYS);
}

// The parent is made non-dumpable (as `cudaperf` makes itself); the confined child, even as root,
// has no capability left to read its memory through /proc.
TEST(Confine, ParentMemoryIsNotReadable) {
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  static const char secret[] = "expected outputs";
  auto r = confined([] {
    int fd = open(("/proc/" + std::to_string(getppid()) + "/mem").c_str(), O_RDONLY);
    if (fd < 0) return 0;  // refused
    char buf[sizeof secret] = {};
    bool got = pread(fd, buf, sizeof buf, reinterpret_cast<off_t>(secret)) == static_cast<ssize_t>(sizeof buf) &&
               std::memcmp(buf, secret, sizeof buf) == 0;
    return got ? 1 : 0;
  });
  prctl(PR_SET_DUMPABLE, 1, 0, 0, 0);
  EXPECT_TRUE(r.ok()) << "the confined child read its parent's memory: " << r.describe();
}

TEST(Confine, SignalsToOtherProcessesKill) {
  EXPECT_EQ(confined([] { return kill(getppid(), 0); }).signal, SIGSYS);
  auto self = confined([] { return kill(getpid(), 0) == 0 ? 0 : 1; });
  EXPECT_TRUE(self.ok()) << self.describe();
}

// kill(2) is not the only way to signal another process: tgkill, tkill, rt_(tg)sigqueueinfo and
// pidfd_send_signal reach it too (a candidate could SIGSTOP or SIGKILL its supervisor, the reference,
// or a worker of another evaluation that waits, prepared, for its turn on the GPU).
TEST(Confine, SignalsToOtherProcessesKillThroughEveryCall) {
  EXPECT_EQ(confined([] { return static_cast<int>(syscall(SYS_tgkill, getppid(), getppid(), 0)); }).signal, SIGSYS);
  EXPECT_EQ(confined([] { return static_cast<int>(syscall(SYS_tkill, getppid(), 0)); }).signal, SIGSYS);
  EXPECT_EQ(confined([] {
              siginfo_t si{};
              si.si_code = SI_QUEUE;
              si.si_pid = getpid();
              si.si_uid = getuid();
              return static_cast<int>(syscall(SYS_rt_sigqueueinfo, getppid(), 0, &si));
            }).signal,
            SIGSYS);
  EXPECT_EQ(confined([] {
              siginfo_t si{};
              si.si_code = SI_QUEUE;
              si.si_pid = getpid();
              si.si_uid = getuid();
              return static_cast<int>(syscall(SYS_rt_tgsigqueueinfo, getppid(), getppid(), 0, &si));
            }).signal,
            SIGSYS);
  EXPECT_EQ(confined([] {
              int fd = static_cast<int>(syscall(SYS_pidfd_open, getppid(), 0));
              return static_cast<int>(syscall(SYS_pidfd_send_signal, fd, 0, nullptr, 0));
            }).signal,
            SIGSYS);
  // Signals within the process still work: raise (tgkill to itself), pthread_kill to its own thread.
  auto self = confined([] {
    signal(SIGUSR1, SIG_IGN);
    if (raise(SIGUSR1) != 0) return 1;
    if (syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), 0) != 0) return 2;
    int rc = 0;
    std::thread t([&] { rc = pthread_kill(pthread_self(), SIGUSR1); });
    t.join();
    if (rc != 0) return 3;
    if (syscall(SYS_tkill, syscall(SYS_gettid), 0) != 0) return 4;  // the main thread: its tid is the pid
    sigval v{};
    return sigqueue(getpid(), SIGUSR1, v) == 0 ? 0 : 5;
  });
  EXPECT_TRUE(self.ok()) << self.describe();
}

// pidfd_getfd copies a descriptor out of another process (ptrace rights, which a worker of the same
// user that is still dumpable grants: e.g. a torch worker initialised ahead, its output file open,
// while another candidate runs): killed like ptrace itself.
TEST(Confine, TakingDescriptorsOfOtherProcessesKills) {
  auto r = confined([] {
    int fd = static_cast<int>(syscall(SYS_pidfd_open, getppid(), 0));
    return static_cast<int>(syscall(SYS_pidfd_getfd, fd, 1, 0)) >= 0 ? 0 : 1;
  });
  EXPECT_EQ(r.signal, SIGSYS) << r.describe();
}

TEST(Confine, ThreadsStillWork) {
  auto r = confined([] {
    int v = 0;
    std::thread t([&] { v = 42; });
    t.join();
    return v == 42 ? 0 : 1;
  });
  EXPECT_TRUE(r.ok()) << r.describe();
}

TEST(Confine, FileWritesAreRefusedReadsAllowed) {
  auto path = std::filesystem::temp_directory_path() / ("cudaperf-confine-" + std::to_string(getpid()));
  auto r = confined([&] {
    int w = open(path.c_str(), O_WRONLY | O_CREAT, 0600);
    if (w >= 0 || errno != EACCES) return 1;
    int rw = open("/etc/hostname", O_RDWR);
    if (rw >= 0) return 2;
    int rd = open("/proc/self/status", O_RDONLY);
    if (rd < 0) return 3;
    close(rd);
    return 0;
  });
  EXPECT_TRUE(r.ok()) << r.describe();
  EXPECT_FALSE(std::filesystem::exists(path));
}

TEST(Confine, NetworkNamespaceCutsLoopback) {
  int srv = socket(AF_INET, SOCK_STREAM, 0);
  ASSERT_GE(srv, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(bind(srv, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
  ASSERT_EQ(listen(srv, 1), 0);
  socklen_t len = sizeof a;
  getsockname(srv, reinterpret_cast<sockaddr*>(&a), &len);
  // Without the filter, only the namespace stands between the child and the parent's port.
  auto r = run_forked(
      [&] {
        if (isolate()) return 77;  // no CAP_SYS_ADMIN here: nothing to test
        int c = socket(AF_INET, SOCK_STREAM, 0);
        return connect(c, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0 ? 1 : 0;
      },
      std::chrono::seconds(20));
  close(srv);
  if (r.exit_code == 77) GTEST_SKIP() << "cannot create a network namespace here";
  EXPECT_TRUE(r.ok()) << "a child in its own namespace reached the parent's loopback port: " << r.describe();
}

TEST(Confine, FilterIsInPlaceBeforeTheCandidateLoads) {
  // A host-only "candidate" whose constructor opens a socket the moment it is loaded.
  auto dir = std::filesystem::temp_directory_path() / ("cudaperf-ctor-" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  {
    std::ofstream(dir / "evil.c") << "#include <sys/socket.h>\n"
                                     "__attribute__((constructor)) static void at_load(void) { socket(AF_INET, SOCK_STREAM, 0); }\n"
                                     "void launcher(void) {}\n";
  }
  auto cc = run_process({"gcc", "-shared", "-fPIC", (dir / "evil.c").string(), "-o", (dir / "evil.so").string()},
                        std::chrono::seconds(60));
  ASSERT_TRUE(cc.ok()) << cc.output;
  std::string so = (dir / "evil.so").string();
  auto r = confined([&] { return dlopen(so.c_str(), RTLD_NOW) ? 0 : 1; });
  EXPECT_EQ(r.signal, SIGSYS) << r.describe();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cudaperf::sandbox
