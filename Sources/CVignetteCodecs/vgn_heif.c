/* vgn_heif.c - HEIF/HEIC/AVIF through libheif: the primary image (or a thumbnail covering the
 * target), decoded whole at the first read_rows, transformations applied by libheif. AV1 pictures
 * go through dav1d here (vgn_av1.c), shrunk for small thumbnails. See vgn_decoder.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#include "vgn_internal.h"

#include "vgn_av1.h"
#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define heif_context_alloc VGN_LAZY(VGN_LIB_HEIF, heif_context_alloc)
#define heif_context_free VGN_LAZY(VGN_LIB_HEIF, heif_context_free)
#define heif_context_get_primary_image_handle VGN_LAZY(VGN_LIB_HEIF, heif_context_get_primary_image_handle)
#define heif_context_get_primary_image_ID VGN_LAZY(VGN_LIB_HEIF, heif_context_get_primary_image_ID)
#define heif_context_read_from_memory_without_copy VGN_LAZY(VGN_LIB_HEIF, heif_context_read_from_memory_without_copy)
#define heif_context_set_max_decoding_threads VGN_LAZY(VGN_LIB_HEIF, heif_context_set_max_decoding_threads)
#define heif_context_set_maximum_image_size_limit VGN_LAZY(VGN_LIB_HEIF, heif_context_set_maximum_image_size_limit)
#define heif_decode_image VGN_LAZY(VGN_LIB_HEIF, heif_decode_image)
#define heif_register_decoder VGN_LAZY(VGN_LIB_HEIF, heif_register_decoder)
#define heif_decoding_options_alloc VGN_LAZY(VGN_LIB_HEIF, heif_decoding_options_alloc)
#define heif_decoding_options_free VGN_LAZY(VGN_LIB_HEIF, heif_decoding_options_free)
#define heif_image_get_bits_per_pixel_range VGN_LAZY(VGN_LIB_HEIF, heif_image_get_bits_per_pixel_range)
#define heif_image_get_decoding_warnings VGN_LAZY(VGN_LIB_HEIF, heif_image_get_decoding_warnings)
#define heif_image_get_height VGN_LAZY(VGN_LIB_HEIF, heif_image_get_height)
#define heif_image_get_plane_readonly VGN_LAZY(VGN_LIB_HEIF, heif_image_get_plane_readonly)
#define heif_image_get_width VGN_LAZY(VGN_LIB_HEIF, heif_image_get_width)
#define heif_image_handle_get_color_profile_type VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_color_profile_type)
#define heif_image_handle_get_height VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_height)
#define heif_image_handle_get_ispe_height VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_ispe_height)
#define heif_image_handle_get_ispe_width VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_ispe_width)
#define heif_image_handle_get_list_of_thumbnail_IDs VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_list_of_thumbnail_IDs)
#define heif_image_handle_get_luma_bits_per_pixel VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_luma_bits_per_pixel)
#define heif_image_handle_get_raw_color_profile VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_raw_color_profile)
#define heif_image_handle_get_raw_color_profile_size VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_raw_color_profile_size)
#define heif_image_handle_get_thumbnail VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_thumbnail)
#define heif_image_handle_get_width VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_get_width)
#define heif_image_handle_has_alpha_channel VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_has_alpha_channel)
#define heif_image_handle_release VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_release)
#define heif_image_is_premultiplied_alpha VGN_LAZY(VGN_LIB_HEIF, heif_image_is_premultiplied_alpha)
#define heif_image_release VGN_LAZY(VGN_LIB_HEIF, heif_image_release)

/* At most this many thumbnails of the primary image are looked at. */
#define VGN_HEIF_MAX_THUMBS 16

/* libheif rejects images whose ispe width or height reaches this (its own default, stated here so
 * the limit does not move with the library version). */
#define VGN_HEIF_MAX_SIDE 32768

typedef struct {
    vgn_decoder base;
    struct heif_context *ctx;
    struct heif_image_handle *primary;
    struct heif_image_handle *chosen; /* primary or one of its thumbnails */
    struct heif_image *img;
    const uint8_t *plane;
    size_t plane_stride;
    uint8_t *straight; /* un-premultiplied copy, when the decoded image is premultiplied */
    uint32_t next_row;
    int failed; /* sticky error code of a failed decode */
    char failed_msg[VGN_MSG_LEN];
    vgn_warnings warn;
    uint8_t *icc; /* the primary image's ICC profile ('colr' prof/rICC), for the caller */
    int own_av1;  /* AV1 frames go through vgn_av1.c with av1 (else libheif's own plugins) */
    vgn_av1_request av1;
} vgn_heif;

