/* vgn_jpeg.c - JPEG decoding and encoding over libjpeg-turbo (8-bit libjpeg API). */
#include <limits.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h> /* jpeglib.h needs FILE and size_t */
#include <stdlib.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "vgn_icc.h"
#include "vgn_internal.h"

/* ---- error manager ---------------------------------------------------------------- */

typedef struct {
    struct jpeg_error_mgr pub; /* must be first: cinfo->err points here */
    jmp_buf jb;
    vgn_warnings *warnings;    /* where warnings go (the handle's or the encoder call's) */
    int saw_eof;               /* a JWRN_JPEG_EOF ("Premature end of JPEG file") was emitted */
    int fatal_code;            /* != 0: our own fatal condition (limit hit), fatal_msg holds the text */
    char fatal_msg[VGN_MSG_LEN];
} vgn_jerr;

VGN_NORETURN static void vgn_jerr_exit(j_common_ptr cinfo)
{
    vgn_jerr *e = (vgn_jerr *)cinfo->err;
    longjmp(e->jb, 1);
}

VGN_NORETURN static void vgn_jerr_fatal(j_common_ptr cinfo, int code, const char *msg)
{
    vgn_jerr *e = (vgn_jerr *)cinfo->err;
    e->fatal_code = code;
    vgn_copy_message(e->fatal_msg, msg);
    longjmp(e->jb, 1);
}

static void vgn_jerr_emit(j_common_ptr cinfo, int msg_level)
{
    vgn_jerr *e = (vgn_jerr *)cinfo->err;
    char buf[JMSG_LENGTH_MAX];
    if (msg_level >= 0)
        return; /* trace messages: ignored */
    e->pub.num_warnings++;
    if (e->pub.msg_code == JWRN_JPEG_EOF)
        e->saw_eof = 1;
    if (e->warnings->count >= VGN_JPEG_MAX_WARNINGS)
        vgn_jerr_fatal(cinfo, VGN_E_INVALID, "too many errors in JPEG data");
    buf[0] = '\0';
    if (e->warnings->count == 0)
        (*e->pub.format_message)(cinfo, buf);
    vgn_warn_add(e->warnings, buf);
}

static void vgn_jerr_output(j_common_ptr cinfo)
{
    (void)cinfo; /* never print */
}

static void vgn_jerr_init(vgn_jerr *e, vgn_warnings *w)
{
    memset(e, 0, sizeof(*e));
    jpeg_std_error(&e->pub);
    e->pub.error_exit = vgn_jerr_exit;
    e->pub.emit_message = vgn_jerr_emit;
    e->pub.output_message = vgn_jerr_output;
    e->warnings = w;
}

