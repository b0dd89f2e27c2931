/* vgn_jp2.c - JPEG 2000 (JP2 files and bare J2K codestreams) through OpenJPEG: the main header at
 * open, then the picture decoded at the first read_rows at the smallest wavelet resolution whose
 * longest side still covers the target (each level halves both sides and costs nothing to skip),
 * single-threaded; rows are converted to RGBA8 as they are read. See vgn_decoder.h.
 *
 * Before OpenJPEG sees the codestream, its SIZ segment is read here: OpenJPEG allocates its
 * per-tile, per-component state (about 1 KB each) while reading the header, so a few bytes can
 * ask for hundreds of megabytes; a picture with more tiles x components than any real one has is
 * refused first. */
#include <stdlib.h>
#include <string.h>

/* libopenjp2-7-dev puts its headers in a versioned folder that only its pkg-config file names, and
 * pkg-config's -lopenjp2 would link what is opened on first use: the folder is named here. */
#include <openjpeg-2.5/openjpeg.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define opj_codec_set_threads VGN_LAZY(VGN_LIB_OPENJP2, opj_codec_set_threads)
#define opj_create_decompress VGN_LAZY(VGN_LIB_OPENJP2, opj_create_decompress)
#define opj_decode VGN_LAZY(VGN_LIB_OPENJP2, opj_decode)
#define opj_destroy_codec VGN_LAZY(VGN_LIB_OPENJP2, opj_destroy_codec)
#define opj_destroy_cstr_info VGN_LAZY(VGN_LIB_OPENJP2, opj_destroy_cstr_info)
#define opj_end_decompress VGN_LAZY(VGN_LIB_OPENJP2, opj_end_decompress)
#define opj_get_cstr_info VGN_LAZY(VGN_LIB_OPENJP2, opj_get_cstr_info)
#define opj_image_destroy VGN_LAZY(VGN_LIB_OPENJP2, opj_image_destroy)
#define opj_read_header VGN_LAZY(VGN_LIB_OPENJP2, opj_read_header)
#define opj_set_decoded_resolution_factor VGN_LAZY(VGN_LIB_OPENJP2, opj_set_decoded_resolution_factor)
#define opj_set_default_decoder_parameters VGN_LAZY(VGN_LIB_OPENJP2, opj_set_default_decoder_parameters)
#define opj_set_error_handler VGN_LAZY(VGN_LIB_OPENJP2, opj_set_error_handler)
#define opj_set_info_handler VGN_LAZY(VGN_LIB_OPENJP2, opj_set_info_handler)
#define opj_set_warning_handler VGN_LAZY(VGN_LIB_OPENJP2, opj_set_warning_handler)
#define opj_setup_decoder VGN_LAZY(VGN_LIB_OPENJP2, opj_setup_decoder)
#define opj_stream_create VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_create)
#define opj_stream_destroy VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_destroy)
#define opj_stream_set_read_function VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_set_read_function)
#define opj_stream_set_seek_function VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_set_seek_function)
#define opj_stream_set_skip_function VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_set_skip_function)
#define opj_stream_set_user_data VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_set_user_data)
#define opj_stream_set_user_data_length VGN_LAZY(VGN_LIB_OPENJP2, opj_stream_set_user_data_length)

/* Most tiles x components accepted (a 100-megapixel RGB picture in 256-pixel tiles has 4,600). */
#define VGN_JP2_MAX_TILE_COMPONENTS 65536u
/* Most components (colour, alpha and others: hyperspectral pictures have hundreds). */
#define VGN_JP2_MAX_COMPONENTS 256u
/* Most boxes walked before the codestream box of a JP2 file. */
#define VGN_JP2_MAX_BOXES 1024

enum { VGN_JP2_GREY, VGN_JP2_RGB, VGN_JP2_YCC, VGN_JP2_CMYK };

typedef struct {
    const uint8_t *data;
    size_t size, pos;
} vgn_jp2_input;

