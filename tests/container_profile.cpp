// Runs a command under the system-call rules of a container's default
// seccomp profile (Docker's, for a container without CAP_SYS_ADMIN):
// unshare, setns, mount and clone with any namespace flag fail with EPERM,
// clone3 with ENOSYS (the C library then falls back to clone), and the
// Landlock calls fail with EPERM (profiles that predate Landlock do not
// list them). What the judge then has: no user namespaces, no private
// root, no Landlock: no file sandbox.
// Usage: container_profile COMMAND [ARG...]
#include <errno.h>
#include <sched.h>
#include <seccomp.h>
#include <unistd.h>

#include <cstdio>
#include <initializer_list>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s COMMAND [ARG...]\n", argv[0]);
    return 2;
  }
  scmp_filter_ctx context = seccomp_init(SCMP_ACT_ALLOW);
  if (!context) return 2;
  int failed = 0;
  for (const char* name : {"unshare", "setns", "mount", "umount2", "pivot_root", "landlock_create_ruleset",
                           "landlock_add_rule", "landlock_restrict_self"}) {
    int number = seccomp_syscall_resolve_name(name);
    if (number != __NR_SCMP_ERROR) failed |= seccomp_rule_add(context, SCMP_ACT_ERRNO(EPERM), number, 0);
  }
  for (unsigned long flag :
       {CLONE_NEWNS, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWCGROUP})
    failed |=
        seccomp_rule_add(context, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, SCMP_A0(SCMP_CMP_MASKED_EQ, flag, flag));
  failed |= seccomp_rule_add(context, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
  if (failed || seccomp_load(context) != 0) {
    std::fprintf(stderr, "container_profile: could not load the filter\n");
    return 2;
  }
  seccomp_release(context);
  execvp(argv[1], argv + 1);
  std::perror(argv[1]);
  return 127;
}
