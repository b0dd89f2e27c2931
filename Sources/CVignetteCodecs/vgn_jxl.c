/* vgn_jxl.c - JPEG XL through libjxl: basic info at open, the first frame decoded whole (RGBA8,
 * oriented by libjxl) at the first read_rows, single-threaded (no parallel runner). For a target
 * at most 1/8 of the image, only the DC of the first frame is decoded and libjxl streams it,
 * upsampled, as float rows into 8x8 block sums (fixed point): no full-size buffer (libjxl 0.7 renders to a float
 * callback group by group; with a uint8 callback it held 290 MB for a 20 MP photo, 57 MB with a
 * float one). See
 * vgn_decoder.h. */
#include <stdlib.h>
#include <string.h>

#include <jxl/decode.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define JxlDecoderCloseInput VGN_LAZY(VGN_LIB_JXL, JxlDecoderCloseInput)
#define JxlDecoderCreate VGN_LAZY(VGN_LIB_JXL, JxlDecoderCreate)
#define JxlDecoderDestroy VGN_LAZY(VGN_LIB_JXL, JxlDecoderDestroy)
#define JxlDecoderFlushImage VGN_LAZY(VGN_LIB_JXL, JxlDecoderFlushImage)
#define JxlDecoderGetBasicInfo VGN_LAZY(VGN_LIB_JXL, JxlDecoderGetBasicInfo)
#define JxlDecoderGetColorAsICCProfile VGN_LAZY(VGN_LIB_JXL, JxlDecoderGetColorAsICCProfile)
#define JxlDecoderGetICCProfileSize VGN_LAZY(VGN_LIB_JXL, JxlDecoderGetICCProfileSize)
#define JxlDecoderGetIntendedDownsamplingRatio VGN_LAZY(VGN_LIB_JXL, JxlDecoderGetIntendedDownsamplingRatio)
#define JxlDecoderImageOutBufferSize VGN_LAZY(VGN_LIB_JXL, JxlDecoderImageOutBufferSize)
#define JxlDecoderProcessInput VGN_LAZY(VGN_LIB_JXL, JxlDecoderProcessInput)
#define JxlDecoderSetImageOutBuffer VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetImageOutBuffer)
#define JxlDecoderSetImageOutCallback VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetImageOutCallback)
#define JxlDecoderSetInput VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetInput)
#define JxlDecoderSetKeepOrientation VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetKeepOrientation)
#define JxlDecoderSetPreferredColorProfile VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetPreferredColorProfile)
#define JxlDecoderSetProgressiveDetail VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetProgressiveDetail)
#define JxlDecoderSetUnpremultiplyAlpha VGN_LAZY(VGN_LIB_JXL, JxlDecoderSetUnpremultiplyAlpha)
#define JxlDecoderSubscribeEvents VGN_LAZY(VGN_LIB_JXL, JxlDecoderSubscribeEvents)

typedef struct {
    vgn_decoder base;
    JxlDecoder *dec;
    uint32_t ow, oh;   /* oriented full size */
    int dc;            /* 1/8 mode: DC (8x8 averages) of the first frame */
    uint8_t *pixels;   /* ow*oh*4, what libjxl writes (full-size mode) */
    uint16_t *sums;    /* 1/8 mode: per 8x8 block, alpha-weighted R, G, B and alpha, each pixel's in 1/1023 */
    uint8_t *counts;   /* 1/8 mode: per 8x8 block, the pixels added */
    int bad_span;      /* 1/8 mode: libjxl gave a span outside the image */
    uint8_t *rows;     /* what read_rows copies from (pixels, or the 1/8 reduction) */
    uint32_t next_row;
    int decoded;
    int failed;
    char failed_msg[VGN_MSG_LEN];
    vgn_warnings warn;
    uint8_t *icc;      /* the original colour profile of a non-XYB image (lossless), for the caller */
} vgn_jxl;

