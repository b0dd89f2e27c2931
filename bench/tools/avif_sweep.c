/* AVIF sweep encoder for bench/encoder-sweep.sh: Sources/CVignetteCodecs/vgn_avif.c's settings (libheif + libaom,
   speed 6, 4:2:0, tune=ssim, RGB handed to libheif) with overrides, so settings can be tried without a rebuild.
   With no overrides its output is byte-identical to `vignette thumbnail -f avif` of the same pixels.
     avif_sweep IN.rgb W H OUT.avif QUALITY [NAME=VALUE ...]
   NAME=VALUE goes to heif_encoder_set_parameter (speed, chroma, tune, min-q, max-q, aom:<libaom option>),
   except yuv=avg8: our own BT.601 full-range YCbCr with 2x2-averaged chroma instead of libheif's conversion.
   REPS=N in the environment: encode N more times (into memory) and print the mean milliseconds an encode. */
#include <libheif/heif.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep_main.h"

static struct heif_error sink(struct heif_context *ctx, const void *data, size_t size, void *file)
{
    (void)ctx;
    if (file) fwrite(data, 1, size, (FILE *)file);
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "ok"};
    return ok;
}

static uint8_t clamp8(double v) { return v < 0 ? 0 : v > 255 ? 255 : (uint8_t)floor(v + 0.5); }

static int encode(const uint8_t *rgb, int w, int h, double quality_arg, int argc, char **argv, FILE *out)
{
    int quality = (int)quality_arg;
    struct heif_context *ctx = heif_context_alloc();
    struct heif_encoder *enc = NULL;
    struct heif_image *img = NULL;
    struct heif_image_handle *handle = NULL;
    if (heif_context_get_encoder_for_format(ctx, heif_compression_AV1, &enc).code) return 1;
    heif_encoder_set_lossy_quality(enc, quality);
    heif_encoder_set_parameter(enc, "speed", "6");
    heif_encoder_set_parameter(enc, "chroma", "420");
    heif_encoder_set_parameter(enc, "tune", "ssim");
    int own_yuv = 0, sub = 1;
    for (int i = 0; i < argc; i++) {
        char name[128];
        const char *eq = strchr(argv[i], '=');
        if (!eq) return 2;
        snprintf(name, sizeof name, "%.*s", (int)(eq - argv[i]), argv[i]);
        if (!strcmp(name, "yuv")) { own_yuv = !strcmp(eq + 1, "avg8"); continue; }
        if (!strcmp(name, "chroma")) sub = strcmp(eq + 1, "444") != 0;
        struct heif_error e = heif_encoder_set_parameter(enc, name, eq + 1);
        if (e.code) { fprintf(stderr, "%s: %s\n", argv[i], e.message); return 2; }
    }
    if (!own_yuv) {
        heif_image_create(w, h, heif_colorspace_RGB, heif_chroma_interleaved_RGB, &img);
        heif_image_add_plane(img, heif_channel_interleaved, w, h, 8);
        int stride;
        uint8_t *p = heif_image_get_plane(img, heif_channel_interleaved, &stride);
        for (int y = 0; y < h; y++) memcpy(p + (size_t)y * stride, rgb + (size_t)y * w * 3, (size_t)w * 3);
    } else {
        int cw = sub ? (w + 1) / 2 : w, ch = sub ? (h + 1) / 2 : h, step = sub ? 2 : 1;
        heif_image_create(w, h, heif_colorspace_YCbCr, sub ? heif_chroma_420 : heif_chroma_444, &img);
        heif_image_add_plane(img, heif_channel_Y, w, h, 8);
        heif_image_add_plane(img, heif_channel_Cb, cw, ch, 8);
        heif_image_add_plane(img, heif_channel_Cr, cw, ch, 8);
        int sy, sb, sr;
        uint8_t *Y = heif_image_get_plane(img, heif_channel_Y, &sy);
        uint8_t *Cb = heif_image_get_plane(img, heif_channel_Cb, &sb);
        uint8_t *Cr = heif_image_get_plane(img, heif_channel_Cr, &sr);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                const uint8_t *p = rgb + ((size_t)y * w + x) * 3;
                Y[(size_t)y * sy + x] = clamp8(0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]);
            }
        for (int y = 0; y < ch; y++)
            for (int x = 0; x < cw; x++) {
                double r = 0, g = 0, b = 0;
                int n = 0;
                for (int dy = 0; dy < step; dy++)
                    for (int dx = 0; dx < step; dx++) {
                        int xx = x * step + dx, yy = y * step + dy;
                        if (xx >= w || yy >= h) continue;
                        const uint8_t *p = rgb + ((size_t)yy * w + xx) * 3;
                        r += p[0], g += p[1], b += p[2], n++;
                    }
                r /= n, g /= n, b /= n;
                double luma = 0.299 * r + 0.587 * g + 0.114 * b;
                Cb[(size_t)y * sb + x] = clamp8((b - luma) / 1.772 + 128);
                Cr[(size_t)y * sr + x] = clamp8((r - luma) / 1.402 + 128);
            }
        struct heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc(); /* what libheif writes for RGB input */
        heif_nclx_color_profile_set_color_primaries(nclx, 2);
        heif_nclx_color_profile_set_transfer_characteristics(nclx, 2);
        heif_nclx_color_profile_set_matrix_coefficients(nclx, 6);
        nclx->full_range_flag = 1;
        heif_image_set_nclx_color_profile(img, nclx);
        heif_nclx_color_profile_free(nclx);
    }
    struct heif_error e = heif_context_encode_image(ctx, img, enc, NULL, &handle);
    if (e.code) { fprintf(stderr, "encode: %s\n", e.message); return 3; }
    struct heif_writer writer = {1, sink};
    heif_context_write(ctx, &writer, out);
    heif_image_handle_release(handle);
    heif_image_release(img);
    heif_encoder_release(enc);
    heif_context_free(ctx);
    return 0;
}

int main(int argc, char **argv)
{
    heif_init(NULL);
    return sweep_main(argc, argv, "avif_sweep IN.rgb W H OUT.avif QUALITY [NAME=VALUE ...]", encode);
}