/* The AV1 picture is shrunk (box average of its YCbCr planes, vgn_av1.c) by the box factor the
 * downscaler would use for a thumbnail that fits the target (it boxes down to no less than twice
 * the thumbnail, then Lanczos does the rest), so the thumbnail is made the same way; but no more
 * than keeps the shorter side at least the target, which a thumbnail cropped to fill a square
 * needs; and at most this. */
#define VGN_HEIF_MAX_SHRINK 64

/* From this shrink factor on (the thumbnail at most a quarter of the picture's size), the
 * in-loop filters and film grain are skipped: deblocking, CDEF and loop restoration smooth 4-8
 * pixel block edges and texture that the reduction averages away. On 8 of the benchmark photos,
 * 256 px thumbnails with and without the filters differ by under 0.1 dB, and full-size unfiltered
 * decodes of 5 are 46-56 dB from the filtered ones (50-58 dB at a quarter size): see
 * bench/RESULTS.md, issue 13. Below it (large thumbnails, previews) the picture is decoded in full. */
#define VGN_HEIF_UNFILTERED_SHRINK 2

/* The box at p (left bytes): its header length, whole length and type; 0 if it does not fit. */
static int vgn_heif_box(const uint8_t *p, size_t left, size_t *head, size_t *len, uint32_t *type)
{
    uint64_t size;
    if (left < 8) return 0;
    size = ((uint64_t)p[0] << 24) | ((uint64_t)p[1] << 16) | ((uint64_t)p[2] << 8) | p[3];
    *type = ((uint32_t)p[4] << 24) | ((uint32_t)p[5] << 16) | ((uint32_t)p[6] << 8) | p[7];
    *head = 8;
    if (size == 1) {
        int i;
        if (left < 16) return 0;
        for (size = 0, i = 8; i < 16; i++)
            size = (size << 8) | p[i];
        *head = 16;
    } else if (size == 0) {
        size = left;
    }
    if (size < *head || size > left) return 0;
    *len = (size_t)size;
    return 1;
}

#define VGN_FOURCC(a, b, c, d) (((uint32_t)(a) << 24) | ((uint32_t)(b) << 16) | ((uint32_t)(c) << 8) | (uint32_t)(d))

/* Whether item `id` of the HEIF file is an 'av01' picture, read as libheif 1.15 reads it (the first
 * top-level 'meta', its first 'iinf', the first entry_count 'infe' boxes): the one infe naming it
 * says so. 0 for anything else (a grid, an overlay, a derived image, an id named twice, a parse
 * failure): those are decoded without shrinking. */
