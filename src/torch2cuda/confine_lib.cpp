// libcudaperf_confine.so: the sandbox's lock-down step for the Python worker of torch2cuda tasks,
// which loads this library with ctypes after torch has created its CUDA context and before the
// candidate module is imported (the same order as the C-to-CUDA workers: sandbox/confine.hpp).
#include <sys/prctl.h>
#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <string>

#include "cudaperf/sandbox/confine.hpp"

extern "C" __attribute__((visibility("default"))) int cudaperf_lock_down(char* err, int errlen) {
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);  // execve reset it: no ptrace attach, no /proc/<pid>/mem
  rlimit zero{0, 0};
  setrlimit(RLIMIT_CORE, &zero);
  cudaperf::sandbox::ConfinePolicy p;
  p.network_namespace = false;  // done by the supervisor before exec
  p.deny_file_writes = true;    // writable opens fail; descriptors opened before stay usable
  const char* off = std::getenv("CUDAPERF_NO_SECCOMP");
  p.seccomp = !(off && *off && std::string(off) != "0");
  auto e = cudaperf::sandbox::lock_down(p);
  if (!e) return 0;
  if (err && errlen > 0) {
    std::strncpy(err, e->c_str(), static_cast<size_t>(errlen) - 1);
    err[errlen - 1] = 0;
  }
  return 1;
}
