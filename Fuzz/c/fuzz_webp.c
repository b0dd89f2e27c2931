/* libFuzzer harness: the WebP decoder as ImageDecoder drives it (header, cap, one scaled decode). */
#include <stdlib.h>
#include "vgn_codecs.h"

#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    int animated = 0;
    if (vgn_webp_info(data, size, &info, &animated, &err) != VGN_OK) return 0;
    if ((uint64_t)info.width * info.height > MAX_PIXELS || animated) return 0;
    /* Full size on odd lengths, a scaled decode on even ones: both paths of libwebp. */
    uint32_t w = size % 2 ? info.width : (info.width + 3) / 4, h = size % 2 ? info.height : (info.height + 3) / 4;
    uint8_t *pixels = malloc((size_t)w * h * 4);
    if (pixels) {
        vgn_webp_decode(data, size, w, h, pixels, (size_t)w * 4, &err);
        free(pixels);
    }
    return 0;
}