static int vgn_heif_item_is_av1(const uint8_t *data, size_t size, heif_item_id id)
{
    size_t off = 0, head, len, meta_end, iinf_end;
    uint32_t type, count, found = 0, is_av1 = 0, i;
    /* the first top-level meta */
    for (;;) {
        if (!vgn_heif_box(data + off, size - off, &head, &len, &type)) return 0;
        if (type == VGN_FOURCC('m', 'e', 't', 'a')) break;
        off += len;
    }
    meta_end = off + len;
    off += head + 4; /* FullBox */
    if (off > meta_end) return 0;
    /* its first iinf */
    for (;;) {
        if (!vgn_heif_box(data + off, meta_end - off, &head, &len, &type)) return 0;
        if (type == VGN_FOURCC('i', 'i', 'n', 'f')) break;
        off += len;
    }
    iinf_end = off + len;
    if (len < head + 4) return 0;
    off += head;
    if (data[off] == 0) {
        if (iinf_end - off < 6) return 0;
        count = ((uint32_t)data[off + 4] << 8) | data[off + 5];
        off += 6;
    } else {
        if (iinf_end - off < 8) return 0;
        count = ((uint32_t)data[off + 4] << 24) | ((uint32_t)data[off + 5] << 16) | ((uint32_t)data[off + 6] << 8) | data[off + 7];
        off += 8;
    }
    for (i = 0; i < count && off < iinf_end; i++) {
        const uint8_t *b;
        uint32_t item;
        if (!vgn_heif_box(data + off, iinf_end - off, &head, &len, &type)) return 0;
        b = data + off + head;
        if (type == VGN_FOURCC('i', 'n', 'f', 'e') && len >= head + 4 && b[0] >= 2 && b[0] <= 3) {
            size_t need = head + 4 + (b[0] == 2 ? 2 : 4) + 2 + 4;
            if (len < need) return 0;
            if (b[0] == 2) {
                item = ((uint32_t)b[4] << 8) | b[5];
                type = ((uint32_t)b[8] << 24) | ((uint32_t)b[9] << 16) | ((uint32_t)b[10] << 8) | b[11];
            } else {
                item = ((uint32_t)b[4] << 24) | ((uint32_t)b[5] << 16) | ((uint32_t)b[6] << 8) | b[7];
                type = ((uint32_t)b[10] << 24) | ((uint32_t)b[11] << 16) | ((uint32_t)b[12] << 8) | b[13];
            }
            if (item == id) {
                found++;
                is_av1 = type == VGN_FOURCC('a', 'v', '0', '1');
            }
        }
        off += len;
    }
    return found == 1 && is_av1;
}

static int vgn_heif_code(struct heif_error e)
{
    switch (e.code) {
    case heif_error_Ok: return VGN_OK;
    case heif_error_Memory_allocation_error:
        return e.subcode == heif_suberror_Security_limit_exceeded ? VGN_E_LIMIT : VGN_E_NOMEM;
    case heif_error_Unsupported_filetype:
    case heif_error_Unsupported_feature:
    case heif_error_Color_profile_does_not_exist:
        return VGN_E_UNSUPPORTED;
    case heif_error_Usage_error: return VGN_E_STATE;
    default:
        if (e.subcode == heif_suberror_End_of_data) return VGN_E_TRUNCATED;
        if (e.subcode == heif_suberror_Security_limit_exceeded) return VGN_E_LIMIT;
        if (e.subcode == heif_suberror_Unsupported_codec || e.subcode == heif_suberror_Unsupported_image_type ||
            e.subcode == heif_suberror_Unsupported_color_conversion)
            return VGN_E_UNSUPPORTED;
        return VGN_E_INVALID;
    }
}

static void vgn_heif_msg(char *dst, const char *what, struct heif_error e)
{
    const char *m = e.message != NULL && e.message[0] != '\0' ? e.message : "unknown error";
    char tmp[VGN_MSG_LEN];
    /* libheif messages start with a capital ("Invalid input: ..."): lower the first letter */
    snprintf(tmp, sizeof tmp, "libheif: %s%s%c%s", what != NULL ? what : "", what != NULL ? ": " : "",
             (m[0] >= 'A' && m[0] <= 'Z') ? (char)(m[0] - 'A' + 'a') : m[0], m + 1);
    vgn_copy_message(dst, tmp);
    /* no trailing period */
    {
        size_t n = strlen(dst);
        while (n > 0 && dst[n - 1] == '.')
            dst[--n] = '\0';
    }
}

static int vgn_heif_fail(vgn_error *err, const char *what, struct heif_error e, const vgn_warnings *w)
{
    char msg[VGN_MSG_LEN];
    int code = vgn_heif_code(e);
    if (code == VGN_OK) code = VGN_E_INVALID;
    vgn_heif_msg(msg, what, e);
    vgn_err_fill(err, code, msg, w);
    return code;
}

static void vgn_heif_close(vgn_decoder *d)
{
    vgn_heif *h = (vgn_heif *)d;
    if (h == NULL) return;
    free(h->straight);
    free(h->icc);
    if (h->img != NULL) heif_image_release(h->img);
    if (h->chosen != NULL && h->chosen != h->primary) heif_image_handle_release(h->chosen);
    if (h->primary != NULL) heif_image_handle_release(h->primary);
    if (h->ctx != NULL) heif_context_free(h->ctx);
    free(h);
}

