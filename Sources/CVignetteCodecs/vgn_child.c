/* vgn_child.c - a reader run in a forked child that answers through a pipe (see vgn_internal.h):
 * the plumbing the PDF and media readers share. */
#define _GNU_SOURCE 1 /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "vgn_internal.h"
#include "vgn_lazy.h"

void vgn_cap_private_memory(size_t extra)
{
    struct rlimit r;
    long data_kb = 0;
    char line[128];
    FILE *status = fopen("/proc/self/status", "re");
    if (status != NULL) {
        while (fgets(line, sizeof line, status) != NULL)
            if (sscanf(line, "VmData: %ld kB", &data_kb) == 1) break;
        fclose(status);
    }
    r.rlim_cur = r.rlim_max = (rlim_t)data_kb * 1024 + (rlim_t)extra;
    (void)setrlimit(RLIMIT_DATA, &r);
}

int vgn_child_start(vgn_child *c, vgn_child_body body, const uint8_t *data, size_t size, const void *request, unsigned timeout_ms,
                    size_t max_memory, const char *what, vgn_error *err)
{
    int fds[2];
    char msg[VGN_MSG_LEN];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(msg, sizeof msg, "cannot make a pipe for %s", what);
        vgn_err_fill(err, VGN_E_IO, msg, NULL);
        return VGN_E_IO;
    }
    vgn_library_settle();
    c->pid = fork();
    if (c->pid < 0) {
        close(fds[0]);
        close(fds[1]);
        snprintf(msg, sizeof msg, "cannot start %s", what);
        vgn_err_fill(err, VGN_E_IO, msg, NULL);
        return VGN_E_IO;
    }
    if (c->pid == 0) {
        close(fds[0]);
        vgn_child_quiet();
        if (max_memory > 0) vgn_cap_private_memory(max_memory);
        body(fds[1], data, size, request);
        _exit(0);
    }
    close(fds[1]);
    c->fd = fds[0];
    c->deadline = vgn_monotonic_ms() + timeout_ms;
    return VGN_OK;
}

int vgn_child_read(vgn_child *c, void *p, size_t n)
{
    return vgn_fd_read_all(c->fd, p, n, c->deadline);
}

int vgn_child_end(vgn_child *c, int rc)
{
    int status = 0;
    if (rc == -2) kill(c->pid, SIGKILL);
    close(c->fd);
    while (waitpid(c->pid, &status, 0) < 0 && errno == EINTR) {
    }
    return status;
}

int vgn_child_failure(vgn_error *err, const char *library, int rc, int status, unsigned timeout_ms, size_t max_memory)
{
    char msg[VGN_MSG_LEN];
    int code = rc == -2 ? VGN_E_LIMIT : rc == -3 ? VGN_E_NOMEM : VGN_E_INVALID;
    if (rc == -2)
        snprintf(msg, sizeof msg, "%s: no answer within %u ms; the reader was stopped", library, timeout_ms);
    else if (rc == -3)
        snprintf(msg, sizeof msg, "%s: the answer is larger than asked for", library);
    else if (WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
        snprintf(msg, sizeof msg, "%s was stopped (over its memory limit of %zu MB?)", library, max_memory >> 20);
    else if (WIFSIGNALED(status))
        snprintf(msg, sizeof msg, "%s crashed on this file (signal %d)", library, WTERMSIG(status));
    else
        snprintf(msg, sizeof msg, "%s stopped before answering (over its memory limit of %zu MB?)", library, max_memory >> 20);
    vgn_err_fill(err, code, msg, NULL);
    return code;
}
