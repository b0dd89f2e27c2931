/* vgn_png.c - PNG decoding (to RGBA8) and encoding over libpng 1.6. */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libdeflate.h>
#include <png.h>

#include "vgn_icc.h"
#include "vgn_internal.h"

/* ---- shared error plumbing ------------------------------------------------------ */

/* Per-png_struct context (error pointer of libpng). */
typedef struct {
    vgn_warnings *warnings;
    char fatal[VGN_MSG_LEN]; /* last png_error text */
    int fatal_code;          /* != 0: our own classification (e.g. truncation) */
} vgn_pctx;

VGN_NORETURN static void vgn_png_error_fn(png_structp png, png_const_charp msg)
{
    vgn_pctx *x = (vgn_pctx *)png_get_error_ptr(png);
    if (x != NULL)
        vgn_copy_message(x->fatal, msg != NULL ? msg : "PNG error");
    png_longjmp(png, 1); /* never returns; avoids libpng's stderr fallback */
}

static void vgn_png_warning_fn(png_structp png, png_const_charp msg)
{
    vgn_pctx *x = (vgn_pctx *)png_get_error_ptr(png);
    if (x != NULL && x->warnings != NULL)
        vgn_warn_add(x->warnings, msg != NULL ? msg : "PNG warning");
}

static int vgn_contains(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

/* Status + sentence for the last png_error. */
static int vgn_png_classify(vgn_pctx *x, const vgn_warnings *w, char *msg)
{
    const char *m = x->fatal;
    if (x->fatal_code != 0) {
        vgn_copy_message(msg, m);
        return x->fatal_code;
    }
    if (strcmp(m, "Invalid IHDR data") == 0 && w != NULL && w->count > 0) {
        /* libpng reports the reason as a warning just before this error */
        char tmp[VGN_MSG_LEN * 2];
        snprintf(tmp, sizeof tmp, "Invalid IHDR data (%s)", w->first);
        vgn_copy_message(msg, tmp);
        if (vgn_contains(w->first, "exceeds user limit") || vgn_contains(w->first, "too large"))
            return VGN_E_LIMIT;
        return VGN_E_INVALID;
    }
    vgn_copy_message(msg, m);
    if (vgn_contains(m, "ut of memory") || vgn_contains(m, "Insufficient memory"))
        return VGN_E_NOMEM;
    if (vgn_contains(m, "exceeds user limit") || vgn_contains(m, "chunk data is too large") ||
        vgn_contains(m, "Image too large") || vgn_contains(m, "too many"))
        return VGN_E_LIMIT;
    if (vgn_contains(m, "unhandled critical chunk") || vgn_contains(m, "unknown critical chunk"))
        return VGN_E_UNSUPPORTED;
    if (strcmp(m, "Not enough image data") == 0)
        return VGN_E_TRUNCATED; /* the zlib stream ended before the last row */
    return VGN_E_INVALID;
}

/* ---- decoder -------------------------------------------------------------------- */

enum {
    VGN_PST_OPENED = 0,
    VGN_PST_STARTED,
    VGN_PST_DONE,
    VGN_PST_FAILED
};

enum { VGN_PPH_OTHER = 0, VGN_PPH_END };

struct vgn_png {
    png_structp png;
    png_infop info;
    vgn_pctx ctx;
    vgn_warnings warn;
    const uint8_t *data;
    size_t size, pos;
    int state;
    int phase;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
    uint32_t width, height;
    int interlaced;
    int allow_rgb;        /* caller accepts 3-channel rows for images without alpha */
    int channels;         /* output channels: 4, or 3 when allow_rgb and no alpha */
    uint8_t *image;       /* Adam7 only: whole image at `channels` bytes per pixel */
    png_bytep *rowptrs;   /* Adam7 only */
    uint32_t next_row;    /* next row to hand out */
    int call_rows;        /* rows written by the current read_rows call */
};

static void vgn_png_read_fn(png_structp png, png_bytep out, size_t n)
{
    struct vgn_png *p = (struct vgn_png *)png_get_io_ptr(png);
    if (n > p->size - p->pos) {
        p->ctx.fatal_code = VGN_E_TRUNCATED;
        png_error(png, "PNG data is truncated");
    }
    memcpy(out, p->data + p->pos, n);
    p->pos += n;
}

static void vgn_png_open_impl(struct vgn_png *p, vgn_image_info *info)
{
    png_structp png = p->png;
    png_infop in = p->info;
    png_uint_32 w = 0, h = 0;
    int bd = 0, ct = 0, il = 0;
    /* everything except IHDR/PLTE/tRNS/IDAT/IEND is skipped (CRC still checked)... */
    static const png_byte kept[10] = {'e', 'X', 'I', 'f', '\0', 'i', 'C', 'C', 'P', '\0'};

    png_set_user_limits(png, VGN_PNG_MAX_DIMENSION, VGN_PNG_MAX_DIMENSION);
    png_set_chunk_malloc_max(png, VGN_PNG_MAX_CHUNK);
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, NULL, -1);
    /* ...except eXIf, read for the orientation, and iCCP, the colour profile (inflated by
       libpng under the chunk cap above) */
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_AS_DEFAULT, kept, 2);
    png_set_read_fn(png, p, vgn_png_read_fn);