/* Maps the last libjpeg error (or our own fatal condition) to a status and a sentence. */
static int vgn_jerr_classify(j_common_ptr cinfo, char *msg)
{
    vgn_jerr *e = (vgn_jerr *)cinfo->err;
    char buf[JMSG_LENGTH_MAX];
    int code = e->pub.msg_code;

    if (e->fatal_code != 0) {
        vgn_copy_message(msg, e->fatal_msg);
        return e->fatal_code;
    }
    buf[0] = '\0';
    (*e->pub.format_message)(cinfo, buf);
    vgn_copy_message(msg, buf);

    switch (code) {
    case JERR_BAD_PRECISION:
        if (e->pub.msg_parm.i[0] == 12) {
            vgn_copy_message(msg, "12-bit JPEG is not supported");
            return VGN_E_UNSUPPORTED;
        }
        if (e->pub.msg_parm.i[0] == 16) {
            vgn_copy_message(msg, "16-bit JPEG is not supported");
            return VGN_E_UNSUPPORTED;
        }
        return VGN_E_INVALID;
    case JERR_SOF_UNSUPPORTED:
        switch (e->pub.msg_parm.i[0]) {
        case 0xC3: case 0xC7: case 0xCB: case 0xCF:
            vgn_copy_message(msg, "lossless JPEG is not supported");
            break;
        case 0xC5: case 0xC6: case 0xCD: case 0xCE:
            vgn_copy_message(msg, "hierarchical JPEG is not supported");
            break;
        default:
            break;
        }
        return VGN_E_UNSUPPORTED;
    case JERR_ARITH_NOTIMPL:
    case JERR_NOT_COMPILED:
    case JERR_NOTIMPL:
    case JERR_CCIR601_NOTIMPL:
    case JERR_FRACT_SAMPLE_NOTIMPL:
    case JERR_CONVERSION_NOTIMPL:
        return VGN_E_UNSUPPORTED;
    case JERR_OUT_OF_MEMORY:
        return VGN_E_NOMEM;
    case JERR_NO_BACKING_STORE:
    case JERR_TFILE_CREATE:
    case JERR_TFILE_READ:
    case JERR_TFILE_SEEK:
    case JERR_TFILE_WRITE:
        snprintf(msg, VGN_MSG_LEN, "JPEG image needs more than %u MiB of decoder memory",
                 (unsigned)(VGN_JPEG_MAX_MEMORY >> 20));
        return VGN_E_LIMIT;
    case JERR_IMAGE_TOO_BIG:
    case JERR_WIDTH_OVERFLOW:
        return VGN_E_LIMIT;
    case JERR_INPUT_EMPTY:
    case JERR_INPUT_EOF:
        return VGN_E_TRUNCATED;
    case JERR_BAD_STATE:
    case JERR_BAD_LIB_VERSION:
    case JERR_BAD_STRUCT_SIZE:
    case JERR_BAD_BUFFER_MODE:
    case JERR_BAD_POOL_ID:
        return VGN_E_STATE;
    default:
        if (e->saw_eof) {
            /* the fake EOI inserted at end of data made the header/scan parser fail */
            char tmp[VGN_MSG_LEN];
            snprintf(tmp, sizeof tmp, "Premature end of JPEG file (%s)", buf);
            vgn_copy_message(msg, tmp);
            return VGN_E_TRUNCATED;
        }
        return VGN_E_INVALID;
    }
}

/* ---- decoder ---------------------------------------------------------------------- */

enum {
    VGN_JST_OPENED = 0,
    VGN_JST_STARTED,
    VGN_JST_DONE,   /* all rows delivered */
    VGN_JST_FAILED  /* sticky error in fail_code/fail_msg */
};

enum { VGN_JPH_OTHER = 0, VGN_JPH_FINISH };

struct vgn_jpeg {
    struct jpeg_decompress_struct cinfo;
    vgn_jerr jerr;
    struct jpeg_progress_mgr progress;
    vgn_warnings warn;
    int created;
    int state;
    int phase;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
    int dc_only;          /* buffered-image DC-only output pass in use */
    int cmyk;             /* output JCS_CMYK, converted to RGB here */
    int adobe_inverted;   /* CMYK samples are inverted (Adobe APP14 present) */
    int out_channels;
    uint32_t out_w, out_h;
    JSAMPARRAY cmyk_row;  /* 1 row of out_w*4 samples (JPOOL_IMAGE) */
    const vgn_icc *cmyk_transform; /* the embedded CMYK profile's transform to sRGB, if any */
    int call_rows;        /* rows written by the current read_rows call */
};

static void vgn_jpeg_progress(j_common_ptr cinfo)
{
    if (cinfo->is_decompressor) {
        j_decompress_ptr d = (j_decompress_ptr)cinfo;
        if (d->input_scan_number > VGN_JPEG_MAX_SCANS) {
            char m[VGN_MSG_LEN];
            snprintf(m, sizeof m, "too many scans in JPEG data (more than %d)", VGN_JPEG_MAX_SCANS);
            vgn_jerr_fatal(cinfo, VGN_E_LIMIT, m);
        }
    }
}

