// A worker's result channel, parsed (channel.hpp).
#include "cudaperf/torch2cuda/channel.hpp"
#include "cudaperf/torch2cuda/protocol.hpp"

#include <fmt/format.h>
#include <set>
#include <sstream>

namespace cudaperf::torch2cuda {

using nlohmann::json;

ChannelParse parse_channel(const std::string& bytes, bool overflowed, bool strict) {
  ChannelParse p;
  if (overflowed) p.forged = fmt::format("rule result_channel: more than {} bytes on the result channel", kChannelCap);
  const auto& kEvents = protocol().events;  // config/torch_protocol.toml
  std::istringstream in(bytes);
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    ++n;
    if (line.empty()) continue;
    auto j = json::parse(line, nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("event") || !j["event"].is_string() ||
        !kEvents.count(j["event"].get<std::string>())) {
      if (strict && p.forged.empty()) p.forged = fmt::format("rule result_channel: line {} is not a harness message", n);
      continue;
    }
    std::string ev = j["event"];
    // A candidate worker only launches (torch_launch.py): it says only events.candidate of the protocol.
    // Anything else on its channel (a result, a measurement) is a forgery attempt.
    if (strict && !protocol().candidate_events.count(ev) && p.forged.empty())
      p.forged = fmt::format("rule result_channel: event '{}' does not come from a candidate worker (line {})", ev, n);
    p.events.push_back(std::move(j));
  }
  return p;
}

}  // namespace cudaperf::torch2cuda
