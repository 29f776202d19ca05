// The launcher worker as a child process of the trusted measurer: started with posix_spawn (an
// exec, so none of the caller's memory is inherited), in its own process group, with fd 3 its
// control channel, stdin /dev/null, stdout and stderr one pipe that a thread drains and bounds (a
// candidate that prints is neither blocked nor killed, and its output reaches no report), and a
// scrubbed environment. Every other descriptor of the caller is close-on-exec or closed by the
// launcher itself.
#pragma once
#include <chrono>
#include <memory>
#include <string>
#include <thread>

#include "cudaperf/sandbox/channel.hpp"
#include "cudaperf/sandbox/process.hpp"

namespace cudaperf::sandbox {

// Where the launcher binary is: $CUDAPERF_LAUNCHER, else next to the running executable, else the
// build-time location.
std::string launcher_path();

class LauncherProcess {
 public:
  LauncherProcess();
  ~LauncherProcess();  // kills and reaps a child still running
  LauncherProcess(const LauncherProcess&) = delete;
  LauncherProcess& operator=(const LauncherProcess&) = delete;

  // Starts `path`; false (and error()) when it could not be started.
  bool spawn(const std::string& path);
  LineChannel& channel() { return channel_; }
  const std::string& error() const { return error_; }
  // Waits up to `timeout` for the child to exit, then kills its process group; how it ended.
  ProcessResult finish(std::chrono::milliseconds timeout);
  void kill_now();
  // The first bytes the child printed (stdout and stderr), for diagnostics only.
  std::string output() const;

 private:
  int pid_ = -1;
  bool reaped_ = false;
  ProcessResult result_;
  LineChannel channel_;
  std::string error_;
  struct Drain;
  std::unique_ptr<Drain> drain_;
};

}  // namespace cudaperf::sandbox
