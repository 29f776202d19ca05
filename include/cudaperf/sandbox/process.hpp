// Running child processes with a time limit and captured output, and calling a function in a
// forked child so that a crash or hang in it cannot take the caller down.
#pragma once
#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace cudaperf::sandbox {

struct ProcessResult {
  int exit_code = -1;   // valid when exited normally
  int signal = 0;       // non-zero when killed by a signal
  bool timed_out = false;
  bool spawn_failed = false;
  std::string output;   // stdout and stderr interleaved (truncated to max_output bytes)
  double seconds = 0;

  bool ok() const { return !timed_out && !spawn_failed && signal == 0 && exit_code == 0; }
  std::string describe() const;  // "exit code 2", "killed by SIGSEGV", "timed out after 30 s"
};

// Runs argv[0] (looked up on PATH) with the given arguments.
ProcessResult run_process(const std::vector<std::string>& argv, std::chrono::milliseconds timeout,
                          size_t max_output = 1 << 20);

// Runs fn() in a forked child; the child's exit status is fn's return value. Memory the child
// must hand back has to live in a MAP_SHARED mapping created before the call (see SharedArena).
ProcessResult run_forked(const std::function<int()>& fn, std::chrono::milliseconds timeout);

// In a child that will run untrusted code: closes every descriptor above stderr it inherited (a job
// store, a records file, ...), except keep_a and keep_b, so that code cannot write to them.
void close_inherited_descriptors(int keep_a = -1, int keep_b = -1);

// run_forked in two steps, so that slow set-up can happen before the caller commits a resource
// (e.g. the GPU lock): the child runs prepare() at once and waits; fn() runs only after start().
// A prepare() that returns non-zero ends the child with that code (start() then just reaps it).
class GatedChild {
 public:
  // close_inherited: the child closes every descriptor above stderr it got from the caller (a job
  // store, a records file, ...) before prepare(), so the code it runs later cannot write to them.
  GatedChild(const std::function<int()>& prepare, const std::function<int()>& fn, bool close_inherited = false);
  ~GatedChild();  // a child never started is killed and reaped
  GatedChild(const GatedChild&) = delete;
  GatedChild& operator=(const GatedChild&) = delete;
  // True once prepare() has returned 0; false when the child ended or the time ran out (then killed).
  bool wait_ready(std::chrono::milliseconds timeout);
  // Lets fn() run and waits for the child to end (killed after `timeout`, counted from now).
  ProcessResult start(std::chrono::milliseconds timeout);

 private:
  int pid_ = -1, ready_fd_ = -1, go_fd_ = -1;
  bool reaped_ = false, spawn_failed_ = false;
  ProcessResult early_;  // how the child ended before start(), when it did
};

// Anonymous shared memory visible to forked children.
class SharedArena {
 public:
  explicit SharedArena(size_t bytes);
  ~SharedArena();
  SharedArena(const SharedArena&) = delete;
  SharedArena& operator=(const SharedArena&) = delete;
  bool ok() const { return base_ != nullptr; }
  // Returns `bytes` of 64-byte aligned storage, or nullptr when the arena is full.
  void* allocate(size_t bytes);
  // The whole mapping (page-aligned), e.g. to make it read-only in a child.
  void* base() const { return base_; }
  size_t size() const { return size_; }

 private:
  unsigned char* base_ = nullptr;
  size_t size_ = 0, used_ = 0;
};

}  // namespace cudaperf::sandbox
