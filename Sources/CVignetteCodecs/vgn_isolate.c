/* vgn_isolate.c - a streaming decoder run in a forked child (see vgn_decoder.h, vgn_isolated_open).
 *
 * The child opens the real decoder and sends its header (info, row size, working bytes, ICC
 * profile); it decodes nothing more until the parent, having checked the pixel cap and held its
 * memory budget, asks for rows: each request names a row count, each answer is a count and the
 * rows (or an error). A crash, a hang past the deadline, or what the libraries print on stderr
 * stays in the child.
 *
 * The child is a fresh program given the input in a memfd: vignette-decode (whose main is
 * vgn_isolate_helper_main) once vgn_isolate_set_helper has named it, else the caller's own
 * executable, in which vgn_self_helper answers before main; a fork only when neither starts. A
 * fork maps every page of the caller's heap (a decode of a 20-megapixel JPEG XL or AVIF stacked
 * on a batch's ten megabytes went over the memory a thumbnailer should need), and inherits every
 * lock another thread held (Tests/c/reader_fork_safety.c). */
#define _GNU_SOURCE 1 /* pipe2, memfd_create */
#include <errno.h>
#include <malloc.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "vgn_internal.h"
#include "vgn_lazy.h"

#define VGN_ISOLATE_MAX_ICC (4u << 20)
/* What an isolated decoder may allocate beyond twice its declared working bytes (vgn_iso_memory_cap). */
#define VGN_ISOLATE_MEMORY_MARGIN ((uint64_t)512 << 20)

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
    size_t memory_cap; /* the child's memory cap once its header came (vgn_iso_memory_cap), 0 before */
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

/* The private memory an isolated decoder may add once its header is read: twice the working
 * bytes it declared, 256 rows of output, and VGN_ISOLATE_MEMORY_MARGIN (saturating). */
