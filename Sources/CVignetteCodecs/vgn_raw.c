/* vgn_raw.c - camera RAW previews through LibRaw (thread-safe build): the file is identified and the
 * embedded thumbnail extracted, the raw data is never unpacked or developed. See vgn_decoder.h. */
#define _GNU_SOURCE 1 /* pipe2 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <libraw/libraw.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define libraw_close VGN_LAZY(VGN_LIB_RAW, libraw_close)
#define libraw_init VGN_LAZY(VGN_LIB_RAW, libraw_init)
#define libraw_open_buffer VGN_LAZY(VGN_LIB_RAW, libraw_open_buffer)
#define libraw_strerror VGN_LAZY(VGN_LIB_RAW, libraw_strerror)
#define libraw_unpack_thumb VGN_LAZY(VGN_LIB_RAW, libraw_unpack_thumb)

/* A preview claiming more pixels than this is refused before LibRaw reads it (full-size JPEG
 * previews of 60-megapixel cameras stay under it). */
#define VGN_RAW_MAX_PREVIEW_PIXELS (64u << 20)
/* LibRaw's own cap on raw buffers (never reached: the raw data is not unpacked). */
#define VGN_RAW_MAX_RAW_MB 1024

struct vgn_raw {
    libraw_data_t *lr;
    int previewed; /* vgn_raw_preview was called (it may be called once) */
    vgn_warnings warn;
};

/* A bitmap (8-bit RGB or grey) thumbnail handed out as RGBA rows; the pixels belong to LibRaw. */
typedef struct {
    vgn_decoder base;
    const uint8_t *px;
    int colors;
    uint32_t next_row;
} vgn_raw_bitmap;

static int vgn_raw_code(int rc)
{
    switch (rc) {
    case LIBRAW_FILE_UNSUPPORTED:
    case LIBRAW_NO_THUMBNAIL:
    case LIBRAW_UNSUPPORTED_THUMBNAIL:
    case LIBRAW_NOT_IMPLEMENTED:
        return VGN_E_UNSUPPORTED;
    case LIBRAW_UNSUFFICIENT_MEMORY: return VGN_E_NOMEM;
    case LIBRAW_TOO_BIG:
    case LIBRAW_MEMPOOL_OVERFLOW:
        return VGN_E_LIMIT;
    case LIBRAW_IO_ERROR: return VGN_E_TRUNCATED;
    case LIBRAW_OUT_OF_ORDER_CALL:
    case LIBRAW_INPUT_CLOSED:
        return VGN_E_STATE;
    default: return VGN_E_INVALID;
    }
}

static int vgn_raw_fail(vgn_error *err, int rc, const vgn_warnings *w)
{
    const char *m = libraw_strerror(rc);
    char msg[VGN_MSG_LEN];
    size_t n;
    if (m == NULL || m[0] == '\0') m = "unknown error";
    snprintf(msg, sizeof msg, "libraw: %c%s", (m[0] >= 'A' && m[0] <= 'Z') ? (char)(m[0] - 'A' + 'a') : m[0], m + 1);
    n = strlen(msg);
    while (n > 0 && msg[n - 1] == '.')
        msg[--n] = '\0';
    vgn_err_fill(err, vgn_raw_code(rc), msg, w);
    return vgn_raw_code(rc);
}

/* LibRaw flip (bit 0 mirror columns, bit 1 mirror rows, bit 2 transpose, applied as dcraw's
 * flip_index) to EXIF orientation: 3 = 180 degrees, 5 = 90 CCW (EXIF 8), 6 = 90 CW (EXIF 6). */
static int vgn_raw_orientation(int flip)
{
    static const int exif[8] = {1, 2, 4, 3, 5, 8, 6, 7};
    if (flip < 0) return 1;
    return exif[flip & 7];
}

/* The frame size from a JPEG's SOF marker (when LibRaw does not know the thumbnail's size). */
static void vgn_raw_jpeg_size(const uint8_t *p, size_t n, uint32_t *w, uint32_t *h)
{
    size_t i = 2;
    if (n < 4 || p[0] != 0xFF || p[1] != 0xD8) return;
    while (i + 4 <= n) {
        unsigned m, len;
        if (p[i] != 0xFF) return;
        m = p[i + 1];
        if (m == 0xFF) { /* fill byte */
            i++;
            continue;
        }
        if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
            i += 2;
            continue;
        }
        if (m == 0xD9 || m == 0xDA) return;
        len = ((unsigned)p[i + 2] << 8) | p[i + 3];
        if (len < 2) return;
        if (m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC) {
            if (i + 9 <= n && len >= 7) {
                *h = ((uint32_t)p[i + 5] << 8) | p[i + 6];
                *w = ((uint32_t)p[i + 7] << 8) | p[i + 8];
            }
            return;
        }
        i += 2 + (size_t)len;
    }
}

