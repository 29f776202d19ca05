// `cudaperf serve`: the reward service. HTTP threads only validate requests and write jobs to the
// durable store (serve/job_store.hpp); worker processes — one per visible GPU, or as many as asked
// — claim jobs, score them (reward::score_candidate) and write the results. A worker that dies is
// restarted and its running job goes back to the queue; on start the service requeues jobs a
// previous run left running. docs/serve.md has the API.
#pragma once
#include <filesystem>
#include <string>

namespace cudaperf::serve {

struct ServiceOptions {
  std::string host = "127.0.0.1";
  int port = 8080;
  std::filesystem::path store = "cudaperf-jobs.sqlite";
  int workers = 0;                 // 0: workers_per_gpu per visible GPU (1 without a GPU)
  int workers_per_gpu = 1;         // >1: CPU stages overlap while the GPU lock serialises the device
  int batch = 8;                   // see WorkerOptions::batch
  int queue_limit = 1000;          // queued jobs beyond this: 429
  size_t max_source_bytes = 256 * 1024;
  std::filesystem::path root, config, model;  // dataset, reward config, ranker model
  double time_budget_s = 1;
  double openrlhf_wait_s = 3600;   // /v1/openrlhf answers only when every reward is known
  bool cpu_test_mode = false;      // without a GPU, score anyway (CPU stages only, final: false); else HTTP 409
};
int run_service(const ServiceOptions& o);

struct WorkerOptions {
  std::filesystem::path store, root, config, model;
  int id = 0;
  double time_budget_s = 1;
  int batch = 8;         // queued jobs of one task evaluated together (one GPU run shares inputs and baselines)
  std::string gpu_lock;  // file flock(2)ed while this worker's evaluations use the GPU
};
int run_worker(const WorkerOptions& o);

// The candidate in a model response, by the rules of python/cudaperf/extract.py: the text after
// the prompt's echo, reasoning (<think>…</think>) dropped, closed CommonMark-style fences, the last
// block tagged cuda/cu/cpp/c++/c, else the last block; "" when there is none.
std::string extract_code(const std::string& response, const std::string& prompt = "");

}  // namespace cudaperf::serve