static size_t vgn_iso_memory_cap(size_t working, size_t stride)
{
    uint64_t cap = (uint64_t)VGN_ISOLATE_MEMORY_MARGIN;
    uint64_t rows = stride > UINT64_MAX / 256 ? UINT64_MAX : (uint64_t)stride * 256;
    cap += working > (UINT64_MAX - cap) / 2 ? UINT64_MAX - cap : (uint64_t)working * 2;
    cap = rows > UINT64_MAX - cap ? UINT64_MAX : cap + rows;
    return cap > (uint64_t)SIZE_MAX / 2 ? SIZE_MAX / 2 : (size_t)cap;
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
    /* From here on the decoder may hold what it declared, twice over, with a band of rows and a
     * margin: a file that makes the library want more (a cairo path flattened into gigabytes, a
     * codec's runaway allocation) fails in here instead of taking the machine's memory. */
    vgn_cap_private_memory(vgn_iso_memory_cap(d->working, stride));
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
        if (s->memory_cap > 0)
            snprintf(msg, sizeof msg, "%s crashed on this file (signal %d; its memory was capped at %zu MB)", s->library, WTERMSIG(status),
                     s->memory_cap >> 20);
        else
            snprintf(msg, sizeof msg, "%s crashed on this file (signal %d)", s->library, WTERMSIG(status));
    } else if (s->memory_cap > 0) {
        snprintf(msg, sizeof msg, "%s stopped before giving the picture (its memory was capped at %zu MB)", s->library, s->memory_cap >> 20);
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


/* ---- the helper program --------------------------------------------------------------------- */

/* argv[0] of the caller's own executable started as the helper: vgn_self_helper knows it by that. */
#define VGN_SELF_HELPER "vignette-decode (started as the caller's executable)"

static const char vgn_self_exe[] = "/proc/self/exe";
static char *vgn_helper_path; /* set once, read by any thread */
static int vgn_self_start = 1;
static unsigned long vgn_helper_starts, vgn_self_starts;

/* In every program linking the shim, before main: a child that vgn_helper_spawn started as its
 * caller's executable runs the helper's main and exits, so that a program using the library
 * gets fresh children without shipping vignette-decode. glibc passes argc and argv to ELF
 * constructors. */
__attribute__((constructor)) static void vgn_self_helper(int argc, char **argv)
{
    if (argc >= 1 && argv != NULL && argv[0] != NULL && strcmp(argv[0], VGN_SELF_HELPER) == 0)
        _exit(vgn_isolate_helper_main(argc, argv));
}

unsigned long vgn_isolate_helper_starts(void)
{
    return __atomic_load_n(&vgn_helper_starts, __ATOMIC_RELAXED);
}

unsigned long vgn_isolate_self_starts(void)
{
    return __atomic_load_n(&vgn_self_starts, __ATOMIC_RELAXED);
}

void vgn_isolate_set_self_start(int on)
{
    __atomic_store_n(&vgn_self_start, on != 0, __ATOMIC_RELEASE);
}

/* The program a child starts as and its argv[0], or NULL when it is to be a fork. */
static const char *vgn_helper_program(const char **argv0)
{
    const char *helper = __atomic_load_n(&vgn_helper_path, __ATOMIC_ACQUIRE);
    static int self_runs = -1; /* whether /proc/self/exe can be started: asked once */
    *argv0 = "vignette-decode";
    if (helper != NULL) return helper;
    if (!__atomic_load_n(&vgn_self_start, __ATOMIC_ACQUIRE)) return NULL;
    if (__atomic_load_n(&self_runs, __ATOMIC_ACQUIRE) < 0) __atomic_store_n(&self_runs, access(vgn_self_exe, X_OK) == 0, __ATOMIC_RELEASE);
    *argv0 = VGN_SELF_HELPER;
    return __atomic_load_n(&self_runs, __ATOMIC_ACQUIRE) ? vgn_self_exe : NULL;
}

void vgn_isolate_set_helper(const char *path)
{
    char *copy = path != NULL ? strdup(path) : NULL;
    char *old = __atomic_exchange_n(&vgn_helper_path, copy, __ATOMIC_ACQ_REL);
    (void)old; /* a reader may still hold it: kept, as the path is set once per process */
}

/* The name the helper knows `opener` by, or NULL for an opener it does not run. */
static const char *vgn_iso_opener_name(vgn_isolated_opener opener)
{
    if (opener == vgn_heif_open) return "libheif";
    if (opener == vgn_jxl_open) return "libjxl";
    if (opener == vgn_jp2_open) return "OpenJPEG";
    if (opener == vgn_dicom_jp2_open) return "OpenJPEG-DICOM";
    if (opener == vgn_dicom_jls_open) return "CharLS-DICOM";
    if (opener == vgn_exr_open) return "OpenEXR";
    if (opener == vgn_jbig_open) return "JBIG-KIT";
    if (opener == vgn_metafile_open) return "cairo";
    return NULL;
}

int vgn_isolate_uses_helper(vgn_isolated_opener opener)
{
    return vgn_helper_named() && vgn_iso_opener_name(opener) != NULL;
}

int vgn_helper_named(void)
{
    const char *argv0;
    return vgn_helper_program(&argv0) != NULL;
}

pid_t vgn_helper_spawn(char *const args[], const uint8_t *data, size_t size, int in, int out)
{
    static const int reset[] = {SIGINT, SIGTERM, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD};
    const char *argv0, *helper = vgn_helper_program(&argv0);
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    sigset_t none, defaults;
    char *argv[8];
    int memfd, fds[3] = {-1, -1, -1}, i, rc;
    size_t off = 0;
    pid_t pid = -1;
    extern char **environ;
    if (helper == NULL) return -1;
    argv[0] = (char *)argv0;
    for (i = 0; args[i] != NULL; i++) {
        if (i + 1 >= (int)(sizeof argv / sizeof argv[0])) return -1;
        argv[i + 1] = args[i];
    }
    argv[i + 1] = NULL;
    memfd = memfd_create("vignette-input", MFD_CLOEXEC);
    if (memfd < 0) return -1;
    while (off < size) {
        ssize_t w = write(memfd, data + off, size - off);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            close(memfd);
            return -1;
        }
        off += (size_t)w;
    }
    /* Above 5, so that the dup2s onto 3, 4 and 5 cannot overwrite one another's source. */
    fds[0] = fcntl(memfd, F_DUPFD_CLOEXEC, 10);
    fds[1] = fcntl(in, F_DUPFD_CLOEXEC, 10);
    fds[2] = fcntl(out, F_DUPFD_CLOEXEC, 10);
    close(memfd);
    if (fds[0] < 0 || fds[1] < 0 || fds[2] < 0) goto done;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (i = 0; i < (int)(sizeof reset / sizeof reset[0]); i++) sigaddset(&defaults, reset[i]);
    if (posix_spawn_file_actions_init(&actions) != 0) goto done;
    if (posix_spawnattr_init(&attr) != 0) {
        posix_spawn_file_actions_destroy(&actions);
        goto done;
    }
    for (i = 0; i < 3; i++) posix_spawn_file_actions_adddup2(&actions, fds[i], 3 + i);
    posix_spawnattr_setsigmask(&attr, &none);
    posix_spawnattr_setsigdefault(&attr, &defaults);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    rc = posix_spawn(&pid, helper, &actions, &attr, argv, environ);
    if (rc != 0) pid = -1;
    else __atomic_add_fetch(helper == vgn_self_exe ? &vgn_self_starts : &vgn_helper_starts, 1, __ATOMIC_RELAXED);
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
done:
    for (i = 0; i < 3; i++)
        if (fds[i] >= 0) close(fds[i]);
    return pid;
}

