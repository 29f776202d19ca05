// The reward service's durable job store (SQLite, WAL). Every accepted job is a row; a worker
// claims one atomically, and its result is written only if that worker still owns the job, so
// each job finishes exactly once even when workers die or the service restarts.
#pragma once
#include <nlohmann/json.hpp>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cudaperf/util/result.hpp"

namespace cudaperf::serve {

struct Job {
  std::string id, key, task, source;
  nlohmann::json options = nlohmann::json::object();
  std::string state;  // queued, running, done
  int worker = -1, attempts = 0;
  nlohmann::json result;  // null until done
  double created = 0, started = 0, finished = 0;  // unix seconds
};

struct JobRequest {
  std::string task, source;
  nlohmann::json options = nlohmann::json::object();
};

class JobStore {
 public:
  static Result<JobStore> open(const std::filesystem::path& file);
  JobStore(JobStore&&) noexcept;
  JobStore& operator=(JobStore&&) noexcept;
  ~JobStore();

  // A new queued job, or the existing one with the same (task, source, options): identical
  // requests are answered from the store.
  Result<Job> submit(const std::string& task, const std::string& source, const nlohmann::json& options);
  // Many at once, in one transaction (all stored or none); in request order, duplicates included.
  Result<std::vector<Job>> submit_all(const std::vector<JobRequest>& requests);
  std::optional<Job> get(const std::string& id);
  // The oldest queued job, now running and owned by `worker`; nullopt when none.
  std::optional<Job> claim(int worker);
  // The oldest queued job and up to max - 1 more queued jobs of the same task and options, all
  // running and owned by `worker` (evaluated in one GPU run); empty when none is queued.
  std::vector<Job> claim_batch(int worker, int max);
  // Stores the result if `worker` still owns the running job; false otherwise (the job was
  // handed to another worker after this one was presumed dead).
  bool finish(const std::string& id, int worker, const nlohmann::json& result);
  // Running jobs of `worker` (or of every worker when -1) go back to the queue.
  int requeue(int worker = -1);
  int queued();
  // Counts for /metrics: jobs by state, done jobs by verdict, latency (finished - created) buckets.
  nlohmann::json stats();

 private:
  JobStore();
  struct Impl;
  std::unique_ptr<Impl> p_;
};

// The dedupe key of a request.
std::string job_key(const std::string& task, const std::string& source, const nlohmann::json& options);

}  // namespace cudaperf::serve
