// The build worker's confinement (build_jail.hpp).
#include "build_jail.hpp"

#include <grp.h>
#include <linux/capability.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cctype>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

namespace cudaperf::torch2cuda::detail {

std::string BuildJail::describe() const {
  if (!root) return "not root: the invoking user, a network namespace where unprivileged user namespaces are allowed";
  return drop_uid ? fmt::format("uid {} gid {}, network and mount namespaces, every mount read-only but the build folder", uid, gid)
                  : "root without capabilities (the build user cannot import torch), network and mount namespaces, every "
                    "mount read-only but the build folder";
}

std::vector<std::pair<std::string, unsigned long>> remount_points() {
  std::vector<std::pair<std::string, unsigned long>> out;
  std::ifstream in("/proc/self/mountinfo");
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream f(line);
    std::string id, parent, dev, root, point;
    f >> id >> parent >> dev >> root >> point;
    std::string p;  // mountinfo escapes space, tab, newline and backslash as \ooo
    for (size_t i = 0; i < point.size(); ++i) {
      if (point[i] == '\\' && i + 3 < point.size() && std::isdigit(static_cast<unsigned char>(point[i + 1]))) {
        p += static_cast<char>(std::stoi(point.substr(i + 1, 3), nullptr, 8));
        i += 3;
      } else {
        p += point[i];
      }
    }
    if (p.empty() || p == "/proc" || p.rfind("/proc/", 0) == 0 || p == "/sys" || p.rfind("/sys/", 0) == 0) continue;
    struct statvfs sv {};
    unsigned long flags = 0;
    if (statvfs(p.c_str(), &sv) == 0) {
      if (sv.f_flag & ST_NOSUID) flags |= MS_NOSUID;
      if (sv.f_flag & ST_NODEV) flags |= MS_NODEV;
      if (sv.f_flag & ST_NOEXEC) flags |= MS_NOEXEC;
      if (sv.f_flag & ST_NOATIME) flags |= MS_NOATIME;
      if (sv.f_flag & ST_RELATIME) flags |= MS_RELATIME;
    }
    out.emplace_back(p, flags);
  }
  return out;
}

const char* enter_build_jail(const BuildJail& j) {
  rlimit fsize{8ull << 30, 8ull << 30};
  setrlimit(RLIMIT_FSIZE, &fsize);
  if (j.root) {
    if (unshare(CLONE_NEWNET | CLONE_NEWNS) != 0) return "build jail: unshare(network, mount) failed\n";
    if (mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0) return "build jail: cannot make mounts private\n";
    if (mount(j.work.c_str(), j.work.c_str(), nullptr, MS_BIND, nullptr) != 0) return "build jail: cannot bind the build folder\n";
    for (const auto& [point, flags] : j.mounts)
      if (point != j.work)  // best effort per mount (one that refuses stays as it was; the uid drop still applies)
        mount(nullptr, point.c_str(), nullptr, MS_BIND | MS_REMOUNT | MS_RDONLY | flags, nullptr);
    if (j.drop_uid) {
      if (setgroups(0, nullptr) != 0 || setresgid(j.gid, j.gid, j.gid) != 0 || setresuid(j.uid, j.uid, j.uid) != 0)
        return "build jail: cannot drop to the build user\n";
    } else {
      for (int cap = 0; cap <= 63; ++cap) prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
      __user_cap_header_struct head{_LINUX_CAPABILITY_VERSION_3, 0};
      __user_cap_data_struct none[2] = {};
      if (syscall(SYS_capset, &head, none) != 0) return "build jail: cannot drop capabilities\n";
    }
  } else if (unshare(CLONE_NEWUSER | CLONE_NEWNET) != 0) {
    unshare(CLONE_NEWNET);  // (fails without privileges: the reason is in the report)
  }
  prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
  if (chdir(j.work.c_str()) != 0) return "build jail: cannot enter the build folder\n";
  return nullptr;
}

}  // namespace cudaperf::torch2cuda::detail
