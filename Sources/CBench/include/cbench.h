// What undod-bench needs from C and Swift cannot say safely: starting a child
// that dies with the bench (fork + prctl + exec, with nothing but
// async-signal-safe calls between fork and exec), reading wait statuses
// (macros), and a last-resort guard that kills every child from a signal
// handler when the bench is interrupted or runs past its time limit.
#ifndef CBENCH_H
#define CBENCH_H

#include <sys/types.h>

/// Starts `path` with `argv` (NULL-terminated, argv[0] included). The child
/// gets `stdout_fd` and `stderr_fd` (or /dev/null for -1) as fds 1 and 2,
/// stdin from /dev/null, every signal unblocked and at its default, and
/// SIGKILL when the bench's thread that started it goes away. The pid is
/// remembered for `cbench_kill_all`. Returns the pid, or -1 with errno set.
pid_t cbench_spawn(const char *path, char *const argv[], int stdout_fd, int stderr_fd);

/// Forgets a child that has been reaped.
void cbench_forget(pid_t pid);

/// SIGKILLs every remembered child. Async-signal-safe.
void cbench_kill_all(void);

/// Makes SIGINT, SIGTERM, SIGHUP and SIGALRM kill every remembered child,
/// print one line and `_exit(3)`, and arms SIGALRM `seconds` from now
/// (0: no time limit).
void cbench_install_guard(unsigned seconds);

/// Reaps `pid` if it has ended (without waiting). Returns 1 and sets
/// `*code` (the exit status, or 128 + the signal that ended it) when it has;
/// 0 while it runs; -1 on error (not our child).
int cbench_reap(pid_t pid, int *code);

/// The highest-numbered CPU this process may run on, or -1.
int cbench_last_allowed_cpu(void);

/// Lets `pid` (0: this process) run only on `cpu` (`cpu` < 0: on every CPU
/// this process could run on when the bench started). Returns 0 or -1.
int cbench_pin(pid_t pid, int cpu);

/// A pipe whose ends are close-on-exec (`pipe2` needs _GNU_SOURCE).
int cbench_pipe(int fds[2]);

#endif