/* Fills `info` from the parsed header. */
static void vgn_jpeg_fill_info(vgn_jpeg *j, vgn_image_info *info)
{
    j_decompress_ptr c = &j->cinfo;
    jpeg_saved_marker_ptr m;
    memset(info, 0, sizeof(*info));
    info->width = c->image_width;
    info->height = c->image_height;
    info->components = c->num_components;
    info->bit_depth = c->data_precision;
    info->color_type = (int)c->jpeg_color_space;
    info->progressive = c->progressive_mode ? 1 : 0;
    info->arithmetic = c->arith_code ? 1 : 0;
    info->interlaced = 0;
    info->has_alpha = 0;
    info->orientation = 1;
    for (m = c->marker_list; m != NULL; m = m->next) {
        if (m->marker != JPEG_APP0 + 1 || m->data_length < 6 + 8)
            continue;
        if (memcmp(m->data, "Exif\0", 5) != 0)
            continue;
        /* first EXIF segment wins (MPO / duplicated EXIF: the primary image's) */
        info->orientation = vgn_exif_orientation_tiff(m->data + 6, m->data_length - 6);
        break;
    }
}

static void vgn_jpeg_open_impl(vgn_jpeg *j, const uint8_t *data, size_t size)
{
    j_decompress_ptr c = &j->cinfo;
    jpeg_create_decompress(c);
    j->created = 1;
    /* caps the whole-image coefficient buffers (progressive / multi-scan files);
       exceeding it raises JERR_NO_BACKING_STORE -> VGN_E_LIMIT */
    c->mem->max_memory_to_use = VGN_JPEG_MAX_MEMORY > (unsigned long long)LONG_MAX ? LONG_MAX : (long)VGN_JPEG_MAX_MEMORY;
    j->progress.progress_monitor = vgn_jpeg_progress;
    c->progress = &j->progress;
    jpeg_save_markers(c, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(c, JPEG_APP0 + 2, 0xFFFF); /* ICC_PROFILE segments */
    jpeg_mem_src(c, data, (unsigned long)size);
    (void)jpeg_read_header(c, TRUE);
}

vgn_jpeg *vgn_jpeg_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_jpeg *j;
    if (info != NULL)
        memset(info, 0, sizeof(*info));
    if (data == NULL && size != 0) {
        vgn_err_fill(err, VGN_E_STATE, "data is NULL", NULL);
        return NULL;
    }
    if ((unsigned long)size != size) {
        vgn_err_fill(err, VGN_E_LIMIT, "JPEG data is too large", NULL);
        return NULL;
    }
    j = (vgn_jpeg *)calloc(1, sizeof(*j));
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    vgn_jerr_init(&j->jerr, &j->warn);
    j->cinfo.err = &j->jerr.pub;
    if (setjmp(j->jerr.jb)) {
        char msg[VGN_MSG_LEN];
        int code = vgn_jerr_classify((j_common_ptr)&j->cinfo, msg);
        vgn_err_fill(err, code, msg, &j->warn);
        vgn_jpeg_close(j);
        return NULL;
    }
    vgn_jpeg_open_impl(j, data, size);
    j->state = VGN_JST_OPENED;
    if (info != NULL)
        vgn_jpeg_fill_info(j, info);
    vgn_err_fill(err, VGN_OK, NULL, &j->warn);
    return j;
}

/* All components' DC coefficients fully refined (progressive mode only). */
static int vgn_jpeg_dc_complete(j_decompress_ptr c)
{
    int ci;
    if (c->coef_bits == NULL)
        return 0;
    for (ci = 0; ci < c->num_components; ci++)
        if (c->coef_bits[ci][0] != 0)
            return 0;
    return 1;
}