#ifdef PNG_IGNORE_ADLER32
    /* Every chunk, IDAT included, is still CRC-checked; zlib's Adler-32 over the same bytes
       only costs time (about 6% of a large decode). */
    png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
#endif
    png_read_info(png, in);

    png_get_IHDR(png, in, &w, &h, &bd, &ct, &il, NULL, NULL);
    p->width = w;
    p->height = h;
    p->interlaced = il != PNG_INTERLACE_NONE;
    if (info != NULL) {
        png_uint_32 exif_len = 0;
        png_bytep exif = NULL;
        memset(info, 0, sizeof(*info));
        info->width = w;
        info->height = h;
        info->components = png_get_channels(png, in);
        info->bit_depth = bd;
        info->color_type = ct;
        info->interlaced = p->interlaced;
        info->has_alpha = ((ct & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, in, PNG_INFO_tRNS)) ? 1 : 0;
        info->orientation = 1;
        if (png_get_eXIf_1(png, in, &exif_len, &exif) != 0 && exif != NULL)
            info->orientation = vgn_exif_orientation_tiff(exif, exif_len);
    }
}

vgn_png *vgn_png_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    struct vgn_png *p;
    if (info != NULL)
        memset(info, 0, sizeof(*info));
    if (data == NULL && size != 0) {
        vgn_err_fill(err, VGN_E_STATE, "data is NULL", NULL);
        return NULL;
    }
    if (size == 0) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "PNG data is empty", NULL);
        return NULL;
    }
    p = (struct vgn_png *)calloc(1, sizeof(*p));
    if (p == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    p->data = data;
    p->size = size;
    p->ctx.warnings = &p->warn;
    p->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &p->ctx, vgn_png_error_fn, vgn_png_warning_fn);
    if (p->png == NULL) {
        free(p);
        vgn_err_fill(err, VGN_E_NOMEM, "could not create the PNG decoder", NULL);
        return NULL;
    }
    p->info = png_create_info_struct(p->png);
    if (p->info == NULL) {
        png_destroy_read_struct(&p->png, NULL, NULL);
        free(p);
        vgn_err_fill(err, VGN_E_NOMEM, "could not create the PNG decoder", NULL);
        return NULL;
    }
    if (setjmp(png_jmpbuf(p->png))) {
        char msg[VGN_MSG_LEN];
        int code = vgn_png_classify(&p->ctx, &p->warn, msg);
        vgn_err_fill(err, code, msg, &p->warn);
        vgn_png_close(p);
        return NULL;
    }
    vgn_png_open_impl(p, info);
    p->state = VGN_PST_OPENED;
    vgn_err_fill(err, VGN_OK, NULL, &p->warn);
    return p;
}

