// verify::task_warnings / reference_time_warnings (the advice `tasks validate` prints) and the
// loader's tags (read by `tasks stats` and `export --split`).
#include <gtest/gtest.h>

#include "cudaperf/task/task.hpp"
#include "cudaperf/verify/task_warnings.hpp"

namespace cudaperf::verify {
namespace {

task::Task parse(const std::string& tol, const std::string& perf_n, const std::string& tags = "") {
  std::string text = "id = \"w/t\"\nsummary = \"s\"\nfunction = \"f\"\n" + tags +
                     "params = [\n  { name = \"n\", type = \"int\", role = \"size\" },\n"
                     "  { name = \"x\", type = \"const float*\", role = \"in\", len = \"n\", dist = \"uniform(-1, 1)\" },\n"
                     "  { name = \"y\", type = \"float*\", role = \"out\", len = \"n\" },\n]\n"
                     "configs = [ { name = \"tiny\", n = 3 }, { name = \"odd\", n = 17 }, { name = \"perf\", n = " + perf_n + " } ]\n"
                     "tolerance = " + tol + "\ncost = { flops = \"n\", bytes = \"8*n\" }\n";
  auto r = task::parse_task_toml(text, "task.toml");
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.errors().front().to_string());
  return r.ok() ? r.value() : task::Task{};
}

TEST(TaskWarnings, SmallPerfConfigAndLooseTolerance) {
  // 8 bytes x 1e6 = 8 MB: 1.7 us at 4.8 TB/s
  auto w = task_warnings(parse("{ rtol = 0.2, atol = 0.5 }", "1000000"));
  ASSERT_EQ(w.size(), 3u);
  EXPECT_NE(w[0].message.find("perf config 'perf': the roofline floor is 1.7 us"), std::string::npos) << w[0].message;
  EXPECT_NE(w[1].message.find("tolerance rtol = 0.2 is above 0.1"), std::string::npos) << w[1].message;
  EXPECT_NE(w[2].message.find("tolerance atol = 0.5"), std::string::npos) << w[2].message;
}

TEST(TaskWarnings, NoneForAWellSizedTask) {
  // 8 bytes x 1e8 = 800 MB: 167 us
  EXPECT_TRUE(task_warnings(parse("{ rtol = 1e-5, atol = 0.1 }", "100000000")).empty());
}

TEST(TaskWarnings, SlowReference) {
  auto t = parse("{ rtol = 1e-5, atol = 1e-6 }", "100000000");
  EXPECT_TRUE(reference_time_warnings(t, 5.9, 2).empty());  // 2.95 s per call
  auto w = reference_time_warnings(t, 6.2, 2);
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NE(w[0].message.find("3.1 s per call"), std::string::npos) << w[0].message;
  EXPECT_TRUE(reference_time_warnings(t, 100, 0).empty());  // nothing ran
}

TEST(TaskTags, ReadByTheLoader) {
  auto t = parse("{ rtol = 1e-5, atol = 1e-6 }", "100000000", "tags = [\"generated\", \"family:abc\", \"split:heldout\"]\n");
  EXPECT_TRUE(t.has_tag("generated"));
  EXPECT_FALSE(t.has_tag("family"));
  EXPECT_EQ(t.tag_value("family"), "abc");
  EXPECT_EQ(t.tag_value("split"), "heldout");
  EXPECT_EQ(t.tag_value("seed"), "");
  auto bad = task::parse_task_toml("id = \"w/t\"\ntags = [1]\n", "task.toml");
  ASSERT_FALSE(bad.ok());
  bool found = false;
  for (const auto& d : bad.errors()) found = found || d.message == "'tags' must be an array of strings";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace cudaperf::verify