static void vgn_jpeg_start_impl(vgn_jpeg *j, int scale_denom, int dc_only)
{
    j_decompress_ptr c = &j->cinfo;

    switch (c->jpeg_color_space) {
    case JCS_GRAYSCALE:
        c->out_color_space = JCS_GRAYSCALE;
        j->out_channels = 1;
        break;
    case JCS_YCbCr:
    case JCS_RGB:
        c->out_color_space = JCS_RGB;
        j->out_channels = 3;
        break;
    case JCS_CMYK:
    case JCS_YCCK:
        c->out_color_space = JCS_CMYK; /* libjpeg converts YCCK -> CMYK */
        j->out_channels = 3;
        j->cmyk = 1;
        /* Practically every CMYK JPEG comes from Photoshop and stores inverted samples; djpeg,
           ImageMagick and Pillow treat a CMYK JPEG without an Adobe marker the same way. */
        j->adobe_inverted = 1;
        break;
    default: {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "JPEG with %d components in an unknown colour space is not supported",
                 c->num_components);
        vgn_jerr_fatal((j_common_ptr)c, VGN_E_UNSUPPORTED, m);
    }
    }
    c->scale_num = 1;
    c->scale_denom = (unsigned int)scale_denom;
    c->dct_method = JDCT_ISLOW;
    c->do_fancy_upsampling = TRUE;
    c->quantize_colors = FALSE;

    j->dc_only = (dc_only && scale_denom == 8 && c->progressive_mode) ? 1 : 0;
    if (j->dc_only) {
        c->buffered_image = TRUE;
        c->do_block_smoothing = FALSE; /* 1x1 IDCT uses only DC: smoothing would be wasted work */
    }
    (void)jpeg_start_decompress(c);

    if (j->dc_only) {
        for (;;) {
            int r = jpeg_consume_input(c);
            if (r == JPEG_SUSPENDED || r == JPEG_REACHED_EOI)
                break;
            if (c->input_scan_number > VGN_JPEG_MAX_SCANS)
                vgn_jpeg_progress((j_common_ptr)c);
            if (r == JPEG_SCAN_COMPLETED && vgn_jpeg_dc_complete(c))
                break;
        }
        (void)jpeg_start_output(c, c->input_scan_number);
    }

    j->out_w = c->output_width;
    j->out_h = c->output_height;
    if (c->output_components != (j->cmyk ? 4 : j->out_channels))
        vgn_jerr_fatal((j_common_ptr)c, VGN_E_UNSUPPORTED, "unexpected JPEG output component count");
    if (j->cmyk)
        j->cmyk_row = (*c->mem->alloc_sarray)((j_common_ptr)c, JPOOL_IMAGE, c->output_width * 4, 1);
}

int vgn_jpeg_start(vgn_jpeg *j, int scale_denom, int dc_only,
                   uint32_t *out_w, uint32_t *out_h, int *out_channels, vgn_error *err)
{
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "JPEG handle is NULL", NULL);
        return VGN_E_STATE;
    }
    if (j->state == VGN_JST_FAILED) {
        vgn_err_fill(err, j->fail_code, j->fail_msg, &j->warn);
        return j->fail_code;
    }
    if (j->state != VGN_JST_OPENED) {
        vgn_err_fill(err, VGN_E_STATE, "vgn_jpeg_start called twice", &j->warn);
        return VGN_E_STATE;
    }
    if (scale_denom != 1 && scale_denom != 2 && scale_denom != 4 && scale_denom != 8) {
        vgn_err_fill(err, VGN_E_STATE, "scale_denom must be 1, 2, 4 or 8", &j->warn);
        return VGN_E_STATE;
    }
    if (setjmp(j->jerr.jb)) {
        j->fail_code = vgn_jerr_classify((j_common_ptr)&j->cinfo, j->fail_msg);
        j->state = VGN_JST_FAILED;
        vgn_err_fill(err, j->fail_code, j->fail_msg, &j->warn);
        return j->fail_code;
    }
    vgn_jpeg_start_impl(j, scale_denom, dc_only);
    j->state = VGN_JST_STARTED;
    if (out_w != NULL)
        *out_w = j->out_w;
    if (out_h != NULL)
        *out_h = j->out_h;
    if (out_channels != NULL)
        *out_channels = j->out_channels;
    vgn_err_fill(err, VGN_OK, NULL, &j->warn);
    return VGN_OK;
}