static void vgn_jxl_close(vgn_decoder *d)
{
    vgn_jxl *j = (vgn_jxl *)d;
    if (j == NULL) return;
    if (j->dec != NULL) JxlDecoderDestroy(j->dec);
    if (j->rows != j->pixels) free(j->rows);
    free(j->pixels);
    free(j->sums);
    free(j->counts);
    free(j->icc);
    free(j);
}

static float vgn_jxl_unit(float v)
{
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; /* NaN -> 0 */
}

/* libjxl's float RGBA rows (1/8 mode): adds each pixel into its 8x8 block's sums. Alpha-weighted
 * colour, so transparent pixels do not bleed. The sums are fixed point, a pixel's value in 1/1023
 * (64 of them fit 16 bits): 8 bytes a block instead of 20 as floats, which for a 20-megapixel
 * photo is what keeps the decoding child under 64 MB. */
static void vgn_jxl_accumulate(void *opaque, size_t x, size_t y, size_t num_pixels, const void *pixels)
{
    vgn_jxl *j = (vgn_jxl *)opaque;
    const float *p = (const float *)pixels;
    size_t i;
    uint16_t *row;
    uint8_t *counts;
    if (j->sums == NULL || y >= j->oh || x >= j->ow || num_pixels > j->ow - x) {
        j->bad_span = 1;
        return;
    }
    row = j->sums + (size_t)(y / 8) * j->base.width * 4;
    counts = j->counts + (size_t)(y / 8) * j->base.width;
    for (i = 0; i < num_pixels; i++, p += 4) {
        size_t b = (x + i) / 8;
        uint16_t *s = row + b * 4;
        float a = vgn_jxl_unit(p[3]);
        if (counts[b] >= 64) { /* libjxl gave this pixel twice */
            j->bad_span = 1;
            return;
        }
        s[0] += (uint16_t)(vgn_jxl_unit(p[0]) * a * 1023.0f + 0.5f);
        s[1] += (uint16_t)(vgn_jxl_unit(p[1]) * a * 1023.0f + 0.5f);
        s[2] += (uint16_t)(vgn_jxl_unit(p[2]) * a * 1023.0f + 0.5f);
        s[3] += (uint16_t)(a * 1023.0f + 0.5f);
        counts[b]++;
    }
}

/* Zeroes the block sums (1/8 mode): only a flushed DC counts. */
static void vgn_jxl_clear(vgn_jxl *j, size_t nsums)
{
    memset(j->sums, 0, nsums * sizeof(uint16_t));
    memset(j->counts, 0, nsums / 4);
}

/* The block sums (1/8 mode) into RGBA8 j->rows. */
static int vgn_jxl_reduce(vgn_jxl *j)
{
    size_t n = (size_t)j->base.width * j->base.height, i;
    /* In place: block i's 4 bytes go where its 8 bytes of sums began, never past what is unread. */
    uint8_t *d = (uint8_t *)j->sums;
    for (i = 0; i < n; i++) {
        const uint16_t *s = j->sums + i * 4;
        float a = (float)s[3], count = (float)j->counts[i];
        uint8_t out[4];
        int c;
        for (c = 0; c < 3; c++) {
            float v = a > 0.0f ? (float)s[c] / a : 0.0f;
            out[c] = (uint8_t)((v < 1.0f ? v : 1.0f) * 255.0f + 0.5f);
        }
        out[3] = count > 0.0f ? (uint8_t)(a / (count * 1023.0f) * 255.0f + 0.5f) : 0;
        memcpy(d + i * 4, out, 4);
    }
    j->rows = d;
    j->sums = NULL;
    free(j->counts);
    j->counts = NULL;
    return 0;
}

/* Colour: an XYB (lossy) image is asked for in sRGB, which libjxl converts to itself; an image
 * kept in its original space (lossless) hands that space's ICC profile to the caller. Reads up to
 * the colour encoding, which comes right after the basic info, before any pixel data. */