static void vgn_png_start_impl(struct vgn_png *p)
{
    png_structp png = p->png;
    png_infop in = p->info;
    int ct = png_get_color_type(png, in);
    int bd = png_get_bit_depth(png, in);
    int trns = png_get_valid(png, in, PNG_INFO_tRNS) != 0;

    /* the "reference" decode: no gamma, no colour management */
    if (ct == PNG_COLOR_TYPE_PALETTE)
        png_set_palette_to_rgb(png);
    if (trns)
        png_set_tRNS_to_alpha(png);
    if (ct == PNG_COLOR_TYPE_GRAY && bd < 8)
        png_set_expand_gray_1_2_4_to_8(png);
    if (ct == PNG_COLOR_TYPE_GRAY || ct == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (bd == 16)
        png_set_scale_16(png);
    p->channels = 4;
    if ((ct & PNG_COLOR_MASK_ALPHA) == 0 && !trns) {
        if (p->allow_rgb)
            p->channels = 3; /* no alpha to carry: skip the per-pixel filler */
        else
            png_set_add_alpha(png, 0xFF, PNG_FILLER_AFTER);
    }
    if (p->interlaced)
        (void)png_set_interlace_handling(png);
    png_read_update_info(png, in);

    if (png_get_bit_depth(png, in) != 8 || png_get_channels(png, in) != p->channels ||
        png_get_rowbytes(png, in) != (size_t)p->width * (size_t)p->channels) {
        p->ctx.fatal_code = VGN_E_UNSUPPORTED;
        png_error(png, "PNG transform did not produce 8-bit RGB(A)");
    }
}

int vgn_png_start_ex(vgn_png *p, int allow_rgb, int *out_channels, vgn_error *err)
{
    if (p == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "PNG handle is NULL", NULL);
        return VGN_E_STATE;
    }
    if (p->state == VGN_PST_FAILED) {
        vgn_err_fill(err, p->fail_code, p->fail_msg, &p->warn);
        return p->fail_code;
    }
    if (p->state != VGN_PST_OPENED) {
        vgn_err_fill(err, VGN_E_STATE, "vgn_png_start_ex called twice", &p->warn);
        return VGN_E_STATE;
    }
    if (setjmp(png_jmpbuf(p->png))) {
        p->fail_code = vgn_png_classify(&p->ctx, &p->warn, p->fail_msg);
        p->state = VGN_PST_FAILED;
        vgn_err_fill(err, p->fail_code, p->fail_msg, &p->warn);
        return p->fail_code;
    }
    p->allow_rgb = allow_rgb ? 1 : 0;
    vgn_png_start_impl(p);
    if (out_channels != NULL)
        *out_channels = p->channels;
    p->state = VGN_PST_STARTED;
    vgn_err_fill(err, VGN_OK, NULL, &p->warn);
    return VGN_OK;
}

/* Adam7: decode the whole image into an internal RGBA buffer (once). */
static void vgn_png_decode_interlaced(struct vgn_png *p)
{
    uint64_t bytes = (uint64_t)p->width * (uint64_t)p->height * (uint64_t)p->channels;
    uint32_t y;
    int too_big = bytes > VGN_PNG_MAX_INTERLACED_BYTES;
#if SIZE_MAX < UINT64_MAX
    too_big = too_big || bytes > (uint64_t)SIZE_MAX;
#endif
    if (too_big) {
        p->ctx.fatal_code = VGN_E_LIMIT;
        png_error(p->png, "interlaced PNG is too large to buffer (more than 4 GiB RGBA)");
    }
    p->image = (uint8_t *)malloc(bytes ? (size_t)bytes : 1);
    p->rowptrs = (png_bytep *)calloc((size_t)p->height + 1, sizeof(png_bytep)); /* calloc checks the product */
    if (p->image == NULL || p->rowptrs == NULL) {
        p->ctx.fatal_code = VGN_E_NOMEM;
        png_error(p->png, "out of memory for the interlaced PNG image buffer");
    }
    for (y = 0; y < p->height; y++)
        p->rowptrs[y] = p->image + (size_t)y * p->width * (size_t)p->channels;
    png_read_image(p->png, p->rowptrs);
}

