/* The PDF, media and camera RAW readers run in a fresh program, not a fork, whenever one starts
 * (vgn_child_start): a fork of a threaded process inherits every lock another thread held, and
 * glibc resets the loader's main lock in the child but not the one dl_iterate_phdr holds, as every
 * C++ throw and every backtrace does. Here a thread stops inside dl_iterate_phdr, as an unwinding
 * thread would at the wrong moment, and a PDF is read three ways: through the helper program
 * (vignette-decode) and through this program itself started afresh (what a program using the
 * library gets without the helper) it is read; through a fork (the control) poppler's dlopen in
 * the child waits for the lock until the deadline. Run by scripts/c-checks.sh (make test), with
 * VGN_CHECK_HELPER naming the helper. */
#define _GNU_SOURCE 1 /* dl_iterate_phdr */
#include <link.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "vgn_decoder.h"
#include "vgn_internal.h"
#include "vgn_lazy.h"
#include "vgn_pdf.h"

static int vgn_check_inside[2], vgn_check_release[2];

/* Says it is inside, then waits to be released: dl_iterate_phdr holds the loader's lock meanwhile. */
static int vgn_check_stop(struct dl_phdr_info *info, size_t size, void *arg)
{
    char c = 1;
    (void)info, (void)size, (void)arg;
    if (write(vgn_check_inside[1], &c, 1) != 1 || read(vgn_check_release[0], &c, 1) != 1) return 1;
    return 1;
}

static void *vgn_check_unwinder(void *arg)
{
    (void)arg;
    dl_iterate_phdr(vgn_check_stop, NULL);
    return NULL;
}

/* Reads the PDF with a deadline: the error code (0: read, with one page), its message in msg. */
static int vgn_check_read(const uint8_t *data, size_t size, unsigned timeout_ms, char *msg, size_t n)
{
    vgn_pdf_request request;
    vgn_pdf_facts facts;
    vgn_error err;
    int code;
    memset(&request, 0, sizeof request);
    memset(&err, 0, sizeof err);
    request.max_pages = 1;
    request.max_text = 4096;
    request.render_side = 64;
    request.timeout_ms = timeout_ms;
    request.max_memory = (size_t)256 << 20;
    code = vgn_pdf_read_isolated(data, size, &request, &facts, &err);
    snprintf(msg, n, "%s", code == 0 ? "" : err.message);
    if (code == 0) {
        if (facts.pages != 1) code = -1000;
        vgn_pdf_facts_free(&facts);
    }
    return code;
}

int main(void)
{
    static uint8_t data[1 << 16];
    const char *helper = getenv("VGN_CHECK_HELPER");
    FILE *f = fopen("Tests/VignetteGeneratorsTests/Fixtures/external/minimal-document.pdf", "rb");
    char msg[VGN_MSG_LEN], control[VGN_MSG_LEN], c = 1;
    unsigned long starts;
    pthread_t unwinder;
    size_t size;
    int got;
    if (f == NULL || helper == NULL) {
        printf("FAIL: the fixture PDF or VGN_CHECK_HELPER is missing\n");
        return 1;
    }
    size = fread(data, 1, sizeof data, f);
    fclose(f);
    /* As the long-running commands do at start: later forks then need no library of the parent's. */
    vgn_library_settle();
    if (pipe(vgn_check_inside) != 0 || pipe(vgn_check_release) != 0 ||
        pthread_create(&unwinder, NULL, vgn_check_unwinder, NULL) != 0 || read(vgn_check_inside[0], &c, 1) != 1) {
        printf("FAIL: cannot stop a thread inside dl_iterate_phdr\n");
        return 1;
    }
    vgn_isolate_set_helper(helper);
    starts = vgn_isolate_helper_starts();
    got = vgn_check_read(data, size, 20000, msg, sizeof msg);
    if (got != 0 || vgn_isolate_helper_starts() != starts + 1) {
        printf("FAIL: with a thread inside dl_iterate_phdr, the PDF reader in the helper gave %d (%s), %lu helper starts\n", got,
               msg, vgn_isolate_helper_starts() - starts);
        return 1;
    }
    vgn_isolate_set_helper(NULL);
    starts = vgn_isolate_self_starts();
    got = vgn_check_read(data, size, 20000, msg, sizeof msg);
    if (got != 0 || vgn_isolate_self_starts() != starts + 1) {
        printf("FAIL: with a thread inside dl_iterate_phdr and no helper named, the PDF reader in this program started afresh "
               "gave %d (%s), %lu starts\n", got, msg, vgn_isolate_self_starts() - starts);
        return 1;
    }
    vgn_isolate_set_self_start(0);
    got = vgn_check_read(data, size, 3000, control, sizeof control);
    if (write(vgn_check_release[1], &c, 1) != 1 || pthread_join(unwinder, NULL) != 0) return 1;
    printf("ok: the PDF reader answers from the helper and from this program started afresh with a thread inside "
           "dl_iterate_phdr (a fork: %s)\n", got == 0 ? "read too" : control);
    return 0;
}
