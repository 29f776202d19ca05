#include <gtest/gtest.h>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <unistd.h>

#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::sandbox {
namespace {

TEST(Process, CapturesOutputAndExitCode) {
  auto r = run_process({"sh", "-c", "echo hello; echo err >&2; exit 3"}, std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.output.find("hello"), std::string::npos);
  EXPECT_NE(r.output.find("err"), std::string::npos);
}

TEST(Process, KillsOnTimeoutIncludingGrandchildren) {
  auto r = run_process({"sh", "-c", "sleep 30 & sleep 30"}, std::chrono::milliseconds(300));
  EXPECT_TRUE(r.timed_out);
  EXPECT_LT(r.seconds, 5);
  EXPECT_NE(r.describe().find("timed out"), std::string::npos);
}

TEST(Process, MissingProgramIsAResultNotACrash) {
  auto r = run_process({"/nonexistent/tool"}, std::chrono::seconds(5));
  EXPECT_FALSE(r.ok());
}

TEST(Forked, CrashBecomesASignal) {
  auto r = run_forked([] { raise(SIGSEGV); return 0; }, std::chrono::seconds(10));
  EXPECT_EQ(r.signal, SIGSEGV);
  EXPECT_NE(r.describe().find("signal 11"), std::string::npos);
}

TEST(Forked, HangBecomesATimeout) {
  auto r = run_forked([] { for (;;) {} return 0; }, std::chrono::milliseconds(200));
  EXPECT_TRUE(r.timed_out);
}

TEST(Forked, SharedArenaCarriesResultsBack) {
  SharedArena arena(1 << 16);
  ASSERT_TRUE(arena.ok());
  auto* p = static_cast<int*>(arena.allocate(sizeof(int) * 4));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % 64, 0u);
  auto r = run_forked([&] { p[3] = 1234; return 0; }, std::chrono::seconds(10));
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(p[3], 1234);
  EXPECT_EQ(arena.allocate(1 << 20), nullptr);  // full: nullptr, not overflow
}

// GatedChild: prepare() runs at once, fn() only after start(); the order is recorded in shared memory.
TEST(Gated, PrepareRunsFirstThenFnAfterStart) {
  SharedArena arena(1 << 12);
  auto* seq = static_cast<int*>(arena.allocate(sizeof(int) * 4));
  seq[0] = seq[1] = seq[2] = 0;
  GatedChild child([&] { seq[0] = 1; return 0; }, [&] { seq[1] = seq[0] + 1; return 7; });
  ASSERT_TRUE(child.wait_ready(std::chrono::seconds(10)));
  EXPECT_EQ(seq[0], 1);
  usleep(100 * 1000);
  EXPECT_EQ(seq[1], 0);  // fn has not run: the child waits for start()
  auto r = child.start(std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(seq[1], 2);
}

TEST(Gated, FailedPrepareEndsTheChildWithItsCode) {
  SharedArena arena(1 << 12);
  auto* ran = static_cast<int*>(arena.allocate(sizeof(int)));
  *ran = 0;
  GatedChild child([] { return 2; }, [&] { *ran = 1; return 0; });
  EXPECT_FALSE(child.wait_ready(std::chrono::seconds(10)));
  auto r = child.start(std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(*ran, 0);
}

TEST(Gated, HangingPrepareIsKilledAsATimeout) {
  GatedChild child([] { for (;;) {} return 0; }, [] { return 0; });
  EXPECT_FALSE(child.wait_ready(std::chrono::milliseconds(200)));
  EXPECT_TRUE(child.start(std::chrono::seconds(10)).timed_out);
}

TEST(Gated, ChildNeverStartedNeverRunsFn) {
  SharedArena arena(1 << 12);
  auto* ran = static_cast<int*>(arena.allocate(sizeof(int)));
  *ran = 0;
  {
    GatedChild child([] { return 0; }, [&] { *ran = 1; return 0; });
    ASSERT_TRUE(child.wait_ready(std::chrono::seconds(10)));
  }  // dropped: killed and reaped
  usleep(100 * 1000);
  EXPECT_EQ(*ran, 0);
}

// A descriptor the caller has open (a job store, a records file) is gone in the child.
TEST(Gated, InheritedDescriptorsAreClosedWhenAsked) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  for (bool close_them : {true, false}) {
    GatedChild child([] { return 0; }, [&] { return write(fds[1], "x", 1) == 1 ? 0 : (errno == EBADF ? 3 : 4); },
                     close_them);
    ASSERT_TRUE(child.wait_ready(std::chrono::seconds(10)));
    EXPECT_EQ(child.start(std::chrono::seconds(10)).exit_code, close_them ? 3 : 0);
  }
  close(fds[0]);
  close(fds[1]);
}

TEST(Forked, CloseInheritedKeepsOnlyWhatIsAsked) {
  int a[2], b[2];
  ASSERT_EQ(pipe(a), 0);
  ASSERT_EQ(pipe(b), 0);
  auto r = run_forked([&] {
    close_inherited_descriptors(b[1]);
    bool a_gone = write(a[1], "x", 1) < 0 && errno == EBADF;
    bool b_kept = write(b[1], "y", 1) == 1;
    return a_gone && b_kept ? 0 : 1;
  }, std::chrono::seconds(10));
  EXPECT_TRUE(r.ok()) << r.describe();
  for (int fd : {a[0], a[1], b[0], b[1]}) close(fd);
}

TEST(Gated, FnCrashAndHangAreReportedLikeRunForked) {
  GatedChild crash([] { return 0; }, [] { raise(SIGSEGV); return 0; });
  ASSERT_TRUE(crash.wait_ready(std::chrono::seconds(10)));
  EXPECT_EQ(crash.start(std::chrono::seconds(10)).signal, SIGSEGV);
  GatedChild hang([] { return 0; }, [] { for (;;) {} return 0; });
  ASSERT_TRUE(hang.wait_ready(std::chrono::seconds(10)));
  EXPECT_TRUE(hang.start(std::chrono::milliseconds(200)).timed_out);
}

}  // namespace
}  // namespace cudaperf::sandbox
