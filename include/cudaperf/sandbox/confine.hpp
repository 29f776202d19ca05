// Confining the process that will run candidate code. Two steps, because CUDA's own start-up
// needs what the filter forbids (seen on the H200: a context created after the filter fails with
// "OS call failed"):
//   1. isolate()  — right after fork, while single-threaded: own network namespace, rlimits,
//                   not dumpable. Before CUDA is initialised.
//   2. lock_down() — after the CUDA context exists, before the candidate is loaded: a seccomp
//                   filter that kills the process on sockets, exec, fork, ptrace, namespace and
//                   module calls, signals to other processes, other processes' memory and rlimits,
//                   system calls of other ABIs (int $0x80), and new executable memory (anonymous
//                   PROT_EXEC maps, W+X maps, mprotect to PROT_EXEC, SHM_EXEC, personality), and
//                   refuses writable opens (openat2, memfd_create included).
//
// CUDAPERF_ALLOW_EXEC_MAPPINGS=1 in the environment of the confined process leaves the
// executable-memory rules out, for diagnosis only (a worker killed by SIGSYS on a machine whose CUDA
// driver or torch build needs such memory after start-up); never in production runs.
#pragma once
#include <optional>
#include <string>

namespace cudaperf::sandbox {

struct ConfinePolicy {
  bool network_namespace = true;  // unshare(CLONE_NEWNET); needs CAP_SYS_ADMIN, else reported
  bool deny_file_writes = true;   // open/openat/creat with write access or O_CREAT fail with EACCES
  bool seccomp = true;
  bool deny_exec_mappings = true;  // no new executable memory (see above); CUDAPERF_ALLOW_EXEC_MAPPINGS=1 overrides
};

// True when CUDAPERF_ALLOW_EXEC_MAPPINGS is set to anything but "" or "0".
bool exec_mappings_allowed_by_environment();

// Step 1. Returns a message for each step that could not be applied (the process continues:
// the caller decides whether that is fatal), or nullopt when all applied.
std::optional<std::string> isolate(const ConfinePolicy& p = {});

// Step 2. nullopt on success; a message when the filter could not be installed (fatal for callers
// that run untrusted code).
std::optional<std::string> lock_down(const ConfinePolicy& p = {});

// The signal a locked-down process dies of when it makes a forbidden call (SIGSYS), for verdicts.
int forbidden_call_signal();

}  // namespace cudaperf::sandbox
