// Verdicts of an evaluation (DESIGN §3), each with a short message a model can act on.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace cudaperf::verify {

enum class Verdict {
  Ok,
  CompileError,
  LinkError,
  RuntimeError,
  Timeout,
  WrongAnswer,
  OutOfBounds,
  InputMutated,
  Nondeterministic,
  HackSuspected,
  // Not the candidate's outcome: the task (or the engine) failed, e.g. a torch2cuda reference that
  // fails, or whose inputs or outputs change shape under the secret seed. No tier, so no reward.
  TaskError,
};

const char* verdict_name(Verdict v);  // "ok", "compile_error", ...
// Parses a name back; false when unknown.
bool parse_verdict(const std::string& name, Verdict& out);

// Reward tier (DESIGN §6/§5 issue): hack < compile error < runtime error < wrong answer < correct.
// Link errors count as hacks (a forbidden call is an attempt to escape the contract). TaskError has
// none (nullopt): it says nothing of the candidate, and reward::compute_reward refuses it.
std::optional<int> verdict_tier(Verdict v);

// How a report states its verdict, for both task kinds: verdict, tier, complete, gpu_stages. A
// candidate that passed every CPU-side check but whose GPU stages did not run has no verdict yet:
// "pending_gpu", tier null, complete false — never "ok" with the tier of a correct candidate.
// TaskError: "task_error", tier null, complete false (the candidate has no verdict).
nlohmann::json verdict_fields(Verdict v, bool gpu_stages_run);
// That case: passed every CPU-side check, GPU stages not run.
inline bool pending_gpu(Verdict v, bool gpu_stages_run) { return !gpu_stages_run && v == Verdict::Ok; }

// The message of a TaskError report, for both task kinds: names the task and says it is not the
// candidate's ("task error in <id> (...): <what>").
std::string task_error_message(const std::string& task_id, const std::string& what);

}  // namespace cudaperf::verify
