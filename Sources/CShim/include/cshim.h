// The few things Swift cannot say to C directly: a signal handler that only
// writes to a pipe (async-signal-safe), the signal mask calls it needs, and
// the processor's own CRC-32C instruction, and the process environment
// (`environ`, a C global Swift 6 will not read).
#ifndef CSHIM_H
#define CSHIM_H

/// Routes `signo` to a handler that writes its number as one byte to `fd`
/// (non-blocking), and unblocks it in the calling thread. Returns 0 or -1.
int cshim_route_signal_to_fd(int signo, int fd);

/// Makes a pipe whose two ends are non-blocking and close-on-exec
/// (`pipe2` needs _GNU_SOURCE, which Swift's Glibc does not define).
/// Returns 0 or -1.
int cshim_nonblocking_pipe(int fds[2]);

/// The process environment as `environ` holds it: "NAME=value" strings,
/// ending with NULL.
char *const *cshim_environment(void);

#include <stddef.h>
#include <stdint.h>

/// Whether this processor computes CRC-32C itself (x86-64 with SSE 4.2):
/// 1 or 0.
int cshim_crc32c_available(void);

/// Continues the CRC-32C `crc` (pre-inverted, as the algorithm keeps it)
/// over `count` bytes at `bytes` with the processor's instruction. Only
/// when `cshim_crc32c_available()` is 1.
uint32_t cshim_crc32c_update(uint32_t crc, const void *bytes, size_t count);

/// The process id of the process listening on the Unix stream socket at
/// `path` (`SO_PEERCRED` of a connection made to it and closed at once),
/// without blocking; -1 where there is none (no socket, nobody listening,
/// a path too long, its backlog full).
int cshim_unix_listener_pid(const char *path);

#include <sys/types.h>

/// Reads up to `count` bytes from the socket `fd` into `bytes`, as read(2)
/// does, and takes the file descriptors that came with them (close-on-exec)
/// into `fds`, at most `max_fds` (any beyond are closed); `fd_count` says
/// how many. `truncated` is 1 when descriptors were lost (the kernel's
/// room, or `max_fds`, was too small). Returns what read(2) returns.
ssize_t cshim_read_with_fds(int fd, void *bytes, size_t count, int *fds, int max_fds, int *fd_count,
                            int *truncated);

/// Renames `from` to `to` unless `to` exists (renameat2's
/// RENAME_NOREPLACE, which Swift's Glibc does not declare): 0, or -1 with
/// errno (EEXIST when `to` exists; EINVAL where the file system cannot
/// rename so).
int cshim_rename_noreplace(const char *from, const char *to);

/// Copies up to `count` bytes from `in_fd` to `out_fd` in the kernel, each
/// at its own offset (copy_file_range(2), a GNU declaration): the bytes
/// copied, or -1 with errno.
ssize_t cshim_copy_file_range(int in_fd, int out_fd, size_t count);

/// Writes out the file system holding `fd` (syncfs(2), a GNU extension):
/// 0, or -1 with errno.
int cshim_syncfs(int fd);

#include <stdint.h>

/// The device, inode and birth time (ns since the epoch; 0 where the file
/// system keeps none) of the file at `path`, a link not followed
/// (statx(2), which Swift's Glibc does not declare): 0, or -1 with errno.
int cshim_file_identity(const char *path, uint64_t *device, uint64_t *inode, int64_t *birth);

#endif
