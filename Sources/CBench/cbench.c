#define _GNU_SOURCE
#include "cbench.h"
#include <errno.h>
#include <sched.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

/* The children still running, for the guard. Written only on the bench's
   main thread; read by the signal handler, hence volatile sig_atomic_t. */
#define CBENCH_MAX_CHILDREN 64
static volatile sig_atomic_t children[CBENCH_MAX_CHILDREN];

static void remember(pid_t pid) {
    for (int i = 0; i < CBENCH_MAX_CHILDREN; i++) {
        if (children[i] == 0) { children[i] = pid; return; }
    }
}

void cbench_forget(pid_t pid) {
    for (int i = 0; i < CBENCH_MAX_CHILDREN; i++) {
        if (children[i] == pid) children[i] = 0;
    }
}

void cbench_kill_all(void) {
    for (int i = 0; i < CBENCH_MAX_CHILDREN; i++) {
        pid_t pid = (pid_t)children[i];
        if (pid > 0) kill(pid, SIGKILL);
    }
}

pid_t cbench_spawn(const char *path, char *const argv[], int stdout_fd, int stderr_fd) {
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) return -1;
    if (pid > 0) {
        remember(pid);
        return pid;
    }
    /* The child: async-signal-safe calls only, until exec. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(127); /* the bench died before prctl */
    for (int signo = 1; signo < NSIG; signo++) signal(signo, SIG_DFL);
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, NULL);
    int null = open("/dev/null", O_RDWR);
    if (null >= 0) dup2(null, 0);
    if (dup2(stdout_fd >= 0 ? stdout_fd : null, 1) < 0) _exit(126);
    if (dup2(stderr_fd >= 0 ? stderr_fd : null, 2) < 0) _exit(126);
    execv(path, argv);
    _exit(127);
}

static void say(const char *text) {
    ssize_t ignored = write(2, text, strlen(text));
    (void)ignored;
}

static void guard(int signo) {
    cbench_kill_all();
    if (signo == SIGALRM) {
        say("undod-bench: the run took longer than its time limit; stopped it and every process it started.\n");
    } else {
        say("undod-bench: interrupted; stopped every process it started.\n");
    }
    _exit(3);
}

void cbench_install_guard(unsigned seconds) {
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = guard;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGINT, SIGTERM, SIGHUP, SIGALRM};
    sigset_t set;
    sigemptyset(&set);
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        sigaction(signals[i], &action, NULL);
        sigaddset(&set, signals[i]);
    }
    /* A parent may have started us with these blocked. */
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    /* A bus or daemon that dies must not kill us with SIGPIPE. */
    signal(SIGPIPE, SIG_IGN);
    alarm(seconds);
}

int cbench_reap(pid_t pid, int *code) {
    int status = 0;
    pid_t done = waitpid(pid, &status, WNOHANG);
    if (done == 0) return 0;
    if (done < 0) return -1;
    cbench_forget(pid);
    if (WIFEXITED(status)) *code = WEXITSTATUS(status);
    else if (WIFSIGNALED(status)) *code = 128 + WTERMSIG(status);
    else *code = -1;
    return 1;
}

/* The CPUs the bench was allowed when it first asked. */
static cpu_set_t original_cpus;
static int original_known;

static void remember_cpus(void) {
    if (original_known) return;
    CPU_ZERO(&original_cpus);
    if (sched_getaffinity(0, sizeof original_cpus, &original_cpus) == 0) original_known = 1;
}

int cbench_last_allowed_cpu(void) {
    remember_cpus();
    if (!original_known) return -1;
    for (int cpu = CPU_SETSIZE - 1; cpu >= 0; cpu--) {
        if (CPU_ISSET(cpu, &original_cpus)) return cpu;
    }
    return -1;
}

int cbench_pin(pid_t pid, int cpu) {
    remember_cpus();
    if (!original_known) return -1;
    if (cpu < 0) return sched_setaffinity(pid, sizeof original_cpus, &original_cpus);
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(pid, sizeof one, &one);
}

int cbench_pipe(int fds[2]) {
    return pipe2(fds, O_CLOEXEC);
}