static void vgn_jxl_color(vgn_jxl *j, const JxlBasicInfo *bi)
{
    JxlPixelFormat fmt = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlColorEncoding srgb;
    size_t size = 0;
    JxlDecoderStatus st = JxlDecoderProcessInput(j->dec);
    if (st != JXL_DEC_COLOR_ENCODING) {
        /* libjxl must not be called again after an error (0.7 crashes: found by fuzz_jxl) */
        j->failed = st == JXL_DEC_NEED_MORE_INPUT ? VGN_E_TRUNCATED : VGN_E_INVALID;
        vgn_copy_message(j->failed_msg, st == JXL_DEC_NEED_MORE_INPUT ? "libjxl: the data ends too early"
                                                                       : "libjxl: cannot decode the image");
        return;
    }
    if (!bi->uses_original_profile) {
        memset(&srgb, 0, sizeof srgb);
        srgb.color_space = bi->num_color_channels < 3 ? JXL_COLOR_SPACE_GRAY : JXL_COLOR_SPACE_RGB;
        srgb.white_point = JXL_WHITE_POINT_D65;
        srgb.primaries = JXL_PRIMARIES_SRGB;
        srgb.transfer_function = JXL_TRANSFER_FUNCTION_SRGB;
        srgb.rendering_intent = JXL_RENDERING_INTENT_PERCEPTUAL;
        (void)JxlDecoderSetPreferredColorProfile(j->dec, &srgb);
        return;
    }
    if (bi->num_color_channels < 3 ||
        JxlDecoderGetICCProfileSize(j->dec, &fmt, JXL_COLOR_PROFILE_TARGET_DATA, &size) != JXL_DEC_SUCCESS ||
        size < 132 || size > (4u << 20) || (j->icc = (uint8_t *)malloc(size)) == NULL)
        return;
    if (JxlDecoderGetColorAsICCProfile(j->dec, &fmt, JXL_COLOR_PROFILE_TARGET_DATA, j->icc, size) != JXL_DEC_SUCCESS) {
        free(j->icc);
        j->icc = NULL;
        return;
    }
    j->base.icc = j->icc;
    j->base.icc_size = size;
}

