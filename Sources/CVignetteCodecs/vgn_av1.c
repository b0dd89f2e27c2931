/* vgn_av1.c - the AV1 pictures of HEIF/AVIF files, decoded by dav1d for libheif (a decoder plugin
 * registered on one context by vgn_heif.c) and shrunk while they are copied out.
 *
 * libheif keeps the container (items, grids, alpha, irot/imir/clap, colour conversion); this
 * plugin replaces its own dav1d plugin to use what that one does not expose: one thread and no
 * frame delay (the process decodes one picture; -j runs several), and, for a thumbnail much
 * smaller than the picture, no in-loop filters or film grain and a box reduction of the YCbCr
 * planes by an integer factor before libheif converts them: libheif then converts, rotates and
 * hands out a picture about twice the thumbnail's size instead of a full-size RGBA copy (40 MB
 * for 10 megapixels). dav1d's own full-size picture remains (15 MB for 10 megapixels).
 *
 * What to do comes in vgn_av1_request, set on the calling thread around heif_decode_image
 * (libheif gives a plugin's decoder no user data). Only frames of the coded size the request
 * names are shrunk, and none after a frame that was not: the primary image's frame comes first,
 * so an alpha plane is never smaller than the picture it is put on (libheif does not check). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <dav1d/dav1d.h>
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>

#include "vgn_av1.h"
#include "vgn_lazy.h"

#define dav1d_close VGN_LAZY(VGN_LIB_DAV1D, dav1d_close)
#define dav1d_data_unref VGN_LAZY(VGN_LIB_DAV1D, dav1d_data_unref)
#define dav1d_data_wrap VGN_LAZY(VGN_LIB_DAV1D, dav1d_data_wrap)
#define dav1d_default_settings VGN_LAZY(VGN_LIB_DAV1D, dav1d_default_settings)
#define dav1d_get_picture VGN_LAZY(VGN_LIB_DAV1D, dav1d_get_picture)
#define dav1d_open VGN_LAZY(VGN_LIB_DAV1D, dav1d_open)
#define dav1d_picture_unref VGN_LAZY(VGN_LIB_DAV1D, dav1d_picture_unref)
#define dav1d_send_data VGN_LAZY(VGN_LIB_DAV1D, dav1d_send_data)

#define heif_image_add_plane VGN_LAZY(VGN_LIB_HEIF, heif_image_add_plane)
#define heif_image_create VGN_LAZY(VGN_LIB_HEIF, heif_image_create)
#define heif_image_get_plane VGN_LAZY(VGN_LIB_HEIF, heif_image_get_plane)
#define heif_image_release VGN_LAZY(VGN_LIB_HEIF, heif_image_release)
#define heif_image_set_nclx_color_profile VGN_LAZY(VGN_LIB_HEIF, heif_image_set_nclx_color_profile)
#define heif_nclx_color_profile_alloc VGN_LAZY(VGN_LIB_HEIF, heif_nclx_color_profile_alloc)
#define heif_nclx_color_profile_free VGN_LAZY(VGN_LIB_HEIF, heif_nclx_color_profile_free)

/* The coded data of one item (av1C's OBUs, then the item's): libheif pushes at most what the file
 * holds; this bounds a plugin buffer whatever it pushes. */
#define VGN_AV1_MAX_DATA ((size_t)1 << 30)

static __thread vgn_av1_request *vgn_av1_current;

void vgn_av1_begin(vgn_av1_request *r)
{
    r->frames = 0;
    r->shrunk = 0;
    r->unshrunk = 0;
    vgn_av1_current = r;
}

void vgn_av1_end(void)
{
    vgn_av1_current = NULL;
}

typedef struct {
    uint8_t *data;
    size_t size, cap;
    int strict;
} vgn_av1_decoder;

static struct heif_error vgn_av1_error(enum heif_error_code code, enum heif_suberror_code sub, const char *msg)
{
    struct heif_error e = {code, sub, msg};
    return e;
}

