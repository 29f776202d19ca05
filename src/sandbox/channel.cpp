#include "cudaperf/sandbox/channel.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace cudaperf::sandbox {

bool LineChannel::send(const std::string& line) {
  std::string data = line + "\n";
  size_t done = 0;
  while (done < data.size()) {
    ssize_t n = ::send(fd_, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

std::optional<std::string> LineChannel::receive(std::chrono::milliseconds timeout) {
  auto deadline = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    if (auto nl = buffer_.find('\n'); nl != std::string::npos) {
      std::string line = buffer_.substr(0, nl);
      buffer_.erase(0, nl + 1);
      return line;
    }
    if (buffer_.size() > max_line_) {
      error_ = "line over the channel's bound";
      return std::nullopt;
    }
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    if (left.count() < 0) {
      error_ = "timeout";
      return std::nullopt;
    }
    pollfd p{fd_, POLLIN, 0};
    int r = poll(&p, 1, static_cast<int>(std::min<long long>(left.count() + 1, 1 << 30)));
    if (r < 0 && errno == EINTR) continue;
    if (r == 0) continue;
    char buf[65536];
    ssize_t n = ::recv(fd_, buf, sizeof buf, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      error_ = "end of stream";
      return std::nullopt;
    }
    buffer_.append(buf, static_cast<size_t>(n));
  }
}

}  // namespace cudaperf::sandbox