static void vgn_png_read_impl(struct vgn_png *p, uint8_t *dst, size_t stride, int max_rows)
{
    if (p->interlaced && p->image == NULL)
        vgn_png_decode_interlaced(p);
    while (p->call_rows < max_rows && p->next_row < p->height) {
        uint8_t *row = dst + (size_t)p->call_rows * stride;
        if (p->interlaced)
            memcpy(row, p->rowptrs[p->next_row], (size_t)p->width * (size_t)p->channels);
        else
            png_read_row(p->png, row, NULL);
        p->next_row++;
        p->call_rows++;
    }
    if (p->next_row >= p->height) {
        /* check the rest of the stream (IDAT tail, IEND); errors there only warn */
        p->phase = VGN_PPH_END;
        png_read_end(p->png, NULL);
        p->phase = VGN_PPH_OTHER;
        p->state = VGN_PST_DONE;
    }
}

int vgn_png_read_rows(vgn_png *p, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    if (p == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "PNG handle is NULL", NULL);
        return VGN_E_STATE;
    }
    if (p->state == VGN_PST_FAILED) {
        vgn_err_fill(err, p->fail_code, p->fail_msg, &p->warn);
        return p->fail_code;
    }
    if (p->state == VGN_PST_DONE) {
        vgn_err_fill(err, VGN_OK, NULL, &p->warn);
        return 0;
    }
    if (p->state != VGN_PST_STARTED) {
        vgn_err_fill(err, VGN_E_STATE, "vgn_png_read_rows called before vgn_png_start_ex", &p->warn);
        return VGN_E_STATE;
    }
    if (dst == NULL || max_rows <= 0 || stride < (size_t)p->width * (size_t)p->channels) {
        vgn_err_fill(err, VGN_E_STATE, "bad destination (NULL, max_rows <= 0 or stride too small)", &p->warn);
        return VGN_E_STATE;
    }
    p->call_rows = 0;
    p->phase = VGN_PPH_OTHER;
    if (setjmp(png_jmpbuf(p->png))) {
        char msg[VGN_MSG_LEN];
        int code = vgn_png_classify(&p->ctx, &p->warn, msg);
        if (p->phase == VGN_PPH_END) {
            vgn_warn_add(&p->warn, msg);
            p->phase = VGN_PPH_OTHER;
            p->state = VGN_PST_DONE;
            vgn_err_fill(err, VGN_OK, NULL, &p->warn);
            return p->call_rows;
        }
        p->state = VGN_PST_FAILED;
        p->fail_code = code;
        memcpy(p->fail_msg, msg, sizeof msg);
        if (p->call_rows > 0) {
            vgn_err_fill(err, VGN_OK, NULL, &p->warn);
            return p->call_rows;
        }
        vgn_err_fill(err, code, msg, &p->warn);
        return code;
    }
    vgn_png_read_impl(p, dst, stride, max_rows);
    vgn_err_fill(err, VGN_OK, NULL, &p->warn);
    return p->call_rows;
}

void vgn_png_close(vgn_png *p)
{
    if (p == NULL)
        return;
    if (p->png != NULL)
        png_destroy_read_struct(&p->png, p->info != NULL ? &p->info : NULL, NULL);
    free(p->rowptrs);
    free(p->image);
    free(p);
}

/* ---- encoder -------------------------------------------------------------------- */

typedef struct {
    png_structp png;
    png_infop info;
    vgn_pctx ctx;
    vgn_warnings warn;
    vgn_buf buf;
    png_textp text;
    uint8_t *filtered; /* the libdeflate path: the filtered rows, and their IDAT data */
    uint8_t *deflated;
    struct libdeflate_compressor *deflater;
} vgn_penc;

/* Up to this many filtered bytes (a 1448 x 1448 RGBA image) the image data is filtered and
 * compressed whole with libdeflate: 3-4x faster than zlib at the same level and a few percent
 * smaller. Larger images stream row by row through libpng's zlib, so memory stays bounded. */