typedef struct {
    vgn_decoder base;
    vgn_jp2_input in;
    int is_jp2;
    uint32_t reduce;   /* resolution levels dropped */
    opj_image_t *image;
    int kind;          /* VGN_JP2_* */
    int colour[3];     /* the image components giving R, G, B (Y, Cb, Cr; grey in [0]) */
    int cmyk_k;        /* the K component (CMYK) */
    int alpha;         /* the alpha component, or -1 */
    uint32_t next_row;
    int decoded;
    int failed;
    char failed_msg[VGN_MSG_LEN];
    char error_msg[VGN_MSG_LEN]; /* OpenJPEG's first error */
    vgn_warnings warn;
    uint8_t *icc;
    vgn_jp2_grey_map grey; /* the caller's mapping of grey samples (DICOM), when map is set */
} vgn_jp2;

static OPJ_SIZE_T vgn_jp2_read(void *buffer, OPJ_SIZE_T n, void *user)
{
    vgn_jp2_input *in = (vgn_jp2_input *)user;
    size_t left = in->size - in->pos;
    if (left == 0) return (OPJ_SIZE_T)-1;
    if (n > left) n = left;
    memcpy(buffer, in->data + in->pos, n);
    in->pos += n;
    return n;
}

static OPJ_OFF_T vgn_jp2_skip(OPJ_OFF_T n, void *user)
{
    vgn_jp2_input *in = (vgn_jp2_input *)user;
    if (n < 0) {
        if ((uint64_t)-n > in->pos) return -1;
        in->pos -= (size_t)-n;
        return n;
    }
    if ((uint64_t)n > in->size - in->pos) n = (OPJ_OFF_T)(in->size - in->pos);
    in->pos += (size_t)n;
    return n;
}

static OPJ_BOOL vgn_jp2_seek(OPJ_OFF_T to, void *user)
{
    vgn_jp2_input *in = (vgn_jp2_input *)user;
    if (to < 0 || (uint64_t)to > in->size) return OPJ_FALSE;
    in->pos = (size_t)to;
    return OPJ_TRUE;
}

static void vgn_jp2_quiet(const char *msg, void *user)
{
    (void)msg;
    (void)user;
}

/* OpenJPEG's warnings: only a short stream matters to the caller (the rest is left blank). */
static void vgn_jp2_warning(const char *msg, void *user)
{
    vgn_jp2 *j = (vgn_jp2 *)user;
    if (strstr(msg, "Stream too short") != NULL || strstr(msg, "does not end with EOC") != NULL)
        vgn_warn_add(&j->warn, "the data ends early; what is missing is left blank");
}

static void vgn_jp2_error(const char *msg, void *user)
{
    vgn_jp2 *j = (vgn_jp2 *)user;
    if (j->error_msg[0] == '\0') {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "OpenJPEG: %s", msg);
        vgn_copy_message(j->error_msg, m);
    }
}

static uint32_t vgn_jp2_u32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint16_t vgn_jp2_u16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

/* One box at `at` within `end`: its type, and its contents' offset and length (cut at `end` when the
 * box runs past it: 2). 0 when not even its header is there. */
static int vgn_jp2_box(const uint8_t *d, size_t at, size_t end, const uint8_t **type, size_t *content, size_t *length)
{
    uint64_t n;
    size_t header = 8;
    if (end - at < 8) return 0;
    n = vgn_jp2_u32(d + at);
    if (n == 1) {
        if (end - at < 16) return 0;
        n = (uint64_t)vgn_jp2_u32(d + at + 8) << 32 | vgn_jp2_u32(d + at + 12);
        header = 16;
    } else if (n == 0) {
        n = end - at; /* the last box runs to the end */
    }
    if (n < header) return 0;
    *type = d + at + 4;
    *content = at + header;
    *length = n > end - at ? end - at - header : (size_t)n - header;
    return n > end - at ? 2 : 1;
}

