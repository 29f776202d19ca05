// One Python worker process of torch2cuda (python -m cudaperf.torch_worker ROLE): its pipes, how it
// is started, read and ended; the environment and argv of each role; the spare worker kept ahead.
#pragma once
#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "build_jail.hpp"
#include "clock.hpp"
#include "cudaperf/torch2cuda/runtime.hpp"

namespace cudaperf::torch2cuda::detail {

// A Python worker: stdin (commands), a result channel (its fd 3), stdout+stderr (kept, capped).
struct WorkerProcess {
  pid_t pid = -1;
  int in_fd = -1, chan_fd = -1, out_fd = -1;
  std::string channel, output;
  bool overflow = false, exited = false, timed_out = false;
  int status = 0;
  Clock::time_point t0;

  ~WorkerProcess() { kill_all(); }

  // `jail`: a build worker, confined (build_jail.hpp); otherwise a network namespace where permitted.
  bool start(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string& err,
             const BuildJail* jail = nullptr);
  void write_line(const std::string& s);
  void close_stdin();
  // Reads until pred() holds, the process exits, or the deadline; true when pred() held.
  bool pump(Clock::time_point deadline, const std::function<bool()>& pred);
  // Exited, and both pipes read to their end.
  bool finished() const { return exited && chan_fd < 0 && out_fd < 0; }
  // One round of pump(): what the pipes hold (waiting up to ms for it), then whether the process exited.
  void step(int ms);
  void wait_exit(Clock::time_point deadline) { pump(deadline, nullptr); }
  void kill_all();

  int signal_number() const;
  int exit_code() const;
  std::string describe() const;
  std::string output_tail(size_t n = 1500) const { return output.size() > n ? output.substr(output.size() - n) : output; }
  bool has_event(const std::string& ev) const;
};

// The environment every worker role gets (build workers: build_env, a smaller one).
std::vector<std::string> worker_env(const TorchRuntime& rt);
std::vector<std::string> worker_argv(const TorchRuntime& rt, const std::string& role);

// A worker started ahead for the next run's reference: torch imported, its role and arguments still
// to come on its stdin (torch_worker "spare"). Process-wide; used by one run at a time.
void start_spare(const TorchRuntime& rt, const std::vector<std::string>& env);
// The spare, when it was started for this runtime and is still alive; told its role and arguments.
std::unique_ptr<WorkerProcess> take_spare(const TorchRuntime& rt, const std::vector<std::string>& env,
                                          const std::vector<std::string>& argv);

}  // namespace cudaperf::torch2cuda::detail
