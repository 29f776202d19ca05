// agent/refine: the loop around a fake endpoint and a fake evaluator (no network, no GPU).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <unistd.h>

#include "cudaperf/agent/chat_client.hpp"
#include "cudaperf/agent/refine.hpp"
#include "cudaperf/task/prompt.hpp"

using namespace cudaperf;
using namespace cudaperf::agent;
using nlohmann::json;

namespace {

ChatClient answering(const std::string& content) {
  ChatConfig c;
  c.base_url = "http://127.0.0.1:9999/v1";
  c.model = "m";
  c.api_key_env = "";
  Transport t = [content](const Url&, const HttpRequest&, const Timeouts&) {
    HttpResponse r;
    r.status = 200;
    r.body = json{{"choices", json::array({{{"index", 0}, {"message", {{"role", "assistant"}, {"content", content}}},
                                            {"finish_reason", "stop"}}})}}
                 .dump();
    return r;
  };
  return ChatClient::create(c, t, [](double) {}).value();
}

}  // namespace

// A task_error (the task failed, not the candidate): no reward, feedback that says the task failed,
// and no further round (nothing in the code to fix).
TEST(AgentRefine, TaskErrorStopsTheTrajectoryWithoutAReward) {
  auto t = task::load_task(std::filesystem::path(CUDAPERF_TEST_DATA) / "good_tasks/fixture/gather_mix");
  ASSERT_TRUE(t.ok()) << t.errors().front().to_string();
  int evaluations = 0;
  Evaluator ev = [&](const task::Task&, const std::filesystem::path&, const std::string&) -> Result<json> {
    ++evaluations;
    return json{{"verdict", "task_error"}, {"tier", nullptr}, {"final", true},
                {"message", "task error in fixture/gather_mix (a defect of the task, not the candidate's): shapes changed"}};
  };
  RefineOptions o;
  o.rounds = 3;
  o.templates = task::builtin_templates();
  o.work_dir = std::filesystem::temp_directory_path() / ("cudaperf-refine-test-" + std::to_string(::getpid()));
  auto ts = refine_task(t.value(), answering("```cuda\n__global__ void k() {}\n```\n"), ev, nullptr, o);
  std::filesystem::remove_all(o.work_dir);
  ASSERT_EQ(ts.size(), 1u);
  const auto& tr = ts[0];
  EXPECT_EQ(tr.status, "task_error");
  EXPECT_EQ(evaluations, 1);
  ASSERT_EQ(tr.turns.size(), 1u);
  EXPECT_EQ(tr.turns[0].verdict, "task_error");
  EXPECT_FALSE(tr.turns[0].reward.has_value());
  EXPECT_NE(tr.turns[0].feedback.find("the task itself failed"), std::string::npos) << tr.turns[0].feedback;
  EXPECT_EQ(tr.turns[0].feedback.find("run time"), std::string::npos) << tr.turns[0].feedback;
  auto j = trajectory_json(tr, o.reward, json::object());
  EXPECT_TRUE(j["trajectory_reward"].is_null());
  EXPECT_TRUE(j["per_turn_rewards"][0].is_null());
  EXPECT_EQ(j["status"], "task_error");
}