/* The offset of the codestream (its SOC marker) in a JP2 file, the `jp2c` box's contents, found by
 * walking the top-level boxes (0 when there is none); and the first colour specification (`colr` in
 * `jp2h`): its enumerated colour space (*enumcs, 0 when it gives a profile) or ICC profile. */
static size_t vgn_jp2_boxes(const uint8_t *d, size_t size, uint32_t *enumcs, size_t *icc, size_t *icc_size)
{
    size_t at = 0, content, length;
    const uint8_t *type;
    int boxes = 0, seen_colr = 0, whole;
    *enumcs = 0;
    *icc = *icc_size = 0;
    while (boxes++ < VGN_JP2_MAX_BOXES && (whole = vgn_jp2_box(d, at, size, &type, &content, &length)) != 0) {
        /* a cut codestream still gives what it has; any other box must be whole */
        if (memcmp(type, "jp2c", 4) == 0) return content;
        if (whole == 2) return 0;
        if (memcmp(type, "jp2h", 4) == 0) {
            size_t in = content, end = content + length, c2, l2;
            const uint8_t *t2;
            while (boxes++ < VGN_JP2_MAX_BOXES && vgn_jp2_box(d, in, end, &t2, &c2, &l2) == 1) {
                if (!seen_colr && memcmp(t2, "colr", 4) == 0 && l2 >= 3) {
                    seen_colr = 1;
                    if (d[c2] == 1 && l2 >= 7) *enumcs = vgn_jp2_u32(d + c2 + 3);
                    else if (d[c2] == 2 || d[c2] == 3) *icc = c2 + 3, *icc_size = l2 - 3;
                }
                in = c2 + l2;
            }
        }
        at = content + length;
    }
    return 0;
}

/* Reads the SIZ segment at `at` (right after SOC): the picture's size, tiles and components. */
static int vgn_jp2_siz(const uint8_t *d, size_t size, size_t at, vgn_image_info *info, vgn_error *err)
{
    uint32_t x1, y1, x0, y0, tw, th, tx0, ty0, ncomp, tiles_x, tiles_y;
    if (size < at || size - at < 4 + 41 || vgn_jp2_u16(d + at) != 0xFF4F || vgn_jp2_u16(d + at + 2) != 0xFF51) {
        vgn_err_fill(err, VGN_E_INVALID, "not a JPEG 2000 codestream (no SOC and SIZ markers)", NULL);
        return VGN_E_INVALID;
    }
    d += at + 4;
    x1 = vgn_jp2_u32(d + 4), y1 = vgn_jp2_u32(d + 8), x0 = vgn_jp2_u32(d + 12), y0 = vgn_jp2_u32(d + 16);
    tw = vgn_jp2_u32(d + 20), th = vgn_jp2_u32(d + 24), tx0 = vgn_jp2_u32(d + 28), ty0 = vgn_jp2_u32(d + 32);
    ncomp = vgn_jp2_u16(d + 36);
    if (x1 <= x0 || y1 <= y0 || tw == 0 || th == 0 || tx0 > x0 || ty0 > y0 || ncomp == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the SIZ segment gives no valid size", NULL);
        return VGN_E_INVALID;
    }
    if (ncomp > VGN_JP2_MAX_COMPONENTS) {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "%u components (at most %u are read)", ncomp, VGN_JP2_MAX_COMPONENTS);
        vgn_err_fill(err, VGN_E_LIMIT, m, NULL);
        return VGN_E_LIMIT;
    }
    tiles_x = (uint32_t)(((uint64_t)x1 - tx0 + tw - 1) / tw);
    tiles_y = (uint32_t)(((uint64_t)y1 - ty0 + th - 1) / th);
    /* each factor alone first, so that the product cannot wrap */
    if (tiles_x > VGN_JP2_MAX_TILE_COMPONENTS || tiles_y > VGN_JP2_MAX_TILE_COMPONENTS ||
        (uint64_t)tiles_x * tiles_y * ncomp > VGN_JP2_MAX_TILE_COMPONENTS) {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "%llu tile components (%llu tiles, %u components; at most %u are read)",
                 (unsigned long long)tiles_x * tiles_y * ncomp, (unsigned long long)tiles_x * tiles_y, ncomp,
                 VGN_JP2_MAX_TILE_COMPONENTS);
        vgn_err_fill(err, VGN_E_LIMIT, m, NULL);
        return VGN_E_LIMIT;
    }
    info->width = x1 - x0;
    info->height = y1 - y0;
    info->components = (int)ncomp;
    info->bit_depth = (d[38] & 0x7F) + 1;
    info->orientation = 1;
    return VGN_OK;
}

