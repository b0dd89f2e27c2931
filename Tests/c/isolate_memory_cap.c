/* The memory cap of the isolated decoding children (vgn_isolate.c): once a decoder's header is
 * read, its child may add twice the working bytes it declared, 256 rows and a 512 MB margin.
 * Three fake decoders declaring 1 MB of working memory run through vgn_isolated_open (a fork
 * here: no helper program is set): one allocating 64 MB gets it; one asking for 3 GB is refused
 * by malloc in its child, and says so; one that writes through the refused pointer crashes its
 * child, and the parent's message names the cap. Run by scripts/c-checks.sh (make test). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_decoder.h"
#include "vgn_internal.h"

static size_t vgn_check_want;
static int vgn_check_careless;
/* where each allocation leaves a mark, so that the compiler cannot drop it as unused */
static char *volatile vgn_check_kept;

static int vgn_check_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    char *p = malloc(vgn_check_want);
    (void)d, (void)stride;
    if (p == NULL && !vgn_check_careless) {
        vgn_err_fill(err, VGN_E_NOMEM, "malloc refused", NULL);
        return VGN_E_NOMEM;
    }
    memset(p, 1, vgn_check_want); /* the careless decoder writes through NULL: its child crashes */
    vgn_check_kept = p;
    free(vgn_check_kept);
    memset(dst, 255, (size_t)max_rows * 16 * 4);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return max_rows;
}

static void vgn_check_close(vgn_decoder *d) { free(d); }

static vgn_decoder *vgn_check_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_decoder *d = calloc(1, sizeof *d);
    (void)data, (void)size, (void)target;
    memset(info, 0, sizeof *info);
    info->width = info->height = 16;
    d->width = d->height = 16;
    d->working = (size_t)1 << 20;
    d->read_rows = vgn_check_rows;
    d->close = vgn_check_close;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return d;
}

/* Reads the 16 rows of a fake decoder allocating `want` bytes: rows read, or the error code; the message in msg. */
static int vgn_check_run(size_t want, int careless, char *msg, size_t n)
{
    static uint8_t rows[16 * 16 * 4];
    static const uint8_t data[4] = {1, 2, 3, 4};
    vgn_image_info info;
    vgn_error err;
    vgn_decoder *d;
    int got;
    vgn_check_want = want, vgn_check_careless = careless;
    memset(&err, 0, sizeof err);
    d = vgn_isolated_open(vgn_check_open, "fake decoder", data, sizeof data, 0, 20000, &info, &err);
    if (d == NULL) {
        snprintf(msg, n, "%s", err.message);
        return err.code;
    }
    got = vgn_decoder_read_rows(d, rows, 16 * 4, 16, &err);
    snprintf(msg, n, "%s", err.message);
    vgn_decoder_close(d);
    return got;
}

int main(void)
{
    char msg[VGN_MSG_LEN];
    int failures = 0, got;
    if ((got = vgn_check_run((size_t)64 << 20, 0, msg, sizeof msg)) != 16) {
        printf("FAIL: 64 MB within the cap: %d (%s)\n", got, msg);
        failures++;
    }
    if ((got = vgn_check_run((size_t)3 << 30, 0, msg, sizeof msg)) != VGN_E_NOMEM || strcmp(msg, "malloc refused") != 0) {
        printf("FAIL: 3 GB past the cap was not refused in the child: %d (%s)\n", got, msg);
        failures++;
    }
    got = vgn_check_run((size_t)3 << 30, 1, msg, sizeof msg);
    if (got >= 0 || strcmp(msg, "fake decoder crashed on this file (signal 11; its memory was capped at 514 MB)") != 0) {
        printf("FAIL: a crash past the cap: %d (%s)\n", got, msg);
        failures++;
    }
    if (failures == 0) printf("ok: isolated children get twice their working bytes and a margin, and no more\n");
    return failures == 0 ? 0 : 1;
}