/* a*b/255 rounded, for a, b in 0..255 */
static inline uint8_t vgn_mul255(unsigned a, unsigned b)
{
    unsigned t = a * b + 128;
    return (uint8_t)((t + (t >> 8)) >> 8);
}

static void vgn_cmyk_to_rgb(const JSAMPLE *in, uint8_t *out, uint32_t w, int inverted)
{
    uint32_t x;
    if (inverted) {
        /* Adobe/Photoshop: stored values are 255-C etc., so R = (255-C)(255-K)/255 = C'K'/255 */
        for (x = 0; x < w; x++, in += 4, out += 3) {
            unsigned k = in[3];
            out[0] = vgn_mul255(in[0], k);
            out[1] = vgn_mul255(in[1], k);
            out[2] = vgn_mul255(in[2], k);
        }
    } else {
        for (x = 0; x < w; x++, in += 4, out += 3) {
            unsigned k = 255u - in[3];
            out[0] = vgn_mul255(255u - in[0], k);
            out[1] = vgn_mul255(255u - in[1], k);
            out[2] = vgn_mul255(255u - in[2], k);
        }
    }
}

static void vgn_jpeg_read_impl(vgn_jpeg *j, uint8_t *dst, size_t stride, int max_rows)
{
    j_decompress_ptr c = &j->cinfo;
    while (j->call_rows < max_rows && c->output_scanline < c->output_height) {
        JDIMENSION n;
        if (j->cmyk) {
            n = jpeg_read_scanlines(c, j->cmyk_row, 1);
            if (n == 1 && j->cmyk_transform != NULL)
                vgn_icc_apply(j->cmyk_transform, j->cmyk_row[0], dst + (size_t)j->call_rows * stride, j->out_w);
            else if (n == 1)
                vgn_cmyk_to_rgb(j->cmyk_row[0], dst + (size_t)j->call_rows * stride, j->out_w,
                                j->adobe_inverted);
        } else {
            JSAMPROW rows[16];
            int want = max_rows - j->call_rows, i;
            if (want > 16)
                want = 16;
            for (i = 0; i < want; i++)
                rows[i] = dst + (size_t)(j->call_rows + i) * stride;
            n = jpeg_read_scanlines(c, rows, (JDIMENSION)want);
        }
        if (n == 0)
            vgn_jerr_fatal((j_common_ptr)c, VGN_E_INVALID, "JPEG decoder made no progress");
        j->call_rows += (int)n;
    }
    if (c->output_scanline >= c->output_height) {
        if (!j->dc_only) {
            /* read to EOI like djpeg does, so trailing-data warnings are reported;
               a fatal error here only becomes a warning: every row is already out */
            j->phase = VGN_JPH_FINISH;
            (void)jpeg_finish_decompress(c);
            j->phase = VGN_JPH_OTHER;
        }
        j->state = VGN_JST_DONE;
    }
}

