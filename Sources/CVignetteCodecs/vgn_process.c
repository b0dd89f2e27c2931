/* vgn_process.c - see include/vgn_process.h. */
#define _GNU_SOURCE
#include "vgn_process.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

/* What the child needs; a copy lives in the child (no CLONE_VM). */
struct vgn_child {
    const char *path;
    char *const *argv;
    char *const *envp;
    const char *cwd;
    int null_fd, out_fd, err_fd, report_fd;
    vgn_spawn_limits limits;
};

/* Only async-signal-safe calls from here to exec: the parent may have many threads. */
static void vgn_child_fail(const struct vgn_child *c, int error) {
    while (write(c->report_fd, &error, sizeof error) < 0 && errno == EINTR) {
    }
    _exit(127);
}

static void vgn_child_limit(const struct vgn_child *c, int resource, long long value) {
    if (value <= 0) return;
    struct rlimit cap = {(rlim_t)value, (rlim_t)value};
    if (resource == RLIMIT_CPU) cap.rlim_max = (rlim_t)value + 1; /* SIGXCPU first, SIGKILL a second later */
    if (setrlimit(resource, &cap) != 0) vgn_child_fail(c, errno);
}

/*
 * PID 1 of a namespace: the kernel drops every signal it has no handler for, even SIGXFSZ and
 * SIGXCPU raised by its own limits (the write then fails with EFBIG instead), so the program
 * must not be PID 1. This init holds no descriptor (it would keep other commands' pipes and the
 * server's sockets open), reaps orphans, and exits as soon as the program does, with its status
 * or 128 + the signal that ended it (as shells and bwrap report it); the kernel then kills
 * whatever is left in the namespace.
 */
static void vgn_child_init(pid_t program) {
    if (close_range(0, ~0U, 0) != 0) {
        struct rlimit files;
        rlim_t top = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? files.rlim_cur : 65536;
        for (rlim_t fd = 0; fd < top; fd++) close((int)fd);
    }
    for (;;) {
        int status = 0;
        pid_t pid = waitpid(-1, &status, 0);
        if (pid < 0 && errno == EINTR) continue;
        if (pid < 0) _exit(127);
        if (pid != program) continue;
        _exit(WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
    }
}

static int vgn_child_main(void *arg) {
    const struct vgn_child *c = arg;
    int grouped = 0;
    if (getpid() == 1) {
        /* Group and death signal first, so the program inherits the group and a killed caller takes the init down. */
        if (setpgid(0, 0) != 0) vgn_child_fail(c, errno);
        prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
        signal(SIGCHLD, SIG_DFL);
        /* Not fork(): glibc's would take locks other threads of the caller may have held when it cloned us. */
        pid_t program = (pid_t)syscall(SYS_clone, SIGCHLD, 0, NULL, NULL, 0);
        if (program < 0) vgn_child_fail(c, errno);
        if (program > 0) vgn_child_init(program);
        grouped = 1;
        /* The program: when its init ends, the kernel kills it with the namespace. */
    }
    /* Ignored signals stay ignored across exec (Swift ignores SIGPIPE): give the child the defaults. */
    const int reset[] = {SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGXFSZ, SIGXCPU, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) signal(reset[i], SIG_DFL);
    sigset_t empty;
    sigemptyset(&empty);
    sigprocmask(SIG_SETMASK, &empty, NULL);
    if (!grouped && setpgid(0, 0) != 0) vgn_child_fail(c, errno);
    /* A generator must not outlive Vignette (killed by a signal, say). */
    prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
    struct rlimit nocore = {0, 0};
    setrlimit(RLIMIT_CORE, &nocore);
    vgn_child_limit(c, RLIMIT_DATA, c->limits.data_bytes);
    vgn_child_limit(c, RLIMIT_CPU, c->limits.cpu_seconds);
    vgn_child_limit(c, RLIMIT_FSIZE, c->limits.file_bytes);
    vgn_child_limit(c, RLIMIT_NPROC, c->limits.processes);
    if (dup2(c->null_fd, 0) < 0 || dup2(c->out_fd, 1) < 0 || dup2(c->err_fd, 2) < 0) vgn_child_fail(c, errno);
    if (c->cwd != NULL && chdir(c->cwd) != 0) vgn_child_fail(c, errno);
    execve(c->path, c->argv, c->envp);
    vgn_child_fail(c, errno);
    return 127;
}

int vgn_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd, int out_fd, int err_fd,
              const vgn_spawn_limits *limits, int flags, int *pid_out, int *isolated_out) {
    if (isolated_out != NULL) *isolated_out = 0;
    int report[2];
    if (pipe2(report, O_CLOEXEC) != 0) return errno;
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null_fd < 0) {
        int e = errno;
        close(report[0]);
        close(report[1]);
        return e;
    }
    struct vgn_child child = {path, argv, envp, cwd, null_fd, out_fd, err_fd, report[1], {0, 0, 0, 0}};
    if (limits != NULL) child.limits = *limits;

    /* The child runs on this stack until exec; without CLONE_VM it has its own copy of it. */
    const size_t stack_size = 256 * 1024;
    char *stack = malloc(stack_size);
    if (stack == NULL) {
        close(null_fd);
        close(report[0]);
        close(report[1]);
        return ENOMEM;
    }
    char *top = stack + stack_size;
    pid_t pid = -1;
    if (flags & VGN_SPAWN_PID_NAMESPACE) {
        pid = clone(vgn_child_main, top, CLONE_NEWPID | SIGCHLD, &child);
        /* Without CAP_SYS_ADMIN a new user namespace grants the right to make a PID namespace. */
        if (pid < 0 && (errno == EPERM || errno == EINVAL || errno == ENOSPC))
            pid = clone(vgn_child_main, top, CLONE_NEWUSER | CLONE_NEWPID | SIGCHLD, &child);
        if (pid > 0 && isolated_out != NULL) *isolated_out = 1;
    }
    if (pid < 0) pid = clone(vgn_child_main, top, SIGCHLD, &child);
    int spawn_error = pid < 0 ? errno : 0;
    free(stack);
    close(null_fd);
    close(report[1]);
    if (spawn_error != 0) {
        close(report[0]);
        return spawn_error;
    }
    int child_error = 0;
    ssize_t n;
    while ((n = read(report[0], &child_error, sizeof child_error)) < 0 && errno == EINTR) {
    }
    close(report[0]);
    if (n == (ssize_t)sizeof child_error) {
        /* The child could not set itself up or exec: it has exited; reap it. */
        while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
        }
        return child_error != 0 ? child_error : EIO;
    }
    if (pid_out != NULL) *pid_out = (int)pid;
    return 0;
}

int vgn_pipe_cloexec(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    return 0;
}

int vgn_become_subreaper(void) {
    if (prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL) != 0) return errno;
    return 0;
}
