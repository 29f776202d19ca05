#include "cudaperf/sandbox/confine.hpp"

#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <string>
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

bool exec_mappings_allowed_by_environment() {
  const char* v = std::getenv("CUDAPERF_ALLOW_EXEC_MAPPINGS");
  return v && *v && std::string(v) != "0";
}

namespace {

// Whether this process already runs with executable stacks (a loaded object asked for one:
// glibc then maps every new thread's stack PROT_EXEC, which the exec-memory rules would kill).
bool stacks_are_executable() {
  std::ifstream maps("/proc/self/maps");
  for (std::string line; std::getline(maps, line);)
    if (line.size() > 8 && line.compare(line.size() - 7, 7, "[stack]") == 0) {
      auto sp = line.find(' ');
      return sp != std::string::npos && sp + 3 < line.size() && line[sp + 3] == 'x';
    }
  return false;
}

}  // namespace

std::optional<std::string> lock_down(const ConfinePolicy& p) {
  if (!p.seccomp) return std::nullopt;
  // No capabilities left (a worker run as root keeps none of root's powers: with CAP_SYS_PTRACE it
  // could still open another process's /proc/<pid>/mem, non-dumpable or not).
  __user_cap_header_struct head{_LINUX_CAPABILITY_VERSION_3, 0};
  __user_cap_data_struct none[2] = {};
  if (syscall(SYS_capset, &head, none) != 0) return fmt::format("cannot drop capabilities: {}", strerror(errno));
  const bool deny_exec = p.deny_exec_mappings && !exec_mappings_allowed_by_environment();
  if (deny_exec && stacks_are_executable())
    return std::string("this process runs with executable stacks (a loaded library asks for one), so new threads need "
                       "executable memory, which the filter refuses; set CUDAPERF_ALLOW_EXEC_MAPPINGS=1 only to diagnose");
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) return std::string("seccomp_init failed");
  // A system call of another ABI (int $0x80 is i386's, numbers with bit 30 are x32's) is not
  // matched by the rules below, which name x86-64 calls: it ends the whole process, not only the
  // calling thread (libseccomp's default), so a multi-threaded worker cannot hang half-dead.
  int rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
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
  kill(SCMP_SYS(process_madvise));  // another process's memory (pidfd), as process_vm_writev
  // Resource limits of another process (prlimit64(pid, ...)): lowering the supervisor's or another
  // worker's RLIMIT_NOFILE/AS needs no capability. glibc's get/setrlimit pass pid 0; any pid is
  // refused, its own too (libseccomp cannot compare one argument twice in a rule).
  if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_KILL_PROCESS, SCMP_SYS(prlimit64), 1, SCMP_A0(SCMP_CMP_NE, 0));
  if (deny_exec) {
    // No new executable memory after the filter (no JIT, no code written by the candidate): the
    // candidate's code is what check_code saw. dlopen maps a well-formed object's segments from its
    // file with their final protections (file-backed PROT_EXEC stays allowed) and protects RELRO
    // PROT_READ; only text relocations and executable stacks would need more, and a candidate with
    // either is refused at build time.
    auto add = [&](int nr, std::initializer_list<scmp_arg_cmp> args) {
      if (rc == 0) rc = seccomp_rule_add_array(ctx, SCMP_ACT_KILL_PROCESS, nr, static_cast<unsigned>(args.size()), args.begin());
    };
    add(SCMP_SYS(mmap), {SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC), SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_ANONYMOUS, MAP_ANONYMOUS)});
    add(SCMP_SYS(mmap), {SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC | PROT_WRITE, PROT_EXEC | PROT_WRITE)});  // W^X, file-backed too
    add(SCMP_SYS(mprotect), {SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC)});
    add(SCMP_SYS(pkey_mprotect), {SCMP_A2(SCMP_CMP_MASKED_EQ, PROT_EXEC, PROT_EXEC)});
    add(SCMP_SYS(shmat), {SCMP_A2(SCMP_CMP_MASKED_EQ, SHM_EXEC, SHM_EXEC)});
    // READ_IMPLIES_EXEC would make every later PROT_READ mapping executable past the rules above;
    // only the query personality(0xffffffff) is allowed.
    add(SCMP_SYS(personality), {SCMP_A0(SCMP_CMP_NE, 0xffffffffu)});
  }
  if (p.deny_file_writes) {
    const scmp_datum_t write_flags[] = {O_WRONLY, O_RDWR};
    for (scmp_datum_t f : write_flags) {
      if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_ACCMODE, f));
      if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, O_ACCMODE, f));
    }
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(openat), 1, SCMP_A2(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(open), 1, SCMP_A1(SCMP_CMP_MASKED_EQ, O_CREAT, O_CREAT));
    // openat2 passes its flags in memory the filter cannot read (glibc's open never uses it: callers
    // fall back to openat on ENOSYS); memfd_create makes a new writable file (and code written to
    // it could be mapped executable from its descriptor).
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0);
    if (rc == 0) rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(memfd_create), 0);
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