#define VGN_PNG_WHOLE_MAX ((size_t)8 << 20)

static void vgn_penc_free(vgn_penc *e)
{
    free(e->text);
    free(e->filtered);
    free(e->deflated);
    if (e->deflater != NULL)
        libdeflate_free_compressor(e->deflater);
}

static inline uint8_t vgn_paeth(int a, int b, int c)
{
    int p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c);
    return (uint8_t)((pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c));
}

static unsigned long vgn_abs_sum(const uint8_t *v, size_t n)
{
    unsigned long s = 0;
    size_t i;
    for (i = 0; i < n; i++)
        s += (unsigned long)abs((int)(int8_t)v[i]);
    return s;
}

/* Filters every row as libpng's adaptive heuristic does (of None, Sub, Up, Average and Paeth,
 * the one whose bytes, read as signed, have the least absolute sum) into dst: per row the
 * filter byte, then the filtered bytes. cand holds 5 rows of scratch. */
static void vgn_png_filter_rows(const uint8_t *pixels, size_t stride, uint32_t height, size_t rb, int bpp,
                                uint8_t *cand, uint8_t *dst)
{
    uint32_t y;
    size_t x, b = (size_t)bpp;
    for (y = 0; y < height; y++) {
        const uint8_t *row = pixels + (size_t)y * stride;
        const uint8_t *up = y > 0 ? pixels + (size_t)(y - 1) * stride : NULL;
        uint8_t *sub = cand, *upf = cand + rb, *avg = cand + 2 * rb, *pae = cand + 3 * rb, *out = dst + (size_t)y * (rb + 1);
        const uint8_t *best = row;
        unsigned long sums[5];
        int f, bf = 0;
        for (x = 0; x < b && x < rb; x++) {
            int u = up != NULL ? up[x] : 0;
            sub[x] = row[x];
            upf[x] = (uint8_t)(row[x] - u);
            avg[x] = (uint8_t)(row[x] - (u >> 1));
            pae[x] = (uint8_t)(row[x] - u); /* Paeth of (0, up, 0) is up */
        }
        if (up != NULL) {
            for (x = b; x < rb; x++) {
                sub[x] = (uint8_t)(row[x] - row[x - b]);
                upf[x] = (uint8_t)(row[x] - up[x]);
                avg[x] = (uint8_t)(row[x] - ((row[x - b] + up[x]) >> 1));
                pae[x] = (uint8_t)(row[x] - vgn_paeth(row[x - b], up[x], up[x - b]));
            }
        } else {
            for (x = b; x < rb; x++) {
                sub[x] = (uint8_t)(row[x] - row[x - b]);
                upf[x] = row[x];
                avg[x] = (uint8_t)(row[x] - (row[x - b] >> 1));
                pae[x] = (uint8_t)(row[x] - row[x - b]);
            }
        }
        sums[0] = vgn_abs_sum(row, rb);
        for (f = 1; f < 5; f++) {
            sums[f] = vgn_abs_sum(cand + (size_t)(f - 1) * rb, rb);
            if (sums[f] < sums[bf])
                bf = f;
        }
        if (bf > 0)
            best = cand + (size_t)(bf - 1) * rb;
        out[0] = (uint8_t)bf;
        memcpy(out + 1, best, rb);
    }
}

/* IDAT and IEND from the whole image filtered and compressed with libdeflate; 0, or -1 when
 * out of memory (then nothing has been written past the header and text). */
