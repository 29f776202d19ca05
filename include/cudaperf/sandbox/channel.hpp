// A line channel over a stream socket: JSON lines between the trusted measurer and the launcher
// worker. Lines are bounded; a read waits at most its timeout. The measurer treats everything the
// launcher sends as control flow (what to do next), never as a measurement.
#pragma once
#include <chrono>
#include <optional>
#include <string>

namespace cudaperf::sandbox {

class LineChannel {
 public:
  explicit LineChannel(int fd = -1, size_t max_line = 1 << 20) : fd_(fd), max_line_(max_line) {}
  int fd() const { return fd_; }
  // Sends one line (a '\n' is appended); false when the peer is gone.
  bool send(const std::string& line);
  // The next line without its '\n'; nullopt on timeout, end of stream, or a line over the bound
  // (then `error()` says which).
  std::optional<std::string> receive(std::chrono::milliseconds timeout);
  const std::string& error() const { return error_; }

 private:
  int fd_;
  size_t max_line_;
  std::string buffer_, error_;
};

}  // namespace cudaperf::sandbox
