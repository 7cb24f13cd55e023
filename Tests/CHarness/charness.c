#define _GNU_SOURCE
#include "charness.h"
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int charness_pidfd_open(int pid) {
    // pidfd_open always sets close-on-exec on what it returns.
    return (int)syscall(SYS_pidfd_open, (pid_t)pid, 0);
}

int charness_child_ended(int pid, int *status, int *signaled) {
    siginfo_t info = {0};
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    if (info.si_pid == 0) return 0;
    *signaled = info.si_code == CLD_EXITED ? 0 : 1;
    *status = info.si_status;
    return 1;
}
