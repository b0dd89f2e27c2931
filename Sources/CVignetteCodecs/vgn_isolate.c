/* vgn_isolate.c - a streaming decoder run in a forked child (see vgn_decoder.h, vgn_isolated_open).
 *
 * The child opens the real decoder and sends its header (info, row size, working bytes, ICC
 * profile); it decodes nothing more until the parent, having checked the pixel cap and held its
 * memory budget, asks for rows: each request names a row count, each answer is a count and the
 * rows (or an error). A crash, a hang past the deadline, or what the libraries print on stderr
 * stays in the child. */
#define _GNU_SOURCE 1 /* pipe2 */
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgn_internal.h"

#define VGN_ISOLATE_MAX_ICC (4u << 20)

/* The child's first message. */
typedef struct {
    int32_t code;
    char message[VGN_MSG_LEN];
    vgn_image_info info;
    uint32_t width, height;
    uint64_t working;
    uint64_t icc_size;
    double extent_width, extent_height;
} vgn_iso_header;

/* The answer to a request for rows: how many follow (>= 0), or a negative vgn_status and text. */
typedef struct {
    int32_t rows;
    int32_t warning_count;
    char message[VGN_MSG_LEN];
    char warning[VGN_MSG_LEN];
} vgn_iso_answer;

typedef struct {
    vgn_decoder base;
    pid_t pid;
    int to_child, from_child;
    int64_t deadline; /* CLOCK_MONOTONIC ms */
    unsigned timeout_ms;
    uint8_t *icc;
    int done;
    char library[32];
} vgn_iso;

int64_t vgn_monotonic_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

int vgn_fd_write_all(int fd, const void *p, size_t n)
{
    const uint8_t *b = (const uint8_t *)p;
    while (n > 0) {
        ssize_t w = write(fd, b, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        b += w;
        n -= (size_t)w;
    }
    return 0;
}

int vgn_fd_read_all(int fd, void *p, size_t n, int64_t deadline)
{
    uint8_t *b = (uint8_t *)p;
    while (n > 0) {
        struct pollfd pfd = {fd, POLLIN, 0};
        int64_t left = deadline < 0 ? 1000 : deadline - vgn_monotonic_ms();
        ssize_t got;
        if (left <= 0) return -2;
        if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left) < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (!(pfd.revents & (POLLIN | POLLHUP | POLLERR))) continue;
        got = read(fd, b, n);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return -1;
        b += got;
        n -= (size_t)got;
    }
    return 0;
}

/* ---- the child ---------------------------------------------------------------------------- */

void vgn_child_quiet(void)
{
    static const int faults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP};
    size_t i;
    int devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    /* A crash is an expected failure in a decoder child: no crash report from the parent's
       handlers (the Swift runtime's backtracer), and nothing the libraries print (libjxl's
       traces, libde265's and dav1d's messages, LibRaw's) reaches the parent's stderr. */
    for (i = 0; i < sizeof faults / sizeof faults[0]; i++) signal(faults[i], SIG_DFL);
    if (devnull >= 0) dup2(devnull, 2);
    /* The child's memory counts every page of the parent's heap it still maps; the free ones
       (the parent's earlier files, its start-up garbage) it gives back at once. */
    malloc_trim(0);
}