static int vgn_raw_bitmap_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_raw_bitmap *b = (vgn_raw_bitmap *)d;
    int n = 0;
    while (n < max_rows && b->next_row < b->base.height) {
        const uint8_t *s = b->px + (size_t)b->next_row * b->base.width * (size_t)b->colors;
        uint8_t *o = dst + (size_t)n * stride;
        uint32_t x;
        if (b->colors == 3) {
            for (x = 0; x < b->base.width; x++, s += 3, o += 4) {
                o[0] = s[0];
                o[1] = s[1];
                o[2] = s[2];
                o[3] = 255;
            }
        } else {
            for (x = 0; x < b->base.width; x++, s++, o += 4) {
                o[0] = o[1] = o[2] = s[0];
                o[3] = 255;
            }
        }
        n++;
        b->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

static void vgn_raw_bitmap_close(vgn_decoder *d)
{
    free(d);
}

vgn_raw *vgn_raw_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_raw *r;
    int rc;
    if (data == NULL || info == NULL || size == 0) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (vgn_library_load(VGN_LIB_RAW, err) != VGN_OK) return NULL;
    r = (vgn_raw *)calloc(1, sizeof *r);
    if (r == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    /* no default callbacks: they print to stderr */
    r->lr = libraw_init(LIBRAW_OPIONS_NO_MEMERR_CALLBACK | LIBRAW_OPIONS_NO_DATAERR_CALLBACK);
    if (r->lr == NULL) {
        free(r);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    r->lr->params.max_raw_memory_mb = VGN_RAW_MAX_RAW_MB;
    /* LibRaw reads the caller's buffer in place (never writes to it) */
    rc = libraw_open_buffer(r->lr, (void *)(uintptr_t)data, size);
    if (rc != LIBRAW_SUCCESS) {
        vgn_raw_fail(err, rc, NULL);
        vgn_raw_close(r);
        return NULL;
    }
    if (r->lr->sizes.raw_width == 0 || r->lr->sizes.raw_height == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "libraw: the file gives no image size", NULL);
        vgn_raw_close(r);
        return NULL;
    }
    info->width = r->lr->sizes.raw_width;
    info->height = r->lr->sizes.raw_height;
    info->components = r->lr->idata.colors;
    info->bit_depth = 0;
    info->orientation = vgn_raw_orientation(r->lr->sizes.flip);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return r;
}

int vgn_raw_preview(vgn_raw *r, const uint8_t **jpeg, size_t *jpeg_size, vgn_decoder **decoder, vgn_image_info *info,
                    vgn_error *err)
{
    libraw_thumbnail_t *t;
    int rc;
    if (jpeg != NULL) *jpeg = NULL;
    if (jpeg_size != NULL) *jpeg_size = 0;
    if (decoder != NULL) *decoder = NULL;
    if (r == NULL || jpeg == NULL || jpeg_size == NULL || decoder == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "bad argument", NULL);
        return VGN_E_STATE;
    }
    if (r->previewed) {
        vgn_err_fill(err, VGN_E_STATE, "the preview was already taken", NULL);
        return VGN_E_STATE;
    }
    r->previewed = 1;
    memset(info, 0, sizeof *info);
    t = &r->lr->thumbnail;
    /* LibRaw 0.20 knows the thumbnail's size (not yet its kind) from open: refuse a huge one before
     * libraw_unpack_thumb allocates it (LibRaw's own cap is LIBRAW_MAX_THUMBNAIL_MB, 512 MiB) */
    if ((uint64_t)t->twidth * (uint64_t)t->theight > VGN_RAW_MAX_PREVIEW_PIXELS) {
        vgn_err_fill(err, VGN_E_LIMIT, "the raw file's embedded preview is too large", NULL);
        return VGN_E_LIMIT;
    }
    /* LibRaw 0.20.2 sizes a bitmap thumbnail's buffer by twidth x theight x colours but reads
     * tlength bytes into it (a heap overflow found by fuzzing). Its kind is unknown until
     * unpack: refuse a thumbnail longer than its own RGB8 size (no real JPEG preview is) */
    if (t->tlength > 0 && t->twidth > 0 && t->theight > 0 &&
        (uint64_t)t->tlength > (uint64_t)t->twidth * t->theight * 3) {
        vgn_err_fill(err, VGN_E_INVALID, "the raw file's preview size does not match its length", NULL);
        return VGN_E_INVALID;
    }
    rc = libraw_unpack_thumb(r->lr);
    if (rc == LIBRAW_NO_THUMBNAIL || rc == LIBRAW_UNSUPPORTED_THUMBNAIL) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "the raw file has no usable embedded preview", NULL);
        return VGN_E_UNSUPPORTED;
    }
    if (rc == LIBRAW_IO_ERROR) {
        /* real files cut short after their metadata (as published test files often are) */
        vgn_err_fill(err, VGN_E_TRUNCATED, "the raw file's embedded preview lies outside the file", NULL);
        return VGN_E_TRUNCATED;
    }
    if (rc != LIBRAW_SUCCESS) return vgn_raw_fail(err, rc, NULL);
    info->orientation = vgn_raw_orientation(r->lr->sizes.flip);
    if (t->tformat == LIBRAW_THUMBNAIL_JPEG && t->thumb != NULL && t->tlength >= 4) {
        uint32_t w = t->twidth, h = t->theight, jw = 0, jh = 0;
        vgn_raw_jpeg_size((const uint8_t *)t->thumb, t->tlength, &jw, &jh);
        if ((const uint8_t)t->thumb[0] != 0xFF || (const uint8_t)t->thumb[1] != 0xD8) {
            vgn_err_fill(err, VGN_E_INVALID, "the raw file's preview is not a JPEG", NULL);
            return VGN_E_INVALID;
        }
        /* the JPEG's own frame size is what the JPEG path will give */
        if (jw > 0 && jh > 0) {
            w = jw;
            h = jh;
        }
        info->width = w;
        info->height = h;
        info->components = 3;
        info->bit_depth = 8;
        *jpeg = (const uint8_t *)t->thumb;
        *jpeg_size = t->tlength;
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return VGN_OK;
    }
    if (t->tformat == LIBRAW_THUMBNAIL_BITMAP && t->thumb != NULL && t->twidth > 0 && t->theight > 0 &&
        (t->tcolors == 3 || t->tcolors == 1) &&
        (uint64_t)t->tlength >= (uint64_t)t->twidth * t->theight * (uint64_t)t->tcolors) {
        vgn_raw_bitmap *b = (vgn_raw_bitmap *)calloc(1, sizeof *b);
        if (b == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
            return VGN_E_NOMEM;
        }
        b->base.read_rows = vgn_raw_bitmap_read_rows;
        b->base.close = vgn_raw_bitmap_close;
        b->base.width = t->twidth;
        b->base.height = t->theight;
        b->base.working = 0;
        b->px = (const uint8_t *)t->thumb;
        b->colors = t->tcolors;
        info->width = t->twidth;
        info->height = t->theight;
        info->components = t->tcolors;
        info->bit_depth = 8;
        *decoder = &b->base;
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return VGN_OK;
    }
    vgn_err_fill(err, VGN_E_UNSUPPORTED, "the raw file has no usable embedded preview", NULL);
    return VGN_E_UNSUPPORTED;
}