static int vgn_png_write_whole(vgn_penc *e, const uint8_t *pixels, uint32_t width, uint32_t height,
                               size_t stride, int channels, int level)
{
    size_t rb = (size_t)width * (size_t)channels;
    size_t raw = (rb + 1) * (size_t)height, bound, n;
    uint8_t *cand = (uint8_t *)malloc(4 * rb);
    e->filtered = (uint8_t *)malloc(raw);
    e->deflater = libdeflate_alloc_compressor(level);
    if (cand == NULL || e->filtered == NULL || e->deflater == NULL) {
        free(cand);
        return -1;
    }
    vgn_png_filter_rows(pixels, stride, height, rb, channels, cand, e->filtered);
    free(cand);
    bound = libdeflate_zlib_compress_bound(e->deflater, raw);
    e->deflated = (uint8_t *)malloc(bound);
    if (e->deflated == NULL)
        return -1;
    n = libdeflate_zlib_compress(e->deflater, e->filtered, raw, e->deflated, bound);
    if (n == 0)
        return -1;
    png_write_chunk(e->png, (png_const_bytep) "IDAT", e->deflated, n);
    png_write_chunk(e->png, (png_const_bytep) "IEND", NULL, 0);
    return 0;
}

static void vgn_png_write_fn(png_structp png, png_bytep d, size_t n)
{
    vgn_penc *e = (vgn_penc *)png_get_io_ptr(png);
    if (vgn_buf_append(&e->buf, d, n) != 0) {
        e->ctx.fatal_code = VGN_E_NOMEM;
        png_error(png, "out of memory for the PNG output");
    }
}

static void vgn_png_flush_fn(png_structp png)
{
    (void)png;
}

/* PNG keyword rules: 1..79 Latin-1 printable chars, no leading/trailing/double spaces. */
static int vgn_png_key_ok(const char *k)
{
    size_t n = 0;
    const unsigned char *s = (const unsigned char *)k;
    if (k == NULL || s[0] == 0 || s[0] == ' ')
        return 0;
    for (; s[n] != 0; n++) {
        unsigned ch = s[n];
        if (n >= 79)
            return 0;
        if (!((ch >= 32 && ch <= 126) || ch >= 161))
            return 0;
        if (ch == ' ' && s[n + 1] == ' ')
            return 0;
    }
    return s[n - 1] != ' ';
}

static void vgn_png_encode_impl(vgn_penc *e, const uint8_t *pixels, uint32_t width, uint32_t height,
                                size_t stride, int channels, const char *const *keys,
                                const char *const *values, int text_count, int level)
{
    static const int types[5] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                                 PNG_COLOR_TYPE_RGB_ALPHA};
    png_structp png = e->png;
    uint32_t y;
    png_set_write_fn(png, e, vgn_png_write_fn, vgn_png_flush_fn);
    png_set_compression_level(png, level);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
    png_set_IHDR(png, e->info, width, height, 8, types[channels], PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (text_count > 0) {
        int i;
        e->text = (png_textp)calloc((size_t)text_count, sizeof(png_text));
        if (e->text == NULL) {
            e->ctx.fatal_code = VGN_E_NOMEM;
            png_error(png, "out of memory");
        }
        for (i = 0; i < text_count; i++) {
            e->text[i].compression = PNG_TEXT_COMPRESSION_NONE;
            e->text[i].key = (png_charp)(uintptr_t)keys[i];           /* libpng only reads these */
            e->text[i].text = (png_charp)(uintptr_t)(values[i] != NULL ? values[i] : "");
            e->text[i].text_length = strlen(e->text[i].text);
        }
        png_set_text(png, e->info, e->text, text_count);
    }
    png_write_info(png, e->info); /* IHDR + tEXt, before IDAT */
    if (((size_t)width * (size_t)channels + 1) * (size_t)height <= VGN_PNG_WHOLE_MAX) {
        if (vgn_png_write_whole(e, pixels, width, height, stride, channels, level) != 0) {
            e->ctx.fatal_code = VGN_E_NOMEM;
            png_error(png, "out of memory");
        }
        return;
    }
    for (y = 0; y < height; y++)
        png_write_row(png, pixels + (size_t)y * stride);
    png_write_end(png, NULL);
}

