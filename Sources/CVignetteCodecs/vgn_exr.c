/* vgn_exr.c - OpenEXR through OpenEXRCore (the C library beneath OpenEXR 3), opened on first use and
 * run in the isolated child (Debian's 3.1.5 dereferences NULL on damaged chunks: found by fuzz_exr
 * within a minute): the first part's data window, scanline or
 * tiled (the smallest mipmap or ripmap level covering the target, else the full resolution), decoded a chunk (or a row of tiles) at a time into floats
 * and shown as a display would: linear light clamped to 0-1 and encoded with the sRGB curve.
 * R, G, B and A, or Y (luminance) as grey; other channels are not read. See vgn_decoder.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <OpenEXR/openexr.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define exr_decoding_choose_default_routines VGN_LAZY(VGN_LIB_OPENEXR, exr_decoding_choose_default_routines)
#define exr_decoding_destroy VGN_LAZY(VGN_LIB_OPENEXR, exr_decoding_destroy)
#define exr_decoding_initialize VGN_LAZY(VGN_LIB_OPENEXR, exr_decoding_initialize)
#define exr_decoding_run VGN_LAZY(VGN_LIB_OPENEXR, exr_decoding_run)
#define exr_finish VGN_LAZY(VGN_LIB_OPENEXR, exr_finish)
#define exr_get_channels VGN_LAZY(VGN_LIB_OPENEXR, exr_get_channels)
#define exr_get_count VGN_LAZY(VGN_LIB_OPENEXR, exr_get_count)
#define exr_get_data_window VGN_LAZY(VGN_LIB_OPENEXR, exr_get_data_window)
#define exr_get_default_error_message VGN_LAZY(VGN_LIB_OPENEXR, exr_get_default_error_message)
#define exr_get_scanlines_per_chunk VGN_LAZY(VGN_LIB_OPENEXR, exr_get_scanlines_per_chunk)
#define exr_get_storage VGN_LAZY(VGN_LIB_OPENEXR, exr_get_storage)
#define exr_get_level_sizes VGN_LAZY(VGN_LIB_OPENEXR, exr_get_level_sizes)
#define exr_get_tile_levels VGN_LAZY(VGN_LIB_OPENEXR, exr_get_tile_levels)
#define exr_get_tile_sizes VGN_LAZY(VGN_LIB_OPENEXR, exr_get_tile_sizes)
#define exr_read_scanline_chunk_info VGN_LAZY(VGN_LIB_OPENEXR, exr_read_scanline_chunk_info)
#define exr_read_tile_chunk_info VGN_LAZY(VGN_LIB_OPENEXR, exr_read_tile_chunk_info)
#define exr_start_read VGN_LAZY(VGN_LIB_OPENEXR, exr_start_read)

/* Most lines in one band (a chunk is at most 256 scanlines; tiles are what the file says). */
#define VGN_EXR_MAX_BAND 4096

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    exr_context_t ctxt;
    int32_t y0;              /* the data window's top */
    int tiled;
    int32_t band;            /* lines a band holds: scanlines a chunk, or the tile height */
    int32_t tile_w, tiles_x; /* tiled: a tile's width, tiles across */
    int32_t level;           /* tiled: the mipmap (or ripmap) level read, 0 for the full resolution */
    int channel[4];          /* the channel indices giving R, G, B, A (-1: none); Y in [0] when grey */
    int grey;
    float *pixels;           /* 4 planes (R, G, B, A) of band x width floats */
    int32_t band_start;      /* the first line of the band held (relative to y0), -1 for none */
    uint32_t next_row;
    char error[VGN_MSG_LEN];
} vgn_exr;

static int64_t vgn_exr_read(exr_const_context_t ctxt, void *user, void *buffer, uint64_t n, uint64_t offset, exr_stream_error_func_ptr_t error)
{
    vgn_exr *e = (vgn_exr *)user;
    (void)ctxt;
    (void)error;
    if (offset >= e->size) return 0;
    if (n > e->size - offset) n = e->size - offset;
    memcpy(buffer, e->data + offset, (size_t)n);
    return (int64_t)n;
}

static int64_t vgn_exr_size(exr_const_context_t ctxt, void *user)
{
    (void)ctxt;
    return (int64_t)((vgn_exr *)user)->size;
}

static void vgn_exr_error(exr_const_context_t ctxt, exr_result_t code, const char *msg)
{
    (void)ctxt;
    (void)code;
    (void)msg; /* the result codes say enough; nothing goes to stderr */
}

