/* libFuzzer harness: the PNG decoder as ImageDecoder drives it (open, cap, start, rows). */
#include <stdlib.h>
#include "vgn_codecs.h"

#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_png *p = vgn_png_open(data, size, &info, &err);
    if (!p) return 0;
    if ((uint64_t)info.width * info.height > MAX_PIXELS) { vgn_png_close(p); return 0; }
    int channels = 4;
    if (vgn_png_start_ex(p, (int)(size % 2), &channels, &err) == VGN_OK) {
        size_t stride = (size_t)info.width * (size_t)channels;
        uint8_t *rows = malloc(stride * 8 + 1);
        if (rows) {
            while (vgn_png_read_rows(p, rows, stride, 8, &err) > 0) {}
            free(rows);
        }
    }
    vgn_png_close(p);
    return 0;
}
