/* vgn_child.c - a reader run in a child process that answers through a pipe (see vgn_internal.h):
 * the plumbing the PDF, media and camera RAW readers share. */
#define _GNU_SOURCE 1 /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
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

/* Starts reader in vignette-decode with the request's bytes on a pipe: its pid, or -1. */
static pid_t vgn_child_spawn(const vgn_child_reader *reader, const uint8_t *data, size_t size, const void *request,
                             const char *path, size_t max_memory, int out)
{
    char size_arg[24], memory_arg[24];
    char *args[6] = {(char *)"reader", (char *)reader->name, size_arg, memory_arg, (char *)path, NULL};
    int in[2];
    pid_t pid;
    /* A request is a few dozen bytes, far under the pipe's buffer: written whole before the start. */
    if (reader->request_size > 4096 || pipe2(in, O_CLOEXEC) != 0) return -1;
    if (vgn_fd_write_all(in[1], request, reader->request_size) != 0) {
        close(in[0]);
        close(in[1]);
        return -1;
    }
    close(in[1]);
    snprintf(size_arg, sizeof size_arg, "%zu", size);
    snprintf(memory_arg, sizeof memory_arg, "%zu", max_memory);
    pid = vgn_helper_spawn(args, data, size, in[0], out);
    close(in[0]);
    return pid;
}

int vgn_child_start(vgn_child *c, const vgn_child_reader *reader, const uint8_t *data, size_t size, const void *request,
                    const char *path, unsigned timeout_ms, size_t max_memory, const char *what, vgn_error *err)
{
    int fds[2];
    char msg[VGN_MSG_LEN];
    if (pipe2(fds, O_CLOEXEC) != 0) {
        snprintf(msg, sizeof msg, "cannot make a pipe for %s", what);
        vgn_err_fill(err, VGN_E_IO, msg, NULL);
        return VGN_E_IO;
    }
    /* A fresh program, not a fork, when one starts: a fork of a threaded process may only call
       what is safe in a signal handler, and a reader loads libraries and throws C++ exceptions.
       glibc resets the loader's main lock in a forked child but not the one dl_iterate_phdr holds
       (as every C++ throw and every backtrace does), so a fork taken while another thread was
       unwinding left the child's dlopen waiting forever (Tests/c/reader_fork_safety.c). */
    c->pid = vgn_child_spawn(reader, data, size, request, path, max_memory, fds[1]);
    if (c->pid < 0) {
        vgn_library_settle();
        c->pid = fork();
    }
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
        reader->body(fds[1], data, size, request);
        _exit(0);
    }
    close(fds[1]);
    c->fd = fds[0];
    c->deadline = vgn_monotonic_ms() + timeout_ms;
    return VGN_OK;
}

int vgn_child_helper_main(int argc, char **argv)
{
    static const vgn_child_reader *const readers[] = {&vgn_pdf_reader, &vgn_media_reader, &vgn_raw_reader};
    const vgn_child_reader *reader = NULL;
    unsigned long long max_memory;
    const uint8_t *data = NULL;
    size_t size = 0, i;
    uint8_t request[4096];
    const char *path = argc == 6 ? argv[5] : NULL;
    char *end = NULL;
    if (argc != 5 && argc != 6) return 2;
    for (i = 0; i < sizeof readers / sizeof readers[0]; i++)
        if (strcmp(argv[2], readers[i]->name) == 0) reader = readers[i];
    max_memory = strtoull(argv[4], &end, 10);
    if (reader == NULL || end == argv[4] || *end != '\0' || fcntl(5, F_GETFD) < 0 || vgn_helper_input(argv[3], &data, &size) != 0)
        return 2;
    if (reader->request_size > sizeof request || vgn_fd_read_all(4, request, reader->request_size, -1) != 0) return 2;
    close(4);
    if (reader->path_offset != VGN_CHILD_NO_PATH) memcpy(request + reader->path_offset, &path, sizeof path);
    vgn_child_quiet();
    if (max_memory > 0) vgn_cap_private_memory((size_t)max_memory);
    reader->body(5, data, size, reader->request_size > 0 ? request : NULL);
    return 0;
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