static void vgn_jp2_close(vgn_decoder *d)
{
    vgn_jp2 *j = (vgn_jp2 *)d;
    if (j == NULL) return;
    if (j->image != NULL) opj_image_destroy(j->image);
    free(j->icc);
    free(j);
}

/* Runs OpenJPEG over the whole input at j->reduce: header, then every tile. */
static int vgn_jp2_run(vgn_jp2 *j, opj_image_t **image, int decode, vgn_error *err)
{
    opj_dparameters_t params;
    opj_codec_t *codec = opj_create_decompress(j->is_jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K);
    opj_stream_t *stream = opj_stream_create(64 << 10, OPJ_TRUE);
    int rc = VGN_OK;
    *image = NULL;
    j->error_msg[0] = '\0';
    if (codec == NULL || stream == NULL) {
        rc = VGN_E_NOMEM;
        vgn_err_fill(err, rc, "out of memory", NULL);
        goto done;
    }
    j->in.pos = 0;
    opj_stream_set_user_data(stream, &j->in, NULL);
    opj_stream_set_user_data_length(stream, j->in.size);
    opj_stream_set_read_function(stream, vgn_jp2_read);
    opj_stream_set_skip_function(stream, vgn_jp2_skip);
    opj_stream_set_seek_function(stream, vgn_jp2_seek);
    opj_set_info_handler(codec, vgn_jp2_quiet, j);
    opj_set_warning_handler(codec, decode ? vgn_jp2_warning : vgn_jp2_quiet, j);
    opj_set_error_handler(codec, vgn_jp2_error, j);
    opj_set_default_decoder_parameters(&params);
    if (!opj_setup_decoder(codec, &params) || !opj_codec_set_threads(codec, 1)) {
        rc = VGN_E_STATE;
        vgn_err_fill(err, rc, "OpenJPEG: cannot set up the decoder", NULL);
        goto done;
    }
    if (!opj_read_header(stream, codec, image) || *image == NULL) {
        rc = VGN_E_INVALID;
        vgn_err_fill(err, rc, j->error_msg[0] != '\0' ? j->error_msg : "OpenJPEG: cannot read the header", NULL);
        goto done;
    }
    if (!decode) {
        /* the resolution levels every component has: how far the picture can shrink for free */
        opj_codestream_info_v2_t *cs = opj_get_cstr_info(codec);
        uint32_t levels = 0, c;
        if (cs != NULL && cs->m_default_tile_info.tccp_info != NULL && cs->nbcomps > 0) {
            levels = UINT32_MAX;
            for (c = 0; c < cs->nbcomps; c++)
                if (cs->m_default_tile_info.tccp_info[c].numresolutions < levels)
                    levels = cs->m_default_tile_info.tccp_info[c].numresolutions;
        }
        if (cs != NULL) opj_destroy_cstr_info(&cs);
        j->reduce = levels > 0 ? levels - 1 : 0; /* the most that may be dropped; vgn_jp2_open lowers it */
        goto done;
    }
    if (j->reduce > 0 && !opj_set_decoded_resolution_factor(codec, j->reduce)) {
        rc = VGN_E_INVALID;
        vgn_err_fill(err, rc, j->error_msg[0] != '\0' ? j->error_msg : "OpenJPEG: cannot reduce the resolution", NULL);
        goto done;
    }
    if (!opj_decode(codec, stream, *image) || !opj_end_decompress(codec, stream)) {
        /* OpenJPEG's words for a codestream cut short */
        rc = strstr(j->error_msg, "stream length") != NULL || strstr(j->error_msg, "Stream too short") != NULL ? VGN_E_TRUNCATED
                                                                                                               : VGN_E_INVALID;
        vgn_err_fill(err, rc, j->error_msg[0] != '\0' ? j->error_msg : "OpenJPEG: cannot decode the picture", &j->warn);
    }
done:
    if (rc != VGN_OK && *image != NULL) {
        opj_image_destroy(*image);
        *image = NULL;
    }
    if (stream != NULL) opj_stream_destroy(stream);
    if (codec != NULL) opj_destroy_codec(codec);
    return rc;
}

