#define _GNU_SOURCE
#include "cshim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

/* One write end per process: signals are process-wide. */
static volatile sig_atomic_t cshim_signal_fd = -1;

static void cshim_handler(int signo) {
    int saved = errno;
    unsigned char byte = (unsigned char)signo;
    if (cshim_signal_fd >= 0) {
        ssize_t ignored = write(cshim_signal_fd, &byte, 1);
        (void)ignored;
    }
    errno = saved;
}

int cshim_route_signal_to_fd(int signo, int fd) {
    cshim_signal_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = cshim_handler;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    if (sigaction(signo, &action, NULL) != 0) return -1;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, signo);
    /* A parent may have started us with signals blocked
       (swift-corelibs-foundation#4772): undo that for the ones we handle. */
    return sigprocmask(SIG_UNBLOCK, &set, NULL);
}

int cshim_restore_signal(int signo) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = SIG_DFL;
    sigemptyset(&action.sa_mask);
    return sigaction(signo, &action, NULL);
}

int cshim_nonblocking_pipe(int fds[2]) {
    return pipe2(fds, O_NONBLOCK | O_CLOEXEC);
}
