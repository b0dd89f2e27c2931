/* libFuzzer harness: the JPEG decoder as ImageDecoder drives it (open, cap, start, rows). */
#include <stdlib.h>
#include "vgn_codecs.h"

/* Small enough that a run stays fast, large enough for real multi-MCU images. */
#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_jpeg *j = vgn_jpeg_open(data, size, &info, &err);
    if (!j) return 0;
    if ((uint64_t)info.width * info.height > MAX_PIXELS) { vgn_jpeg_close(j); return 0; }
    /* The scale and the DC shortcut come from the length, so the bytes stay a plain JPEG. */
    static const int scales[4] = {1, 2, 4, 8};
    uint32_t w, h;
    int channels;
    if (vgn_jpeg_start(j, scales[size % 4], (size / 4) % 2, &w, &h, &channels, &err) == VGN_OK) {
        size_t stride = (size_t)w * (size_t)channels;
        uint8_t *rows = malloc(stride * 16 + 1);
        if (rows) {
            while (vgn_jpeg_read_rows(j, rows, stride, 16, &err) > 0) {}
            free(rows);
        }
    }
    vgn_jpeg_close(j);
    return 0;
}
