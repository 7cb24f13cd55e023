#define _GNU_SOURCE
#include "cshim.h"
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
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

int cshim_nonblocking_pipe(int fds[2]) {
    return pipe2(fds, O_NONBLOCK | O_CLOEXEC);
}

/* CRC-32C with the SSE 4.2 instruction, eight bytes at a time: several
   times the speed of the table-driven Swift fallback, and the same values. */
#if defined(__x86_64__)
#include <cpuid.h>

int cshim_crc32c_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    return (ecx & bit_SSE4_2) != 0;
}

__attribute__((target("sse4.2")))
uint32_t cshim_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    uint64_t wide = crc;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        wide = __builtin_ia32_crc32di(wide, word);
        p += 8;
        count -= 8;
    }
    uint32_t narrow = (uint32_t)wide;
    while (count > 0) {
        narrow = __builtin_ia32_crc32qi(narrow, *p);
        p += 1;
        count -= 1;
    }
    return narrow;
}
#else
int cshim_crc32c_available(void) { return 0; }

uint32_t cshim_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;
}
#endif

extern char **environ;

char *const *cshim_environment(void) {
    return environ;
}

int cshim_unix_listener_pid(const char *path) {
    struct sockaddr_un address = { .sun_family = AF_UNIX };
    size_t length = strlen(path);
    if (length == 0 || length >= sizeof address.sun_path) return -1;
    memcpy(address.sun_path, path, length);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    int pid = -1;
    /* A Unix socket's connect completes at once, or fails (EAGAIN: a full backlog). */
    if (connect(fd, (struct sockaddr *)&address, sizeof address) == 0) {
        struct ucred credentials;
        socklen_t size = sizeof credentials;
        if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0 && credentials.pid > 0) {
            pid = credentials.pid;
        }
    }
    close(fd);
    return pid;
}

ssize_t cshim_read_with_fds(int fd, void *bytes, size_t count, int *fds, int max_fds, int *fd_count,
                            int *truncated) {
    /* Room for SCM_MAX_FD (253) descriptors, which is all one message may carry. */
    union {
        char buffer[CMSG_SPACE(253 * sizeof(int))];
        struct cmsghdr align;
    } control;
    struct iovec vector = { .iov_base = bytes, .iov_len = count };
    struct msghdr header = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.buffer, .msg_controllen = sizeof control.buffer,
    };
    *fd_count = 0;
    *truncated = 0;
    ssize_t got = recvmsg(fd, &header, MSG_CMSG_CLOEXEC);
    if (got < 0) return got;
    if (header.msg_flags & MSG_CTRUNC) *truncated = 1;
    for (struct cmsghdr *entry = CMSG_FIRSTHDR(&header); entry != NULL; entry = CMSG_NXTHDR(&header, entry)) {
        if (entry->cmsg_level != SOL_SOCKET || entry->cmsg_type != SCM_RIGHTS) continue;
        size_t given = (entry->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        const unsigned char *data = CMSG_DATA(entry);
        for (size_t index = 0; index < given; index++) {
            int received;
            memcpy(&received, data + index * sizeof(int), sizeof received);
            if (*fd_count < max_fds) {
                fds[(*fd_count)++] = received;
            } else {
                close(received);
                *truncated = 1;
            }
        }
    }
    return got;
}

int cshim_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}

ssize_t cshim_copy_file_range(int in_fd, int out_fd, size_t count) {
    return copy_file_range(in_fd, NULL, out_fd, NULL, count, 0);
}

int cshim_syncfs(int fd) {
    return syncfs(fd);
}

int cshim_file_identity(const char *path, uint64_t *device, uint64_t *inode, int64_t *birth) {
    struct statx info;
    if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_INO | STATX_BTIME, &info) != 0) return -1;
    *device = makedev(info.stx_dev_major, info.stx_dev_minor);
    *inode = info.stx_ino;
    *birth = (info.stx_mask & STATX_BTIME) ? (int64_t)info.stx_btime.tv_sec * 1000000000 + info.stx_btime.tv_nsec : 0;
    return 0;
}