int vgn_jpeg_read_rows(vgn_jpeg *j, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "JPEG handle is NULL", NULL);
        return VGN_E_STATE;
    }
    if (j->state == VGN_JST_FAILED) {
        vgn_err_fill(err, j->fail_code, j->fail_msg, &j->warn);
        return j->fail_code;
    }
    if (j->state == VGN_JST_DONE) {
        vgn_err_fill(err, VGN_OK, NULL, &j->warn);
        return 0;
    }
    if (j->state != VGN_JST_STARTED) {
        vgn_err_fill(err, VGN_E_STATE, "vgn_jpeg_read_rows called before vgn_jpeg_start", &j->warn);
        return VGN_E_STATE;
    }
    if (dst == NULL || max_rows <= 0 || stride < (size_t)j->out_w * (size_t)j->out_channels) {
        vgn_err_fill(err, VGN_E_STATE, "bad destination (NULL, max_rows <= 0 or stride too small)", &j->warn);
        return VGN_E_STATE;
    }
    j->call_rows = 0;
    j->phase = VGN_JPH_OTHER;
    if (setjmp(j->jerr.jb)) {
        char msg[VGN_MSG_LEN];
        int code = vgn_jerr_classify((j_common_ptr)&j->cinfo, msg);
        if (j->phase == VGN_JPH_FINISH) {
            vgn_warn_add(&j->warn, msg);
            j->phase = VGN_JPH_OTHER;
            j->state = VGN_JST_DONE;
            vgn_err_fill(err, VGN_OK, NULL, &j->warn);
            return j->call_rows;
        }
        j->state = VGN_JST_FAILED;
        j->fail_code = code;
        memcpy(j->fail_msg, msg, sizeof msg);
        if (j->call_rows > 0) {
            /* hand out what we have; the error is reported by the next call */
            vgn_err_fill(err, VGN_OK, NULL, &j->warn);
            return j->call_rows;
        }
        vgn_err_fill(err, code, msg, &j->warn);
        return code;
    }
    vgn_jpeg_read_impl(j, dst, stride, max_rows);
    vgn_err_fill(err, VGN_OK, NULL, &j->warn);
    return j->call_rows;
}

void vgn_jpeg_close(vgn_jpeg *j)
{
    if (j == NULL)
        return;
    if (j->created) {
        /* error_exit can't fire here, but keep a landing pad anyway */
        if (setjmp(j->jerr.jb) == 0) {
            jpeg_abort_decompress(&j->cinfo);
            jpeg_destroy_decompress(&j->cinfo);
        }
    }
    free(j);
}

/* ---- encoder ---------------------------------------------------------------------- */

typedef struct {
    struct jpeg_destination_mgr pub;
    vgn_buf buf;
} vgn_jdest;

static void vgn_jdest_init(j_compress_ptr c)
{
    vgn_jdest *d = (vgn_jdest *)c->dest;
    if (vgn_buf_reserve(&d->buf, 16384) != 0)
        ERREXIT1(c, JERR_OUT_OF_MEMORY, 100);
    d->pub.next_output_byte = d->buf.data + d->buf.size;
    d->pub.free_in_buffer = d->buf.cap - d->buf.size;
}

static boolean vgn_jdest_empty(j_compress_ptr c)
{
    vgn_jdest *d = (vgn_jdest *)c->dest;
    d->buf.size = d->buf.cap; /* libjpeg filled the whole buffer */
    if (vgn_buf_reserve(&d->buf, d->buf.cap) != 0)
        ERREXIT1(c, JERR_OUT_OF_MEMORY, 101);
    d->pub.next_output_byte = d->buf.data + d->buf.size;
    d->pub.free_in_buffer = d->buf.cap - d->buf.size;
    return TRUE;
}

static void vgn_jdest_term(j_compress_ptr c)
{
    vgn_jdest *d = (vgn_jdest *)c->dest;
    d->buf.size = d->buf.cap - d->pub.free_in_buffer;
}

typedef struct {
    struct jpeg_compress_struct cinfo;
    vgn_jerr jerr;
    vgn_jdest dest;
    vgn_warnings warn;
    int created;
} vgn_jenc;

static void vgn_jpeg_encode_impl(vgn_jenc *e, const uint8_t *pixels, uint32_t width, uint32_t height,
                                 size_t stride, int channels, int quality)
{
    j_compress_ptr c = &e->cinfo;
    uint32_t y;
    jpeg_create_compress(c);
    e->created = 1;
    e->dest.pub.init_destination = vgn_jdest_init;
    e->dest.pub.empty_output_buffer = vgn_jdest_empty;
    e->dest.pub.term_destination = vgn_jdest_term;
    c->dest = &e->dest.pub;
    c->image_width = width;
    c->image_height = height;
    c->input_components = channels;
    c->in_color_space = channels == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(c); /* YCbCr with 2x2 luma sampling = 4:2:0 for colour */
    jpeg_set_quality(c, quality, TRUE);
    c->optimize_coding = TRUE;
    c->dct_method = JDCT_ISLOW;
    jpeg_start_compress(c, TRUE);
    for (y = 0; y < height; y++) {
        JSAMPROW row = (JSAMPROW)(uintptr_t)(pixels + (size_t)y * stride); /* read only */
        (void)jpeg_write_scanlines(c, &row, 1);
    }
    jpeg_finish_compress(c);
}

