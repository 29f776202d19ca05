// Verdicts of an evaluation (DESIGN §3), each with a short message a model can act on.
#pragma once
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

}  // namespace cudaperf::verify
