/* fuzz_decoder.h - what every streaming-decoder harness does after open, as ImageDecoder does:
 * the pixel cap on the header's size and on the rows' size, a working-memory cap, a CMYK transform
 * handed back when the decoder has a CMYK profile (the codec then converts its rows with it), then
 * every row in bands of 16, then close. */
#ifndef FUZZ_DECODER_H
#define FUZZ_DECODER_H

#include <stdlib.h>
#include "vgn_decoder.h"
#include "vgn_icc.h"

/* Below ImageLimits' 100 MP so that a run stays fast; a larger header is what the cap refuses. */
#define FUZZ_MAX_PIXELS (4u << 20)
#define FUZZ_MAX_WORKING ((size_t)512 << 20)

static inline int fuzz_drain(vgn_decoder *d, const vgn_image_info *info) {
    vgn_error err;
    uint32_t w = 0, h = 0;
    const uint8_t *profile = NULL;
    size_t profile_size = 0;
    int cmyk = 0, is_srgb = 0;
    vgn_icc *transform = NULL;
    if (d == NULL) return 0;
    if (vgn_decoder_icc(d, &profile, &profile_size, &cmyk) && cmyk) {
        transform = vgn_icc_open(profile, profile_size, VGN_ICC_CMYK8, &is_srgb, NULL, 0, &err);
        if (transform != NULL) vgn_decoder_set_cmyk_transform(d, transform);
    }
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
    if (transform != NULL) vgn_icc_close(transform);
    return 0;
}

#endif
