/* vgn_legacy.c - three old raster formats: ZSoft PCX, SGI image (.sgi, .rgb, .bw) and Sun raster (.ras).
 * See vgn_decoder.h.
 *
 * PCX: a 128-byte little-endian header, then every scanline as its planes one after another (bytes per line
 * each), raw or run-length coded (a byte with its top two bits set repeats the next byte its low six bits'
 * times). Encoders let runs cross scanlines, so the code is read as one stream whose position is kept between
 * rows, into the one scanline buffer allocated at open (at most 4 x 65535 bytes). 8-bit pixels in one plane
 * take the 256-colour palette at the end of the file (0x0C, 769 bytes from the end), grey without it; 8-bit in
 * three or four planes are RGB or RGBA; 1-bit in one plane is black (0) and white (1), as netpbm and Pillow
 * read it (ImageMagick reads, and writes, set bits as black); 1-bit in four planes (EGA) and 2- or 4-bit in
 * one plane take the header's 16 colours. Version 3's "no palette information" is not honoured with the
 * default EGA palette: the header's colours are used, as readers do.
 *
 * SGI: a 512-byte big-endian header, then each channel as a plane of rows stored bottom-up, verbatim or
 * run-length coded with tables of every row's start and length (channel-major) after the header. Every row is
 * found where it is stored, so rows are decoded on demand straight from the input: nothing is allocated while
 * reading, and the tables are read in place (the file must hold them, checked at open). A verbatim file must
 * hold the planes shown at open: cut anywhere in them, it has lost the first row read (the top row of the last
 * plane). 16-bit samples keep their top byte; pixmin/pixmax and the colormap field (dithered,
 * screen-map and colour-map files, long obsolete) are not used. More than four channels: the first four.
 *
 * Sun raster: a 32-byte big-endian header, an optional colour map (its reds, then greens, then blues), then
 * rows padded to 16 bits, raw or byte-run-length coded (0x80 0x00 is a literal 0x80, 0x80 n v is n + 1 copies
 * of v) as one stream across rows. 24-bit pixels are BGR, 32-bit XBGR, RGB and XRGB in type-3 files; X is
 * padding, but ImageMagick writes alpha there, so it is read as alpha unless every pixel's is 0 (BMP's rule); 8-bit without a colour map is grey;
 * 1-bit without a map is black for 1. A raw colour map (type 2), or any map with 24- or 32-bit pixels, is
 * skipped. The header's length field is not relied on (the old type leaves it 0); run-length coded rows are
 * decoded into one row buffer allocated at the first read (base.working), its size first checked against what
 * the rest of the file could expand to.
 *
 * Truncation: read_rows returns VGN_E_TRUNCATED at the first row that cannot be completed (rows given before
 * stay valid; within a call that already gave rows, they are returned and the error comes next).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

typedef struct {
    int code; /* the error every later read returns, 0 while there is none */
    char message[VGN_MSG_LEN];
} vgn_legacy_failure;

static uint32_t vgn_legacy_le16(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8; }
static uint32_t vgn_legacy_be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t vgn_legacy_be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static void vgn_legacy_pixel(uint8_t *o, uint8_t r, uint8_t g, uint8_t b, uint8_t a)
{
    o[0] = r, o[1] = g, o[2] = b, o[3] = a;
}

/* The error of a previous read, if there was one (filled in err). */
static int vgn_legacy_failed(const vgn_legacy_failure *f, vgn_error *err)
{
    if (f->code != 0) vgn_err_fill(err, f->code, f->message, NULL);
    return f->code;
}

/* A row that cannot be completed after n rows of this call: those are returned, the error now when there
 * are none and on every later call. */
static int vgn_legacy_stop(vgn_legacy_failure *f, int n, int code, const char *msg, vgn_error *err)
{
    f->code = code;
    vgn_copy_message(f->message, msg);
    if (n > 0) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return n;
    }
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

