// How a torch2cuda build worker is confined (BuildJail): prepared in the parent, entered in the
// child between fork and exec.
#pragma once
#include <sys/types.h>

#include <string>
#include <utility>
#include <vector>

namespace cudaperf::torch2cuda::detail {

// How a build worker is confined: the candidate's flags reach ninja, which runs its commands
// through /bin/sh, and its sources reach nvcc and the host compiler. Everything here is prepared in the
// parent; the child only makes system calls between fork and exec.
//   root:     own network and mount namespaces; every mount read-only but the build folder (bound on
//             itself); then the uid/gid of `nobody` (the build folder is theirs), or, where that user
//             cannot import torch, root without any capability (it cannot remount or reach the network).
//   not root: a network namespace where the kernel allows one (user namespace), the invoking user.
// In every case: a scrubbed environment, no new privileges, file size and core limits.
struct BuildJail {
  bool root = false, drop_uid = false;
  uid_t uid = 65534;
  gid_t gid = 65534;
  std::string work;                                     // the only writable folder
  std::vector<std::pair<std::string, unsigned long>> mounts;  // mount points to remount read-only, their flags
  std::string describe() const;
};

// The mount points to remount read-only (all but /proc and /sys), each with its own flags kept.
std::vector<std::pair<std::string, unsigned long>> remount_points();

// In the child, between fork and exec (system calls only). Returns a message on a step that must not
// fail (the build then does not run), nullptr when confined.
const char* enter_build_jail(const BuildJail& j);

}  // namespace cudaperf::torch2cuda::detail
