// A torch2cuda candidate judged from the trusted reference's events (the candidate's own channel is
// control flow only), and its speedups once the run's baselines are in.
#pragma once
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/evaluate.hpp"
#include "worker_process.hpp"

namespace cudaperf::torch2cuda::detail {

void set_verdict(TorchEvalReport& r, verify::Verdict v, std::string msg);
// The task (or the engine) failed, not the candidate: verdict TaskError (no tier, no reward); the
// message names the task. `what`: the reference's own words.
void set_task_error(TorchEvalReport& r, const std::string& task_id, const std::string& what);

// The report of one candidate: every number and status comes from the reference's "result" events
// (the trusted measurer, torch_measure.py); anything on the candidate's channel `cp` that is not a
// launcher's event is a forgery attempt. `cw`: how the candidate's process ended.
void judge_candidate(TorchEvalReport& r, const task::TorchTask& t, const TorchEvalOptions& o, const WorkerProcess& cw,
                     const ChannelParse& cp, const std::vector<nlohmann::json>& ref_events, const WorkerProcess& ref);

// Speedups (geometric mean over perf configs) once the baselines of the run are known.
void add_speedups(TorchEvalReport& r);

}  // namespace cudaperf::torch2cuda::detail
