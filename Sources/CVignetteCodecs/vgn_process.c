/* vgn_process.c - see include/vgn_process.h. */
#define _GNU_SOURCE
#include "vgn_process.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <stddef.h>
#include <unistd.h>

int vgn_spawn(char *const argv[], char *const envp[], const char *cwd, int out_fd, int err_fd, long long data_limit,
              int *pid_out) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attr);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }
    rc = posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, out_fd, 1);
    if (rc == 0) rc = posix_spawn_file_actions_adddup2(&actions, err_fd, 2);
    if (rc == 0 && cwd != NULL) rc = posix_spawn_file_actions_addchdir_np(&actions, cwd);

    sigset_t defaults, empty;
    /* Ignored signals stay ignored across exec (Swift ignores SIGPIPE): give the child the defaults. */
    sigemptyset(&defaults);
    const int reset[] = {SIGPIPE, SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGCHLD, SIGALRM, SIGUSR1, SIGUSR2, SIGXFSZ, SIGTTIN, SIGTTOU};
    for (size_t i = 0; i < sizeof reset / sizeof reset[0]; i++) sigaddset(&defaults, reset[i]);
    sigemptyset(&empty);
    if (rc == 0) rc = posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
    if (rc == 0) rc = posix_spawnattr_setpgroup(&attr, 0);
    if (rc == 0) rc = posix_spawnattr_setsigdefault(&attr, &defaults);
    if (rc == 0) rc = posix_spawnattr_setsigmask(&attr, &empty);

    pid_t pid = 0;
    if (rc == 0) rc = posix_spawnp(&pid, argv[0], &actions, &attr, argv, envp);
    if (rc == 0 && data_limit > 0) {
        /* posix_spawn has no rlimit attribute, and lowering our own limit around the spawn would
           starve the other threads: cap the child from outside, at once. */
        struct rlimit cap = {(rlim_t)data_limit, (rlim_t)data_limit};
        if (prlimit(pid, RLIMIT_DATA, &cap, NULL) != 0) {
            rc = errno;
            kill(-pid, SIGKILL);
            while (waitpid(pid, NULL, 0) < 0 && errno == EINTR) {
            }
        }
    }
    if (rc == 0 && pid_out != NULL) *pid_out = (int)pid;
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int vgn_pipe_cloexec(int fds[2]) {
    if (pipe2(fds, O_CLOEXEC) != 0) return errno;
    return 0;
}

int vgn_become_subreaper(void) {
    if (prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL) != 0) return errno;
    return 0;
}