/* Which components are the colour and alpha of the decoded image, and how colour is coded. */
static int vgn_jp2_layout(vgn_jp2 *j, vgn_error *err)
{
    opj_image_t *im = j->image;
    uint32_t n = im->numcomps, c, colours = 0;
    int order[VGN_JP2_MAX_COMPONENTS];
    j->alpha = -1;
    for (c = 0; c < n && c < VGN_JP2_MAX_COMPONENTS; c++) {
        if (im->comps[c].data == NULL || im->comps[c].w == 0 || im->comps[c].h == 0 || im->comps[c].prec == 0 ||
            im->comps[c].prec > 31) {
            vgn_err_fill(err, VGN_E_INVALID, "a component has no samples", &j->warn);
            return VGN_E_INVALID;
        }
        if (im->comps[c].alpha) {
            if (j->alpha < 0) j->alpha = (int)c;
        } else {
            order[colours++] = (int)c;
        }
    }
    if (im->color_space == OPJ_CLRSPC_CMYK && colours >= 4) {
        j->kind = VGN_JP2_CMYK;
        j->cmyk_k = order[3];
    } else if (colours >= 3 && im->color_space != OPJ_CLRSPC_GRAY) {
        /* subsampled chroma with no colour space said is YCbCr, as OpenJPEG's own tools take it */
        int chroma_subsampled = im->comps[order[1]].dx > im->comps[order[0]].dx || im->comps[order[1]].dy > im->comps[order[0]].dy;
        j->kind = im->color_space == OPJ_CLRSPC_SYCC || (im->color_space == OPJ_CLRSPC_UNSPECIFIED && chroma_subsampled)
                      ? VGN_JP2_YCC
                      : VGN_JP2_RGB;
        /* a bare codestream marks no alpha: a fourth component is taken as it, as OpenJPEG's tools do */
        if (j->alpha < 0 && colours == 4 && !j->is_jp2) j->alpha = order[3];
    } else {
        j->kind = VGN_JP2_GREY;
        if (j->alpha < 0 && colours == 2) j->alpha = order[1];
    }
    if (colours == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "no colour components", &j->warn);
        return VGN_E_INVALID;
    }
    j->colour[0] = order[0];
    j->colour[1] = colours >= 3 ? order[1] : order[0];
    j->colour[2] = colours >= 3 ? order[2] : order[0];
    return VGN_OK;
}

/* Component c's sample for output pixel (x, y), scaled to 0..255 (a subsampled component's
 * nearest sample). */
static inline int vgn_jp2_sample(const opj_image_comp_t *comp, uint32_t x, uint32_t y, uint32_t width, uint32_t height)
{
    uint32_t cx = comp->w == width ? x : (uint32_t)((uint64_t)x * comp->w / width);
    uint32_t cy = comp->h == height ? y : (uint32_t)((uint64_t)y * comp->h / height);
    int64_t v = comp->data[(size_t)cy * comp->w + cx];
    if (comp->sgnd) v += (int64_t)1 << (comp->prec - 1);
    if (v < 0) v = 0;
    if (comp->prec > 8) {
        v >>= comp->prec - 8;
    } else if (comp->prec < 8) {
        v = v * 255 / (((int64_t)1 << comp->prec) - 1);
    }
    return v > 255 ? 255 : (int)v;
}

