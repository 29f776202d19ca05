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

// The function a compiler-chosen variant stands for: __X_chk (glibc's fortified X, emitted under
// _FORTIFY_SOURCE; __open_2 for open) and __isoc99_X / __isoc23_X are X; any other symbol is itself. Whether a
// compiler emits them depends on the machine (its gcc's defaults, its glibc), not on the candidate.
std::string base_function(const std::string& symbol);
// Why `symbol` may not be imported by a candidate, or "" when it is on the allowlist. A variant
// (base_function) is judged as its base function: allowed iff it is, with its reason when not.
std::string link_violation_reason(const std::string& symbol);
// Inspects a built candidate with nm -D / readelf -d, and its code with check_code.
LinkReport check_link(const std::filesystem::path& so);
// What imports cannot show, from the object's code (objdump -d over every executable section, and
// readelf -l/-d): system-call instructions (syscall, sysenter, int $0x80), each named with the
// function it is in; writable+executable segments, text relocations, an executable stack (code that
// could be rewritten at run time past this check). `error` is set when the tools fail.
std::vector<LinkViolation> check_code(const std::filesystem::path& so, std::string& error);
// Source-level rules for what imports cannot show: header-only libraries (Thrust, CUB), and inline
// assembly naming a system-call instruction (defence in depth; check_code is the real check).
std::vector<LinkViolation> check_source_rules(const std::string& source);

struct CandidateBuild {
  Artifact artifact;                       // artifact.ok false: compile_error (diagnostics set)
  std::vector<KernelResources> kernels;    // when it compiled
  LinkReport link;                         // when it compiled: !ok() is link_error
};

// nvcc with -Xptxas -v against the task's declaration, then the link checks.
CandidateBuild build_candidate(const task::Task& t, const std::filesystem::path& source, const Options& o = {});

}  // namespace cudaperf::compile