int vgn_helper_input(const char *size_arg, const uint8_t **data, size_t *size)
{
    struct stat st;
    char *end = NULL;
    unsigned long long n = strtoull(size_arg, &end, 10);
    *data = NULL;
    if (end == size_arg || *end != '\0' || n > SIZE_MAX || fstat(3, &st) != 0 || (unsigned long long)st.st_size != n) return -1;
    if (n > 0) {
        void *p = mmap(NULL, (size_t)n, PROT_READ, MAP_PRIVATE, 3, 0);
        if (p == MAP_FAILED) return -1;
        *data = (const uint8_t *)p;
    }
    close(3);
    *size = (size_t)n;
    return 0;
}

int vgn_isolate_helper_main(int argc, char **argv)
{
    vgn_isolated_opener opener = NULL;
    vgn_error err;
    char *end = NULL;
    unsigned long target;
    size_t size;
    const uint8_t *data;
    memset(&err, 0, sizeof err);
    if (argc >= 2 && strcmp(argv[1], "reader") == 0) return vgn_child_helper_main(argc, argv);
    if (argc != 4) {
        fprintf(stderr, "vignette-decode is run by vignette for the decoders it isolates; it takes no arguments of yours\n");
        return 2;
    }
    target = strtoul(argv[2], &end, 10);
    if (end == argv[2] || *end != '\0' || target > UINT32_MAX) return 2;
    if (strcmp(argv[1], "libheif") == 0) {
        vgn_error ignored;
        if (vgn_library_load(VGN_LIB_HEIF, &err) != 0) opener = NULL;
        else opener = vgn_heif_open;
        (void)vgn_library_load(VGN_LIB_DAV1D, &ignored); /* optional, as in the caller */
    } else if (strcmp(argv[1], "libjxl") == 0) {
        opener = vgn_library_load(VGN_LIB_JXL, &err) == 0 ? vgn_jxl_open : NULL;
    } else if (strcmp(argv[1], "OpenJPEG") == 0) {
        opener = vgn_library_load(VGN_LIB_OPENJP2, &err) == 0 ? vgn_jp2_open : NULL;
    } else if (strcmp(argv[1], "OpenJPEG-DICOM") == 0) {
        opener = vgn_library_load(VGN_LIB_OPENJP2, &err) == 0 ? vgn_dicom_jp2_open : NULL;
    } else if (strcmp(argv[1], "CharLS-DICOM") == 0) {
        opener = vgn_library_load(VGN_LIB_CHARLS, &err) == 0 ? vgn_dicom_jls_open : NULL;
    } else if (strcmp(argv[1], "OpenEXR") == 0) {
        opener = vgn_library_load(VGN_LIB_OPENEXR, &err) == 0 ? vgn_exr_open : NULL;
    } else if (strcmp(argv[1], "JBIG-KIT") == 0) {
        opener = vgn_library_load(VGN_LIB_JBIG, &err) == 0 ? vgn_jbig_open : NULL;
    } else if (strcmp(argv[1], "cairo") == 0) {
        opener = vgn_library_load(VGN_LIB_CAIRO, &err) == 0 ? vgn_metafile_open : NULL;
    } else {
        return 2;
    }
    if (fcntl(4, F_GETFD) < 0 || fcntl(5, F_GETFD) < 0 || vgn_helper_input(argv[3], &data, &size) != 0 || size == 0) return 2;
    if (opener == NULL) {
        vgn_iso_header header;
        memset(&header, 0, sizeof header);
        header.code = err.code != 0 ? err.code : VGN_E_UNSUPPORTED;
        memcpy(header.message, err.message, sizeof header.message);
        (void)vgn_fd_write_all(5, &header, sizeof header);
        return 0;
    }
    vgn_iso_child(4, 5, opener, data, size, (uint32_t)target);
    return 0;
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
    {
        char target_arg[16], size_arg[24];
        char *args[4] = {(char *)vgn_iso_opener_name(opener), target_arg, size_arg, NULL};
        snprintf(target_arg, sizeof target_arg, "%u", target);
        snprintf(size_arg, sizeof size_arg, "%zu", size);
        s->pid = args[0] != NULL ? vgn_helper_spawn(args, data, size, down[0], up[1]) : -1;
    }
    if (s->pid < 0) {
        vgn_library_settle();
        s->pid = fork();
    }
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
    s->memory_cap = vgn_iso_memory_cap(s->base.working, (size_t)header.width * 4);
    s->base.extent_width = header.extent_width; /* checked by vgn_decoder_extent */
    s->base.extent_height = header.extent_height;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &s->base;
}