/* Component c's sample for output pixel (x, y) as coded (the nearest of a subsampled component). */
static inline int32_t vgn_jp2_raw(const opj_image_comp_t *comp, uint32_t x, uint32_t y, uint32_t width, uint32_t height)
{
    uint32_t cx = comp->w == width ? x : (uint32_t)((uint64_t)x * comp->w / width);
    uint32_t cy = comp->h == height ? y : (uint32_t)((uint64_t)y * comp->h / height);
    return comp->data[(size_t)cy * comp->w + cx];
}

static inline uint8_t vgn_jp2_clamp(int v) { return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v); }

static void vgn_jp2_row(vgn_jp2 *j, uint8_t *out, uint32_t y)
{
    opj_image_comp_t *comps = j->image->comps;
    uint32_t w = j->base.width, h = j->base.height, x;
    if (j->kind == VGN_JP2_GREY && j->grey.map != NULL) {
        const opj_image_comp_t *grey = &comps[j->colour[0]];
        for (x = 0; x < w; x++, out += 4) {
            out[0] = out[1] = out[2] = j->grey.map(j->grey.context, vgn_jp2_raw(grey, x, y, w, h), (int)grey->sgnd);
            out[3] = j->alpha >= 0 ? (uint8_t)vgn_jp2_sample(&comps[j->alpha], x, y, w, h) : 255;
        }
        return;
    }
    for (x = 0; x < w; x++, out += 4) {
        int a = vgn_jp2_sample(&comps[j->colour[0]], x, y, w, h);
        int b = vgn_jp2_sample(&comps[j->colour[1]], x, y, w, h);
        int c = vgn_jp2_sample(&comps[j->colour[2]], x, y, w, h);
        switch (j->kind) {
        case VGN_JP2_YCC: {
            /* full-range BT.601 (sYCC), in 1/1024 */
            int cb = b - 128, cr = c - 128;
            out[0] = vgn_jp2_clamp(a + ((1436 * cr + 512) >> 10));
            out[1] = vgn_jp2_clamp(a - ((352 * cb + 731 * cr - 512) >> 10));
            out[2] = vgn_jp2_clamp(a + ((1815 * cb + 512) >> 10));
            break;
        }
        case VGN_JP2_CMYK: {
            int k = 255 - vgn_jp2_sample(&comps[j->cmyk_k], x, y, w, h);
            out[0] = (uint8_t)((255 - a) * k / 255);
            out[1] = (uint8_t)((255 - b) * k / 255);
            out[2] = (uint8_t)((255 - c) * k / 255);
            break;
        }
        default:
            out[0] = (uint8_t)a;
            out[1] = (uint8_t)b;
            out[2] = (uint8_t)c;
        }
        out[3] = j->alpha >= 0 ? (uint8_t)vgn_jp2_sample(&comps[j->alpha], x, y, w, h) : 255;
    }
}

static int vgn_jp2_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_jp2 *j = (vgn_jp2 *)d;
    int n = 0;
    if (j->failed != VGN_OK) {
        vgn_err_fill(err, j->failed, j->failed_msg, &j->warn);
        return j->failed;
    }
    if (!j->decoded) {
        int rc = vgn_jp2_run(j, &j->image, 1, err);
        if (rc == VGN_OK) rc = vgn_jp2_layout(j, err);
        if (rc != VGN_OK) {
            j->failed = rc;
            if (err != NULL) memcpy(j->failed_msg, err->message, VGN_MSG_LEN);
            else vgn_copy_message(j->failed_msg, "OpenJPEG: cannot decode the picture");
            return rc;
        }
        j->decoded = 1;
        if (j->kind == VGN_JP2_GREY && j->grey.prepare != NULL) {
            const opj_image_comp_t *grey = &j->image->comps[j->colour[0]];
            j->grey.prepare(j->grey.context, grey->data, (size_t)grey->w * grey->h, (int)grey->sgnd);
        }
    }
    while (n < max_rows && j->next_row < j->base.height) {
        vgn_jp2_row(j, dst + (size_t)n * stride, j->next_row);
        n++;
        j->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &j->warn);
    return n;
}