static int vgn_jxl_decode(vgn_jxl *j, vgn_error *err)
{
    JxlPixelFormat fmt = {4, JXL_TYPE_UINT8, JXL_NATIVE_ENDIAN, 0};
    JxlPixelFormat ffmt = {4, JXL_TYPE_FLOAT, JXL_NATIVE_ENDIAN, 0};
    size_t nblocks = (size_t)j->base.width * j->base.height, nsums = nblocks * 4;
    for (;;) {
        JxlDecoderStatus st = JxlDecoderProcessInput(j->dec);
        switch (st) {
        case JXL_DEC_ERROR:
            vgn_err_fill(err, VGN_E_INVALID, "libjxl: cannot decode the image", &j->warn);
            return VGN_E_INVALID;
        case JXL_DEC_NEED_MORE_INPUT:
            vgn_err_fill(err, VGN_E_TRUNCATED, "libjxl: the data ends too early", &j->warn);
            return VGN_E_TRUNCATED;
        case JXL_DEC_SUCCESS:
            /* the codestream ended without a frame */
            vgn_err_fill(err, VGN_E_INVALID, "libjxl: the file has no frame", &j->warn);
            return VGN_E_INVALID;
        case JXL_DEC_NEED_IMAGE_OUT_BUFFER: {
            size_t need = 0, have = (size_t)j->ow * j->oh * 4;
            if (JxlDecoderImageOutBufferSize(j->dec, &fmt, &need) != JXL_DEC_SUCCESS || need != have) {
                vgn_err_fill(err, VGN_E_INVALID, "libjxl: unexpected output buffer size", &j->warn);
                return VGN_E_INVALID;
            }
            if (j->dc) {
                if (j->sums == NULL) j->sums = (uint16_t *)malloc(nsums * sizeof(uint16_t));
                if (j->counts == NULL) j->counts = (uint8_t *)malloc(nblocks);
                if (j->sums == NULL || j->counts == NULL) {
                    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &j->warn);
                    return VGN_E_NOMEM;
                }
                memset(j->sums, 0, nsums * sizeof(uint16_t));
                memset(j->counts, 0, nblocks);
                if (JxlDecoderSetImageOutCallback(j->dec, &ffmt, vgn_jxl_accumulate, j) != JXL_DEC_SUCCESS) {
                    vgn_err_fill(err, VGN_E_INVALID, "libjxl: cannot set the output callback", &j->warn);
                    return VGN_E_INVALID;
                }
                break;
            }
            if (j->pixels == NULL) {
                j->pixels = (uint8_t *)malloc(have);
                if (j->pixels == NULL) {
                    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &j->warn);
                    return VGN_E_NOMEM;
                }
            }
            if (JxlDecoderSetImageOutBuffer(j->dec, &fmt, j->pixels, have) != JXL_DEC_SUCCESS) {
                vgn_err_fill(err, VGN_E_INVALID, "libjxl: cannot set the output buffer", &j->warn);
                return VGN_E_INVALID;
            }
            break;
        }
        case JXL_DEC_FRAME_PROGRESSION:
            if (j->dc && j->sums != NULL && JxlDecoderGetIntendedDownsamplingRatio(j->dec) >= 8) {
                /* sums start over: only the flushed DC counts */
                vgn_jxl_clear(j, nsums);
                if (JxlDecoderFlushImage(j->dec) != JXL_DEC_SUCCESS) {
                    vgn_jxl_clear(j, nsums);
                    break;
                }
                if (j->bad_span) {
                    vgn_err_fill(err, VGN_E_INVALID, "libjxl: pixels outside the image", &j->warn);
                    return VGN_E_INVALID;
                }
                if (vgn_jxl_reduce(j) != 0) {
                    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &j->warn);
                    return VGN_E_NOMEM;
                }
                return VGN_OK;
            }
            break;
        case JXL_DEC_FULL_IMAGE:
            if (j->dc ? j->sums == NULL || j->bad_span : j->pixels == NULL) {
                vgn_err_fill(err, VGN_E_INVALID, "libjxl: the frame gave no pixels", &j->warn);
                return VGN_E_INVALID;
            }
            if (j->dc) {
                /* no DC step came (modular/lossless frames have none): the full frame was summed */
                if (vgn_jxl_reduce(j) != 0) {
                    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &j->warn);
                    return VGN_E_NOMEM;
                }
            } else {
                j->rows = j->pixels;
            }
            return VGN_OK;
        default:
            /* events not subscribed to; keep going */
            break;
        }
    }
}

static int vgn_jxl_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_jxl *j = (vgn_jxl *)d;
    int n = 0;
    if (j->failed != VGN_OK) {
        vgn_err_fill(err, j->failed, j->failed_msg, &j->warn);
        return j->failed;
    }
    if (!j->decoded && j->next_row < j->base.height) {
        int rc = vgn_jxl_decode(j, err);
        if (rc != VGN_OK) {
            j->failed = rc;
            if (err != NULL) memcpy(j->failed_msg, err->message, VGN_MSG_LEN);
            else vgn_copy_message(j->failed_msg, "libjxl: cannot decode the image");
            return rc;
        }
        j->decoded = 1;
        /* the decoder is done with: free its frame state now */
        JxlDecoderDestroy(j->dec);
        j->dec = NULL;
        if (j->rows != j->pixels) {
            free(j->pixels);
            j->pixels = NULL;
        }
    }
    while (n < max_rows && j->next_row < j->base.height) {
        memcpy(dst + (size_t)n * stride, j->rows + (size_t)j->next_row * j->base.width * 4, (size_t)j->base.width * 4);
        n++;
        j->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &j->warn);
    return n;
}

