// Building an untrusted candidate: compile (cached), resource usage per kernel from ptxas, and the
// link allowlist over the shared object's imported symbols and libraries.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "cudaperf/compile/compile.hpp"
#include "cudaperf/task/task.hpp"

namespace cudaperf::compile {

struct KernelResources {
  std::string mangled, name;  // name: demangled
  int registers = 0, barriers = 0;
  int shared_static = 0;      // bytes
  int stack_frame = 0, spill_stores = 0, spill_loads = 0;  // bytes
  int constant0 = 0;          // bytes of cmem[0] (kernel parameters)
};

// Parses `ptxas -v` output (nvcc -Xptxas -v): one entry per compiled entry function.
std::vector<KernelResources> parse_ptxas_info(const std::string& log);

struct LinkViolation {
  std::string symbol;  // an imported symbol or a NEEDED library
  std::string reason;  // "creates a stream: all work must run on the given stream"
};

struct LinkReport {
  std::vector<std::string> imports;  // undefined dynamic symbols, version suffix removed
  std::vector<std::string> needed;   // DT_NEEDED libraries
  std::vector<LinkViolation> violations;
  std::string error;                 // set when the object could not be inspected
  bool ok() const { return violations.empty() && error.empty(); }
  std::string message() const;       // one line per violation
};

// Why `symbol` may not be imported by a candidate, or "" when it is on the allowlist.
std::string link_violation_reason(const std::string& symbol);
// Inspects a built candidate with nm -D / readelf -d.
LinkReport check_link(const std::filesystem::path& so);
// Source-level rules for what imports cannot show (header-only libraries): Thrust, CUB.
std::vector<LinkViolation> check_source_rules(const std::string& source);

struct CandidateBuild {
  Artifact artifact;                       // artifact.ok false: compile_error (diagnostics set)
  std::vector<KernelResources> kernels;    // when it compiled
  LinkReport link;                         // when it compiled: !ok() is link_error
};

// nvcc with -Xptxas -v against the task's declaration, then the link checks.
CandidateBuild build_candidate(const task::Task& t, const std::filesystem::path& source, const Options& o = {});

}  // namespace cudaperf::compile
