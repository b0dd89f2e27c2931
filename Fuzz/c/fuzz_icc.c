/* libFuzzer harness: an embedded ICC profile as the decoders hand it to LittleCMS (parse, build
 * the transform to sRGB for the layout picked by the input's length, convert a few pixels). */
#include <stdlib.h>
#include "vgn_icc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_error err;
    int srgb = 0;
    char name[64];
    uint8_t pixels[64 * 4];
    vgn_icc *t = vgn_icc_open(data, size, (int)(size % 3), &srgb, name, sizeof name, &err);
    if (t != NULL) {
        for (size_t i = 0; i < sizeof pixels; i++) pixels[i] = (uint8_t)(i * 37);
        vgn_icc_apply(t, pixels, pixels, size % 3 == 0 ? 64 : 48); /* CMYK8 in, RGB8 out: 48 pixels fit */
        vgn_icc_close(t);
    }
    return 0;
}
