// The few things Swift cannot say to C directly: a signal handler that only
// writes to a pipe (async-signal-safe), and the signal mask calls it needs.
#ifndef CSHIM_H
#define CSHIM_H

/// Routes `signo` to a handler that writes its number as one byte to `fd`
/// (non-blocking), and unblocks it in the calling thread. Returns 0 or -1.
int cshim_route_signal_to_fd(int signo, int fd);

/// Restores the default disposition of `signo`. Returns 0 or -1.
int cshim_restore_signal(int signo);

/// Makes a pipe whose two ends are non-blocking and close-on-exec
/// (`pipe2` needs _GNU_SOURCE, which Swift's Glibc does not define).
/// Returns 0 or -1.
int cshim_nonblocking_pipe(int fds[2]);

#endif
