#include <gtest/gtest.h>

#include <csignal>
#include <cstring>

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

}  // namespace
}  // namespace cudaperf::sandbox