int vgn_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                    int quality, uint8_t **out, size_t *out_size, vgn_error *err)
{
    vgn_jenc *e;
    if (out != NULL)
        *out = NULL;
    if (out_size != NULL)
        *out_size = 0;
    if (pixels == NULL || out == NULL || out_size == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "NULL argument", NULL);
        return VGN_E_STATE;
    }
    if (channels != 1 && channels != 3) {
        vgn_err_fill(err, VGN_E_STATE, "JPEG encoder needs 1 or 3 channels", NULL);
        return VGN_E_STATE;
    }
    if (quality < 1 || quality > 100) {
        vgn_err_fill(err, VGN_E_STATE, "JPEG quality must be 1..100", NULL);
        return VGN_E_STATE;
    }
    if (width == 0 || height == 0) {
        vgn_err_fill(err, VGN_E_STATE, "image width and height must be > 0", NULL);
        return VGN_E_STATE;
    }
    if (width > JPEG_MAX_DIMENSION || height > JPEG_MAX_DIMENSION) {
        vgn_err_fill(err, VGN_E_LIMIT, "JPEG width and height are limited to 65500 pixels", NULL);
        return VGN_E_LIMIT;
    }
    if (stride < (size_t)width * (size_t)channels) {
        vgn_err_fill(err, VGN_E_STATE, "stride is smaller than width * channels", NULL);
        return VGN_E_STATE;
    }
    e = (vgn_jenc *)calloc(1, sizeof(*e));
    if (e == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    vgn_jerr_init(&e->jerr, &e->warn);
    e->cinfo.err = &e->jerr.pub;
    if (setjmp(e->jerr.jb)) {
        char msg[VGN_MSG_LEN];
        int code = vgn_jerr_classify((j_common_ptr)&e->cinfo, msg);
        vgn_err_fill(err, code, msg, &e->warn);
        if (e->created)
            jpeg_destroy_compress(&e->cinfo);
        free(e->dest.buf.data);
        free(e);
        return code;
    }
    vgn_jpeg_encode_impl(e, pixels, width, height, stride, channels, quality);
    jpeg_destroy_compress(&e->cinfo);
    *out = e->dest.buf.data;
    *out_size = e->dest.buf.size;
    vgn_err_fill(err, VGN_OK, NULL, &e->warn);
    free(e);
    return VGN_OK;
}

int vgn_jpeg_icc(vgn_jpeg *j, uint8_t **profile, size_t *size)
{
    JOCTET *data = NULL;
    unsigned int length = 0;
    if (profile != NULL) *profile = NULL;
    if (size != NULL) *size = 0;
    if (j == NULL || profile == NULL || size == NULL || !j->created) return 0;
    /* Walks the saved APP2 markers only; a malformed sequence gives a libjpeg warning, not an error. */
    if (setjmp(j->jerr.jb)) return 0;
    if (!jpeg_read_icc_profile(&j->cinfo, &data, &length) || data == NULL) return 0;
    *profile = data;
    *size = length;
    return 1;
}

void vgn_jpeg_set_cmyk_transform(vgn_jpeg *j, const vgn_icc *t)
{
    if (j != NULL) j->cmyk_transform = t;
}

int vgn_jpeg_cmyk_inverted(const vgn_jpeg *j)
{
    if (j == NULL) return -1;
    if (j->cinfo.jpeg_color_space != JCS_CMYK && j->cinfo.jpeg_color_space != JCS_YCCK) return -1;
    return 1; /* see vgn_jpeg_start: every CMYK JPEG is read as Adobe's inverted CMYK */
}
