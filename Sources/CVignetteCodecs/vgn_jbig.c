/* vgn_jbig.c - JBIG1 (ITU-T T.82, the bi-level images of fax machines and document scanners)
 * through JBIG-KIT's libjbig, opened on first use and run in the isolated child: libjbig aborts
 * the process when an allocation fails (its checked_malloc), which a hostile header can cause.
 * See vgn_decoder.h.
 *
 * The 20-byte header (BIH) is read here: the size, the resolution layers (each halves the one
 * above), the bit planes. A file with layers is decoded only up to the smallest layer whose
 * longest side covers four times the target (jbg_dec_maxsize), which is what JBIG's progressive
 * mode is for.
 * The whole layer is decoded at the first read (libjbig keeps the picture in memory), then its
 * rows are handed out, 1 as black. One bit plane only: grey JBIG (several planes) is refused. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jbig.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define jbg_dec_init VGN_LAZY(VGN_LIB_JBIG, jbg_dec_init)
#define jbg_dec_maxsize VGN_LAZY(VGN_LIB_JBIG, jbg_dec_maxsize)
#define jbg_dec_in VGN_LAZY(VGN_LIB_JBIG, jbg_dec_in)
#define jbg_dec_getwidth VGN_LAZY(VGN_LIB_JBIG, jbg_dec_getwidth)
#define jbg_dec_getheight VGN_LAZY(VGN_LIB_JBIG, jbg_dec_getheight)
#define jbg_dec_getimage VGN_LAZY(VGN_LIB_JBIG, jbg_dec_getimage)
#define jbg_dec_free VGN_LAZY(VGN_LIB_JBIG, jbg_dec_free)
#define jbg_strerror VGN_LAZY(VGN_LIB_JBIG, jbg_strerror)

/* The options byte's VLENGTH flag: the height may be lowered later by a NEWLEN marker. */
#define VGN_JBIG_VLENGTH 0x20

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    struct jbg_dec_state state;
    int started;            /* jbg_dec_init called: jbg_dec_free is due */
    const uint8_t *image;   /* the decoded layer, rows of (width + 7) / 8 bytes, 1 black */
    uint32_t next_row;
    vgn_error failure;      /* why decoding failed, given again to later reads */
} vgn_jbig;

static uint32_t vgn_jbig_be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

static void vgn_jbig_close(vgn_decoder *d)
{
    vgn_jbig *j = (vgn_jbig *)d;
    if (j == NULL) return;
    if (j->started) jbg_dec_free(&j->state);
    free(j);
}

/* A side of layer `layer` of `layers` (0 the lowest): the full side halved, rounded up, once a layer below the top. */
static uint32_t vgn_jbig_side(uint32_t full, int layers, int layer)
{
    uint64_t s = full;
    int k;
    for (k = layers; k > layer; k--) s = (s + 1) / 2;
    return (uint32_t)s;
}

/* Decodes the chosen layer: VGN_OK, or a failure in err. */
static int vgn_jbig_decode(vgn_jbig *j, vgn_error *err)
{
    size_t used = 0, pos = 0;
    int rc = JBG_EAGAIN;
    char m[VGN_MSG_LEN];
    jbg_dec_init(&j->state);
    j->started = 1;
    jbg_dec_maxsize(&j->state, j->base.width, j->base.height);
    /* jbg_dec_in takes the data in pieces; one call takes what it can, JBG_EAGAIN asks for more */
    while (pos < j->size && rc == JBG_EAGAIN) {
        used = 0;
        rc = jbg_dec_in(&j->state, (unsigned char *)(uintptr_t)(j->data + pos), j->size - pos, &used);
        if (used == 0 && rc == JBG_EAGAIN) break;
        pos += used;
    }
    if (rc == JBG_EAGAIN) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file ends before the picture does", NULL);
        return VGN_E_TRUNCATED;
    }
    if (rc != JBG_EOK && rc != JBG_EOK_INTR) {
        snprintf(m, sizeof m, "JBIG-KIT: %s", jbg_strerror(rc));
        vgn_err_fill(err, (rc & 0xF0) == JBG_ENOMEM ? VGN_E_NOMEM : (rc & 0xF0) == JBG_EIMPL ? VGN_E_UNSUPPORTED : VGN_E_INVALID, m, NULL);
        return err->code;
    }
    /* a NEWLEN marker may have made the picture shorter than the header said: the rest stays white */
    if (jbg_dec_getwidth(&j->state) != j->base.width || jbg_dec_getheight(&j->state) > j->base.height ||
        (j->image = jbg_dec_getimage(&j->state, 0)) == NULL) {
        vgn_err_fill(err, VGN_E_INVALID, "the decoded layer is not the size its header gives", NULL);
        return VGN_E_INVALID;
    }
    return VGN_OK;
}