/* ceil(v / 2^r) */
static uint64_t vgn_jp2_ceil_shift(uint64_t v, uint32_t r) { return (v + ((uint64_t)1 << r) - 1) >> r; }

vgn_decoder *vgn_jp2_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_jp2 *j;
    opj_image_t *header = NULL;
    size_t codestream = 0, icc = 0, icc_size = 0;
    uint32_t enumcs = 0, w, h, levels, c;
    uint64_t working;
    int is_jp2;

    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    is_jp2 = size >= 12 && memcmp(data, "\0\0\0\x0cjP  \r\n\x87\n", 12) == 0;
    if (is_jp2 && (codestream = vgn_jp2_boxes(data, size, &enumcs, &icc, &icc_size)) == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the JP2 file has no codestream box (jp2c)", NULL);
        return NULL;
    }
    if (enumcs == 14 || enumcs == 24) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, enumcs == 14 ? "CIELab colour is not supported" : "e-sYCC colour is not supported", NULL);
        return NULL;
    }
    if (vgn_jp2_siz(data, size, codestream, info, err) != VGN_OK) return NULL;
    if (vgn_library_load(VGN_LIB_OPENJP2, err) != VGN_OK) return NULL;
    j = (vgn_jp2 *)calloc(1, sizeof *j);
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    j->base.read_rows = vgn_jp2_read_rows;
    j->base.close = vgn_jp2_close;
    j->in.data = data;
    j->in.size = size;
    j->is_jp2 = is_jp2;
    if (vgn_jp2_run(j, &header, 0, err) != VGN_OK) {
        vgn_jp2_close(&j->base);
        return NULL;
    }
    w = header->x1 - header->x0;
    h = header->y1 - header->y0;
    if (w != info->width || h != info->height || header->numcomps == 0) {
        opj_image_destroy(header);
        vgn_err_fill(err, VGN_E_INVALID, "the JP2 header's size is not the codestream's", NULL);
        vgn_jp2_close(&j->base);
        return NULL;
    }
    for (c = 0; c < header->numcomps; c++)
        if (header->comps[c].alpha) info->has_alpha = 1;
    if (icc_size >= 132 && icc_size <= (4u << 20) && memcmp(data + icc + 16, "RGB ", 4) == 0 &&
        (j->icc = (uint8_t *)malloc(icc_size)) != NULL) {
        memcpy(j->icc, data + icc, icc_size);
        j->base.icc = j->icc;
        j->base.icc_size = icc_size;
    }
    /* The levels to drop: as many as leave the longest side covering the target. */
    levels = j->reduce;
    j->reduce = 0;
    if (target > 0)
        while (j->reduce < levels && j->reduce < 31 && ((w > h ? w : h) >> (j->reduce + 1)) >= target) j->reduce++;
    /* The reduced size on the reference grid (subsampled components are stretched to it). */
    j->base.width = (uint32_t)(vgn_jp2_ceil_shift(header->x1, j->reduce) - vgn_jp2_ceil_shift(header->x0, j->reduce));
    j->base.height = (uint32_t)(vgn_jp2_ceil_shift(header->y1, j->reduce) - vgn_jp2_ceil_shift(header->y0, j->reduce));
    /* OpenJPEG's 32-bit samples of every component at the reduced size, twice (tile and picture), and a margin. */
    working = (uint64_t)j->base.width * j->base.height * 4 * header->numcomps * 2 + ((uint64_t)16 << 20);
    j->base.working = working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)working;
    opj_image_destroy(header);
    if (j->base.width == 0 || j->base.height == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the picture is empty", NULL);
        vgn_jp2_close(&j->base);
        return NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &j->base;
}

void vgn_jp2_set_grey_map(vgn_decoder *d, const vgn_jp2_grey_map *map)
{
    ((vgn_jp2 *)d)->grey = *map;
}
