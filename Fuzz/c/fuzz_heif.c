/* libFuzzer harness: the HEIF decoder as ImageDecoder drives it (open, pixel cap, rows in bands, close). */
#include <stdlib.h>
#include "vgn_decoder.h"

#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    /* The full picture on even lengths, a reduced one (target 64) on odd ones. */
    vgn_decoder *d = vgn_heif_open(data, size, size % 2 ? 64 : 0, &info, &err);
    if (!d) return 0;
    uint32_t w, h;
    vgn_decoder_size(d, &w, &h);
    if ((uint64_t)info.width * info.height <= MAX_PIXELS && (uint64_t)w * h <= MAX_PIXELS && w > 0) {
        uint8_t *rows = malloc((size_t)w * 4 * 16);
        if (rows) {
            while (vgn_decoder_read_rows(d, rows, (size_t)w * 4, 16, &err) > 0) {
            }
            free(rows);
        }
    }
    vgn_decoder_close(d);
    return 0;
}