/* Decodes the chosen image to interleaved RGBA8 (first read_rows). */
static int vgn_heif_decode(vgn_heif *h, vgn_error *err)
{
    struct heif_decoding_options *opt = heif_decoding_options_alloc();
    struct heif_error e;
    const uint8_t *plane;
    int stride = 0, w, h_, bits;
    if (opt == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &h->warn);
        return VGN_E_NOMEM;
    }
    opt->ignore_transformations = 0;
    opt->convert_hdr_to_8bit = 1;
    if (h->own_av1) vgn_av1_begin(&h->av1);
    e = heif_decode_image(h->chosen, &h->img, heif_colorspace_RGB, heif_chroma_interleaved_RGBA, opt);
    if (h->own_av1) vgn_av1_end();
    heif_decoding_options_free(opt);
    if (e.code != heif_error_Ok) {
        h->img = NULL;
        return vgn_heif_fail(err, "cannot decode the image", e, &h->warn);
    }
    {
        /* one at a time: libheif keeps each warning's text in one buffer on the image, which the
         * next warning fetched overwrites */
        int i;
        for (i = 0; i < 64; i++) {
            struct heif_error w;
            char m[VGN_MSG_LEN];
            if (heif_image_get_decoding_warnings(h->img, i, &w, 1) != 1) break;
            vgn_heif_msg(m, NULL, w);
            vgn_warn_add(&h->warn, m);
        }
    }
    w = heif_image_get_width(h->img, heif_channel_interleaved);
    h_ = heif_image_get_height(h->img, heif_channel_interleaved);
    bits = heif_image_get_bits_per_pixel_range(h->img, heif_channel_interleaved);
    plane = heif_image_get_plane_readonly(h->img, heif_channel_interleaved, &stride);
    if (plane == NULL || bits != 8 || w <= 0 || h_ <= 0 || stride < w * 4) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "libheif did not give 8-bit RGBA pixels", &h->warn);
        return VGN_E_UNSUPPORTED;
    }
    if ((uint32_t)w != h->base.width || (uint32_t)h_ != h->base.height) {
        vgn_err_fill(err, VGN_E_INVALID, "the decoded image does not have the size the header gives", &h->warn);
        return VGN_E_INVALID;
    }
    h->plane = plane;
    h->plane_stride = (size_t)stride;
    if (heif_image_is_premultiplied_alpha(h->img)) {
        /* hand out straight alpha: un-premultiply into a copy */
        size_t row = (size_t)w * 4, y, x;
        h->straight = (uint8_t *)malloc(row * (size_t)h_);
        if (h->straight == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &h->warn);
            return VGN_E_NOMEM;
        }
        for (y = 0; y < (size_t)h_; y++) {
            const uint8_t *s = plane + y * (size_t)stride;
            uint8_t *o = h->straight + y * row;
            for (x = 0; x < (size_t)w; x++, s += 4, o += 4) {
                unsigned a = s[3], c;
                for (c = 0; c < 3; c++) {
                    unsigned v = a == 0 ? 0 : (s[c] * 255u + a / 2) / a;
                    o[c] = (uint8_t)(v > 255 ? 255 : v);
                }
                o[3] = (uint8_t)a;
            }
        }
        h->plane = h->straight;
        h->plane_stride = row;
    }
    return VGN_OK;
}

static int vgn_heif_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_heif *h = (vgn_heif *)d;
    int n = 0;
    if (h->failed != VGN_OK) {
        vgn_err_fill(err, h->failed, h->failed_msg, &h->warn);
        return h->failed;
    }
    if (h->plane == NULL && h->next_row < h->base.height) {
        int rc = vgn_heif_decode(h, err);
        if (rc != VGN_OK) {
            h->failed = rc;
            if (err != NULL) memcpy(h->failed_msg, err->message, VGN_MSG_LEN);
            else vgn_copy_message(h->failed_msg, "cannot decode the image");
            return rc;
        }
    }
    while (n < max_rows && h->next_row < h->base.height) {
        memcpy(dst + (size_t)n * stride, h->plane + (size_t)h->next_row * h->plane_stride, (size_t)h->base.width * 4);
        n++;
        h->next_row++;
    }
    if (h->next_row >= h->base.height && h->img != NULL) {
        /* all rows out: give the pixels back early */
        free(h->straight);
        h->straight = NULL;
        heif_image_release(h->img);
        h->img = NULL;
        h->plane = NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, &h->warn);
    return n;
}

