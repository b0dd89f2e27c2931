/* vgn_webp.c - WebP through libwebp: header first, then one scaled decode. See vgn_codecs.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/demux.h>

#include "vgn_codecs.h"
#include "vgn_icc.h"
#include "vgn_internal.h"
#include "vgn_lazy.h"

#define WebPDecode VGN_LAZY(VGN_LIB_WEBP, WebPDecode)
#define WebPFreeDecBuffer VGN_LAZY(VGN_LIB_WEBP, WebPFreeDecBuffer)
#define WebPEncode VGN_LAZY(VGN_LIB_WEBP, WebPEncode)
#define WebPPictureFree VGN_LAZY(VGN_LIB_WEBP, WebPPictureFree)
#define WebPPictureImportRGB VGN_LAZY(VGN_LIB_WEBP, WebPPictureImportRGB)
#define WebPPictureImportRGBA VGN_LAZY(VGN_LIB_WEBP, WebPPictureImportRGBA)
#define WebPGetFeaturesInternal VGN_LAZY(VGN_LIB_WEBP, WebPGetFeaturesInternal)
#define WebPInitDecoderConfigInternal VGN_LAZY(VGN_LIB_WEBP, WebPInitDecoderConfigInternal)
#define WebPConfigInitInternal VGN_LAZY(VGN_LIB_WEBP, WebPConfigInitInternal)
#define WebPPictureInitInternal VGN_LAZY(VGN_LIB_WEBP, WebPPictureInitInternal)
#define WebPAnimDecoderDelete VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPAnimDecoderDelete)
#define WebPAnimDecoderGetInfo VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPAnimDecoderGetInfo)
#define WebPAnimDecoderGetNext VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPAnimDecoderGetNext)
#define WebPDemuxDelete VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPDemuxDelete)
#define WebPDemuxGetChunk VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPDemuxGetChunk)
#define WebPDemuxGetI VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPDemuxGetI)
#define WebPDemuxReleaseChunkIterator VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPDemuxReleaseChunkIterator)
#define WebPAnimDecoderOptionsInitInternal VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPAnimDecoderOptionsInitInternal)
#define WebPAnimDecoderNewInternal VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPAnimDecoderNewInternal)
#define WebPDemuxInternal VGN_LAZY(VGN_LIB_WEBPDEMUX, WebPDemuxInternal)
/* The headers' inline wrappers call the functions above directly: these call them lazily. */
#define WebPGetFeatures(data, size, features) WebPGetFeaturesInternal((data), (size), (features), WEBP_DECODER_ABI_VERSION)
#define WebPInitDecoderConfig(config) WebPInitDecoderConfigInternal((config), WEBP_DECODER_ABI_VERSION)
#define WebPConfigPreset(config, preset, quality) \
    WebPConfigInitInternal((config), (preset), (quality), WEBP_ENCODER_ABI_VERSION)
#define WebPPictureInit(picture) WebPPictureInitInternal((picture), WEBP_ENCODER_ABI_VERSION)
#define WebPAnimDecoderOptionsInit(options) WebPAnimDecoderOptionsInitInternal((options), WEBP_DEMUX_ABI_VERSION)
#define WebPAnimDecoderNew(data, options) WebPAnimDecoderNewInternal((data), (options), WEBP_DEMUX_ABI_VERSION)
#define WebPDemux(data) WebPDemuxInternal((data), 0, NULL, WEBP_DEMUX_ABI_VERSION)

/* libwebp and libwebpdemux loaded (0), or the reason in `err`. */
static int vgn_webp_load(vgn_error *err)
{
    if (vgn_library_load(VGN_LIB_WEBP, err) != VGN_OK) return VGN_E_UNSUPPORTED;
    return vgn_library_load(VGN_LIB_WEBPDEMUX, err) != VGN_OK ? VGN_E_UNSUPPORTED : VGN_OK;
}

static const char *vgn_webp_reason(VP8StatusCode status)
{
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR: return "bad bitstream";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "suspended";
    case VP8_STATUS_USER_ABORT: return "aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "the data ends too early";
    default: return "cannot decode";
    }
}

static int vgn_webp_code(VP8StatusCode status)
{
    switch (status) {
    case VP8_STATUS_OUT_OF_MEMORY: return VGN_E_NOMEM;
    case VP8_STATUS_UNSUPPORTED_FEATURE: return VGN_E_UNSUPPORTED;
    case VP8_STATUS_NOT_ENOUGH_DATA: return VGN_E_TRUNCATED;
    case VP8_STATUS_INVALID_PARAM: return VGN_E_STATE;
    default: return VGN_E_INVALID;
    }
}

