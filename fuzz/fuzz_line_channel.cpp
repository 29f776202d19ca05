// The launcher control channel as the measurer reads it: line framing over a socket (LineChannel),
// then each line as JSON. The launcher process runs candidate code, so these bytes are untrusted.
// The input arrives in pieces (split at 0xff bytes, at most kPieces of them, and every kMaxPiece
// bytes) so that lines straddle reads and waits.
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <string>

#include "cudaperf/sandbox/channel.hpp"

using cudaperf::sandbox::LineChannel;

namespace {

// Each wait for more bytes costs the channel's 1 ms poll; a few pieces are enough to split lines.
constexpr int kPieces = 8;
// Well under a socket buffer, so that writing a piece into the drained socket never blocks.
constexpr size_t kMaxPiece = 32 << 10;

// Reads every complete line now available; false once the channel is closed or broken.
bool drain(LineChannel& ch) {
  for (;;) {
    auto line = ch.receive(std::chrono::milliseconds(0));
    if (!line) return ch.error() == "timeout";
    if (line->find('\n') != std::string::npos) std::abort();
    (void)nlohmann::json::parse(*line, nullptr, false);
  }
}

void feed(const uint8_t* data, size_t size, size_t max_line) {
  int sv[2];
  if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0) std::abort();
  LineChannel ch(sv[0], max_line);
  bool open = true;
  int splits = 0;
  for (size_t start = 0; open && start < size;) {
    auto separator = [&](size_t i) { return data[i] == 0xff && splits < kPieces - 1; };
    size_t end = start;
    while (end < size && end - start < kMaxPiece && !separator(end)) ++end;
    if (end > start && write(sv[1], data + start, end - start) != static_cast<ssize_t>(end - start)) std::abort();
    open = drain(ch);
    if (end < size && separator(end)) ++end, ++splits;  // the separator itself is not sent
    start = end;
  }
  close(sv[1]);
  if (open)
    while (auto line = ch.receive(std::chrono::milliseconds(1000))) (void)nlohmann::json::parse(*line, nullptr, false);
  close(sv[0]);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  feed(data, size, 1 << 20);
  feed(data, size, 64);  // a small bound, so that over-long lines are reached
  return 0;
}
