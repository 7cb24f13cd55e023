// What the test harness needs from C to know a child has ended without
// relying on Foundation's `Process` noticing (see `ExitWatch`).
#ifndef CHARNESS_H
#define CHARNESS_H

/// A pidfd for `pid` (close-on-exec): readable once the process has
/// ended. -1 with errno when it cannot be opened (the process is gone).
int charness_pidfd_open(int pid);

/// Whether child `pid` has ended, without reaping it (waitid with
/// WNOWAIT, so Foundation still reaps it): 1 with `*status` its exit code
/// and `*signaled` 0, or its signal and 1; 0 while it runs; -1 with errno
/// when it is not (or no longer) a child to ask about.
int charness_child_ended(int pid, int *status, int *signaled);

#endif