int vgn_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                   const char *const *text_keys, const char *const *text_values, int text_count,
                   int compression_level, uint8_t **out, size_t *out_size, vgn_error *err)
{
    vgn_penc *e;
    int i;
    if (out != NULL)
        *out = NULL;
    if (out_size != NULL)
        *out_size = 0;
    if (pixels == NULL || out == NULL || out_size == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "NULL argument", NULL);
        return VGN_E_STATE;
    }
    if (channels < 1 || channels > 4) {
        vgn_err_fill(err, VGN_E_STATE, "PNG encoder needs 1..4 channels", NULL);
        return VGN_E_STATE;
    }
    if (compression_level < 0 || compression_level > 9) {
        vgn_err_fill(err, VGN_E_STATE, "PNG compression level must be 0..9", NULL);
        return VGN_E_STATE;
    }
    if (width == 0 || height == 0) {
        vgn_err_fill(err, VGN_E_STATE, "image width and height must be > 0", NULL);
        return VGN_E_STATE;
    }
    if (width > 0x7fffffffu || height > 0x7fffffffu ||
        (uint64_t)width * (uint64_t)channels + 1 > (uint64_t)0x7fffffff) {
        vgn_err_fill(err, VGN_E_LIMIT, "image is too large for PNG", NULL);
        return VGN_E_LIMIT;
    }
    if (stride < (size_t)width * (size_t)channels) {
        vgn_err_fill(err, VGN_E_STATE, "stride is smaller than width * channels", NULL);
        return VGN_E_STATE;
    }
    if (text_count < 0 || (text_count > 0 && (text_keys == NULL || text_values == NULL))) {
        vgn_err_fill(err, VGN_E_STATE, "bad text arguments", NULL);
        return VGN_E_STATE;
    }
    for (i = 0; i < text_count; i++) {
        if (!vgn_png_key_ok(text_keys[i])) {
            char m[VGN_MSG_LEN];
            snprintf(m, sizeof m, "invalid PNG text keyword #%d (needs 1-79 Latin-1 printable characters, "
                     "no leading, trailing or double spaces)", i);
            vgn_err_fill(err, VGN_E_INVALID, m, NULL);
            return VGN_E_INVALID;
        }
    }
    e = (vgn_penc *)calloc(1, sizeof(*e));
    if (e == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    e->ctx.warnings = &e->warn;
    e->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &e->ctx, vgn_png_error_fn, vgn_png_warning_fn);
    if (e->png != NULL)
        e->info = png_create_info_struct(e->png);
    if (e->png == NULL || e->info == NULL) {
        png_destroy_write_struct(&e->png, NULL);
        free(e);
        vgn_err_fill(err, VGN_E_NOMEM, "could not create the PNG encoder", NULL);
        return VGN_E_NOMEM;
    }
    if (setjmp(png_jmpbuf(e->png))) {
        char msg[VGN_MSG_LEN];
        int code = vgn_png_classify(&e->ctx, &e->warn, msg);
        vgn_err_fill(err, code, msg, &e->warn);
        png_destroy_write_struct(&e->png, &e->info);
        vgn_penc_free(e);
        free(e->buf.data);
        free(e);
        return code;
    }
    vgn_png_encode_impl(e, pixels, width, height, stride, channels, text_keys, text_values, text_count,
                        compression_level);
    png_destroy_write_struct(&e->png, &e->info);
    vgn_penc_free(e);
    *out = e->buf.data;
    *out_size = e->buf.size;
    vgn_err_fill(err, VGN_OK, NULL, &e->warn);
    free(e);
    return VGN_OK;
}

int vgn_png_icc(vgn_png *p, const uint8_t **profile, size_t *size)
{
    png_charp name = NULL;
    png_bytep data = NULL;
    png_uint_32 length = 0;
    int compression = 0;
    if (profile != NULL) *profile = NULL;
    if (size != NULL) *size = 0;
    if (p == NULL || p->state == VGN_PST_FAILED || profile == NULL || size == NULL) return 0;
    /* png_get_iCCP only reads what png_read_info stored (a checked, inflated iCCP); it never longjmps. */
    if (png_get_iCCP(p->png, p->info, &name, &compression, &data, &length) != PNG_INFO_iCCP || data == NULL) return 0;
    *profile = data;
    *size = length;
    return 1;
}