vgn_decoder *vgn_jxl_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_jxl *j;
    JxlBasicInfo bi;
    JxlDecoderStatus st;

    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (vgn_library_load(VGN_LIB_JXL, err) != VGN_OK) return NULL;
    j = (vgn_jxl *)calloc(1, sizeof *j);
    if (j == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    j->base.read_rows = vgn_jxl_read_rows;
    j->base.close = vgn_jxl_close;
    j->dec = JxlDecoderCreate(NULL);
    if (j->dec == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        vgn_jxl_close(&j->base);
        return NULL;
    }
    /* no JxlDecoderSetParallelRunner: everything runs on the calling thread */
    if (JxlDecoderSubscribeEvents(j->dec, JXL_DEC_BASIC_INFO | JXL_DEC_COLOR_ENCODING | JXL_DEC_FULL_IMAGE |
                                              JXL_DEC_FRAME_PROGRESSION) !=
            JXL_DEC_SUCCESS ||
        JxlDecoderSetKeepOrientation(j->dec, JXL_FALSE) != JXL_DEC_SUCCESS ||
        JxlDecoderSetUnpremultiplyAlpha(j->dec, JXL_TRUE) != JXL_DEC_SUCCESS ||
        JxlDecoderSetProgressiveDetail(j->dec, kDC) != JXL_DEC_SUCCESS ||
        JxlDecoderSetInput(j->dec, data, size) != JXL_DEC_SUCCESS) {
        vgn_err_fill(err, VGN_E_STATE, "libjxl: cannot set up the decoder", NULL);
        vgn_jxl_close(&j->base);
        return NULL;
    }
    JxlDecoderCloseInput(j->dec);
    st = JxlDecoderProcessInput(j->dec);
    if (st != JXL_DEC_BASIC_INFO) {
        int code = st == JXL_DEC_NEED_MORE_INPUT ? VGN_E_TRUNCATED : VGN_E_INVALID;
        vgn_err_fill(err, code,
                     code == VGN_E_TRUNCATED ? "libjxl: the data ends before the header"
                                             : "libjxl: not a valid JPEG XL header",
                     NULL);
        vgn_jxl_close(&j->base);
        return NULL;
    }
    if (JxlDecoderGetBasicInfo(j->dec, &bi) != JXL_DEC_SUCCESS || bi.xsize == 0 || bi.ysize == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "libjxl: the header gives no size", NULL);
        vgn_jxl_close(&j->base);
        return NULL;
    }
    /* the oriented size: same area as stored, which is what the caller's cap needs */
    info->width = bi.xsize;
    info->height = bi.ysize;
    info->has_alpha = bi.alpha_bits > 0;
    info->components = (int)bi.num_color_channels + (bi.alpha_bits > 0 ? 1 : 0);
    info->bit_depth = (int)bi.bits_per_sample;
    info->orientation = 1;
    /* libjxl 0.7 (keep_orientation off) already reports the oriented size with orientation 1,
     * whatever its header comment says; swap only if a version reports the stored size */
    if (bi.orientation >= JXL_ORIENT_TRANSPOSE) {
        j->ow = bi.ysize;
        j->oh = bi.xsize;
    } else {
        j->ow = bi.xsize;
        j->oh = bi.ysize;
    }
    vgn_jxl_color(j, &bi);
    j->dc = target > 0 && target <= j->ow / 8 && target <= j->oh / 8;
    j->base.width = j->dc ? (j->ow + 7) / 8 : j->ow;
    j->base.height = j->dc ? (j->oh + 7) / 8 : j->oh;
    {
        /* our RGBA (or the 1/8 sums and counts, reduced in place), libjxl's float frame (colour + extra channels), a
         * margin */
        uint64_t area = (uint64_t)bi.xsize * bi.ysize;
        uint64_t working = (j->dc ? (uint64_t)j->base.width * j->base.height * 9 : area * 4) +
                           area * 4 * (bi.num_color_channels + bi.num_extra_channels) + ((uint64_t)8 << 20);
        j->base.working = working > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)working;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &j->base;
}