static int vgn_jbig_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_jbig *j = (vgn_jbig *)d;
    size_t row_bytes = ((size_t)j->base.width + 7) / 8;
    uint32_t decoded;
    int n = 0;
    if (j->image == NULL) {
        if (j->started || vgn_jbig_decode(j, &j->failure) != VGN_OK) {
            if (err != NULL) *err = j->failure;
            return j->failure.code;
        }
    }
    decoded = (uint32_t)jbg_dec_getheight(&j->state);
    while (n < max_rows && j->next_row < j->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        if (j->next_row < decoded) {
            const uint8_t *p = j->image + (size_t)j->next_row * row_bytes;
            for (x = 0; x < j->base.width; x++, out += 4) {
                uint8_t v = (p[x >> 3] >> (7 - (x & 7)) & 1) ? 0 : 255;
                out[0] = out[1] = out[2] = v;
                out[3] = 255;
            }
        } else {
            memset(out, 255, (size_t)j->base.width * 4);
        }
        n++;
        j->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

vgn_decoder *vgn_jbig_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_jbig *j;
    uint32_t xd, yd, l0;
    int dl, layers, planes, layer;
    char m[VGN_MSG_LEN];
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 20) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is shorter than the 20-byte header", NULL);
        return NULL;
    }
    dl = data[0], layers = data[1], planes = data[2];
    xd = vgn_jbig_be32(data + 4), yd = vgn_jbig_be32(data + 8), l0 = vgn_jbig_be32(data + 12);
    /* the header's fixed fields: layers 0-255 with DL <= D, a reserved zero byte, MX <= 127, MY 0 */
    if (data[3] != 0 || dl > layers || data[16] > 127 || data[17] != 0 || l0 == 0 || xd == 0 || yd == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "no JBIG header (its fixed fields do not hold)", NULL);
        return NULL;
    }
    if (planes != 1) {
        snprintf(m, sizeof m, "JBIG of %d bit planes (grey) is not supported: one (black and white) is", planes);
        vgn_err_fill(err, VGN_E_UNSUPPORTED, m, NULL);
        return NULL;
    }
    if (dl != 0) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "the file continues another (its lowest layer is not in it)", NULL);
        return NULL;
    }
    if (layers > 31) {
        snprintf(m, sizeof m, "%d resolution layers: at most 31 are read", layers);
        vgn_err_fill(err, VGN_E_LIMIT, m, NULL);
        return NULL;
    }
    if ((data[19] & VGN_JBIG_VLENGTH) && yd == 0xFFFFFFFFu) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "the height is left open (0xFFFFFFFF, to be given by a later marker)", NULL);
        return NULL;
    }
    if (vgn_library_load(VGN_LIB_JBIG, err) != VGN_OK) return NULL;
    /* the smallest layer whose longest side covers four times the target: a lower layer is itself
     * black and white, and shrinking it less than four times leaves a thumbnail as jagged as it is */
    for (layer = 0; target > 0 && layer < layers; layer++) {
        uint32_t w = vgn_jbig_side(xd, layers, layer), h = vgn_jbig_side(yd, layers, layer);
        if ((uint64_t)(w > h ? w : h) >= (uint64_t)target * 4) break;
    }
    /* libjbig stops at a lower layer only when layers are the outermost loop (ILEAVE without SEQ) */
    if (target == 0 || (data[18] & (JBG_ILEAVE | JBG_SEQ)) != JBG_ILEAVE) layer = layers;
    j = (vgn_jbig *)calloc(1, sizeof *j);
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    j->data = data;
    j->size = size;
    j->base.read_rows = vgn_jbig_read_rows;
    j->base.close = vgn_jbig_close;
    j->base.width = vgn_jbig_side(xd, layers, layer);
    j->base.height = vgn_jbig_side(yd, layers, layer);
    j->base.opaque = 1;
    /* libjbig allocates the full-size picture at the header whatever layer it stops at (pages it
     * never touches cost nothing, but count them), a quarter more for the layer below, and lines */
    j->base.working = (size_t)(((uint64_t)xd + 7) / 8 * yd * 5 / 4 + ((uint64_t)1 << 20));
    info->width = xd;
    info->height = yd;
    info->components = 1;
    info->bit_depth = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &j->base;
}