static const char *vgn_av1_name(void)
{
    return "Vignette dav1d (one thread, shrinking)";
}

static void vgn_av1_init(void) {}

static void vgn_av1_deinit(void) {}

static int vgn_av1_supports(enum heif_compression_format format)
{
    /* above libheif's own dav1d (150) and libaom (100) plugins */
    return format == heif_compression_AV1 ? 200 : 0;
}

static struct heif_error vgn_av1_new(void **out)
{
    vgn_av1_decoder *d = (vgn_av1_decoder *)calloc(1, sizeof *d);
    *out = d;
    if (d == NULL) return vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory");
    return vgn_av1_error(heif_error_Ok, heif_suberror_Unspecified, "ok");
}

static void vgn_av1_free(void *p)
{
    vgn_av1_decoder *d = (vgn_av1_decoder *)p;
    if (d == NULL) return;
    free(d->data);
    free(d);
}

static void vgn_av1_set_strict(void *p, int flag)
{
    ((vgn_av1_decoder *)p)->strict = flag;
}

static struct heif_error vgn_av1_push(void *p, const void *data, size_t size)
{
    vgn_av1_decoder *d = (vgn_av1_decoder *)p;
    if (size > VGN_AV1_MAX_DATA - d->size)
        return vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Security_limit_exceeded,
                             "the AV1 data is too large");
    if (d->size + size > d->cap) {
        size_t cap = d->cap > 0 ? d->cap : 4096;
        uint8_t *grown;
        while (cap < d->size + size)
            cap = cap > VGN_AV1_MAX_DATA / 2 ? VGN_AV1_MAX_DATA : cap * 2;
        grown = (uint8_t *)realloc(d->data, cap);
        if (grown == NULL) return vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory");
        d->data = grown;
        d->cap = cap;
    }
    if (size > 0) memcpy(d->data + d->size, data, size);
    d->size += size;
    return vgn_av1_error(heif_error_Ok, heif_suberror_Unspecified, "ok");
}

static void vgn_av1_no_free(const uint8_t *data, void *cookie)
{
    (void)data;
    (void)cookie;
}

/* dst (dw x dh samples, stride in bytes) = src (sw x sh) averaged over k x k blocks (the last
 * ones partial); sums has room for sw entries. 8-bit samples, or 16-bit when wide. */
static void vgn_av1_shrink(const void *src, ptrdiff_t src_stride, uint32_t sw, uint32_t sh, void *dst, size_t dst_stride,
                           uint32_t k, int wide, uint32_t *sums)
{
    uint32_t dw = (sw + k - 1) / k, dh = (sh + k - 1) / k, oy, ox, x, y;
    for (oy = 0; oy < dh; oy++) {
        uint32_t y0 = oy * k, y1 = y0 + k < sh ? y0 + k : sh;
        memset(sums, 0, (size_t)sw * sizeof *sums);
        for (y = y0; y < y1; y++) {
            if (wide) {
                const uint16_t *s = (const uint16_t *)((const uint8_t *)src + (ptrdiff_t)y * src_stride);
                for (x = 0; x < sw; x++)
                    sums[x] += s[x];
            } else {
                const uint8_t *s = (const uint8_t *)src + (ptrdiff_t)y * src_stride;
                for (x = 0; x < sw; x++)
                    sums[x] += s[x];
            }
        }
        for (ox = 0; ox < dw; ox++) {
            uint32_t x0 = ox * k, x1 = x0 + k < sw ? x0 + k : sw, n = (x1 - x0) * (y1 - y0), v = 0;
            for (x = x0; x < x1; x++)
                v += sums[x];
            v = (v + n / 2) / n;
            if (wide) ((uint16_t *)((uint8_t *)dst + (size_t)oy * dst_stride))[ox] = (uint16_t)v;
            else ((uint8_t *)dst + (size_t)oy * dst_stride)[ox] = (uint8_t)v;
        }
    }
}

