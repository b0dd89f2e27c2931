/* libFuzzer harness: the hand-written progressive decoders (DC-only and low-frequency), behind
   the same header check ImageDecoder makes first (production never calls them past the pixel cap). */
#include <stdlib.h>
#include "vgn_codecs.h"
#include "vgn_jpeg_dc.h"

/* Below ImageLimits' 100 MP so that a run stays fast; a larger header is what the cap refuses. */
#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_jpeg *j = vgn_jpeg_open(data, size, &info, &err);
    if (!j) return 0;
    vgn_jpeg_close(j);
    if ((uint64_t)info.width * info.height > MAX_PIXELS) return 0;
    uint8_t *out = NULL;
    uint32_t w = 0, h = 0;
    int channels = 0, warnings = 0;
    char message[256];
    /* The length picks the decoder, so the bytes stay a plain JPEG. */
    switch (size % 4) {
    case 0:
        vgn_jpeg_dc_decode(data, size, &out, &w, &h, &channels, &warnings, message, sizeof message);
        break;
    default: {
        static const int scales[3] = {2, 4, 8};
        int flags = (size / 4) % 2 ? VGN_LF_EXACT : 0;
        vgn_jpeg_lowfreq_decode_ex(data, size, scales[size % 4 - 1], flags, &out, &w, &h, &channels, &warnings, message,
                                   sizeof message);
        break;
    }
    }
    free(out);
    return 0;
}