/* ---- PCX --------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t end;            /* where the pixel stream ends (before a 256-colour palette) */
    size_t pos;            /* the stream's next byte */
    uint32_t run;          /* run-length: copies of run_value still to give */
    uint8_t run_value;
    int rle;
    int bits, planes;
    uint32_t bpl;          /* bytes a line in each plane */
    const uint8_t *palette; /* RGB triplets (the end's 256 or the header's 16), NULL for grey */
    uint8_t *line;          /* one scanline: planes x bpl */
    uint32_t next;
    vgn_legacy_failure fail;
} vgn_pcx;

static void vgn_pcx_close(vgn_decoder *base)
{
    vgn_pcx *d = (vgn_pcx *)base;
    if (d == NULL) return;
    free(d->line);
    free(d);
}

static int vgn_pcx_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Whether bits x planes is a layout read here. */
static int vgn_pcx_supported(int bits, int planes)
{
    if (bits == 8) return planes == 1 || planes == 3 || planes == 4;
    if (bits == 1) return planes == 1 || planes == 4;
    return (bits == 2 || bits == 4) && planes == 1;
}

vgn_decoder *vgn_pcx_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    int version, encoding, bits, planes;
    uint32_t xmin, ymin, xmax, ymax, w, h, bpl;
    vgn_pcx *d;

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 1 || data[0] != 0x0A)
        return vgn_err_null(err, VGN_E_INVALID, "the file does not start with ZSoft's 0x0A");
    if (size < 128) return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the 128-byte header");
    version = data[1];
    encoding = data[2];
    bits = data[3];
    planes = data[65];
    if (version > 5 || version == 1) {
        snprintf(msg, sizeof msg, "the version %d is not a known one (0, 2, 3, 4 or 5)", version);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (encoding > 1) {
        snprintf(msg, sizeof msg, "the encoding %d is not a known one (0 raw, 1 run-length coded)", encoding);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (!vgn_pcx_supported(bits, planes)) {
        snprintf(msg, sizeof msg, "%d-bit samples in %d plane%s are not supported", bits, planes, planes == 1 ? "" : "s");
        return vgn_err_null(err, VGN_E_UNSUPPORTED, msg);
    }
    xmin = vgn_legacy_le16(data + 4);
    ymin = vgn_legacy_le16(data + 6);
    xmax = vgn_legacy_le16(data + 8);
    ymax = vgn_legacy_le16(data + 10);
    bpl = vgn_legacy_le16(data + 66);
    if (xmax < xmin || ymax < ymin) return vgn_err_null(err, VGN_E_INVALID, "the window ends before it starts");
    w = xmax - xmin + 1;
    h = ymax - ymin + 1;
    if ((uint64_t)bpl * 8 < (uint64_t)w * (uint32_t)bits) {
        snprintf(msg, sizeof msg, "%u bytes a line are too few for %u pixels of %d bits", bpl, w, bits);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }

    d = (vgn_pcx *)calloc(1, sizeof *d);
    if (d == NULL || (d->line = (uint8_t *)malloc((size_t)planes * bpl)) == NULL) {
        free(d);
        return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    }
    d->data = data;
    d->end = size;
    d->pos = 128;
    d->rle = encoding == 1;
    d->bits = bits;
    d->planes = planes;
    d->bpl = bpl;
    if (bits == 8 && planes == 1) {
        if (size - 128 >= 769 && data[size - 769] == 0x0C) {
            d->palette = data + size - 768;
            d->end = size - 769;
        }
    } else if (bits < 8 && !(bits == 1 && planes == 1)) {
        d->palette = data + 16;
    }

    info->width = w;
    info->height = h;
    info->components = bits == 8 ? planes : 1;
    info->bit_depth = bits * (bits == 8 ? 1 : planes);
    info->has_alpha = planes == 4 && bits == 8;
    info->orientation = 1;
    d->base.read_rows = vgn_pcx_read_rows;
    d->base.close = vgn_pcx_close;
    d->base.width = w;
    d->base.height = h;
    d->base.working = 0;
    d->base.opaque = !info->has_alpha;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

/* The next scanline's planes x bpl bytes from the stream: 0, or -1 when the stream ends first. */
static int vgn_pcx_fill(vgn_pcx *d)
{
    size_t n = (size_t)d->planes * d->bpl, i = 0;
    if (!d->rle) {
        if (d->end - d->pos < n) return -1;
        memcpy(d->line, d->data + d->pos, n);
        d->pos += n;
        return 0;
    }
    while (i < n) {
        uint8_t b;
        if (d->run > 0) {
            size_t k = d->run < n - i ? d->run : n - i;
            memset(d->line + i, d->run_value, k);
            d->run -= (uint32_t)k;
            i += k;
            continue;
        }
        if (d->pos >= d->end) return -1;
        b = d->data[d->pos++];
        if ((b & 0xC0) != 0xC0) {
            d->line[i++] = b;
            continue;
        }
        if (d->pos >= d->end) return -1;
        d->run = b & 0x3F;
        d->run_value = d->data[d->pos++];
    }
    return 0;
}

/* The scanline as RGBA. */
static void vgn_pcx_row(const vgn_pcx *d, uint8_t *out)
{
    const uint8_t *l = d->line, *pal = d->palette;
    uint32_t x, w = d->base.width;
    size_t bpl = d->bpl;
    if (d->bits == 8 && d->planes > 1) {
        for (x = 0; x < w; x++)
            vgn_legacy_pixel(out + (size_t)x * 4, l[x], l[bpl + x], l[2 * bpl + x], d->planes == 4 ? l[3 * bpl + x] : 255);
    } else if (d->bits == 8) {
        for (x = 0; x < w; x++) {
            const uint8_t *c = pal != NULL ? pal + (size_t)l[x] * 3 : NULL;
            if (c != NULL) vgn_legacy_pixel(out + (size_t)x * 4, c[0], c[1], c[2], 255);
            else vgn_legacy_pixel(out + (size_t)x * 4, l[x], l[x], l[x], 255);
        }
    } else if (d->planes == 4) {
        /* EGA: bit p of the colour index in plane p */
        for (x = 0; x < w; x++) {
            uint32_t shift = 7 - (x & 7), index = 0, p;
            const uint8_t *c;
            for (p = 0; p < 4; p++) index |= (uint32_t)((l[p * bpl + (x >> 3)] >> shift) & 1) << p;
            c = pal + index * 3;
            vgn_legacy_pixel(out + (size_t)x * 4, c[0], c[1], c[2], 255);
        }
    } else {
        /* 1, 2 or 4 bits a pixel in one plane, the leftmost in the high bits */
        uint32_t bits = (uint32_t)d->bits, per_byte = 8 / bits, mask = (1u << bits) - 1;
        for (x = 0; x < w; x++) {
            uint32_t index = (uint32_t)(l[x / per_byte] >> (8 - bits - x % per_byte * bits)) & mask;
            if (pal == NULL) {
                uint8_t v = index ? 255 : 0;
                vgn_legacy_pixel(out + (size_t)x * 4, v, v, v, 255);
            } else {
                const uint8_t *c = pal + index * 3;
                vgn_legacy_pixel(out + (size_t)x * 4, c[0], c[1], c[2], 255);
            }
        }
    }
}

static int vgn_pcx_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_pcx *d = (vgn_pcx *)base;
    int n = 0;
    if (vgn_legacy_failed(&d->fail, err)) return d->fail.code;
    while (n < max_rows && d->next < d->base.height) {
        if (vgn_pcx_fill(d) != 0)
            return vgn_legacy_stop(&d->fail, n, VGN_E_TRUNCATED,
                                   d->rle ? "the run-length coded rows end early" : "the rows end early", err);
        vgn_pcx_row(d, dst + (size_t)n * stride);
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* ---- SGI --------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    int rle;
    int bpc;           /* bytes a sample: 1 or 2 */
    uint32_t ysize;    /* rows stored per channel */
    uint32_t zsize;    /* channels stored */
    int channels;      /* channels shown: up to 4 */
    uint32_t next;
    vgn_legacy_failure fail;
} vgn_sgi;

static void vgn_sgi_close(vgn_decoder *base) { free(base); }

static int vgn_sgi_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

vgn_decoder *vgn_sgi_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    int storage, bpc;
    uint32_t dimension, x, y, z;
    vgn_sgi *d;

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 2 || vgn_legacy_be16(data) != 474)
        return vgn_err_null(err, VGN_E_INVALID, "the magic number is not 474");
    if (size < 512) return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the 512-byte header");
    storage = data[2];
    bpc = data[3];
    dimension = vgn_legacy_be16(data + 4);
    x = vgn_legacy_be16(data + 6);
    y = vgn_legacy_be16(data + 8);
    z = vgn_legacy_be16(data + 10);
    if (storage > 1) {
        snprintf(msg, sizeof msg, "the storage %d is not a known one (0 verbatim, 1 run-length coded)", storage);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (bpc != 1 && bpc != 2) {
        snprintf(msg, sizeof msg, "%d bytes a sample are not a known size (1 or 2)", bpc);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    /* a one-dimensional image is a single row, a two-dimensional one a single channel */
    if (dimension == 1) y = z = 1;
    else if (dimension == 2) z = 1;
    else if (dimension != 3) {
        snprintf(msg, sizeof msg, "the dimension %u is not a known one (1, 2 or 3)", dimension);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (x == 0 || y == 0 || z == 0) return vgn_err_null(err, VGN_E_INVALID, "the header gives a zero size");
    if (storage == 1 && (uint64_t)y * z * 8 > size - 512)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the row tables its header gives");
    /* verbatim planes are stored bottom-up: a file cut in the planes shown has lost the first row read */
    if (storage == 0 && (uint64_t)x * y * (z > 4 ? 4 : z) * (uint32_t)bpc > size - 512)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives");

    d = (vgn_sgi *)calloc(1, sizeof *d);
    if (d == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    d->data = data;
    d->size = size;
    d->rle = storage == 1;
    d->bpc = bpc;
    d->ysize = y;
    d->zsize = z;
    d->channels = z > 4 ? 4 : (int)z;

    info->width = x;
    info->height = y;
    info->components = d->channels;
    info->bit_depth = 8 * bpc;
    info->has_alpha = d->channels == 2 || d->channels == 4;
    info->orientation = 1;
    d->base.read_rows = vgn_sgi_read_rows;
    d->base.close = vgn_sgi_close;
    d->base.width = x;
    d->base.height = y;
    d->base.working = 0;
    d->base.opaque = !info->has_alpha;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

/* Decodes one run-length coded row of `len` bytes at p into every fourth byte of out; NULL, or why the
 * row is invalid. A code's low byte holds the count (0 ends the row) and, in its 0x80 bit, a copy. */
static const char *vgn_sgi_unpack(const uint8_t *p, size_t len, size_t bpc, uint32_t w, uint8_t *out)
{
    size_t at = 0;
    uint32_t x = 0, i;
    while (x < w) {
        uint32_t code, count;
        if (len - at < bpc) return "a run-length coded row runs past its length";
        code = p[at + bpc - 1];
        at += bpc;
        count = code & 0x7F;
        if (count == 0) return "a run-length coded row ends before its width";
        if (count > w - x) return "a run-length coded row runs past its width";
        if (code & 0x80) {
            if ((len - at) / bpc < count) return "a run-length coded row runs past its length";
            for (i = 0; i < count; i++) out[(size_t)(x + i) * 4] = p[at + i * bpc];
            at += count * bpc;
        } else {
            uint8_t v;
            if (len - at < bpc) return "a run-length coded row runs past its length";
            v = p[at];
            at += bpc;
            for (i = 0; i < count; i++) out[(size_t)(x + i) * 4] = v;
        }
        x += count;
    }
    return NULL;
}

/* Stored row y (0 at the bottom) as RGBA; 0, or the error with *msg. */
static int vgn_sgi_row(const vgn_sgi *d, uint32_t y, uint8_t *out, const char **msg)
{
    uint32_t w = d->base.width, x, c;
    size_t bpc = (size_t)d->bpc;
    for (c = 0; c < (uint32_t)d->channels; c++) {
        /* grey+alpha: the second channel is alpha */
        uint8_t *o = out + (d->channels == 2 && c == 1 ? 3 : c);
        uint64_t index = (uint64_t)c * d->ysize + y;
        if (d->rle) {
            size_t start = vgn_legacy_be32(d->data + 512 + index * 4);
            size_t len = vgn_legacy_be32(d->data + 512 + ((uint64_t)d->ysize * d->zsize + index) * 4);
            if (start > d->size || len > d->size - start) {
                *msg = "the rows end early";
                return VGN_E_TRUNCATED;
            }
            *msg = vgn_sgi_unpack(d->data + start, len, bpc, w, o);
            if (*msg != NULL) return VGN_E_INVALID;
        } else {
            /* inside the file: checked at open; 16-bit samples are big-endian, their top byte first */
            const uint8_t *p = d->data + 512 + (size_t)(index * w * bpc);
            for (x = 0; x < w; x++) o[(size_t)x * 4] = p[x * bpc];
        }
    }
    for (x = 0; x < w; x++) {
        uint8_t *o = out + (size_t)x * 4;
        if (d->channels <= 2) o[1] = o[2] = o[0];
        if (d->channels == 1 || d->channels == 3) o[3] = 255;
    }
    return 0;
}

static int vgn_sgi_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_sgi *d = (vgn_sgi *)base;
    int n = 0;
    if (vgn_legacy_failed(&d->fail, err)) return d->fail.code;
    while (n < max_rows && d->next < d->base.height) {
        const char *msg = NULL;
        int r = vgn_sgi_row(d, d->base.height - 1 - d->next, dst + (size_t)n * stride, &msg);
        if (r != 0) return vgn_legacy_stop(&d->fail, n, r, msg, err);
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* ---- Sun raster -------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    size_t pos;            /* raw: the next row; run-length: the stream's next byte */
    uint32_t run;          /* run-length: copies of run_value still to give */
    uint8_t run_value;
    int rle;
    int rgb;               /* type 3: colour samples in RGB order, else BGR */
    int depth;
    int alpha;             /* 32-bit: the pad byte is alpha (some is not 0), -1 not known yet (run-length) */
    const uint8_t *map;    /* `entries` reds, greens, then blues; NULL without a map */
    uint32_t entries;
    size_t row_bytes;      /* a stored row, padded to 16 bits */
    uint8_t *row;          /* run-length: the row decoded (allocated at the first read) */
    uint32_t next;
    vgn_legacy_failure fail;
} vgn_sun;

static void vgn_sun_close(vgn_decoder *base)
{
    vgn_sun *d = (vgn_sun *)base;
    if (d == NULL) return;
    free(d->row);
    free(d);
}

static int vgn_sun_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Whether a raw 32-bit file's pad bytes hold alpha: the format says they are unused, but ImageMagick
 * writes alpha there, so (as for 32-bit BMP) they are taken as alpha unless every one is 0. */
static int vgn_sun_raw_alpha(const vgn_sun *d)
{
    size_t y, x;
    for (y = 0; y < d->base.height && (d->size - d->pos) / d->row_bytes > y; y++) {
        const uint8_t *p = d->data + d->pos + y * d->row_bytes;
        for (x = 0; x < d->base.width; x++)
            if (p[x * 4] != 0) return 1;
    }
    return 0;
}

vgn_decoder *vgn_sun_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    uint32_t w, h, depth, type, maptype, maplength;
    uint64_t row_bytes;
    size_t start;
    vgn_sun *d;

    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (size < 4 || vgn_legacy_be32(data) != 0x59a66a95u)
        return vgn_err_null(err, VGN_E_INVALID, "the magic number is not 0x59a66a95");
    if (size < 32) return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for the 32-byte header");
    w = vgn_legacy_be32(data + 4);
    h = vgn_legacy_be32(data + 8);
    depth = vgn_legacy_be32(data + 12);
    type = vgn_legacy_be32(data + 20);
    maptype = vgn_legacy_be32(data + 24);
    maplength = vgn_legacy_be32(data + 28);
    if (w == 0 || h == 0) return vgn_err_null(err, VGN_E_INVALID, "the header gives a zero size");
    if (depth != 1 && depth != 8 && depth != 24 && depth != 32) {
        snprintf(msg, sizeof msg, "pixels of %u bits are not supported (1, 8, 24 or 32)", depth);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, msg);
    }
    if (type > 3) {
        snprintf(msg, sizeof msg, "the type %u is not supported (0 old, 1 standard, 2 run-length coded, 3 RGB)", type);
        return vgn_err_null(err, VGN_E_UNSUPPORTED, msg);
    }
    if (maptype > 2) {
        snprintf(msg, sizeof msg, "the colour map type %u is not a known one (0 none, 1 RGB, 2 raw)", maptype);
        return vgn_err_null(err, VGN_E_INVALID, msg);
    }
    if (maplength > size - 32)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the colour map runs past the end of the file");
    start = 32 + (size_t)maplength;
    row_bytes = ((uint64_t)w * depth + 15) / 16 * 2;
    /* run-length coding turns 3 bytes into at most 256: the row buffer must be one the file can fill */
    if (type == 2 && row_bytes > ((uint64_t)(size - start) / 3 + 1) * 256)
        return vgn_err_null(err, VGN_E_TRUNCATED, "the file is too short for one row of the width its header gives");
    if (row_bytes > SIZE_MAX / 2) return vgn_err_null(err, VGN_E_LIMIT, "the rows are too large");

    d = (vgn_sun *)calloc(1, sizeof *d);
    if (d == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    d->data = data;
    d->size = size;
    d->pos = start;
    d->rle = type == 2;
    d->rgb = type == 3;
    d->depth = (int)depth;
    d->row_bytes = (size_t)row_bytes;
    /* a raw map (type 2) has no meaning to go by; with 24- or 32-bit pixels a map is left alone */
    if (maptype == 1 && maplength >= 3 && depth <= 8) {
        d->map = data + 32;
        d->entries = maplength / 3;
    }

    info->width = w;
    info->height = h;
    info->components = depth <= 8 ? 1 : 3;
    info->bit_depth = depth <= 8 ? (int)depth : 8;
    info->orientation = 1;
    d->base.read_rows = vgn_sun_read_rows;
    d->base.close = vgn_sun_close;
    d->base.width = w;
    d->base.height = h;
    d->base.working = d->rle ? d->row_bytes : 0;
    if (depth == 32 && !d->rle) d->alpha = vgn_sun_raw_alpha(d);
    else if (depth == 32) d->alpha = -1;
    info->has_alpha = d->alpha != 0;
    d->base.opaque = d->alpha == 0;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

/* The next row's bytes from the run-length coded stream: 0, or -1 when the stream ends first. */
static int vgn_sun_fill(vgn_sun *d)
{
    size_t i = 0, n = d->row_bytes;
    while (i < n) {
        uint8_t b;
        if (d->run > 0) {
            size_t k = d->run < n - i ? d->run : n - i;
            memset(d->row + i, d->run_value, k);
            d->run -= (uint32_t)k;
            i += k;
            continue;
        }
        if (d->pos >= d->size) return -1;
        b = d->data[d->pos++];
        if (b != 0x80) {
            d->row[i++] = b;
            continue;
        }
        if (d->pos >= d->size) return -1;
        b = d->data[d->pos++];
        if (b == 0) {
            d->row[i++] = 0x80;
            continue;
        }
        if (d->pos >= d->size) return -1;
        d->run = (uint32_t)b + 1;
        d->run_value = d->data[d->pos++];
    }
    return 0;
}

/* Colour-map entry i as RGBA (black past the map's end). */
static void vgn_sun_mapped(const vgn_sun *d, uint32_t i, uint8_t *o)
{
    if (i < d->entries) vgn_legacy_pixel(o, d->map[i], d->map[d->entries + i], d->map[2 * (size_t)d->entries + i], 255);
    else vgn_legacy_pixel(o, 0, 0, 0, 255);
}

/* A stored row as RGBA. */
static void vgn_sun_row(const vgn_sun *d, const uint8_t *p, uint8_t *out)
{
    uint32_t x, w = d->base.width;
    for (x = 0; x < w; x++) {
        uint8_t *o = out + (size_t)x * 4;
        if (d->depth == 1) {
            uint32_t bit = (p[x >> 3] >> (7 - (x & 7))) & 1;
            if (d->map != NULL) vgn_sun_mapped(d, bit, o);
            else vgn_legacy_pixel(o, bit ? 0 : 255, bit ? 0 : 255, bit ? 0 : 255, 255);
        } else if (d->depth == 8) {
            if (d->map != NULL) vgn_sun_mapped(d, p[x], o);
            else vgn_legacy_pixel(o, p[x], p[x], p[x], 255);
        } else {
            /* 32-bit pixels start with their pad byte (alpha when d->alpha) */
            const uint8_t *s = d->depth == 24 ? p + (size_t)x * 3 : p + (size_t)x * 4 + 1;
            uint8_t a = d->depth == 32 && d->alpha > 0 ? s[-1] : 255;
            if (d->rgb) vgn_legacy_pixel(o, s[0], s[1], s[2], a);
            else vgn_legacy_pixel(o, s[2], s[1], s[0], a);
        }
    }
}

/* vgn_sun_raw_alpha for a run-length coded file: its rows decoded once ahead (as far as they go),
 * then the stream rewound. */
static void vgn_sun_rle_alpha(vgn_sun *d)
{
    size_t pos = d->pos, x;
    uint32_t y;
    d->alpha = 0;
    for (y = 0; y < d->base.height && d->alpha == 0 && vgn_sun_fill(d) == 0; y++)
        for (x = 0; x < d->base.width; x++)
            if (d->row[x * 4] != 0) {
                d->alpha = 1;
                break;
            }
    d->pos = pos;
    d->run = 0;
}

static int vgn_sun_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_sun *d = (vgn_sun *)base;
    int n = 0;
    if (vgn_legacy_failed(&d->fail, err)) return d->fail.code;
    if (d->rle && d->row == NULL && d->next < d->base.height && (d->row = (uint8_t *)malloc(d->row_bytes)) == NULL)
        return vgn_legacy_stop(&d->fail, 0, VGN_E_NOMEM, "out of memory", err);
    if (d->alpha < 0) vgn_sun_rle_alpha(d);
    while (n < max_rows && d->next < d->base.height) {
        const uint8_t *p;
        if (d->rle) {
            if (vgn_sun_fill(d) != 0)
                return vgn_legacy_stop(&d->fail, n, VGN_E_TRUNCATED, "the run-length coded rows end early", err);
            p = d->row;
        } else {
            if (d->size - d->pos < d->row_bytes)
                return vgn_legacy_stop(&d->fail, n, VGN_E_TRUNCATED, "the rows end early", err);
            p = d->data + d->pos;
            d->pos += d->row_bytes;
        }
        vgn_sun_row(d, p, dst + (size_t)n * stride);
        n++;
        d->next++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}
