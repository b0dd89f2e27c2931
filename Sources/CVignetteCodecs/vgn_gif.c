/* vgn_gif.c - GIF through giflib 5: the first frame composed on the logical screen. See vgn_decoder.h.
 *
 * open reads the screen descriptor, the extensions before the first image (for the Graphic Control
 * Extension's transparent index) and the first image descriptor; nothing is read past the first
 * image's data, so a 10,000-frame animation costs one frame. The canvas is the logical screen grown
 * (like browsers do) to cover the first frame when that frame sticks out of it or the screen is 0x0;
 * info->width/height is that canvas, so the caller's pixel cap applies to what is produced. Pixels
 * outside the frame are transparent. A frame without any colour map is shown with a greyscale ramp
 * (index i -> grey i). Rows are streamed with DGifGetLine (one frame-width line buffer); an
 * interlaced frame is first decoded whole into a frame-size index buffer (reported in `working`).
 *
 * From a descriptor (vgn_gif_open_fd) giflib's small reads are served from a 64 KiB buffer filled
 * by pread, up to the file's size at open: only what the first frame needs is read, and a file
 * that shrinks meanwhile reads short (giflib's read error: truncated), never a crash.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gif_lib.h>

#include "vgn_internal.h"

enum { VGN_GST_OPENED = 0, VGN_GST_DONE, VGN_GST_FAILED };

#define VGN_GIF_READ_BUF 65536 /* bytes read from a descriptor at a time */

typedef struct {
    vgn_decoder base;
    GifFileType *gif;
    const uint8_t *data; /* the caller's buffer, or NULL when reading through fd */
    int fd;              /* the caller's descriptor (-1: from memory) */
    size_t size, pos;    /* size: of data, or of the file when it was opened */
    uint8_t *rbuf;       /* fd: bytes [rbuf_off, rbuf_off + rbuf_len) of the file */
    size_t rbuf_off, rbuf_len;
    vgn_warnings warn;
    uint32_t fl, ft, fw, fh; /* the frame's rectangle on the canvas */
    int interlaced;
    uint8_t pal[256][4];      /* RGBA */
    uint8_t *line;            /* fw indices */
    uint8_t *frame;           /* interlaced: fw*fh indices */
    uint32_t row;             /* next canvas row to output */
    uint32_t frow;            /* non-interlaced: next frame row giflib gives */
    int state;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
} vgn_gif;

/* giflib's read from the descriptor: n bytes at pos through the buffer, fewer at the end of the
 * file (or on a read error). */
static int vgn_gif_input_fd(vgn_gif *g, GifByteType *buf, int n)
{
    int done = 0;
    while (done < n && g->pos < g->size) {
        size_t k;
        if (g->pos < g->rbuf_off || g->pos >= g->rbuf_off + g->rbuf_len) {
            size_t want = g->size - g->pos < VGN_GIF_READ_BUF ? g->size - g->pos : VGN_GIF_READ_BUF;
            ssize_t got;
            do
                got = pread(g->fd, g->rbuf, want, (off_t)g->pos);
            while (got < 0 && errno == EINTR);
            if (got <= 0)
                break; /* the file is shorter than it was, or unreadable */
            g->rbuf_off = g->pos;
            g->rbuf_len = (size_t)got;
        }
        k = g->rbuf_off + g->rbuf_len - g->pos;
        if (k > (size_t)(n - done))
            k = (size_t)(n - done);
        memcpy(buf + done, g->rbuf + (g->pos - g->rbuf_off), k);
        g->pos += k;
        done += (int)k;
    }
    return done;
}

static int vgn_gif_input(GifFileType *gif, GifByteType *buf, int n)
{
    vgn_gif *g = (vgn_gif *)gif->UserData;
    size_t left, k;
    if (g == NULL || n <= 0)
        return 0;
    if (g->fd >= 0)
        return vgn_gif_input_fd(g, buf, n);
    left = g->size - g->pos;
    k = (size_t)n < left ? (size_t)n : left;
    memcpy(buf, g->data + g->pos, k);
    g->pos += k;
    return (int)k;
}

/* giflib error code -> status */
static int vgn_gif_code(int e)
{
    switch (e) {
    case D_GIF_ERR_READ_FAILED:
    case D_GIF_ERR_EOF_TOO_SOON:
        return VGN_E_TRUNCATED;
    case D_GIF_ERR_NOT_ENOUGH_MEM:
        return VGN_E_NOMEM;
    default:
        return VGN_E_INVALID;
    }
}