static void vgn_iso_child(int in, int out, vgn_isolated_opener opener, const uint8_t *data, size_t size,
                          uint32_t target)
{
    vgn_iso_header header;
    vgn_error err;
    vgn_decoder *d;
    uint8_t *rows = NULL;
    size_t stride;
    vgn_child_quiet();
    memset(&header, 0, sizeof header);
    memset(&err, 0, sizeof err);
    d = opener(data, size, target, &header.info, &err);
    if (d == NULL) {
        header.code = err.code != 0 ? err.code : VGN_E_INVALID;
        memcpy(header.message, err.message, sizeof header.message);
        (void)vgn_fd_write_all(out, &header, sizeof header);
        _exit(0);
    }
    header.width = d->width;
    header.height = d->height;
    header.working = d->working;
    header.extent_width = d->extent_width;
    header.extent_height = d->extent_height;
    header.icc_size = d->icc != NULL && d->icc_size <= VGN_ISOLATE_MAX_ICC ? d->icc_size : 0;
    if (vgn_fd_write_all(out, &header, sizeof header) != 0 ||
        (header.icc_size > 0 && vgn_fd_write_all(out, d->icc, (size_t)header.icc_size) != 0))
        _exit(0);
    stride = (size_t)d->width * 4;
    for (;;) {
        int32_t want = 0;
        vgn_iso_answer answer;
        int n;
        if (vgn_fd_read_all(in, &want, sizeof want, -1) != 0 || want <= 0) _exit(0);
        if (rows == NULL && (rows = (uint8_t *)malloc(stride * (size_t)want)) == NULL) _exit(0);
        memset(&answer, 0, sizeof answer);
        n = d->read_rows(d, rows, stride, want, &err);
        answer.rows = n;
        answer.warning_count = err.warning_count;
        memcpy(answer.message, err.message, sizeof answer.message);
        memcpy(answer.warning, err.warning, sizeof answer.warning);
        if (vgn_fd_write_all(out, &answer, sizeof answer) != 0) _exit(0);
        if (n > 0 && vgn_fd_write_all(out, rows, stride * (size_t)n) != 0) _exit(0);
        if (n <= 0) _exit(0);
    }
}

/* ---- the parent ---------------------------------------------------------------------------- */

/* Stops the child (if it still runs) and reaps it; returns its wait status. */
static int vgn_iso_stop(vgn_iso *s, int force)
{
    int status = 0;
    if (s->pid <= 0) return 0;
    if (s->to_child >= 0) close(s->to_child);
    if (s->from_child >= 0) close(s->from_child);
    s->to_child = s->from_child = -1;
    if (force) kill(s->pid, SIGKILL);
    while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR) {
    }
    s->pid = 0;
    return status;
}

/* The error for a child that stopped answering: crashed, timed out, or quit. */
static int vgn_iso_lost(vgn_iso *s, int rc, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    int status = vgn_iso_stop(s, 1);
    int code = VGN_E_INVALID;
    if (rc == -2) {
        code = VGN_E_LIMIT;
        snprintf(msg, sizeof msg, "%s: no picture after %u ms; the decoder was stopped", s->library, s->timeout_ms);
    } else if (WIFSIGNALED(status) && WTERMSIG(status) != SIGKILL) {
        snprintf(msg, sizeof msg, "%s crashed on this file (signal %d)", s->library, WTERMSIG(status));
    } else {
        snprintf(msg, sizeof msg, "%s stopped before giving the picture", s->library);
    }
    s->done = 1;
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static int vgn_iso_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_iso *s = (vgn_iso *)d;
    vgn_iso_answer answer;
    size_t row = (size_t)s->base.width * 4;
    int32_t want = max_rows;
    int rc, i;
    vgn_warnings warn = {0, ""};
    if (s->done || max_rows == 0) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return 0;
    }
    if (vgn_fd_write_all(s->to_child, &want, sizeof want) != 0) return vgn_iso_lost(s, -1, err);
    rc = vgn_fd_read_all(s->from_child, &answer, sizeof answer, s->deadline);
    if (rc != 0) return vgn_iso_lost(s, rc, err);
    if (answer.rows > max_rows) return vgn_iso_lost(s, -1, err);
    for (i = 0; i < answer.rows; i++) {
        rc = vgn_fd_read_all(s->from_child, dst + (size_t)i * stride, row, s->deadline);
        if (rc != 0) return vgn_iso_lost(s, rc, err);
    }
    answer.message[VGN_MSG_LEN - 1] = '\0';
    answer.warning[VGN_MSG_LEN - 1] = '\0';
    if (answer.warning_count > 0) {
        warn.count = answer.warning_count;
        memcpy(warn.first, answer.warning, VGN_MSG_LEN);
    }
    if (answer.rows <= 0) {
        s->done = 1;
        vgn_iso_stop(s, answer.rows < 0);
    }
    vgn_err_fill(err, answer.rows < 0 ? answer.rows : VGN_OK, answer.message, &warn);
    return answer.rows;
}

