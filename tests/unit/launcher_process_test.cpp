// The launcher worker's process boundary, without a GPU: started by exec with only its control
// channel on fd 3, a scrubbed environment, and its output captured and bounded.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cudaperf/sandbox/channel.hpp"
#include "cudaperf/sandbox/launcher_process.hpp"
#include "cudaperf/verify/gpu_check.hpp"

namespace cudaperf::sandbox {
namespace {

namespace fs = std::filesystem;

fs::path script(const std::string& name, const std::string& body) {
  fs::path p = fs::temp_directory_path() / ("cudaperf-launcher-test-" + name);
  std::ofstream(p) << "#!/bin/sh\n" << body;
  fs::permissions(p, fs::perms::owner_all);
  return p;
}

TEST(LauncherProcess, ControlOnFd3ScrubbedEnvironmentBoundedOutput) {
  setenv("CUDAPERF_TEST_SECRET", "leaked", 1);
  auto p = script("env", R"SH(echo "secret=${CUDAPERF_TEST_SECRET:-unset} stdin=$(cat | wc -c)" >&3
head -c 1000000 /dev/zero | tr '\0' x
echo to-stderr >&2
read line <&3; echo "got=$line" >&3
exit 7
)SH");
  LauncherProcess w;
  ASSERT_TRUE(w.spawn(p.string())) << w.error();
  auto first = w.channel().receive(std::chrono::seconds(10));
  ASSERT_TRUE(first) << w.channel().error();
  EXPECT_EQ(*first, "secret=unset stdin=0");
  ASSERT_TRUE(w.channel().send("ping"));
  auto second = w.channel().receive(std::chrono::seconds(10));
  ASSERT_TRUE(second);
  EXPECT_EQ(*second, "got=ping");
  auto r = w.finish(std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 7);
  EXPECT_EQ(w.output().size(), 64u * 1024);  // a megabyte printed, the first 64 KiB kept, nothing blocked
  unsetenv("CUDAPERF_TEST_SECRET");
}

TEST(LauncherProcess, HangingChildIsKilledAtTheDeadline) {
  auto p = script("hang", "sleep 30\n");
  LauncherProcess w;
  ASSERT_TRUE(w.spawn(p.string()));
  EXPECT_FALSE(w.channel().receive(std::chrono::milliseconds(200)));
  EXPECT_EQ(w.channel().error(), "timeout");
  auto r = w.finish(std::chrono::milliseconds(200));
  EXPECT_TRUE(r.timed_out);
}

TEST(LineChannel, OverlongLineIsRefused) {
  auto p = script("long", "head -c 5000000 /dev/zero | tr '\\0' a >&3\n");
  LauncherProcess w;
  ASSERT_TRUE(w.spawn(p.string()));
  EXPECT_FALSE(w.channel().receive(std::chrono::seconds(10)));
  EXPECT_EQ(w.channel().error(), "line over the channel's bound");
  w.finish(std::chrono::seconds(5));
}

TEST(Launcher, WithoutGpuSaysSoOnItsChannel) {
  bool have = false;
  verify::describe_gpu(have);
  if (have) GTEST_SKIP() << "a GPU is present: the gpu-labelled tests run the launcher for real";
  LauncherProcess w;
  ASSERT_TRUE(w.spawn(launcher_path())) << w.error();
  auto line = w.channel().receive(std::chrono::seconds(60));
  ASSERT_TRUE(line) << w.channel().error();
  auto j = nlohmann::json::parse(*line, nullptr, false);
  ASSERT_TRUE(j.is_object()) << *line;
  EXPECT_NE(j.value("error", "").find("no CUDA device"), std::string::npos) << *line;
  auto r = w.finish(std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 2);
}

}  // namespace
}  // namespace cudaperf::sandbox
