#include "cudaperf/verify/verdict.hpp"

#include <fmt/format.h>

#include <utility>

namespace cudaperf::verify {

namespace {
constexpr std::pair<Verdict, const char*> kNames[] = {
    {Verdict::Ok, "ok"},
    {Verdict::CompileError, "compile_error"},
    {Verdict::LinkError, "link_error"},
    {Verdict::RuntimeError, "runtime_error"},
    {Verdict::Timeout, "timeout"},
    {Verdict::WrongAnswer, "wrong_answer"},
    {Verdict::OutOfBounds, "out_of_bounds"},
    {Verdict::InputMutated, "input_mutated"},
    {Verdict::Nondeterministic, "nondeterministic"},
    {Verdict::HackSuspected, "hack_suspected"},
    {Verdict::TaskError, "task_error"},
};
}  // namespace

const char* verdict_name(Verdict v) {
  for (const auto& [k, n] : kNames)
    if (k == v) return n;
  return "?";
}

bool parse_verdict(const std::string& name, Verdict& out) {
  for (const auto& [k, n] : kNames)
    if (name == n) {
      out = k;
      return true;
    }
  return false;
}

std::optional<int> verdict_tier(Verdict v) {
  switch (v) {
    case Verdict::HackSuspected:
    case Verdict::LinkError:
    case Verdict::InputMutated:
      return 0;
    case Verdict::CompileError:
      return 1;
    case Verdict::RuntimeError:
    case Verdict::Timeout:
    case Verdict::OutOfBounds:
      return 2;
    case Verdict::WrongAnswer:
    case Verdict::Nondeterministic:
      return 3;
    case Verdict::Ok:
      return 4;
    case Verdict::TaskError:
      return std::nullopt;
  }
  return 0;
}

nlohmann::json verdict_fields(Verdict v, bool gpu_stages_run) {
  const bool pending = pending_gpu(v, gpu_stages_run);
  const auto tier = pending ? std::nullopt : verdict_tier(v);
  return {{"verdict", pending ? "pending_gpu" : verdict_name(v)},
          {"tier", tier ? nlohmann::json(*tier) : nlohmann::json(nullptr)},
          {"complete", !pending && v != Verdict::TaskError},
          {"gpu_stages", gpu_stages_run ? "run" : "skipped"}};
}

std::string task_error_message(const std::string& task_id, const std::string& what) {
  return fmt::format("task error in {} (a defect of the task, not the candidate's: no verdict, no reward): {}", task_id, what);
}

}  // namespace cudaperf::verify