vgn_decoder *vgn_heif_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_heif *h;
    struct heif_error e;
    int pw, ph, ow, oh, bits, alpha;
    uint64_t stored, out, bytes_per_sample;
    heif_item_id chosen_id = 0;
    uint32_t k = 1;

    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (vgn_library_load(VGN_LIB_HEIF, err) != VGN_OK) return NULL;
    h = (vgn_heif *)calloc(1, sizeof *h);
    if (h == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    h->base.read_rows = vgn_heif_read_rows;
    h->base.close = vgn_heif_close;
    h->ctx = heif_context_alloc();
    if (h->ctx == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        vgn_heif_close(&h->base);
        return NULL;
    }
    heif_context_set_maximum_image_size_limit(h->ctx, VGN_HEIF_MAX_SIDE);
    /* 0: libheif decodes grid tiles on the calling thread (1 would start one worker thread) */
    heif_context_set_max_decoding_threads(h->ctx, 0);
    e = heif_context_read_from_memory_without_copy(h->ctx, data, size, NULL);
    if (e.code != heif_error_Ok) {
        vgn_heif_fail(err, NULL, e, NULL);
        vgn_heif_close(&h->base);
        return NULL;
    }
    e = heif_context_get_primary_image_handle(h->ctx, &h->primary);
    if (e.code != heif_error_Ok || h->primary == NULL) {
        h->primary = NULL;
        vgn_heif_fail(err, "no primary image", e, NULL);
        vgn_heif_close(&h->base);
        return NULL;
    }
    /* libheif 1.15 gives the size after irot/clap (ispe is the coded size): same area up to clap */
    pw = heif_image_handle_get_width(h->primary);
    ph = heif_image_handle_get_height(h->primary);
    if (pw <= 0 || ph <= 0) {
        vgn_err_fill(err, VGN_E_INVALID, "libheif: the primary image has no size", NULL);
        vgn_heif_close(&h->base);
        return NULL;
    }
    h->chosen = h->primary;
    if (heif_context_get_primary_image_ID(h->ctx, &chosen_id).code != heif_error_Ok) chosen_id = 0;

    if (target > 0) {
        heif_item_id ids[VGN_HEIF_MAX_THUMBS];
        int i, n = heif_image_handle_get_list_of_thumbnail_IDs(h->primary, ids, VGN_HEIF_MAX_THUMBS);
        uint64_t best_area = 0;
        if (n > VGN_HEIF_MAX_THUMBS) n = VGN_HEIF_MAX_THUMBS;
        for (i = 0; i < n; i++) {
            struct heif_image_handle *t = NULL;
            int tw, th;
            uint64_t area;
            if (heif_image_handle_get_thumbnail(h->primary, ids[i], &t).code != heif_error_Ok || t == NULL) continue;
            tw = heif_image_handle_get_width(t);
            th = heif_image_handle_get_height(t);
            area = (uint64_t)(tw > 0 ? tw : 0) * (uint64_t)(th > 0 ? th : 0);
            /* a thumbnail must cover the target and be smaller than the primary */
            if (tw > 0 && th > 0 && (uint32_t)(tw > th ? tw : th) >= target && area < (uint64_t)pw * (uint64_t)ph &&
                (best_area == 0 || area < best_area)) {
                if (h->chosen != h->primary) heif_image_handle_release(h->chosen);
                h->chosen = t;
                chosen_id = ids[i];
                best_area = area;
            } else {
                heif_image_handle_release(t);
            }
        }
    }

    /* The profile is the primary image's (a thumbnail shares its colours but rarely carries one);
       nclx colour descriptions are left to libheif's own YCbCr to RGB conversion. */
    {
        enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(h->primary);
        size_t size = heif_image_handle_get_raw_color_profile_size(h->primary);
        if ((type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) && size >= 132 &&
            size <= (4u << 20) && (h->icc = (uint8_t *)malloc(size)) != NULL) {
            struct heif_error e = heif_image_handle_get_raw_color_profile(h->primary, h->icc);
            if (e.code == heif_error_Ok) {
                h->base.icc = h->icc;
                h->base.icc_size = size;
            }
        }
    }

    ow = heif_image_handle_get_width(h->chosen);
    oh = heif_image_handle_get_height(h->chosen);
    if (ow <= 0 || oh <= 0) {
        vgn_err_fill(err, VGN_E_INVALID, "libheif: the image has no size", NULL);
        vgn_heif_close(&h->base);
        return NULL;
    }
    bits = heif_image_handle_get_luma_bits_per_pixel(h->chosen);
    alpha = heif_image_handle_has_alpha_channel(h->primary) != 0;

    info->width = (uint32_t)pw;
    info->height = (uint32_t)ph;
    info->components = alpha ? 4 : 3;
    info->bit_depth = bits > 0 ? bits : 8;
    info->has_alpha = alpha;
    info->orientation = 1;

    /* AV1 through dav1d here (vgn_av1.c) when it loads: shrunk for a thumbnail when the chosen
     * image is one av01 item without a clean aperture (ow x oh is its ispe, turned or not) */
    if (vgn_library_load(VGN_LIB_DAV1D, NULL) == VGN_OK &&
        heif_register_decoder(h->ctx, vgn_av1_heif_plugin()).code == heif_error_Ok) {
        int iw = heif_image_handle_get_ispe_width(h->chosen), ih = heif_image_handle_get_ispe_height(h->chosen);
        h->own_av1 = 1;
        h->av1.k = 1;
        h->av1.filters = 1;
        h->av1.apply_grain = 1;
        /* frames beyond twice the stored area (a grid tile or alpha plane can be a little larger
           than the picture, not more) are refused before dav1d allocates them */
        {
            uint64_t limit = (uint64_t)(iw > 0 ? iw : ow) * (uint64_t)(ih > 0 ? ih : oh) * 2 + ((uint64_t)1 << 20);
            h->av1.frame_size_limit = limit > 0xffffffffu ? 0xffffffffu : (unsigned)limit;
        }
        /* not with alpha: the box average would mix in the colour of transparent pixels, which
           the downscaler weighs by their alpha */
        if (target > 0 && !alpha && iw > 0 && ih > 0 && ((iw == ow && ih == oh) || (iw == oh && ih == ow)) &&
            vgn_heif_item_is_av1(data, size, chosen_id)) {
            uint32_t shorter = (uint32_t)(iw < ih ? iw : ih), longer = (uint32_t)(iw < ih ? ih : iw);
            k = target > longer / 2 ? 1 : longer / (2 * target);
            if (k > shorter / target) k = shorter / target;
            if (k > VGN_HEIF_MAX_SHRINK) k = VGN_HEIF_MAX_SHRINK;
            if (k < 1) k = 1;
        }
        h->av1.k = k;
        h->av1.width = (uint32_t)(iw > 0 ? iw : 0);
        h->av1.height = (uint32_t)(ih > 0 ? ih : 0);
        if (k >= VGN_HEIF_UNFILTERED_SHRINK) {
            h->av1.filters = 0;
            h->av1.apply_grain = 0;
        }
    }

    h->base.width = ((uint32_t)ow + k - 1) / k;
    h->base.height = ((uint32_t)oh + k - 1) / k;
    h->base.extent_width = (double)ow / k;
    h->base.extent_height = (double)oh / k;
    /* the RGBA result, the transformed copy libheif makes of it, the codec's planes (and its own
     * reference copy), the alpha plane */
    {
        int iw = heif_image_handle_get_ispe_width(h->chosen), ih = heif_image_handle_get_ispe_height(h->chosen);
        stored = (uint64_t)(iw > 0 ? iw : ow) * (uint64_t)(ih > 0 ? ih : oh);
        if (stored < (uint64_t)ow * (uint64_t)oh) stored = (uint64_t)ow * (uint64_t)oh;
    }
    out = (uint64_t)h->base.width * (uint64_t)h->base.height;
    bytes_per_sample = bits > 8 ? 2 : 1;
    {
        uint64_t working = out * 4                       /* our RGBA (or the un-premultiplied copy) */
                           + (k > 1 ? out : stored) * 4  /* libheif's RGBA before rotation/crop */
                           + stored * 3 * bytes_per_sample * 2 /* decoded planes + codec frame */
                           + (alpha ? stored * bytes_per_sample * 2 : 0) + ((uint64_t)4 << 20);
        h->base.working = working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)working;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &h->base;
}
