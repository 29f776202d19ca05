// config/torch_protocol.toml, parsed once (protocol.hpp).
#include "cudaperf/torch2cuda/protocol.hpp"

#include "cudaperf/util/rule_files.hpp"

namespace cudaperf::torch2cuda {

namespace {
Protocol parse_protocol() {
  namespace rf = rule_files;
  constexpr std::string_view file = "torch_protocol.toml";
  const toml::table t = rf::parse(rf::torch_protocol_toml(), file);
  Protocol p;
  p.roles = rf::strings(t, "roles", file);
  for (auto& e : rf::strings(t, "events.all", file)) p.events.insert(std::move(e));
  for (auto& e : rf::strings(t, "events.candidate", file)) {
    if (!p.events.count(e)) rf::defect(file, "events.candidate: '" + e + "' is not in events.all");
    p.candidate_events.insert(std::move(e));
  }
  p.candidate_stdin = rf::strings(t, "commands.candidate_stdin", file);
  p.reference_stdin = rf::strings(t, "commands.reference_stdin", file);
  p.launcher_commands = rf::strings(t, "commands.launcher", file);
  return p;
}
}  // namespace

const Protocol& protocol() {
  static const Protocol p = parse_protocol();
  return p;
}

}  // namespace cudaperf::torch2cuda
