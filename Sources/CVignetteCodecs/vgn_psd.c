/* vgn_psd.c - Photoshop documents (PSD, and PSB "large documents"): the merged image Photoshop
 * stores after the layers (written unless "Maximize compatibility" was turned off). See vgn_decoder.h.
 *
 * When Version Info says the merged image is not real ("Maximize compatibility" off: Photoshop
 * writes white rows), vgn_psd_merged_info finds the JPEG thumbnail the caller shows instead.
 * Both read the image resources with psd_scan_resources, which also finds the ICC profile (1039):
 * an RGB document's is handed to the caller (applied to the thumbnail), a CMYK document's takes a
 * CMYK transform back (vgn_decoder_set_cmyk_transform) that converts the inks row by row.
 *
 * Colour modes: bitmap (1 bit), greyscale, duotone (drawn as its grey), indexed (the palette in the
 * colour-mode section), RGB, CMYK (through its profile, else the plain formula; the ink values
 * are stored inverted) and Lab;
 * 8 and 16 bits a sample (the top 8 kept), 32-bit floats clamped to 0..1. Raw or PackBits rows; the
 * ZIP compressions Photoshop never uses for the merged image are refused. The first extra channel
 * is the merged image's transparency only when the layer section says so (a negative layer
 * count); other extra channels (saved selections, spot colours) are left out.
 *
 * The channels are stored one after another (every row of the first, then of the next…), so a row
 * of pixels gathers one row from each: from memory, or read from the descriptor at the offsets of
 * the PackBits row lengths (prefix sums of the table, 8 bytes a row and channel, in `working`),
 * never the whole file. Hostile sizes are refused from the header (30,000 pixels a side for PSD,
 * 300,000 for PSB, 56 channels) and every length is checked against the file's size before use. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgn_icc.h"
#include "vgn_internal.h"

enum { PSD_BITMAP = 0, PSD_GREY = 1, PSD_INDEXED = 2, PSD_RGB = 3, PSD_CMYK = 4, PSD_DUOTONE = 8, PSD_LAB = 9 };

typedef struct {
    vgn_decoder base;
    const uint8_t *data; /* the caller's buffer, or NULL when reading through fd */
    int fd;
    uint64_t size;
    int version;              /* 1 PSD, 2 PSB */
    uint32_t w, h;
    unsigned channels, depth, mode;
    unsigned colors;          /* colour channels used (1, 3 or 4) */
    int alpha;                /* the channel after them is the merged transparency */
    int rle;
    uint64_t pixels;          /* offset of the first row of the first channel */
    uint64_t *row_offsets;    /* PackBits: (channel * h + row) -> offset, then its end at [n] */
    size_t row_bytes;         /* stored bytes of one uncompressed row of one channel */
    uint8_t palette[768];
    uint8_t *rows;            /* one uncompressed row per used channel */
    uint8_t *packed;          /* one PackBits row as stored */
    uint8_t *icc;             /* the embedded ICC profile (resource 1039), or NULL */
    uint8_t *cmyk;            /* CMYK through a profile: one row of inks (not inverted), then its RGB */
    size_t packed_cap;
    uint32_t next;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
} vgn_psd;

static uint32_t be16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }
static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint64_t be64(const uint8_t *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* Reads n bytes at off into buf: 0, or -1 when the file ends first or cannot be read. */
static int psd_read(const vgn_psd *d, uint64_t off, void *buf, size_t n)
{
    size_t done = 0;
    if (off > d->size || n > d->size - off) return -1;
    if (d->data != NULL) {
        memcpy(buf, d->data + off, n);
        return 0;
    }
    while (done < n) {
        ssize_t r = pread(d->fd, (uint8_t *)buf + done, n - done, (off_t)(off + done));
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) return -1;
        done += (size_t)r;
    }
    return 0;
}

static void psd_close(vgn_decoder *base)
{
    vgn_psd *d = (vgn_psd *)base;
    if (d == NULL) return;
    free(d->row_offsets);
    free(d->rows);
    free(d->packed);
    free(d->icc);
    free(d->cmyk);
    free(d);
}

static vgn_decoder *psd_fail_open(vgn_psd *d, vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    psd_close(&d->base);
    return NULL;
}

