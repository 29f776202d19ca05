// Verdicts of an evaluation (DESIGN §3), each with a short message a model can act on.
#pragma once
#include <nlohmann/json.hpp>

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
};

const char* verdict_name(Verdict v);  // "ok", "compile_error", ...
// Parses a name back; false when unknown.
bool parse_verdict(const std::string& name, Verdict& out);

// Reward tier (DESIGN §6/§5 issue): hack < compile error < runtime error < wrong answer < correct.
// Link errors count as hacks (a forbidden call is an attempt to escape the contract).
int verdict_tier(Verdict v);

// How a report states its verdict, for both task kinds: verdict, tier, complete, gpu_stages. A
// candidate that passed every CPU-side check but whose GPU stages did not run has no verdict yet:
// "pending_gpu", tier null, complete false — never "ok" with the tier of a correct candidate.
// A non-empty `task_error` (EvalReport::task_error: the task or the engine failed, not the candidate)
// gives "task_error", tier null, complete false and "task_error": the message — no tier, so no reward.
nlohmann::json verdict_fields(Verdict v, bool gpu_stages_run, const std::string& task_error = "");
// That case: passed every CPU-side check, GPU stages not run.
inline bool pending_gpu(Verdict v, bool gpu_stages_run) { return !gpu_stages_run && v == Verdict::Ok; }

}  // namespace cudaperf::verify
