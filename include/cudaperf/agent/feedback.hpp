// What the model is told after each turn, rendered from the evaluation JSON of
// reward::score_candidate (or the reward service) through data/prompts/feedback.md and the
// phrases of data/prompts/phrases.txt: the verdict; compile errors trimmed to the first few with
// their source lines; the first mismatch; the rule a hack or link verdict broke; timing and speedup
// per configuration; the structural findings that cost the most. docs/refine.md has the rules.
#pragma once
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "cudaperf/reward/reward.hpp"
#include "cudaperf/task/prompt.hpp"
#include "cudaperf/util/result.hpp"

namespace cudaperf::agent {

// The turn's verdict: the evaluation's verdict, except "pending_gpu" for an `ok` that is not final
// (it passed every CPU-side check; the GPU stages did not run).
std::string turn_verdict(const nlohmann::json& eval);

// Absolute paths of .cu files (the evaluator's scratch copies) become "candidate.cu".
std::string anonymize_paths(const std::string& text);

// The first `max_errors` errors of nvcc / gcc / ptxas output, each with the lines that follow it
// (nvcc's source line and caret); an error without a source line gets the candidate's line
// ("  > <line>"). Warnings and the "N errors detected" summary are dropped. Output without a
// recognisable error line gives its first 20 lines.
std::string trim_compile_errors(const std::string& diagnostics, const std::string& code, int max_errors = 3);

// "config 'odd': out[17]: expected 1.5, got nan (3 of 100 elements differ)" → its parts.
struct Mismatch {
  std::string config, buffer, expected, got;
  long long index = -1, bad = -1, total = -1;
};
std::optional<Mismatch> parse_mismatch(const std::string& message);

// A structural finding of `cudaperf analyze` with what it costs: the feature's weight in the
// reward's structure term times (1 - the kernel's score for that feature).
struct Finding {
  std::string kernel, kind, feature, message;
  int src_line = 0, count = 1;
  double cost = 0;
};
// The costliest findings of an analyze_file report, at most n, cost > 0 only, costliest first
// (ties: more occurrences first, then report order).
std::vector<Finding> costly_findings(const nlohmann::json& analysis, const reward::RewardConfig& cfg, size_t n = 3);

// An earlier candidate of the same task, for --contrastive.
struct Candidate {
  int round = 0, sample = 0;
  std::string verdict;            // turn verdict
  std::optional<double> speedup;  // measured (final ok) only
  std::optional<double> reward;   // final turns only
  std::string code;
  std::vector<std::string> findings;
};
// Best first: final ok by reward, then pending_gpu (later rounds first), then failures by reward.
bool ranks_above(const Candidate& a, const Candidate& b);
// The contrastive section (contrastive.md): up to n distinct candidates that compiled, best first,
// code cut to max_lines lines each; "" when there is none.
Result<std::string> render_contrastive(const task::PromptTemplates& tp, std::vector<Candidate> pool, size_t n = 3,
                                       size_t max_lines = 120);

struct FeedbackInput {
  int round = 1;
  std::string verdict;             // turn verdict (turn_verdict, or "no_code")
  nlohmann::json eval;             // the evaluation (null for no_code)
  std::string code;                // the candidate ("" for no_code)
  std::string no_code_reason;      // missing_code_reason() for no_code
  std::vector<Finding> findings;   // costly_findings() of correct / pending candidates
  std::string contrastive;         // render_contrastive() or ""
};
// feedback.md filled; empty sections removed. Errors: a broken template.
Result<std::string> render_feedback(const task::PromptTemplates& tp, const FeedbackInput& in);

}  // namespace cudaperf::agent