static void vgn_gif_lib_msg(char *dst, int e)
{
    const char *s = GifErrorString(e);
    char tmp[VGN_MSG_LEN];
    /* GifErrorString gives e.g. "Failed to read from given file" */
    snprintf(tmp, sizeof tmp, "gif: %s", s != NULL ? s : "unknown giflib error");
    vgn_copy_message(dst, tmp);
}

static void vgn_gif_close(vgn_decoder *d)
{
    vgn_gif *g = (vgn_gif *)d;
    if (g == NULL)
        return;
    if (g->gif != NULL) {
        int e = 0;
        DGifCloseFile(g->gif, &e);
    }
    free(g->line);
    free(g->frame);
    free(g->rbuf);
    free(g);
}

static int vgn_gif_fail_open(vgn_gif *g, int code, const char *msg, vgn_error *err)
{
    vgn_err_fill(err, code, msg, &g->warn);
    vgn_gif_close(&g->base);
    return code;
}

/* Fails the handle with giflib's current error. */
static int vgn_gif_fail(vgn_gif *g, int e)
{
    g->state = VGN_GST_FAILED;
    g->fail_code = vgn_gif_code(e);
    vgn_gif_lib_msg(g->fail_msg, e);
    return g->fail_code;
}

static int vgn_gif_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* A handle over `data` (fd -1) or descriptor `fd` (data NULL) of `size` bytes, or NULL. */
static vgn_gif *vgn_gif_new(const uint8_t *data, int fd, size_t size, vgn_error *err)
{
    vgn_gif *g = (vgn_gif *)calloc(1, sizeof *g);
    if (g == NULL || (fd >= 0 && (g->rbuf = (uint8_t *)malloc(VGN_GIF_READ_BUF)) == NULL)) {
        free(g);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    g->base.read_rows = vgn_gif_read_rows;
    g->base.close = vgn_gif_close;
    g->data = data;
    g->fd = fd;
    g->size = size;
    return g;
}

static vgn_decoder *vgn_gif_start(vgn_gif *g, vgn_image_info *info, vgn_error *err);

vgn_decoder *vgn_gif_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_gif *g;
    if (info != NULL)
        memset(info, 0, sizeof *info);
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    if ((g = vgn_gif_new(data, -1, size, err)) == NULL)
        return NULL;
    return vgn_gif_start(g, info, err);
}

vgn_decoder *vgn_gif_open_fd(int fd, vgn_image_info *info, vgn_error *err)
{
    vgn_gif *g;
    uint64_t size;
    if (vgn_fd_file_size(fd, "gif", info, &size, err) != VGN_OK)
        return NULL;
    if ((g = vgn_gif_new(NULL, fd, (size_t)size, err)) == NULL)
        return NULL;
    return vgn_gif_start(g, info, err);
}

