/* WebP sweep encoder for bench/encoder-sweep.sh: Sources/CVignetteCodecs/vgn_webp.c's settings (photo preset,
   method 4, sharp YUV) with overrides. With no overrides its output is byte-identical to `vignette thumbnail -f webp`.
     webp_sweep IN.rgb W H OUT.webp QUALITY [NAME=VALUE ...]
   NAME: preset (default|photo|picture|drawing|text, applied first), m, sns, f, sharpness, af, segments, pass,
   sharp_yuv, filter_type, preprocessing (cwebp's option names); argb=1 imports the pixels as ARGB, so the RGB->YUV
   conversion happens in WebPEncode, where sharp_yuv applies (vgn_webp.c imports as YUV: its sharp_yuv does nothing). REPS=N: print the mean milliseconds an encode. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sweep_main.h"
#include <webp/encode.h>

static int sink(const uint8_t *data, size_t size, const WebPPicture *picture)
{
    FILE *file = picture->custom_ptr;
    return !file || fwrite(data, 1, size, file) == size;
}

static int encode(const uint8_t *rgb, int w, int h, double quality_arg, int argc, char **argv, FILE *out)
{
    float quality = (float)quality_arg;
    WebPPreset preset = WEBP_PRESET_PHOTO;
    for (int i = 0; i < argc; i++)
        if (!strncmp(argv[i], "preset=", 7)) {
            const char *v = argv[i] + 7;
            preset = !strcmp(v, "default")   ? WEBP_PRESET_DEFAULT
                     : !strcmp(v, "picture") ? WEBP_PRESET_PICTURE
                     : !strcmp(v, "drawing") ? WEBP_PRESET_DRAWING
                     : !strcmp(v, "text")    ? WEBP_PRESET_TEXT
                                             : WEBP_PRESET_PHOTO;
        }
    int argb = 0;
    WebPConfig c;
    if (!WebPConfigPreset(&c, preset, quality)) return 1;
    c.method = 4;
    c.use_sharp_yuv = 1;
    for (int i = 0; i < argc; i++) {
        char name[64];
        const char *eq = strchr(argv[i], '=');
        if (!eq) return 2;
        snprintf(name, sizeof name, "%.*s", (int)(eq - argv[i]), argv[i]);
        int v = atoi(eq + 1);
        if (!strcmp(name, "preset")) continue;
        else if (!strcmp(name, "argb")) argb = v;
        else if (!strcmp(name, "m")) c.method = v;
        else if (!strcmp(name, "sns")) c.sns_strength = v;
        else if (!strcmp(name, "f")) c.filter_strength = v;
        else if (!strcmp(name, "sharpness")) c.filter_sharpness = v;
        else if (!strcmp(name, "af")) c.autofilter = v;
        else if (!strcmp(name, "segments")) c.segments = v;
        else if (!strcmp(name, "pass")) c.pass = v;
        else if (!strcmp(name, "sharp_yuv")) c.use_sharp_yuv = v;
        else if (!strcmp(name, "filter_type")) c.filter_type = v;
        else if (!strcmp(name, "preprocessing")) c.preprocessing = v;
        else { fprintf(stderr, "unknown option %s\n", name); return 2; }
    }
    if (!WebPValidateConfig(&c)) { fprintf(stderr, "invalid configuration\n"); return 2; }
    WebPPicture p;
    if (!WebPPictureInit(&p)) return 1;
    p.use_argb = argb;
    p.width = w;
    p.height = h;
    if (!WebPPictureImportRGB(&p, rgb, w * 3)) return 1;
    p.writer = sink;
    p.custom_ptr = out;
    int ok = WebPEncode(&c, &p);
    WebPPictureFree(&p);
    return ok ? 0 : 3;
}

int main(int argc, char **argv)
{
    return sweep_main(argc, argv, "webp_sweep IN.rgb W H OUT.webp QUALITY [NAME=VALUE ...]", encode);
}
