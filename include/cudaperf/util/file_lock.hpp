// An exclusive flock(2) on a file for the object's lifetime: evaluations sharing a device take it in
// turns (CUDAPERF_GPU_LOCK, the service's per-GPU lock). An empty path locks nothing; a file that
// cannot be opened locks nothing either (fd < 0).
#pragma once
#include <string>

namespace cudaperf {

struct FileLock {
  int fd = -1;
  explicit FileLock(const std::string& path);
  ~FileLock();
  FileLock(const FileLock&) = delete;
  FileLock& operator=(const FileLock&) = delete;
};

}  // namespace cudaperf
