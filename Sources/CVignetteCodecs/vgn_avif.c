/* vgn_avif.c - AVIF output through libheif's AV1 encoder (libaom in Debian 12). Our own pixels go
 * in, so nothing here reads hostile input; it still checks every libheif status. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libheif/heif.h>

#include "vgn_codecs.h"
#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define heif_context_alloc VGN_LAZY(VGN_LIB_HEIF, heif_context_alloc)
#define heif_context_encode_image VGN_LAZY(VGN_LIB_HEIF, heif_context_encode_image)
#define heif_context_free VGN_LAZY(VGN_LIB_HEIF, heif_context_free)
#define heif_context_get_encoder_for_format VGN_LAZY(VGN_LIB_HEIF, heif_context_get_encoder_for_format)
#define heif_context_write VGN_LAZY(VGN_LIB_HEIF, heif_context_write)
#define heif_encoder_release VGN_LAZY(VGN_LIB_HEIF, heif_encoder_release)
#define heif_encoder_set_lossy_quality VGN_LAZY(VGN_LIB_HEIF, heif_encoder_set_lossy_quality)
#define heif_encoder_set_parameter VGN_LAZY(VGN_LIB_HEIF, heif_encoder_set_parameter)
#define heif_image_add_plane VGN_LAZY(VGN_LIB_HEIF, heif_image_add_plane)
#define heif_image_create VGN_LAZY(VGN_LIB_HEIF, heif_image_create)
#define heif_image_get_plane VGN_LAZY(VGN_LIB_HEIF, heif_image_get_plane)
#define heif_image_handle_release VGN_LAZY(VGN_LIB_HEIF, heif_image_handle_release)
#define heif_image_release VGN_LAZY(VGN_LIB_HEIF, heif_image_release)
#define heif_init VGN_LAZY(VGN_LIB_HEIF, heif_init)

static pthread_once_t vgn_heif_once = PTHREAD_ONCE_INIT;

static void vgn_heif_start(void)
{
    /* Reference counted and never matched: the encoder lives as long as the process. */
    heif_init(NULL);
}

typedef struct {
    vgn_buf buffer;
    int failed;
} vgn_avif_sink;

static struct heif_error vgn_avif_write(struct heif_context *ctx, const void *data, size_t size, void *userdata)
{
    (void)ctx;
    vgn_avif_sink *sink = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    if (vgn_buf_append(&sink->buffer, data, size) != 0) {
        sink->failed = 1;
        struct heif_error e = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return e;
    }
    return ok;
}

static int vgn_avif_fail(vgn_error *err, const char *what, struct heif_error e)
{
    char text[256];
    snprintf(text, sizeof text, "%s: %s", what, e.message ? e.message : "libheif error");
    vgn_err_fill(err, VGN_E_IO, text, NULL);
    return VGN_E_IO;
}

int vgn_avif_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                    int speed, uint8_t **out, size_t *out_size, vgn_error *err)
{
    *out = NULL;
    *out_size = 0;
    if ((channels != 3 && channels != 4) || width == 0 || height == 0 || width > 65535 || height > 65535) {
        vgn_err_fill(err, VGN_E_STATE, "AVIF needs RGB or RGBA pixels of 1..65535 per side", NULL);
        return VGN_E_STATE;
    }
    if (vgn_library_load(VGN_LIB_HEIF, err) != VGN_OK) return VGN_E_UNSUPPORTED;
    pthread_once(&vgn_heif_once, vgn_heif_start);
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    int status = VGN_OK;
    if (!ctx) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    struct heif_error e = heif_context_get_encoder_for_format(ctx, heif_compression_AV1, &encoder);
    if (e.code != heif_error_Ok) {
        status = vgn_avif_fail(err, "no AV1 encoder in libheif", e);
        goto done;
    }
    heif_encoder_set_lossy_quality(encoder, quality < 1 ? 1 : quality > 100 ? 100 : quality);
    char speed_text[8];
    snprintf(speed_text, sizeof speed_text, "%d", speed < 0 ? 0 : speed > 9 ? 9 : speed);
    /* Parameters an encoder does not know are ignored: the names are libaom's. */
    heif_encoder_set_parameter(encoder, "speed", speed_text);
    heif_encoder_set_parameter(encoder, "chroma", "420");
    heif_encoder_set_parameter(encoder, "tune", "ssim");
    e = heif_image_create((int)width, (int)height, heif_colorspace_RGB,
                          channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    if (e.code == heif_error_Ok) e = heif_image_add_plane(image, heif_channel_interleaved, (int)width, (int)height, 8);
    if (e.code != heif_error_Ok) {
        status = vgn_avif_fail(err, "cannot make the AVIF image", e);
        goto done;
    }
    int plane_stride = 0;
    uint8_t *plane = heif_image_get_plane(image, heif_channel_interleaved, &plane_stride);
    if (!plane || plane_stride < (int)(width * (uint32_t)channels)) {
        vgn_err_fill(err, VGN_E_NOMEM, "libheif gave no pixel plane", NULL);
        status = VGN_E_NOMEM;
        goto done;
    }
    for (uint32_t y = 0; y < height; y++)
        memcpy(plane + (size_t)y * (size_t)plane_stride, pixels + (size_t)y * stride, (size_t)width * (size_t)channels);
    e = heif_context_encode_image(ctx, image, encoder, NULL, &handle);
    if (e.code != heif_error_Ok) {
        status = vgn_avif_fail(err, "AV1 encoding failed", e);
        goto done;
    }
    vgn_avif_sink sink;
    memset(&sink, 0, sizeof sink);
    struct heif_writer writer = {1, vgn_avif_write};
    e = heif_context_write(ctx, &writer, &sink);
    if (e.code != heif_error_Ok || sink.failed) {
        free(sink.buffer.data);
        status = vgn_avif_fail(err, "cannot write the AVIF file", e);
        goto done;
    }
    *out = sink.buffer.data;
    *out_size = sink.buffer.size;
done:
    if (handle) heif_image_handle_release(handle);
    if (image) heif_image_release(image);
    if (encoder) heif_encoder_release(encoder);
    heif_context_free(ctx);
    return status;
}