void vgn_raw_close(vgn_raw *r)
{
    if (r == NULL) return;
    if (r->lr != NULL) libraw_close(r->lr);
    free(r);
}

/* ---- isolation: LibRaw in a child process ----------------------------------------------------- */

/* What the child sends back before the preview's bytes. */
typedef struct {
    int32_t code;
    uint32_t is_jpeg, width, height, colors, orientation;
    uint64_t size;
    char message[VGN_MSG_LEN];
} vgn_raw_reply;

/* The private memory LibRaw's child may add: the largest preview it may send, in two copies (its
   own and the bitmap's), and a margin for LibRaw's tables. */
#define VGN_RAW_MAX_MEMORY ((size_t)VGN_RAW_MAX_PREVIEW_PIXELS * 3 * 2 + ((size_t)256 << 20))

/* The child: LibRaw on the data, the preview's bytes down the pipe, _exit. */
static void vgn_raw_child(int fd, const uint8_t *data, size_t size, const void *request)
{
    vgn_raw_reply reply;
    vgn_image_info info;
    vgn_error err;
    const uint8_t *jpeg = NULL, *bytes = NULL;
    size_t jpeg_size = 0;
    vgn_decoder *bitmap = NULL;
    vgn_raw *r = NULL;
    (void)request;
    memset(&reply, 0, sizeof reply);
    memset(&err, 0, sizeof err);
    if (vgn_library_load(VGN_LIB_RAW, &err) != VGN_OK || (r = vgn_raw_open(data, size, &info, &err)) == NULL ||
        vgn_raw_preview(r, &jpeg, &jpeg_size, &bitmap, &info, &err) != VGN_OK) {
        reply.code = err.code != 0 ? err.code : VGN_E_INVALID;
        memcpy(reply.message, err.message, sizeof reply.message);
        (void)vgn_fd_write_all(fd, &reply, sizeof reply);
        _exit(0);
    }
    reply.code = VGN_OK;
    reply.orientation = (uint32_t)info.orientation;
    reply.width = info.width;
    reply.height = info.height;
    if (jpeg != NULL) {
        reply.is_jpeg = 1;
        reply.size = jpeg_size;
        bytes = jpeg;
    } else {
        const vgn_raw_bitmap *b = (const vgn_raw_bitmap *)(const void *)bitmap;
        reply.colors = (uint32_t)b->colors;
        reply.size = (uint64_t)b->base.width * b->base.height * (uint64_t)b->colors;
        bytes = b->px;
    }
    if (vgn_fd_write_all(fd, &reply, sizeof reply) == 0) (void)vgn_fd_write_all(fd, bytes, (size_t)reply.size);
    _exit(0);
}