static void vgn_iso_close(vgn_decoder *d)
{
    vgn_iso *s = (vgn_iso *)d;
    vgn_iso_stop(s, 1);
    free(s->icc);
    free(s);
}

vgn_decoder *vgn_isolated_open(vgn_isolated_opener opener, const char *library, const uint8_t *data, size_t size,
                               uint32_t target, unsigned timeout_ms, vgn_image_info *info, vgn_error *err)
{
    int down[2], up[2], rc;
    vgn_iso *s;
    vgn_iso_header header;
    if (opener == NULL || data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    s = (vgn_iso *)calloc(1, sizeof *s);
    if (s == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    snprintf(s->library, sizeof s->library, "%s", library != NULL ? library : "the decoder");
    s->timeout_ms = timeout_ms;
    s->to_child = s->from_child = -1;
    if (pipe2(down, O_CLOEXEC) != 0) {
        free(s);
        vgn_err_fill(err, VGN_E_IO, "cannot make a pipe for the decoder", NULL);
        return NULL;
    }
    if (pipe2(up, O_CLOEXEC) != 0) {
        close(down[0]);
        close(down[1]);
        free(s);
        vgn_err_fill(err, VGN_E_IO, "cannot make a pipe for the decoder", NULL);
        return NULL;
    }
    s->pid = fork();
    if (s->pid < 0) {
        close(down[0]);
        close(down[1]);
        close(up[0]);
        close(up[1]);
        free(s);
        vgn_err_fill(err, VGN_E_IO, "cannot start the decoder", NULL);
        return NULL;
    }
    if (s->pid == 0) {
        close(down[1]);
        close(up[0]);
        vgn_iso_child(down[0], up[1], opener, data, size, target);
        _exit(0);
    }
    close(down[0]);
    close(up[1]);
    s->to_child = down[1];
    s->from_child = up[0];
    s->deadline = vgn_monotonic_ms() + timeout_ms;
    s->base.read_rows = vgn_iso_read_rows;
    s->base.close = vgn_iso_close;
    rc = vgn_fd_read_all(s->from_child, &header, sizeof header, s->deadline);
    if (rc != 0) {
        vgn_iso_lost(s, rc, err);
        vgn_iso_close(&s->base);
        return NULL;
    }
    header.message[VGN_MSG_LEN - 1] = '\0';
    if (header.code != VGN_OK) {
        vgn_err_fill(err, header.code, header.message, NULL);
        vgn_iso_close(&s->base);
        return NULL;
    }
    if (header.width == 0 || header.height == 0 || header.icc_size > VGN_ISOLATE_MAX_ICC) {
        vgn_err_fill(err, VGN_E_INVALID, "the decoder gave no picture size", NULL);
        vgn_iso_close(&s->base);
        return NULL;
    }
    if (header.icc_size > 0) {
        s->icc = (uint8_t *)malloc((size_t)header.icc_size);
        if (s->icc == NULL || vgn_fd_read_all(s->from_child, s->icc, (size_t)header.icc_size, s->deadline) != 0) {
            vgn_err_fill(err, VGN_E_INVALID, "the decoder stopped while sending the colour profile", NULL);
            vgn_iso_close(&s->base);
            return NULL;
        }
        s->base.icc = s->icc;
        s->base.icc_size = (size_t)header.icc_size;
    }
    *info = header.info;
    s->base.width = header.width;
    s->base.height = header.height;
    s->base.working = header.working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)header.working;
    s->base.extent_width = header.extent_width; /* checked by vgn_decoder_extent */
    s->base.extent_height = header.extent_height;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &s->base;
}