/* Reads the GIF's header up to the first image descriptor. */
static vgn_decoder *vgn_gif_start(vgn_gif *g, vgn_image_info *info, vgn_error *err)
{
    int e = 0, transparent = -1, i, count;
    GifRecordType rt;
    const ColorMapObject *cmap;
    uint64_t cw, ch;
    char msg[VGN_MSG_LEN];

    g->gif = DGifOpen(g, vgn_gif_input, &e);
    if (g->gif == NULL) {
        vgn_gif_lib_msg(msg, e);
        vgn_gif_fail_open(g, vgn_gif_code(e), msg, err);
        return NULL;
    }

    /* Records up to the first image descriptor. */
    for (;;) {
        if (DGifGetRecordType(g->gif, &rt) == GIF_ERROR) {
            vgn_gif_lib_msg(msg, g->gif->Error);
            vgn_gif_fail_open(g, vgn_gif_code(g->gif->Error), msg, err);
            return NULL;
        }
        if (rt == IMAGE_DESC_RECORD_TYPE)
            break;
        if (rt == TERMINATE_RECORD_TYPE) {
            vgn_gif_fail_open(g, VGN_E_INVALID, "the GIF has no image", err);
            return NULL;
        }
        if (rt == EXTENSION_RECORD_TYPE) {
            int code = 0;
            GifByteType *ext = NULL;
            if (DGifGetExtension(g->gif, &code, &ext) == GIF_ERROR) {
                vgn_gif_lib_msg(msg, g->gif->Error);
                vgn_gif_fail_open(g, vgn_gif_code(g->gif->Error), msg, err);
                return NULL;
            }
            if (code == GRAPHICS_EXT_FUNC_CODE && ext != NULL) {
                GraphicsControlBlock gcb;
                /* the last GCE before the image wins; a malformed one is ignored */
                if (ext[0] == 4 && DGifExtensionToGCB(ext[0], ext + 1, &gcb) == GIF_OK)
                    transparent = gcb.TransparentColor;
                else
                    vgn_warn_add(&g->warn, "malformed graphic control extension ignored");
            }
            while (ext != NULL) {
                if (DGifGetExtensionNext(g->gif, &ext) == GIF_ERROR) {
                    vgn_gif_lib_msg(msg, g->gif->Error);
                    vgn_gif_fail_open(g, vgn_gif_code(g->gif->Error), msg, err);
                    return NULL;
                }
            }
        }
        /* UNDEFINED/SCREEN_DESC records: giflib reports them as errors above */
    }
    if (DGifGetImageDesc(g->gif) == GIF_ERROR) {
        vgn_gif_lib_msg(msg, g->gif->Error);
        vgn_gif_fail_open(g, vgn_gif_code(g->gif->Error), msg, err);
        return NULL;
    }
    if (g->gif->Image.Left < 0 || g->gif->Image.Top < 0 || g->gif->Image.Width < 0 || g->gif->Image.Height < 0) {
        vgn_gif_fail_open(g, VGN_E_INVALID, "bad frame rectangle", err);
        return NULL;
    }
    g->fl = (uint32_t)g->gif->Image.Left;
    g->ft = (uint32_t)g->gif->Image.Top;
    g->fw = (uint32_t)g->gif->Image.Width;
    g->fh = (uint32_t)g->gif->Image.Height;
    g->interlaced = g->gif->Image.Interlace ? 1 : 0;

    /* canvas: the logical screen grown to hold the first frame */
    cw = g->gif->SWidth > 0 ? (uint64_t)g->gif->SWidth : 0;
    ch = g->gif->SHeight > 0 ? (uint64_t)g->gif->SHeight : 0;
    if ((uint64_t)g->fl + g->fw > cw)
        cw = (uint64_t)g->fl + g->fw;
    if ((uint64_t)g->ft + g->fh > ch)
        ch = (uint64_t)g->ft + g->fh;
    if (cw == 0 || ch == 0) {
        vgn_gif_fail_open(g, VGN_E_INVALID, "the GIF has a zero-size screen and frame", err);
        return NULL;
    }
    if (g->fw == 0 || g->fh == 0)
        vgn_warn_add(&g->warn, "the first frame is empty");

    /* palette: local, else global, else a greyscale ramp */
    cmap = g->gif->Image.ColorMap != NULL ? g->gif->Image.ColorMap : g->gif->SColorMap;
    count = 0;
    if (cmap != NULL && cmap->Colors != NULL) {
        count = cmap->ColorCount < 0 ? 0 : cmap->ColorCount > 256 ? 256 : cmap->ColorCount;
        for (i = 0; i < count; i++) {
            g->pal[i][0] = cmap->Colors[i].Red;
            g->pal[i][1] = cmap->Colors[i].Green;
            g->pal[i][2] = cmap->Colors[i].Blue;
            g->pal[i][3] = 255;
        }
        for (; i < 256; i++) { /* indices past the map: opaque black */
            g->pal[i][0] = g->pal[i][1] = g->pal[i][2] = 0;
            g->pal[i][3] = 255;
        }
    } else {
        vgn_warn_add(&g->warn, "no colour map: shown as greyscale");
        for (i = 0; i < 256; i++) {
            g->pal[i][0] = g->pal[i][1] = g->pal[i][2] = (uint8_t)i;
            g->pal[i][3] = 255;
        }
    }
    if (transparent >= 0 && transparent < 256)
        g->pal[transparent][3] = 0;

    g->base.width = (uint32_t)cw;
    g->base.height = (uint32_t)ch;
    g->base.working =
        (size_t)g->fw + (g->interlaced ? (size_t)g->fw * g->fh : 0) + (g->rbuf != NULL ? VGN_GIF_READ_BUF : 0);

    info->width = (uint32_t)cw;
    info->height = (uint32_t)ch;
    info->components = 1;
    info->bit_depth = 8;
    info->color_type = 3;
    info->interlaced = g->interlaced;
    info->has_alpha = (transparent >= 0 || cw > g->fw || ch > g->fh) ? 1 : 0;
    info->orientation = 1;
    g->state = VGN_GST_OPENED;
    vgn_err_fill(err, VGN_OK, NULL, &g->warn);
    return &g->base;
}

