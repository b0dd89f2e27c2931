/* fuzz_decoder.h - what every streaming-decoder harness does after open, as ImageDecoder does:
 * the pixel cap on the header's size and on the rows' size, a working-memory cap, a CMYK transform
 * handed back when the decoder has a CMYK profile (the codec then converts its rows with it), then
 * every row in bands of 16, then close. */
#ifndef FUZZ_DECODER_H
#define FUZZ_DECODER_H

#include <stdlib.h>
#include <string.h>
#include "vgn_decoder.h"
#include "vgn_icc.h"

/* Below ImageLimits' 100 MP so that a run stays fast; a larger header is what the cap refuses. */
#define FUZZ_MAX_PIXELS (4u << 20)
#define FUZZ_MAX_WORKING ((size_t)512 << 20)

/* The CMYK transform of the last profile seen, kept across inputs as ColorTransform keeps one per
 * profile: building it (black-point detection under ASan) takes seconds, and mutated inputs mostly
 * keep their profile. */
static uint8_t *fuzz_profile;
static size_t fuzz_profile_size;
static vgn_icc *fuzz_transform;

static inline vgn_icc *fuzz_cmyk_transform(const uint8_t *profile, size_t size) {
    vgn_error err;
    int is_srgb = 0;
    if (fuzz_profile != NULL && fuzz_profile_size == size && memcmp(fuzz_profile, profile, size) == 0) return fuzz_transform;
    if (fuzz_transform != NULL) vgn_icc_close(fuzz_transform);
    free(fuzz_profile);
    fuzz_transform = vgn_icc_open(profile, size, VGN_ICC_CMYK8, &is_srgb, NULL, 0, &err);
    fuzz_profile = malloc(size);
    if (fuzz_profile != NULL) memcpy(fuzz_profile, profile, size);
    fuzz_profile_size = size;
    return fuzz_transform;
}

static inline int fuzz_drain(vgn_decoder *d, const vgn_image_info *info) {
    vgn_error err;
    uint32_t w = 0, h = 0;
    const uint8_t *profile = NULL;
    size_t profile_size = 0;
    int cmyk = 0;
    vgn_icc *transform = NULL;
    if (d == NULL) return 0;
    if (vgn_decoder_icc(d, &profile, &profile_size, &cmyk) && cmyk) {
        transform = fuzz_cmyk_transform(profile, profile_size);
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
    return 0;
}

#endif