static void vgn_exr_close(vgn_decoder *d)
{
    vgn_exr *e = (vgn_exr *)d;
    if (e == NULL) return;
    if (e->ctxt != NULL) exr_finish(&e->ctxt);
    free(e->pixels);
    free(e);
}

/* A failure's message: `what` and OpenEXR's words for `rc`. */
static int vgn_exr_fail(vgn_error *err, exr_result_t rc, const char *what)
{
    char m[VGN_MSG_LEN];
    int code = rc == EXR_ERR_OUT_OF_MEMORY ? VGN_E_NOMEM : rc == EXR_ERR_READ_IO ? VGN_E_TRUNCATED : VGN_E_INVALID;
    snprintf(m, sizeof m, "%s (OpenEXR: %s)", what, exr_get_default_error_message(rc));
    vgn_err_fill(err, code, m, NULL);
    return code;
}

/* Decodes one chunk into the band, its top left corner at (x, y) of the data window. (For tiles,
 * OpenEXR 3.1 gives the tile's indices as start_x and start_y, not pixels: the caller says.) */
static exr_result_t vgn_exr_chunk(vgn_exr *e, const exr_chunk_info_t *chunk, int64_t x, int64_t y)
{
    exr_decode_pipeline_t decode;
    exr_result_t rc;
    int c, k;
    size_t row = e->base.width, plane = (size_t)e->band * e->base.width;
    if (y < e->band_start || x < 0 || chunk->width < 0 || chunk->height < 0 || y + chunk->height > (int64_t)e->band_start + e->band ||
        x + chunk->width > (int64_t)e->base.width)
        return EXR_ERR_CORRUPT_CHUNK;
    memset(&decode, 0, sizeof decode);
    rc = exr_decoding_initialize(e->ctxt, 0, chunk, &decode);
    if (rc != EXR_ERR_SUCCESS) return rc;
    for (c = 0; c < decode.channel_count; c++) {
        exr_coding_channel_info_t *ch = &decode.channels[c];
        ch->decode_to_ptr = NULL;
        /* subsampled channels are not read (a luminance-chroma file shows its Y alone) */
        if (ch->x_samples != 1 || ch->y_samples != 1) continue;
        for (k = 0; k < 4; k++) {
            if (e->channel[k] != c) continue;
            ch->user_bytes_per_element = 4;
            ch->user_data_type = EXR_PIXEL_FLOAT;
            /* planar: OpenEXR 3.1's interleaving fast path writes 4 channels in its own order
             * whatever the pointers say */
            ch->user_pixel_stride = 4;
            ch->user_line_stride = (int32_t)(row * 4);
            ch->decode_to_ptr = (uint8_t *)(e->pixels + (size_t)k * plane + (size_t)(y - e->band_start) * row + (size_t)x);
        }
    }
    rc = exr_decoding_choose_default_routines(e->ctxt, 0, &decode);
    if (rc == EXR_ERR_SUCCESS) rc = exr_decoding_run(e->ctxt, 0, &decode);
    exr_decoding_destroy(e->ctxt, &decode);
    return rc;
}

/* Fills the band that starts at line `start` (relative to the data window). */
static int vgn_exr_band(vgn_exr *e, int32_t start, vgn_error *err)
{
    exr_chunk_info_t chunk;
    exr_result_t rc = EXR_ERR_SUCCESS;
    size_t count = (size_t)e->band * e->base.width, i;
    int k;
    e->band_start = start;
    /* what a channel or chunk leaves: black, and opaque */
    for (k = 0; k < 4; k++)
        for (i = 0; i < count; i++) e->pixels[(size_t)k * count + i] = k == 3 ? 1.0f : 0.0f;
    if (!e->tiled) {
        rc = exr_read_scanline_chunk_info(e->ctxt, 0, e->y0 + start, &chunk);
        if (rc == EXR_ERR_SUCCESS) rc = vgn_exr_chunk(e, &chunk, 0, (int64_t)chunk.start_y - e->y0);
    } else {
        int32_t tx;
        for (tx = 0; tx < e->tiles_x && rc == EXR_ERR_SUCCESS; tx++) {
            rc = exr_read_tile_chunk_info(e->ctxt, 0, tx, start / e->band, e->level, e->level, &chunk);
            if (rc == EXR_ERR_SUCCESS) rc = vgn_exr_chunk(e, &chunk, (int64_t)tx * e->tile_w, start);
        }
    }
    if (rc != EXR_ERR_SUCCESS) {
        e->band_start = -1;
        return vgn_exr_fail(err, rc, "cannot decode the pixels");
    }
    return VGN_OK;
}

