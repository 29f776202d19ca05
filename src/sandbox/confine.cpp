#include "cudaperf/sandbox/confine.hpp"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <vector>

namespace cudaperf::sandbox {

std::optional<std::string> isolate(const ConfinePolicy& p) {
  std::vector<std::string> problems;
  if (p.network_namespace && unshare(CLONE_NEWNET) != 0)
    problems.push_back(fmt::format("no network namespace ({}); sockets are still refused by the filter", strerror(errno)));
  rlimit zero{0, 0};
  setrlimit(RLIMIT_CORE, &zero);
  if (p.deny_file_writes) setrlimit(RLIMIT_FSIZE, &zero);  // a write that grows a file: SIGXFSZ
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);                        // no ptrace attach, no /proc/<pid>/mem
  if (problems.empty()) return std::nullopt;
  std::string all;
  for (auto& s : problems) all += (all.empty() ? "" : "; ") + s;
  return all;
}

int forbidden_call_signal() { return SIGSYS; }

std::optional<std::string> lock_down(const ConfinePolicy& p) {
  if (!p.seccomp) return std::nullopt;
  // No capabilities left (a worker run as root keeps none of root's powers: with CAP_SYS_PTRACE it
  // could still open another process's /proc/<pid>/mem, non-dumpable or not).
  __user_cap_header_struct head{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[2] = {};
  if (syscall(SYS_capset, &head, none) != 0) return fmt::format("cannot drop capabilities: {}", strerror(errno));
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return std::string("seccomp_init failed");
  int rc = 0;
  auto kill = [&](int nr) {
    if (nr >= 0 && rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 0);
  };
  for (int nr : {SCMP_SYS(socket), SCMP_SYS(socketpair), SCMP_SYS(connect), SCMP_SYS(bind), SCMP_SYS(listen),
                 SCMP_SYS(accept), SCMP_SYS(accept4), SCMP_SYS(execve), SCMP_SYS(execveat), SCMP_SYS(fork),
                 SCMP_SYS(vfork), SCMP_SYS(ptrace), SCMP_SYS(process_vm_readv), SCMP_SYS(process_vm_writev),
                 SCMP_SYS(mount), SCMP_SYS(umount2), SCMP_SYS(unshare), SCMP_SYS(setns), SCMP_SYS(chroot),
                 SCMP_SYS(pivot_root), SCMP_SYS(init_module), SCMP_SYS(finit_module), SCMP_SYS(delete_module),
                 SCMP_SYS(kexec_load), SCMP_SYS(bpf), SCMP_SYS(perf_event_open), SCMP_SYS(keyctl),
                 SCMP_SYS(add_key), SCMP_SYS(request_key), SCMP_SYS(userfaultfd), SCMP_SYS(io_uring_setup),
                 SCMP_SYS(reboot), SCMP_SYS(swapon), SCMP_SYS(swapoff), SCMP_SYS(setuid), SCMP_SYS(setgid)})
    kill(nr);
  // New processes are refused; new threads (CLONE_THREAD), which CUDA itself starts, are not.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));
  // clone3 passes its flags in memory the filter cannot read: make glibc fall back to clone.
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  // Signals only to itself.
  // Every call that names a target process by its id, not only kill(2): tgkill (raise, pthread_kill
  // name this process first), tkill (its main thread's id is the pid), rt_(tg)sigqueueinfo (sigqueue).
  // pidfd_send_signal's target is behind a descriptor the filter cannot see: refused outright.
  const auto self = static_cast<scmp_datum_t>(getpid());
  for (int nr : {SCMP_SYS(kill), SCMP_SYS(tgkill), SCMP_SYS(tkill), SCMP_SYS(rt_sigqueueinfo), SCMP_SYS(rt_tgsigqueueinfo)})
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, nr, 1, SCMP_A0(SCMP_CMP_NE, self));
  kill(SCMP_SYS(pidfd_send_signal));
  kill(SCMP_SYS(pidfd_getfd));  // another process's descriptors, with ptrace's rights: as ptrace
  if (p.deny_file_writes) {
    const scmp_datum_t write_flags[] = {O_WRONLY, O_RDWR};
    for (scmp_datum_t f : write_flags) {
      if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE, f));
      if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, O_ACCMODE, f));
    }
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
    for (int nr : {SCMP_SYS(creat), SCMP_SYS(unlink), SCMP_SYS(unlinkat), SCMP_SYS(rename), SCMP_SYS(renameat),
                   SCMP_SYS(renameat2), SCMP_SYS(mkdir), SCMP_SYS(mkdirat), SCMP_SYS(rmdir), SCMP_SYS(truncate),
                   SCMP_SYS(symlink), SCMP_SYS(symlinkat), SCMP_SYS(link), SCMP_SYS(linkat), SCMP_SYS(chmod),
                   SCMP_SYS(fchmodat), SCMP_SYS(chown), SCMP_SYS(fchownat)})
      if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), nr, 0);
  }
  if (rc == 0) rc = seccomp_load(ctx);
  seccomp_release(ctx);
  if (rc != 0) return fmt::format("seccomp filter not installed: {}", strerror(-rc));
  return std::nullopt;
}

}  // namespace cudaperf::sandbox