/* The decoded picture as a libheif image, shrunk by k. */
static struct heif_error vgn_av1_image(const Dav1dPicture *pic, uint32_t k, int strict, struct heif_image **out)
{
    static const enum heif_channel channels[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
    enum heif_colorspace space = heif_colorspace_YCbCr;
    enum heif_chroma chroma;
    struct heif_image *img = NULL;
    struct heif_error e;
    uint32_t w = (uint32_t)pic->p.w, h = (uint32_t)pic->p.h, sums_len = w, c, planes = 3;
    int wide = pic->p.bpc > 8, ss_hor = 0, ss_ver = 0;
    uint32_t *sums = NULL;

    switch (pic->p.layout) {
    case DAV1D_PIXEL_LAYOUT_I400:
        space = heif_colorspace_monochrome;
        chroma = heif_chroma_monochrome;
        planes = 1;
        break;
    case DAV1D_PIXEL_LAYOUT_I420:
        chroma = heif_chroma_420;
        ss_hor = ss_ver = 1;
        break;
    case DAV1D_PIXEL_LAYOUT_I422:
        chroma = heif_chroma_422;
        ss_hor = 1;
        break;
    case DAV1D_PIXEL_LAYOUT_I444: chroma = heif_chroma_444; break;
    default: return vgn_av1_error(heif_error_Decoder_plugin_error, heif_suberror_Unsupported_color_conversion, "unknown AV1 pixel layout");
    }
    if (pic->p.bpc != 8 && pic->p.bpc != 10 && pic->p.bpc != 12)
        return vgn_av1_error(heif_error_Decoder_plugin_error, heif_suberror_Unsupported_bit_depth, "unsupported AV1 bit depth");
    e = heif_image_create((int)((w + k - 1) / k), (int)((h + k - 1) / k), space, chroma, &img);
    if (e.code != heif_error_Ok) return e;
    if (k > 1 && (sums = (uint32_t *)malloc((size_t)sums_len * sizeof *sums)) == NULL) {
        heif_image_release(img);
        return vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory");
    }
    for (c = 0; c < planes; c++) {
        uint32_t pw = c == 0 ? w : (w + (uint32_t)ss_hor) >> ss_hor, ph = c == 0 ? h : (h + (uint32_t)ss_ver) >> ss_ver;
        uint32_t ow = (pw + k - 1) / k, oh = (ph + k - 1) / k, y;
        ptrdiff_t src_stride = pic->stride[c == 0 ? 0 : 1];
        int dst_stride = 0;
        uint8_t *dst;
        e = heif_image_add_plane(img, channels[c], (int)ow, (int)oh, pic->p.bpc);
        if (e.code != heif_error_Ok) break;
        dst = heif_image_get_plane(img, channels[c], &dst_stride);
        if (dst == NULL || dst_stride < (int)(ow * (wide ? 2 : 1))) {
            e = vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "libheif gave no plane");
            break;
        }
        if (k > 1) {
            vgn_av1_shrink(pic->data[c], src_stride, pw, ph, dst, (size_t)dst_stride, k, wide, sums);
        } else {
            for (y = 0; y < ph; y++)
                memcpy(dst + (size_t)y * (size_t)dst_stride, (const uint8_t *)pic->data[c] + (ptrdiff_t)y * src_stride,
                       (size_t)pw * (wide ? 2 : 1));
        }
    }
    free(sums);
    if (e.code == heif_error_Ok && pic->seq_hdr != NULL) {
        /* the colour description of the sequence header, as libheif's own plugin gives it (a
           'colr' nclx box of the item takes precedence in libheif) */
        struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
        if (nclx != NULL) {
            nclx->color_primaries = (enum heif_color_primaries)pic->seq_hdr->pri;
            nclx->transfer_characteristics = (enum heif_transfer_characteristics)pic->seq_hdr->trc;
            nclx->matrix_coefficients = (enum heif_matrix_coefficients)pic->seq_hdr->mtrx;
            nclx->full_range_flag = pic->seq_hdr->color_range != 0;
            e = heif_image_set_nclx_color_profile(img, nclx);
            heif_nclx_color_profile_free(nclx);
            if (e.code != heif_error_Ok && !strict) e = vgn_av1_error(heif_error_Ok, heif_suberror_Unspecified, "ok");
        }
    }
    if (e.code != heif_error_Ok) {
        heif_image_release(img);
        return e;
    }
    *out = img;
    return e;
}

