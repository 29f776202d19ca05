// The result channel of a torch2cuda worker: JSON lines on its fd 3, capped. Exposed for tests.
#pragma once
#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace cudaperf::torch2cuda {

struct ChannelParse {
  std::vector<nlohmann::json> events;
  std::string forged;  // non-empty: why the channel cannot be trusted (malformed, duplicated, overflow)
};
constexpr size_t kChannelCap = 1 << 20;
// `strict`: the candidate's channel, where only a launcher's events (initialized, sandbox, done,
// fatal) may appear; anything else there is a forgery attempt.
ChannelParse parse_channel(const std::string& bytes, bool overflowed, bool strict);

}  // namespace cudaperf::torch2cuda
