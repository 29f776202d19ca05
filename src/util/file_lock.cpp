#include "cudaperf/util/file_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>

namespace cudaperf {

FileLock::FileLock(const std::string& path) {
  if (path.empty()) return;
  fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd >= 0)
    while (flock(fd, LOCK_EX) != 0 && errno == EINTR) {
    }
}

FileLock::~FileLock() {
  if (fd >= 0) ::close(fd);
}

}  // namespace cudaperf