static int vgn_exr_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_exr *e = (vgn_exr *)d;
    int n = 0;
    if (e->pixels == NULL) {
        e->pixels = (float *)malloc((size_t)e->band * e->base.width * 4 * sizeof(float));
        if (e->pixels == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
            return VGN_E_NOMEM;
        }
        e->band_start = -1;
    }
    while (n < max_rows && e->next_row < e->base.height) {
        int32_t y = (int32_t)e->next_row, start;
        const float *r, *g, *b, *a;
        size_t plane = (size_t)e->band * e->base.width;
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        /* bands start at the chunk or tile grid, which begins at the data window's top */
        start = y / e->band * e->band;
        if (e->band_start != start) {
            int rc = vgn_exr_band(e, start, err);
            if (rc != VGN_OK) return n > 0 ? n : rc;
        }
        r = e->pixels + (size_t)(y - start) * e->base.width;
        g = r + plane, b = g + plane, a = b + plane;
        for (x = 0; x < e->base.width; x++, out += 4) {
            out[0] = vgn_linear_to_srgb8(r[x]);
            out[1] = e->grey ? out[0] : vgn_linear_to_srgb8(g[x]);
            out[2] = e->grey ? out[0] : vgn_linear_to_srgb8(b[x]);
            out[3] = (uint8_t)(!(a[x] > 0.0f) ? 0 : a[x] >= 1.0f ? 255 : (int)(a[x] * 255.0f + 0.5f));
        }
        n++;
        e->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

vgn_decoder *vgn_exr_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_exr *e;
    exr_context_initializer_t init = EXR_DEFAULT_CONTEXT_INITIALIZER;
    exr_attr_box2i_t window;
    exr_storage_t storage;
    const exr_attr_chlist_t *channels = NULL;
    exr_result_t rc;
    int parts = 0, c, k;
    uint64_t w, h;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 8 || memcmp(data, "\x76\x2f\x31\x01", 4) != 0) {
        vgn_err_fill(err, VGN_E_INVALID, "no OpenEXR magic number", NULL);
        return NULL;
    }
    if (vgn_library_load(VGN_LIB_OPENEXR, err) != VGN_OK) return NULL;
    e = (vgn_exr *)calloc(1, sizeof *e);
    if (e == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    e->base.read_rows = vgn_exr_read_rows;
    e->base.close = vgn_exr_close;
    e->data = data;
    e->size = size;
    init.user_data = e;
    init.read_fn = vgn_exr_read;
    init.size_fn = vgn_exr_size;
    init.error_handler_fn = vgn_exr_error;
    init.flags = EXR_CONTEXT_FLAG_SILENT_HEADER_PARSE;
    rc = exr_start_read(&e->ctxt, "image.exr", &init);
    if (rc == EXR_ERR_SUCCESS) rc = exr_get_count(e->ctxt, &parts);
    if (rc != EXR_ERR_SUCCESS || parts < 1) {
        vgn_exr_fail(err, rc != EXR_ERR_SUCCESS ? rc : EXR_ERR_FILE_BAD_HEADER, "cannot read the header");
        vgn_exr_close(&e->base);
        return NULL;
    }
    rc = exr_get_storage(e->ctxt, 0, &storage);
    if (rc == EXR_ERR_SUCCESS && storage != EXR_STORAGE_SCANLINE && storage != EXR_STORAGE_TILED) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "deep images (samples of varying count a pixel) are not supported", NULL);
        vgn_exr_close(&e->base);
        return NULL;
    }
    if (rc == EXR_ERR_SUCCESS) rc = exr_get_data_window(e->ctxt, 0, &window);
    if (rc == EXR_ERR_SUCCESS) rc = exr_get_channels(e->ctxt, 0, &channels);
    if (rc != EXR_ERR_SUCCESS || channels == NULL) {
        vgn_exr_fail(err, rc != EXR_ERR_SUCCESS ? rc : EXR_ERR_FILE_BAD_HEADER, "cannot read the header");
        vgn_exr_close(&e->base);
        return NULL;
    }
    w = (uint64_t)((int64_t)window.max.x - window.min.x + 1);
    h = (uint64_t)((int64_t)window.max.y - window.min.y + 1);
    if ((int64_t)window.max.x < window.min.x || (int64_t)window.max.y < window.min.y || w > 0xFFFFFFFFu || h > 0xFFFFFFFFu) {
        vgn_err_fill(err, VGN_E_INVALID, "the data window is empty", NULL);
        vgn_exr_close(&e->base);
        return NULL;
    }
    e->y0 = window.min.y;
    for (k = 0; k < 4; k++) e->channel[k] = -1;
    /* the channel list is sorted by name; decoders number channels in the same order */
    for (c = 0; c < channels->num_channels; c++) {
        const char *name = channels->entries[c].name.str;
        if (name == NULL) continue;
        if (strcmp(name, "R") == 0) e->channel[0] = c;
        else if (strcmp(name, "G") == 0) e->channel[1] = c;
        else if (strcmp(name, "B") == 0) e->channel[2] = c;
        else if (strcmp(name, "A") == 0) e->channel[3] = c;
        else if (strcmp(name, "Y") == 0 && e->channel[0] < 0 && e->channel[1] < 0) e->grey = c + 1;
    }
    if (e->channel[0] < 0 && e->channel[1] < 0 && e->channel[2] < 0) {
        if (e->grey == 0) {
            vgn_err_fill(err, VGN_E_UNSUPPORTED, "no R, G, B or Y channel (only other layers)", NULL);
            vgn_exr_close(&e->base);
            return NULL;
        }
        e->channel[0] = e->grey - 1;
        e->grey = 1;
    } else {
        e->grey = 0;
    }
    info->width = (uint32_t)w;
    info->height = (uint32_t)h;
    if (storage == EXR_STORAGE_TILED) {
        int32_t tw = 0, th = 0, levels_x = 1, levels_y = 1, level;
        /* mipmap and ripmap levels (ripmaps have every pair; equal ones halve both sides alike): the
         * smallest whose longest side still covers the target */
        if (target > 0 && exr_get_tile_levels(e->ctxt, 0, &levels_x, &levels_y) == EXR_ERR_SUCCESS)
            for (level = 1; level < levels_x && level < levels_y && level < 32; level++) {
                int32_t lw = 0, lh = 0;
                if (exr_get_level_sizes(e->ctxt, 0, level, level, &lw, &lh) != EXR_ERR_SUCCESS || lw <= 0 || lh <= 0 ||
                    (uint32_t)(lw > lh ? lw : lh) < target)
                    break;
                e->level = level;
                w = (uint64_t)lw, h = (uint64_t)lh;
            }
        rc = exr_get_tile_sizes(e->ctxt, 0, e->level, e->level, &tw, &th);
        if (rc != EXR_ERR_SUCCESS || tw <= 0 || th <= 0 || th > VGN_EXR_MAX_BAND) {
            vgn_exr_fail(err, rc != EXR_ERR_SUCCESS ? rc : EXR_ERR_FILE_BAD_HEADER, "cannot read the tile description");
            vgn_exr_close(&e->base);
            return NULL;
        }
        e->tiled = 1;
        e->band = th;
        e->tile_w = tw;
        e->tiles_x = (int32_t)((w + (uint64_t)tw - 1) / (uint64_t)tw);
    } else {
        int32_t lines = 0;
        rc = exr_get_scanlines_per_chunk(e->ctxt, 0, &lines);
        if (rc != EXR_ERR_SUCCESS || lines <= 0 || lines > VGN_EXR_MAX_BAND) {
            vgn_exr_fail(err, rc != EXR_ERR_SUCCESS ? rc : EXR_ERR_FILE_BAD_HEADER, "cannot read the compression");
            vgn_exr_close(&e->base);
            return NULL;
        }
        e->band = lines;
    }
    e->base.width = (uint32_t)w;
    e->base.height = (uint32_t)h;
    /* our band of floats, OpenEXR's buffers for a chunk (as large at most), a margin */
    e->base.working = (size_t)((uint64_t)e->band * w * 16 * 2 + ((uint64_t)4 << 20));
    e->base.opaque = e->channel[3] < 0;
    info->has_alpha = e->channel[3] >= 0;
    info->components = e->grey ? 1 + (e->channel[3] >= 0) : 3 + (e->channel[3] >= 0);
    info->bit_depth = 16;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &e->base;
}
