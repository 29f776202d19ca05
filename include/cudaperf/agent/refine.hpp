// The refinement loop of `cudaperf refine` (DESIGN §8): for one task, K independent trajectories
// in lockstep rounds — ask the model, extract the code, evaluate (in-process through
// reward::score_candidate or through `cudaperf serve`), tell the model what happened — and the
// JSONL record of each trajectory (schema "cudaperf.refine.v1", every field in docs/refine.md).
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/agent/chat_client.hpp"
#include "cudaperf/agent/feedback.hpp"
#include "cudaperf/reward/reward.hpp"
#include "cudaperf/reward/score_candidate.hpp"
#include "cudaperf/task/prompt.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::agent {

// Scores the candidate at `file` (its text is `code`): the JSON of reward::score_candidate.
// An error means the evaluation itself failed (service unreachable), not the candidate.
using Evaluator = std::function<Result<nlohmann::json>(const task::Task& t, const std::filesystem::path& file,
                                                       const std::string& code)>;
// In-process. With a GPU, evaluations run one at a time (timings must not share the device).
Evaluator in_process_evaluator(const reward::RewardConfig& cfg, const reward::ScoreOptions& o, bool serialize);
// Through a running `cudaperf serve`: POST /v1/evaluate, then GET /v1/jobs/{id} until done or
// `timeout_s`; 429 / 5xx / transport errors retried per `retry`.
Result<Evaluator> service_evaluator(const std::string& url, double time_budget_s, double timeout_s, RetryPolicy retry,
                                    Transport transport = http_send);

// The costliest structural findings of a candidate that built (`cudaperf analyze` of the file).
using Analyzer = std::function<Result<std::vector<Finding>>(const task::Task& t, const std::filesystem::path& file)>;
Analyzer static_analyzer(const std::filesystem::path& task_root, const reward::RewardConfig& cfg, size_t n = 3);

struct Turn {
  int round = 0;
  std::string verdict;  // turn verdict: an evaluation verdict (task_error: no reward), "pending_gpu" or "no_code"
  std::string message;  // the evaluator's message, or why there is no code
  bool final = true;    // false: pending_gpu (no reward yet)
  std::optional<double> speedup, reward;
  nlohmann::json eval;  // the whole evaluation (null for no_code)
  std::string code, answer, finish_reason, feedback, no_code_reason;
  std::vector<Finding> findings;
  std::string analysis_error;
  nlohmann::json usage;
  std::vector<Attempt> attempts;  // chat-completion attempts of this turn
  size_t prompt_index = 0, answer_index = 0;  // indexes in Trajectory::messages
  double model_s = 0, eval_s = 0, analysis_s = 0;
};

struct Trajectory {
  std::string task;
  int sample = 0;
  std::vector<ChatMessage> messages;
  std::vector<Turn> turns;
  // "completed", "endpoint_error", "eval_error", "template_error", "task_error" (the task failed: no verdict,
  // no reward; its feedback says so, and no further round is asked for)
  std::string status = "completed";
  std::string error;                 // why the trajectory stopped early
  std::vector<Attempt> error_attempts;
  double seconds = 0;
  std::optional<size_t> best;  // index in turns (ranks_above)
};

struct RefineOptions {
  int rounds = 3;
  int samples = 1;
  bool contrastive = false;
  size_t contrastive_n = 3, contrastive_lines = 120;
  std::vector<Candidate> history;  // earlier candidates of this task (--history), for --contrastive
  std::filesystem::path work_dir;  // candidate files: work_dir/s<k>/r<r>/candidate.cu
  reward::RewardConfig reward;
  task::PromptTemplates templates;
  std::function<void(const std::string&)> log;  // progress lines (may be null)
};

// Runs every trajectory; never throws. The lowest reward (the hack gate) goes to answers without code.
std::vector<Trajectory> refine_task(const task::Task& t, const ChatClient& client, const Evaluator& evaluate,
                                    const Analyzer& analyze, const RefineOptions& o);

// The best turn over all trajectories: (trajectory, turn) indexes, or nullopt when no turn has code.
std::optional<std::pair<size_t, size_t>> best_turn(const std::vector<Trajectory>& ts);
Candidate as_candidate(const Turn& turn, int sample);

// One JSONL line; `run` adds the run's settings (model, endpoint, evaluator, ...).
nlohmann::json trajectory_json(const Trajectory& tr, const reward::RewardConfig& cfg, const nlohmann::json& run);
// The candidates recorded in JSONL transcripts (trajectory_json) for task `task_id` (--history).
Result<std::vector<Candidate>> load_history(const std::filesystem::path& jsonl, const std::string& task_id);

}  // namespace cudaperf::agent