const vgn_child_reader vgn_raw_reader = {"LibRaw", vgn_raw_child, 0, VGN_CHILD_NO_PATH};

int vgn_raw_extract_isolated(const uint8_t *data, size_t size, unsigned timeout_ms, vgn_raw_extract *out, vgn_error *err)
{
    int status, rc, code;
    vgn_child child;
    vgn_raw_reply reply;
    char msg[VGN_MSG_LEN];
    if (out == NULL || data == NULL || size == 0) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(out, 0, sizeof *out);
    /* Loaded here when the child will be a fork, which should not dlopen (vgn_child_start). */
    if (!vgn_helper_named() && vgn_library_load(VGN_LIB_RAW, err) != VGN_OK) return VGN_E_UNSUPPORTED;
    /* LibRaw has crashed on hostile files (a SEGV in parse_tiff_ifd in 0.20.2, found by fuzzing):
       it runs in a child, so a crash or a hang costs that child, not the service. */
    if ((code = vgn_child_start(&child, &vgn_raw_reader, data, size, NULL, NULL, timeout_ms, VGN_RAW_MAX_MEMORY,
                                "the raw decoder", err)) != VGN_OK)
        return code;
    memset(&reply, 0, sizeof reply);
    rc = vgn_child_read(&child, &reply, sizeof reply);
    if (rc == 0 && reply.code == VGN_OK) {
        if (reply.size == 0 || reply.size > (uint64_t)VGN_RAW_MAX_PREVIEW_PIXELS * 3 ||
            (out->bytes = (uint8_t *)malloc((size_t)reply.size)) == NULL)
            rc = -3;
        else
            rc = vgn_child_read(&child, out->bytes, (size_t)reply.size);
    }
    status = vgn_child_end(&child, rc);
    if (rc == 0 && reply.code != VGN_OK) {
        reply.message[sizeof reply.message - 1] = 0;
        vgn_err_fill(err, reply.code, reply.message, NULL);
        return reply.code;
    }
    if (rc != 0) {
        free(out->bytes);
        out->bytes = NULL;
        code = rc == -2 ? VGN_E_LIMIT : rc == -3 ? VGN_E_NOMEM : VGN_E_INVALID;
        if (rc == -2)
            snprintf(msg, sizeof msg, "libraw: no preview after %u ms; the decoder was stopped", timeout_ms);
        else if (rc == -3)
            snprintf(msg, sizeof msg, "libraw: the preview is too large");
        else if (WIFSIGNALED(status))
            snprintf(msg, sizeof msg, "libraw crashed on this file (signal %d); nothing was read from it", WTERMSIG(status));
        else
            snprintf(msg, sizeof msg, "libraw stopped before giving a preview");
        vgn_err_fill(err, code, msg, NULL);
        return code;
    }
    out->size = (size_t)reply.size;
    out->is_jpeg = (int)reply.is_jpeg;
    out->width = reply.width;
    out->height = reply.height;
    out->colors = (int)reply.colors;
    out->orientation = (int)reply.orientation;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

vgn_decoder *vgn_bitmap_open(const uint8_t *pixels, uint32_t width, uint32_t height, int colors)
{
    vgn_raw_bitmap *b;
    if (pixels == NULL || width == 0 || height == 0 || (colors != 1 && colors != 3)) return NULL;
    b = (vgn_raw_bitmap *)calloc(1, sizeof *b);
    if (b == NULL) return NULL;
    b->base.read_rows = vgn_raw_bitmap_read_rows;
    b->base.close = vgn_raw_bitmap_close;
    b->base.width = width;
    b->base.height = height;
    b->px = pixels;
    b->colors = colors;
    return &b->base;
}