int vgn_webp_info(const uint8_t *data, size_t size, vgn_image_info *info, int *animated, vgn_error *err)
{
    WebPBitstreamFeatures features;
    VP8StatusCode status;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(info, 0, sizeof *info);
    if (vgn_webp_load(err) != VGN_OK) return VGN_E_UNSUPPORTED;
    status = WebPGetFeatures(data, size, &features);
    if (status != VP8_STATUS_OK) {
        vgn_err_fill(err, vgn_webp_code(status), vgn_webp_reason(status), NULL);
        return vgn_webp_code(status);
    }
    if (features.width <= 0 || features.height <= 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the header gives no size", NULL);
        return VGN_E_INVALID;
    }
    info->width = (uint32_t)features.width;
    info->height = (uint32_t)features.height;
    info->components = features.has_alpha ? 4 : 3;
    info->bit_depth = 8;
    info->orientation = 1;
    if (animated != NULL) *animated = features.has_animation;
    if (size >= 30 && memcmp(data + 12, "VP8X", 4) == 0 && (data[20] & 0x08)) { /* VP8X with the EXIF flag: the orientation, as for JPEG and PNG */
        WebPData webp_data = {data, size};
        WebPDemuxer *demux = WebPDemux(&webp_data);
        WebPChunkIterator chunk;
        if (demux != NULL && WebPDemuxGetChunk(demux, "EXIF", 1, &chunk)) {
            const uint8_t *exif = chunk.chunk.bytes;
            size_t length = chunk.chunk.size;
            /* Some writers keep JPEG's "Exif\0\0" prefix before the TIFF header. */
            if (length >= 6 && memcmp(exif, "Exif\0\0", 6) == 0) {
                exif += 6;
                length -= 6;
            }
            info->orientation = vgn_exif_orientation_tiff(exif, length);
            WebPDemuxReleaseChunkIterator(&chunk);
        }
        WebPDemuxDelete(demux);
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

int vgn_webp_decode(const uint8_t *data, size_t size, uint32_t out_w, uint32_t out_h, uint8_t *dst, size_t stride,
                    vgn_error *err)
{
    WebPDecoderConfig config;
    VP8StatusCode status;
    if (data == NULL || dst == NULL || out_w == 0 || out_h == 0 || stride < (size_t)out_w * 4) {
        vgn_err_fill(err, VGN_E_STATE, "bad output buffer", NULL);
        return VGN_E_STATE;
    }
    if (vgn_webp_load(err) != VGN_OK) return VGN_E_UNSUPPORTED;
    if (!WebPInitDecoderConfig(&config)) {
        vgn_err_fill(err, VGN_E_STATE, "libwebp version mismatch", NULL);
        return VGN_E_STATE;
    }
    status = WebPGetFeatures(data, size, &config.input);
    if (status != VP8_STATUS_OK) {
        vgn_err_fill(err, vgn_webp_code(status), vgn_webp_reason(status), NULL);
        return vgn_webp_code(status);
    }
    /* libwebp's rescaler is not the identity at 1:1: scale only when the size changes. */
    config.options.use_scaling = (int)out_w != config.input.width || (int)out_h != config.input.height;
    config.options.scaled_width = (int)out_w;
    config.options.scaled_height = (int)out_h;
    config.output.colorspace = MODE_RGBA;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = dst;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = stride * out_h;
    status = WebPDecode(data, size, &config);
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        vgn_err_fill(err, vgn_webp_code(status), vgn_webp_reason(status), NULL);
        return vgn_webp_code(status);
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

int vgn_webp_decode_first_frame(const uint8_t *data, size_t size, uint8_t *dst, size_t stride, uint32_t *frames,
                                vgn_error *err)
{
    WebPData webp_data = {data, size};
    WebPAnimDecoderOptions options;
    WebPAnimDecoder *decoder;
    WebPAnimInfo anim;
    uint8_t *canvas = NULL;
    int timestamp = 0;
    if (vgn_webp_load(err) != VGN_OK) return VGN_E_UNSUPPORTED;
    if (data == NULL || dst == NULL || !WebPAnimDecoderOptionsInit(&options)) {
        vgn_err_fill(err, VGN_E_STATE, "bad output buffer", NULL);
        return VGN_E_STATE;
    }
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    /* The demuxer reads only the chunk headers of the other frames, never their bitstreams. */
    decoder = WebPAnimDecoderNew(&webp_data, &options);
    if (decoder == NULL) {
        vgn_err_fill(err, VGN_E_INVALID, "bad animation structure", NULL);
        return VGN_E_INVALID;
    }
    if (!WebPAnimDecoderGetInfo(decoder, &anim) || anim.canvas_width == 0 || anim.canvas_height == 0 ||
        stride < (size_t)anim.canvas_width * 4) {
        WebPAnimDecoderDelete(decoder);
        vgn_err_fill(err, VGN_E_INVALID, "bad animation canvas", NULL);
        return VGN_E_INVALID;
    }
    if (frames != NULL) *frames = anim.frame_count;
    if (!WebPAnimDecoderGetNext(decoder, &canvas, &timestamp) || canvas == NULL) {
        WebPAnimDecoderDelete(decoder);
        vgn_err_fill(err, VGN_E_INVALID, "the first frame cannot be decoded", NULL);
        return VGN_E_INVALID;
    }
    for (uint32_t y = 0; y < anim.canvas_height; y++)
        memcpy(dst + (size_t)y * stride, canvas + (size_t)y * anim.canvas_width * 4, (size_t)anim.canvas_width * 4);
    WebPAnimDecoderDelete(decoder);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

int vgn_webp_icc(const uint8_t *data, size_t size, const uint8_t **profile, size_t *profile_size)
{
    WebPData webp_data = {data, size};
    WebPDemuxer *demux;
    WebPChunkIterator chunk;
    int found = 0;
    if (profile != NULL) *profile = NULL;
    if (profile_size != NULL) *profile_size = 0;
    if (data == NULL || profile == NULL || profile_size == NULL) return 0;
    /* Only a VP8X header with the ICC flag has a profile: no demuxer for the common simple files. */
    if (size < 30 || memcmp(data + 12, "VP8X", 4) != 0 || !(data[20] & ICCP_FLAG)) return 0;
    if (vgn_webp_load(NULL) != VGN_OK) return 0;
    demux = WebPDemux(&webp_data);
    if (demux == NULL) return 0;
    if ((WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & ICCP_FLAG) && WebPDemuxGetChunk(demux, "ICCP", 1, &chunk)) {
        /* The chunk's bytes are `data`'s own: they outlive the demuxer. */
        *profile = chunk.chunk.bytes;
        *profile_size = chunk.chunk.size;
        found = 1;
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    WebPDemuxDelete(demux);
    return found;
}

/* ------------------------------------------------------------------------------------ */
/* Encoding (our own pixels). */

static int vgn_webp_writer(const uint8_t *data, size_t size, const WebPPicture *picture)
{
    return vgn_buf_append((vgn_buf *)picture->custom_ptr, data, size) == 0;
}

int vgn_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                    int lossless, uint8_t **out, size_t *out_size, vgn_error *err)
{
    *out = NULL;
    *out_size = 0;
    if ((channels != 3 && channels != 4) || width == 0 || height == 0 || width > WEBP_MAX_DIMENSION ||
        height > WEBP_MAX_DIMENSION || stride > (size_t)INT32_MAX) {
        vgn_err_fill(err, VGN_E_STATE, "WebP needs RGB or RGBA pixels of 1..16383 per side", NULL);
        return VGN_E_STATE;
    }
    if (vgn_webp_load(err) != VGN_OK) return VGN_E_UNSUPPORTED;
    WebPConfig config;
    if (!WebPConfigPreset(&config, WEBP_PRESET_PHOTO, (float)(quality < 0 ? 0 : quality > 100 ? 100 : quality))) {
        vgn_err_fill(err, VGN_E_STATE, "libwebp version mismatch", NULL);
        return VGN_E_STATE;
    }
    config.method = 4;
    /* No use_sharp_yuv: WebPPictureImportRGB below converts to YUV at import, and libwebp applies sharp
     * RGB->YUV only when it converts inside WebPEncode (use_argb = 1). Made effective it costs 7 % more
     * bytes at matched luma SSIM and 1.5x the encode time (bench/encoder-sweep.sh, bench/RESULTS.md issue 19). */
    if (lossless) {
        config.lossless = 1;
        config.exact = 0;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        vgn_err_fill(err, VGN_E_STATE, "libwebp version mismatch", NULL);
        return VGN_E_STATE;
    }
    picture.use_argb = lossless ? 1 : 0;
    picture.width = (int)width;
    picture.height = (int)height;
    int ok = channels == 4 ? WebPPictureImportRGBA(&picture, pixels, (int)stride) : WebPPictureImportRGB(&picture, pixels, (int)stride);
    if (!ok) {
        WebPPictureFree(&picture);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    vgn_buf buffer = {NULL, 0, 0};
    picture.writer = vgn_webp_writer;
    picture.custom_ptr = &buffer;
    ok = WebPEncode(&config, &picture);
    int code = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        free(buffer.data);
        char text[96];
        snprintf(text, sizeof text, "WebP encoding failed (libwebp error %d)", code);
        vgn_err_fill(err, code == VP8_ENC_ERROR_OUT_OF_MEMORY ? VGN_E_NOMEM : VGN_E_IO, text, NULL);
        return code == VP8_ENC_ERROR_OUT_OF_MEMORY ? VGN_E_NOMEM : VGN_E_IO;
    }
    *out = buffer.data;
    *out_size = buffer.size;
    return VGN_OK;
}
