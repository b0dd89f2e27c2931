/* fuzz_decoder.h - what every streaming-decoder harness does after open, as ImageDecoder does:
 * the pixel cap on the header's size and on the rows' size, a working-memory cap, then every row
 * in bands of 16, then close. */
#ifndef FUZZ_DECODER_H
#define FUZZ_DECODER_H

#include <stdlib.h>
#include "vgn_decoder.h"

/* Below ImageLimits' 100 MP so that a run stays fast; a larger header is what the cap refuses. */
#define FUZZ_MAX_PIXELS (4u << 20)
#define FUZZ_MAX_WORKING ((size_t)512 << 20)

static inline int fuzz_drain(vgn_decoder *d, const vgn_image_info *info) {
    vgn_error err;
    uint32_t w = 0, h = 0;
    if (d == NULL) return 0;
    vgn_decoder_size(d, &w, &h);
    if ((uint64_t)info->width * info->height <= FUZZ_MAX_PIXELS && (uint64_t)w * h <= FUZZ_MAX_PIXELS && w > 0 &&
        vgn_decoder_working_bytes(d) <= FUZZ_MAX_WORKING) {
        uint8_t *rows = malloc((size_t)w * 4 * 16);
        if (rows != NULL) {
            while (vgn_decoder_read_rows(d, rows, (size_t)w * 4, 16, &err) > 0) {
            }
            free(rows);
        }
    }
    vgn_decoder_close(d);
    return 0;
}

#endif
