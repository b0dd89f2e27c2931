/* libFuzzer harness: the GIF decoder as ImageDecoder drives it (open, pixel cap, all rows in bands). */
#include <stdlib.h>
#include "vgn_decoder.h"

#define MAX_PIXELS (4u << 20)
#define MAX_WORKING ((size_t)512 << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_decoder *d = vgn_gif_open(data, size, &info, &err);
    if (d == NULL) return 0;
    uint32_t w = 0, h = 0;
    vgn_decoder_size(d, &w, &h);
    if ((uint64_t)info.width * info.height > MAX_PIXELS || (uint64_t)w * h > MAX_PIXELS ||
        vgn_decoder_working_bytes(d) > MAX_WORKING) {
        vgn_decoder_close(d);
        return 0;
    }
    uint8_t *rows = malloc((size_t)w * 4 * 16 + 1);
    if (rows != NULL) {
        int n;
        while ((n = vgn_decoder_read_rows(d, rows, (size_t)w * 4, 16, &err)) > 0) {
        }
        free(rows);
    }
    vgn_decoder_close(d);
    return 0;
}