/* Decodes frame row r (0-based, in display order) into g->line or returns a pointer into g->frame.
 * NULL on failure (handle failed). */
static const uint8_t *vgn_gif_frame_row(vgn_gif *g, uint32_t r)
{
    if (g->interlaced) {
        if (g->frame == NULL) {
            static const uint32_t start[4] = {0, 4, 2, 1}, step[4] = {8, 8, 4, 2};
            int pass;
            uint32_t done = 0;
            g->frame = (uint8_t *)malloc((size_t)g->fw * g->fh);
            if (g->frame == NULL) {
                g->state = VGN_GST_FAILED;
                g->fail_code = VGN_E_NOMEM;
                vgn_copy_message(g->fail_msg, "out of memory for the interlaced frame");
                return NULL;
            }
            memset(g->frame, 0, (size_t)g->fw * g->fh);
            for (pass = 0; pass < 4; pass++) {
                uint32_t y;
                for (y = start[pass]; y < g->fh; y += step[pass]) {
                    int ok = DGifGetLine(g->gif, g->frame + (size_t)y * g->fw, (int)g->fw) != GIF_ERROR;
                    done++;
                    if (!ok) {
                        /* giflib flushes the rest of the image data after the very last line: a
                           failure there leaves the pixels intact */
                        if (done == g->fh) {
                            char m[VGN_MSG_LEN];
                            vgn_gif_lib_msg(m, g->gif->Error);
                            vgn_warn_add(&g->warn, m);
                            break;
                        }
                        vgn_gif_fail(g, g->gif->Error);
                        return NULL;
                    }
                }
            }
        }
        return g->frame + (size_t)r * g->fw;
    }
    if (r != g->frow) { /* never happens: rows are asked for in order */
        g->state = VGN_GST_FAILED;
        g->fail_code = VGN_E_STATE;
        vgn_copy_message(g->fail_msg, "GIF rows out of order");
        return NULL;
    }
    if (DGifGetLine(g->gif, g->line, (int)g->fw) == GIF_ERROR) {
        if (r + 1 == g->fh) {
            char m[VGN_MSG_LEN];
            vgn_gif_lib_msg(m, g->gif->Error);
            vgn_warn_add(&g->warn, m);
        } else {
            vgn_gif_fail(g, g->gif->Error);
            return NULL;
        }
    }
    g->frow++;
    return g->line;
}

static int vgn_gif_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_gif *g = (vgn_gif *)d;
    int n = 0;
    if (g->state == VGN_GST_FAILED) {
        vgn_err_fill(err, g->fail_code, g->fail_msg, &g->warn);
        return g->fail_code;
    }
    if (g->state == VGN_GST_DONE || max_rows == 0) {
        vgn_err_fill(err, VGN_OK, NULL, &g->warn);
        return 0;
    }
    if (g->line == NULL && g->fw > 0) {
        g->line = (uint8_t *)malloc(g->fw);
        if (g->line == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &g->warn);
            return VGN_E_NOMEM;
        }
    }
    while (n < max_rows && g->row < g->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t y = g->row;
        memset(out, 0, (size_t)g->base.width * 4);
        if (g->fw > 0 && y >= g->ft && y - g->ft < g->fh) {
            const uint8_t *idx = vgn_gif_frame_row(g, y - g->ft);
            uint8_t *o = out + (size_t)g->fl * 4;
            uint32_t x;
            if (idx == NULL)
                break;
            for (x = 0; x < g->fw; x++, o += 4)
                memcpy(o, g->pal[idx[x]], 4);
        }
        g->row++;
        n++;
    }
    if (g->state == VGN_GST_FAILED) {
        if (n > 0) {
            vgn_err_fill(err, VGN_OK, NULL, &g->warn);
            return n;
        }
        vgn_err_fill(err, g->fail_code, g->fail_msg, &g->warn);
        return g->fail_code;
    }
    if (g->row >= g->base.height) {
        g->state = VGN_GST_DONE;
        /* nothing past the first frame is ever read; free the big buffers early */
        free(g->frame);
        g->frame = NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, &g->warn);
    return n;
}