static int psd_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Reads a section length (4 bytes, or 8 for PSB's layer section) at *off and steps over the
 * section; -1 when it runs past the end of the file. */
static int psd_skip_section(const vgn_psd *d, uint64_t *off, int wide, uint64_t *length)
{
    uint8_t b[8];
    uint64_t n;
    if (psd_read(d, *off, b, wide ? 8 : 4) != 0) return -1;
    n = wide ? be64(b) : be32(b);
    *off += wide ? 8 : 4;
    if (n > d->size - *off) return -1;
    if (length != NULL) *length = n;
    *off += n;
    return 0;
}

/* Image resources read by psd_scan_resources: at most this many, each header read on its own. */
#define PSD_MAX_RESOURCES 4096
/* Largest ICC profile kept (a CMYK profile with its tables is typically 0.2-1 MB). */
#define PSD_MAX_ICC (4u << 20)

/* What the image resources say, as far as the decoder and vgn_psd_merged_info care. */
typedef struct {
    int real_merged;                       /* Version Info (1057): the merged image is real */
    uint64_t thumb_offset, thumb_length;   /* the JFIF stream of the thumbnail (1036, format 1) */
    uint64_t icc_offset, icc_length;       /* the ICC profile (1039) */
} psd_resources;

/* Walks the image resources whose section length is at `off` (each an 8BIM block: id, padded
 * Pascal name, length, data padded to even); stops quietly at the first block that does not fit. */
static void psd_scan_resources(const vgn_psd *d, uint64_t off, psd_resources *r)
{
    uint8_t b[28];
    uint64_t end;
    int i;
    memset(r, 0, sizeof *r);
    r->real_merged = 1;
    if (psd_read(d, off, b, 4) != 0) return;
    end = off + 4 + be32(b);
    if (end > d->size) return;
    off += 4;
    for (i = 0; i < PSD_MAX_RESOURCES && off + 12 <= end; i++) {
        uint32_t id, name, length;
        uint64_t at;
        if (psd_read(d, off, b, 7) != 0 || memcmp(b, "8BIM", 4) != 0) break;
        id = be16(b + 4);
        name = (1u + b[6] + 1u) & ~1u; /* a Pascal string padded to an even length */
        if (off + 6 + name + 4 > end || psd_read(d, off + 6 + name, b, 4) != 0) break;
        length = be32(b);
        at = off + 6 + name + 4;
        if (length > end - at) break;
        if (id == 1057 && length >= 5 && psd_read(d, at, b, 5) == 0) {
            r->real_merged = b[4] != 0; /* version (4 bytes), then hasRealMergedData */
        } else if (id == 1036 && length > 28 && psd_read(d, at, b, 28) == 0 && be32(b) == 1) {
            r->thumb_offset = at + 28; /* format 1: a JFIF stream after the 28-byte header */
            r->thumb_length = length - 28;
        } else if (id == 1039) {
            r->icc_offset = at;
            r->icc_length = length;
        }
        off = at + length + (length & 1);
    }
}

/* Keeps the ICC profile of an 8- or 16-bit RGB or CMYK document (others are left alone: grey and
 * Lab need none Vignette applies, 32-bit documents are linear whatever they embed). A profile that
 * cannot be read is ignored, never an error. */
static void psd_take_icc(vgn_psd *d, const psd_resources *r)
{
    if ((d->mode != PSD_RGB && d->mode != PSD_CMYK) || (d->depth != 8 && d->depth != 16)) return;
    if (r->icc_length < 132 || r->icc_length > PSD_MAX_ICC) return; /* 128-byte header and a tag count at least */
    if ((d->icc = (uint8_t *)malloc((size_t)r->icc_length)) == NULL) return;
    if (psd_read(d, r->icc_offset, d->icc, (size_t)r->icc_length) != 0) {
        free(d->icc);
        d->icc = NULL;
        return;
    }
    d->base.icc = d->icc;
    d->base.icc_size = (size_t)r->icc_length;
    d->base.icc_cmyk = d->mode == PSD_CMYK;
}

static vgn_decoder *psd_start(vgn_psd *d, vgn_image_info *info, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    uint8_t h[26], b[16];
    uint64_t off = 26, colour_start, resources_start, layers_start, layers_length;
    psd_resources resources;
    uint32_t limit;
    unsigned used;

    memset(info, 0, sizeof *info);
    if (psd_read(d, 0, h, 26) != 0) return psd_fail_open(d, err, VGN_E_INVALID, "the file is too short for a PSD header");
    if (memcmp(h, "8BPS", 4) != 0) return psd_fail_open(d, err, VGN_E_INVALID, "not a Photoshop document (no 8BPS signature)");
    d->version = (int)be16(h + 4);
    if (d->version != 1 && d->version != 2) {
        snprintf(msg, sizeof msg, "the PSD version %d is not a known one", d->version);
        return psd_fail_open(d, err, VGN_E_UNSUPPORTED, msg);
    }
    d->channels = be16(h + 12);
    d->h = be32(h + 14);
    d->w = be32(h + 18);
    d->depth = be16(h + 22);
    d->mode = be16(h + 24);
    limit = d->version == 1 ? 30000 : 300000;
    if (d->channels < 1 || d->channels > 56) {
        snprintf(msg, sizeof msg, "the PSD header gives %u channels (1 to 56 are allowed)", d->channels);
        return psd_fail_open(d, err, VGN_E_INVALID, msg);
    }
    if (d->w == 0 || d->h == 0 || d->w > limit || d->h > limit) {
        snprintf(msg, sizeof msg, "the PSD header gives a size of %u x %u (1 to %u a side)", d->w, d->h, limit);
        return psd_fail_open(d, err, VGN_E_INVALID, msg);
    }
    if (!(d->depth == 1 || d->depth == 8 || d->depth == 16 || d->depth == 32) || (d->depth == 1) != (d->mode == PSD_BITMAP)) {
        snprintf(msg, sizeof msg, "the PSD header gives %u bits a sample for colour mode %u", d->depth, d->mode);
        return psd_fail_open(d, err, VGN_E_INVALID, msg);
    }
    switch (d->mode) {
    case PSD_BITMAP: case PSD_GREY: case PSD_DUOTONE: case PSD_INDEXED: d->colors = 1; break;
    case PSD_RGB: case PSD_LAB: d->colors = 3; break;
    case PSD_CMYK: d->colors = 4; break;
    default:
        snprintf(msg, sizeof msg, "the PSD colour mode %u (%s) is not supported", d->mode,
                 d->mode == 7 ? "multichannel" : "unknown");
        return psd_fail_open(d, err, VGN_E_UNSUPPORTED, msg);
    }
    if (d->channels < d->colors) {
        snprintf(msg, sizeof msg, "the PSD has %u channels, fewer than its colour mode needs (%u)", d->channels, d->colors);
        return psd_fail_open(d, err, VGN_E_INVALID, msg);
    }
    /* Colour-mode data (the palette of an indexed image), image resources, layers and masks. */
    colour_start = off;
    if (psd_skip_section(d, &off, 0, NULL) != 0)
        return psd_fail_open(d, err, VGN_E_TRUNCATED, "the PSD colour-mode section runs past the end of the file");
    if (d->mode == PSD_INDEXED) {
        if (off - colour_start - 4 < 768 || psd_read(d, colour_start + 4, d->palette, 768) != 0)
            return psd_fail_open(d, err, VGN_E_INVALID, "the indexed PSD has no 256-colour palette");
    }
    resources_start = off;
    if (psd_skip_section(d, &off, 0, NULL) != 0)
        return psd_fail_open(d, err, VGN_E_TRUNCATED, "the PSD image resources run past the end of the file");
    psd_scan_resources(d, resources_start, &resources);
    psd_take_icc(d, &resources);
    layers_start = off;
    if (psd_skip_section(d, &off, d->version == 2, &layers_length) != 0)
        return psd_fail_open(d, err, VGN_E_TRUNCATED, "the PSD layer section runs past the end of the file");
    /* Layer info: its length, then the layer count, negative when the first extra channel of the
     * merged image is its transparency. */
    if (layers_length >= (d->version == 2 ? 10u : 6u) &&
        psd_read(d, layers_start + (d->version == 2 ? 8 : 4), b, d->version == 2 ? 10 : 6) == 0 &&
        (d->version == 2 ? be64(b) : be32(b)) >= 2) {
        int16_t count = (int16_t)be16(b + (d->version == 2 ? 8 : 4));
        d->alpha = count < 0 && d->channels > d->colors;
    }
    if (psd_read(d, off, b, 2) != 0)
        return psd_fail_open(d, err, VGN_E_TRUNCATED, "the PSD ends before its merged image");
    switch (be16(b)) {
    case 0: d->rle = 0; break;
    case 1: d->rle = 1; break;
    case 2: case 3: return psd_fail_open(d, err, VGN_E_UNSUPPORTED, "the PSD's merged image is ZIP-compressed (not supported)");
    default:
        snprintf(msg, sizeof msg, "the PSD's merged image has an unknown compression %u", be16(b));
        return psd_fail_open(d, err, VGN_E_INVALID, msg);
    }
    d->pixels = off + 2;
    d->row_bytes = d->depth == 1 ? ((size_t)d->w + 7) / 8 : (size_t)d->w * (d->depth / 8);
    used = d->colors + (unsigned)d->alpha;

    info->width = d->w;
    info->height = d->h;
    info->components = used;
    info->bit_depth = d->depth;
    info->has_alpha = d->alpha;
    info->orientation = 1;
    d->base.read_rows = psd_read_rows;
    d->base.close = psd_close;
    d->base.width = d->w;
    d->base.height = d->h;
    d->base.opaque = !d->alpha;
    /* row buffers; PackBits: the offsets of every stored row and one stored row (at most 2x + 1) */
    d->base.working = (size_t)used * d->row_bytes + (d->rle ? (size_t)d->channels * d->h * 8 + 8 + d->row_bytes * 2 + 2 : 0) +
                      d->base.icc_size + (d->base.icc_cmyk ? (size_t)d->w * 7 : 0);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &d->base;
}

static vgn_psd *psd_new(const uint8_t *data, int fd, uint64_t size, vgn_error *err)
{
    vgn_psd *d = (vgn_psd *)calloc(1, sizeof *d);
    if (d == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    d->data = data;
    d->fd = fd;
    d->size = size;
    return d;
}

vgn_decoder *vgn_psd_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_psd *d;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    if ((d = psd_new(data, -1, size, err)) == NULL) return NULL;
    return psd_start(d, info, err);
}

vgn_decoder *vgn_psd_open_fd(int fd, vgn_image_info *info, vgn_error *err)
{
    vgn_psd *d;
    uint64_t size;
    if (vgn_fd_file_size(fd, "psd", info, &size, err) != VGN_OK) return NULL;
    if ((d = psd_new(NULL, fd, size, err)) == NULL) return NULL;
    return psd_start(d, info, err);
}

static int psd_fail(vgn_psd *d, vgn_error *err, int code, const char *msg)
{
    d->fail_code = code;
    vgn_copy_message(d->fail_msg, msg);
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

/* The PackBits table: every stored row's offset, from the lengths after the compression mark. */
static int psd_table(vgn_psd *d, vgn_error *err)
{
    uint64_t rows = (uint64_t)d->channels * d->h, i, at;
    unsigned wide = d->version == 2 ? 4 : 2;
    uint8_t chunk[4096];
    /* Checked before allocating: a small file cannot make the table's memory be taken. */
    if (rows * wide > d->size - d->pixels)
        return psd_fail(d, err, VGN_E_TRUNCATED, "the PSD ends inside its table of row lengths");
    if ((d->row_offsets = (uint64_t *)malloc((size_t)(rows + 1) * sizeof(uint64_t))) == NULL)
        return psd_fail(d, err, VGN_E_NOMEM, "out of memory for the PSD row table");
    at = d->pixels + rows * wide;
    for (i = 0; i < rows; i++) {
        size_t k = (size_t)(i % (sizeof chunk / wide));
        uint64_t length;
        if (k == 0) {
            uint64_t left = (rows - i) * wide;
            size_t n = left < sizeof chunk ? (size_t)left : sizeof chunk;
            if (psd_read(d, d->pixels + i * wide, chunk, n) != 0)
                return psd_fail(d, err, VGN_E_TRUNCATED, "the PSD ends inside its table of row lengths");
        }
        length = wide == 4 ? be32(chunk + k * 4) : be16(chunk + k * 2);
        d->row_offsets[i] = at;
        at += length;
    }
    d->row_offsets[rows] = at;
    d->packed_cap = d->row_bytes * 2 + 2;
    if ((d->packed = (uint8_t *)malloc(d->packed_cap)) == NULL)
        return psd_fail(d, err, VGN_E_NOMEM, "out of memory for a PSD row");
    return VGN_OK;
}

/* Row `y` of channel `c`, uncompressed, into `out` (row_bytes): 0, or a status. */
static int psd_channel_row(vgn_psd *d, unsigned c, uint32_t y, uint8_t *out)
{
    uint64_t index = (uint64_t)c * d->h + y;
    if (!d->rle) return psd_read(d, d->pixels + index * d->row_bytes, out, d->row_bytes) == 0 ? 0 : VGN_E_TRUNCATED;
    {
        uint64_t start = d->row_offsets[index], length = d->row_offsets[index + 1] - start;
        size_t i = 0, o = 0;
        if (length > d->packed_cap) return VGN_E_INVALID; /* longer than any PackBits encoding of the row */
        if (psd_read(d, start, d->packed, (size_t)length) != 0) return VGN_E_TRUNCATED;
        while (o < d->row_bytes && i < length) {
            int8_t n = (int8_t)d->packed[i++];
            if (n >= 0) {
                size_t k = (size_t)n + 1;
                if (k > length - i || k > d->row_bytes - o) return VGN_E_INVALID;
                memcpy(out + o, d->packed + i, k);
                i += k;
                o += k;
            } else if (n != -128) {
                size_t k = (size_t)(1 - n);
                if (i >= length || k > d->row_bytes - o) return VGN_E_INVALID;
                memset(out + o, d->packed[i++], k);
                o += k;
            }
        }
        return o == d->row_bytes ? 0 : VGN_E_INVALID;
    }
}

/* Sample x of an uncompressed row as 0..255. */
static unsigned psd_sample(const vgn_psd *d, const uint8_t *row, uint32_t x)
{
    if (d->depth == 8) return row[x];
    if (d->depth == 16) return row[(size_t)x * 2];
    if (d->depth == 32) {
        uint32_t bits = be32(row + (size_t)x * 4);
        float f;
        memcpy(&f, &bits, 4);
        return !(f > 0) ? 0 : f >= 1 ? 255 : (unsigned)lrintf(f * 255);
    }
    return (row[x >> 3] >> (7 - (x & 7))) & 1 ? 0 : 255; /* bitmap: 1 is black */
}

/* CIE L*a*b* (D50, as Photoshop) to sRGB, 0..255 each. */
static void psd_lab(unsigned L, unsigned A, unsigned B, uint8_t *o)
{
    double l = L * 100.0 / 255, a = (double)A - 128, b = (double)B - 128, fy = (l + 16) / 116, fx = fy + a / 500,
           fz = fy - b / 200, xyz[3], rgb[3];
    double f[3] = {fx, fy, fz}, white[3] = {0.9642, 1.0, 0.8249};
    int i;
    for (i = 0; i < 3; i++) xyz[i] = white[i] * (f[i] > 6.0 / 29 ? f[i] * f[i] * f[i] : (f[i] - 16.0 / 116) * 3 * 36.0 / 841);
    /* XYZ (D50) to linear sRGB, Bradford-adapted */
    rgb[0] = 3.1338561 * xyz[0] - 1.6168667 * xyz[1] - 0.4906146 * xyz[2];
    rgb[1] = -0.9787684 * xyz[0] + 1.9161415 * xyz[1] + 0.0334540 * xyz[2];
    rgb[2] = 0.0719453 * xyz[0] - 0.2289914 * xyz[1] + 1.4052427 * xyz[2];
    for (i = 0; i < 3; i++) {
        double v = rgb[i] <= 0 ? 0 : rgb[i] >= 1 ? 1 : rgb[i];
        v = v <= 0.0031308 ? 12.92 * v : 1.055 * pow(v, 1 / 2.4) - 0.055;
        o[i] = (uint8_t)lrint(v * 255);
    }
}

static int psd_read_rows(vgn_decoder *base, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_psd *d = (vgn_psd *)base;
    unsigned used = d->colors + (unsigned)d->alpha, c;
    int n = 0;
    if (d->fail_code != 0) {
        vgn_err_fill(err, d->fail_code, d->fail_msg, NULL);
        return d->fail_code;
    }
    if (d->rows == NULL) {
        if ((d->rows = (uint8_t *)malloc((size_t)used * d->row_bytes)) == NULL)
            return psd_fail(d, err, VGN_E_NOMEM, "out of memory for PSD rows");
        if (d->base.cmyk_transform != NULL && (d->cmyk = (uint8_t *)malloc((size_t)d->w * 7)) == NULL)
            return psd_fail(d, err, VGN_E_NOMEM, "out of memory for PSD rows");
        if (d->rle && psd_table(d, err) != VGN_OK) return d->fail_code;
    }
    while (n < max_rows && d->next < d->h) {
        uint8_t *o = dst + (size_t)n * stride;
        uint32_t x;
        for (c = 0; c < used; c++) {
            int status = psd_channel_row(d, c, d->next, d->rows + (size_t)c * d->row_bytes);
            if (status != 0) {
                char msg[VGN_MSG_LEN];
                snprintf(msg, sizeof msg, status == VGN_E_TRUNCATED ? "the PSD's merged image is truncated (row %u of %u)"
                                                                    : "the PSD's merged image has a damaged row (%u of %u)",
                         (unsigned)d->next + 1, (unsigned)d->h);
                if (n > 0) {
                    psd_fail(d, NULL, status, msg);
                    vgn_err_fill(err, VGN_OK, NULL, NULL);
                    return n;
                }
                return psd_fail(d, err, status, msg);
            }
        }
        for (x = 0; x < d->w; x++, o += 4) {
            unsigned v[5], k;
            for (k = 0; k < used; k++) v[k] = psd_sample(d, d->rows + (size_t)k * d->row_bytes, x);
            switch (d->mode) {
            case PSD_INDEXED:
                o[0] = d->palette[v[0]];
                o[1] = d->palette[256 + v[0]];
                o[2] = d->palette[512 + v[0]];
                break;
            case PSD_RGB: o[0] = (uint8_t)v[0], o[1] = (uint8_t)v[1], o[2] = (uint8_t)v[2]; break;
            case PSD_CMYK: /* stored inverted: 255 is no ink */
                if (d->cmyk != NULL) {
                    for (k = 0; k < 4; k++) d->cmyk[(size_t)x * 4 + k] = (uint8_t)(255 - v[k]);
                    break; /* converted with the whole row below */
                }
                o[0] = (uint8_t)((v[0] * v[3] + 127) / 255);
                o[1] = (uint8_t)((v[1] * v[3] + 127) / 255);
                o[2] = (uint8_t)((v[2] * v[3] + 127) / 255);
                break;
            case PSD_LAB: psd_lab(v[0], v[1], v[2], o); break;
            default: o[0] = o[1] = o[2] = (uint8_t)v[0]; break;
            }
            o[3] = d->alpha ? (uint8_t)v[d->colors] : 255;
        }
        if (d->cmyk != NULL) {
            uint8_t *rgb = d->cmyk + (size_t)d->w * 4;
            o = dst + (size_t)n * stride;
            vgn_icc_apply(d->base.cmyk_transform, d->cmyk, rgb, d->w);
            for (x = 0; x < d->w; x++, o += 4, rgb += 3) o[0] = rgb[0], o[1] = rgb[1], o[2] = rgb[2];
        }
        d->next++;
        n++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

int vgn_psd_merged_info(const uint8_t *data, size_t size, int fd, int *real_merged, uint64_t *thumb_offset,
                        uint64_t *thumb_length, vgn_error *err)
{
    vgn_psd d;
    psd_resources r;
    uint8_t b[26];
    uint64_t off = 26;
    struct stat st;
    if (real_merged == NULL || thumb_offset == NULL || thumb_length == NULL || (data == NULL && fd < 0)) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    *real_merged = 1;
    *thumb_offset = *thumb_length = 0;
    memset(&d, 0, sizeof d);
    d.data = data;
    d.fd = data != NULL ? -1 : fd;
    d.size = size;
    if (data == NULL) {
        if (fstat(fd, &st) != 0 || st.st_size < 0) {
            vgn_err_fill(err, VGN_E_IO, "cannot read the PSD file", NULL);
            return VGN_E_IO;
        }
        d.size = (uint64_t)st.st_size;
    }
    /* Whatever cannot be read here is left to the decoder, which says what is wrong. */
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    if (psd_read(&d, 0, b, 26) != 0 || memcmp(b, "8BPS", 4) != 0 || psd_skip_section(&d, &off, 0, NULL) != 0) return VGN_OK;
    psd_scan_resources(&d, off, &r);
    *real_merged = r.real_merged;
    *thumb_offset = r.thumb_offset;
    *thumb_length = r.thumb_length;
    return VGN_OK;
}
