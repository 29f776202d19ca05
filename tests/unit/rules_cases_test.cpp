// The rules written once under config/ (timing.toml, candidate_policy.toml, torch_protocol.toml),
// on the cases shared with the Python worker (tests/data/rules; python/tests/test_rules_cases.py runs
// the same files), and the compiled-in files read whole.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

#include "cudaperf/compile/candidate.hpp"
#include "cudaperf/timing/rules.hpp"
#include "cudaperf/timing/stats.hpp"
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/protocol.hpp"
#include "cudaperf/util/rule_files.hpp"

namespace cudaperf {
namespace {

using nlohmann::json;

json cases(const std::string& name) {
  std::ifstream in(std::string(CUDAPERF_TEST_DATA) + "/rules/" + name);
  return json::parse(in);
}

void expect_close(double got, const json& want, const std::string& what) {
  double w = want.get<double>();
  EXPECT_NEAR(got, w, 1e-12 * std::max(1.0, std::fabs(w))) << what;
}

void expect_summary(const timing::Summary& s, const json& e, const std::string& name) {
  EXPECT_EQ(s.samples, e["samples"].get<int>()) << name;
  expect_close(s.median, e["median"], name + ": median");
  expect_close(s.min, e["min"], name + ": min");
  expect_close(s.max, e["max"], name + ": max");
  expect_close(s.mean, e["mean"], name + ": mean");
  expect_close(s.q1, e["q1"], name + ": q1");
  expect_close(s.q3, e["q3"], name + ": q3");
  expect_close(s.rel_stdev, e["rel_stdev"], name + ": rel_stdev");
}

// The compiled-in text is the file as it is in the tree (configure re-runs when one changes).
void expect_compiled_in(std::string_view text, const std::string& name) {
  std::ifstream in(std::string(CUDAPERF_TEST_DATA) + "/../../config/" + name, std::ios::binary);
  std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(text, file) << name;
}

// Each reader aborts on a missing key; reading every file here keeps such a build from passing.
TEST(RulesFiles, TimingFileIsCompiledInWithEveryKey) {
  expect_compiled_in(rule_files::timing_toml(), "timing.toml");
  const auto& t = timing::rules();
  EXPECT_EQ(t.min_samples, 10);
  EXPECT_EQ(t.max_samples, 1000);
  EXPECT_EQ(t.target_rel_stdev, 0.005);
  EXPECT_EQ(t.budget_s, 2.0);
  EXPECT_EQ(t.budget_floor, 3);
  EXPECT_EQ(t.attempts_factor, 2);
  EXPECT_EQ(t.stream_excess_fraction, 0.1);  // the same doubles as the literals they replaced
  EXPECT_EQ(t.stream_excess_floor_ms, 0.05);
  EXPECT_EQ(t.throttle_fraction, 0.75);
  const timing::StoppingRule r;
  EXPECT_EQ(r.min_samples, t.min_samples);
  EXPECT_EQ(r.budget_s, t.budget_s);
}

TEST(RulesFiles, PolicyFileIsCompiledInWithEveryKey) {
  expect_compiled_in(rule_files::candidate_policy_toml(), "candidate_policy.toml");
  EXPECT_EQ(compile::link_violation_reason("cudaLaunchKernel"), "");
  EXPECT_TRUE(compile::check_source_rules("#include <thrust/sort.h>\n").size() == 1u);
}

TEST(RulesFiles, ProtocolFileIsCompiledInWithEveryKey) {
  expect_compiled_in(rule_files::torch_protocol_toml(), "torch_protocol.toml");
  const auto& p = torch2cuda::protocol();
  EXPECT_EQ(p.events.size(), 10u);
  EXPECT_EQ(p.candidate_events.size(), 4u);
  EXPECT_EQ(p.candidate_stdin.size(), 2u);
  EXPECT_EQ(p.reference_stdin.size(), 2u);
  EXPECT_EQ(p.launcher_commands.size(), 3u);
}

TEST(RulesTiming, SummarizeCases) {
  const json timing_cases = cases("timing_cases.json");  // kept: a range over a temporary's member dangles
  for (const auto& c : timing_cases["summarize"])
    expect_summary(timing::summarize(c["samples"].get<std::vector<double>>()), c["expected"], c["name"]);
}

TEST(RulesTiming, MeasureCases) {
  const json timing_cases = cases("timing_cases.json");  // kept: a range over a temporary's member dangles
  for (const auto& c : timing_cases["measure"]) {
    const std::string name = c["name"];
    timing::StoppingRule rule;  // the defaults of config/timing.toml, then the case's own
    if (c.contains("rule")) {
      const auto& r = c["rule"];
      rule.min_samples = r.value("min_samples", rule.min_samples);
      rule.max_samples = r.value("max_samples", rule.max_samples);
      rule.target_rel_stdev = r.value("target_rel_stdev", rule.target_rel_stdev);
      rule.budget_s = r.value("budget_s", rule.budget_s);
    }
    const auto& seq = c["sequence"];
    size_t calls = 0;
    auto m = timing::measure(
        [&](bool& throttled) {
          const auto& v = seq[calls++ % seq.size()];
          if (v.is_array()) {
            throttled = v[1].get<bool>();
            return v[0].get<double>();
          }
          return v.get<double>();
        },
        rule);
    const auto& e = c["expected"];
    expect_summary(m.summary, e, name);
    EXPECT_EQ(m.summary.discarded, e["discarded"].get<int>()) << name;
    EXPECT_EQ(timing::stop_reason_name(m.reason), e["stop_reason"].get<std::string>()) << name;
    EXPECT_EQ(calls, e["calls"].get<size_t>()) << name;
  }
}

TEST(RulesTiming, StreamRuleCases) {
  const json all = cases("timing_cases.json");
  for (const auto& c : all["outside_stream"])
    EXPECT_EQ(timing::outside_stream(c["excess_ms"], c["median_ms"]), c["expected"].get<bool>()) << c.dump();
  for (const auto& c : all["stream_rule"]) {
    const auto& windows = c["windows"];
    size_t calls = 0;
    auto t = timing::time_with_stream_rule(
        [&] {
          const auto& w = windows.at(calls++);
          timing::Window out;
          out.m.summary.median = w[0];
          out.m.reason = w[0].get<double>() > 0 ? timing::StopReason::Converged : timing::StopReason::Failed;
          out.excess_ms = w[1];
          return out;
        },
        std::chrono::milliseconds(0));
    const auto& e = c["expected"];
    EXPECT_EQ(calls, e["calls"].get<size_t>()) << c["name"];
    const auto& reported = windows.at(e["reported"].get<size_t>());
    EXPECT_EQ(t.reported.m.summary.median, reported[0].get<double>()) << c["name"];
    EXPECT_EQ(t.reported.excess_ms, reported[1].get<double>()) << c["name"];
    EXPECT_EQ(t.first.has_value(), !e["first"].is_null()) << c["name"];
    if (t.first && !e["first"].is_null()) {
      EXPECT_EQ(t.first->excess_ms, windows.at(e["first"].get<size_t>())[1].get<double>()) << c["name"];
    }
  }
}

TEST(RulesTiming, SampleRuleCases) {
  const json all = cases("timing_cases.json");
  for (const auto& c : all["clock_throttled"])
    EXPECT_EQ(timing::clock_throttled(c["mhz"], c["max_mhz"]), c["expected"].get<bool>()) << c.dump();
  for (const auto& c : all["l2_flush_bytes"])
    EXPECT_EQ(timing::l2_flush_bytes(c["l2_bytes"].get<long long>()), c["expected"].get<size_t>()) << c.dump();
}

TEST(RulesPolicy, SourceCasesOfTheCPath) {
  const json policy_cases = cases("policy_cases.json");  // kept: a range over a temporary's member dangles
  for (const auto& c : policy_cases["sources"]) {
    std::vector<std::string> got;
    for (const auto& v : compile::check_source_rules(c["source"])) got.push_back(v.symbol);
    EXPECT_EQ(got, c["c_path"].get<std::vector<std::string>>()) << c["name"];
  }
}

TEST(RulesPolicy, SymbolCasesOfTheCPath) {
  const json policy_cases = cases("policy_cases.json");  // kept: a range over a temporary's member dangles
  for (const auto& c : policy_cases["symbols"])
    EXPECT_EQ(compile::link_violation_reason(c["symbol"]), c["c_path"].get<std::string>()) << c["symbol"];
}

TEST(RulesProtocol, EventCases) {
  const json protocol_cases = cases("protocol_cases.json");  // kept: a range over a temporary's member dangles
  for (const auto& c : protocol_cases["events"]) {
    const std::string line = json{{"event", c["event"]}}.dump() + "\n";
    const bool harness = c["harness"], candidate = c["candidate"];
    auto supervisor_side = torch2cuda::parse_channel(line, false, false);
    EXPECT_EQ(supervisor_side.events.size(), harness ? 1u : 0u) << line;
    EXPECT_TRUE(supervisor_side.forged.empty()) << line;
    auto candidate_side = torch2cuda::parse_channel(line, false, true);
    EXPECT_EQ(candidate_side.forged.empty(), harness && candidate) << line << candidate_side.forged;
  }
}

TEST(RulesProtocol, RoleCases) {
  EXPECT_EQ(torch2cuda::protocol().roles, cases("protocol_cases.json")["roles"].get<std::vector<std::string>>());
}

}  // namespace
}  // namespace cudaperf
