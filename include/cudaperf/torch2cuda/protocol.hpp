// The torch2cuda worker protocol, from config/torch_protocol.toml (compiled in; what each list
// means is there). The Python worker reads the same file (python/cudaperf/torch_channel.py).
#pragma once
#include <set>
#include <string>
#include <vector>

namespace cudaperf::torch2cuda {

struct Protocol {
  std::vector<std::string> roles;
  std::set<std::string, std::less<>> events;            // every harness message
  std::set<std::string, std::less<>> candidate_events;  // what a candidate worker may send
  std::vector<std::string> candidate_stdin, reference_stdin, launcher_commands;
};
const Protocol& protocol();

}  // namespace cudaperf::torch2cuda