static struct heif_error vgn_av1_decode(void *p, struct heif_image **out)
{
    vgn_av1_decoder *d = (vgn_av1_decoder *)p;
    vgn_av1_request *r = vgn_av1_current;
    Dav1dSettings s;
    Dav1dContext *ctx = NULL;
    Dav1dData data;
    Dav1dPicture pic;
    struct heif_error e;
    int res, got = 0, guard;
    uint32_t k = 1;

    *out = NULL;
    memset(&data, 0, sizeof data);
    memset(&pic, 0, sizeof pic);
    if (d->size == 0) return vgn_av1_error(heif_error_Decoder_plugin_error, heif_suberror_End_of_data, "no AV1 data");
    dav1d_default_settings(&s);
    s.n_threads = 1;
    s.max_frame_delay = 1;
    s.apply_grain = r != NULL ? r->apply_grain : 1;
    s.all_layers = 0;
    s.frame_size_limit = r != NULL ? r->frame_size_limit : 0;
    s.inloop_filters = r == NULL || r->filters ? DAV1D_INLOOPFILTER_ALL : DAV1D_INLOOPFILTER_NONE;
    s.logger.callback = NULL;
    if (dav1d_open(&ctx, &s) < 0)
        return vgn_av1_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d cannot start");
    if (dav1d_data_wrap(&data, d->data, d->size, vgn_av1_no_free, NULL) < 0) {
        dav1d_close(&ctx);
        return vgn_av1_error(heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory");
    }
    /* one still picture: send until it is taken, take until one comes out (bounded, in case a
       broken stream never does) */
    for (guard = 0; guard < 64; guard++) {
        if (data.sz > 0) {
            res = dav1d_send_data(ctx, &data);
            if (res < 0 && res != DAV1D_ERR(EAGAIN)) break;
        }
        res = dav1d_get_picture(ctx, &pic);
        if (res == 0) {
            got = 1;
            break;
        }
        if (res != DAV1D_ERR(EAGAIN) || data.sz == 0) break;
    }
    if (data.sz > 0) dav1d_data_unref(&data);
    if (!got) {
        dav1d_close(&ctx);
        return vgn_av1_error(heif_error_Decoder_plugin_error, heif_suberror_Unspecified, "dav1d could not decode the AV1 data");
    }
    if (r != NULL) {
        r->frames++;
        if (r->k > 1 && r->unshrunk == 0 && (uint32_t)pic.p.w == r->width && (uint32_t)pic.p.h == r->height) {
            k = r->k;
            r->shrunk++;
        } else {
            r->unshrunk++;
        }
    }
    e = vgn_av1_image(&pic, k, d->strict, out);
    dav1d_picture_unref(&pic);
    dav1d_close(&ctx);
    return e;
}

static const struct heif_decoder_plugin vgn_av1_plugin = {
    3,
    vgn_av1_name,
    vgn_av1_init,
    vgn_av1_deinit,
    vgn_av1_supports,
    vgn_av1_new,
    vgn_av1_free,
    vgn_av1_push,
    vgn_av1_decode,
    vgn_av1_set_strict,
    "vignette-dav1d",
};

const struct heif_decoder_plugin *vgn_av1_heif_plugin(void)
{
    return &vgn_av1_plugin;
}
