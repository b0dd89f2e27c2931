/* libFuzzer harness: the BMP, ICO/CUR (DIB entries), TGA and PNM/PAM streaming decoders as
 * ImageDecoder drives them (open, pixel cap, rows in bands of 16, close). The first bytes pick the
 * opener: "BM" BMP, "P1".."P7" PNM, an ICO/CUR directory (00 00 01|02 00) whose selected entry is
 * a DIB, anything else (and ICO-looking data that is no icon) TGA. */
#include <stdlib.h>
#include <string.h>
#include "vgn_decoder.h"

#define MAX_PIXELS (4u << 20)

static void drain(vgn_decoder *d) {
    vgn_error err;
    uint32_t w = 0, h = 0;
    if (!d) return;
    vgn_decoder_size(d, &w, &h);
    if (w > 0 && h > 0 && (uint64_t)w * h <= MAX_PIXELS) {
        uint8_t *band = malloc((size_t)w * 4 * 16);
        if (band) {
            uint32_t y = 0;
            while (y < h) {
                int n = vgn_decoder_read_rows(d, band, (size_t)w * 4, 16, &err);
                if (n <= 0) break;
                y += (uint32_t)n;
            }
            free(band);
        }
    }
    vgn_decoder_close(d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_decoder *d = NULL;
    if (size >= 2 && data[0] == 'B' && data[1] == 'M') {
        d = vgn_bmp_open(data, size, &info, &err);
    } else if (size >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '7') {
        d = vgn_pnm_open(data, size, &info, &err);
    } else if (size >= 4 && data[0] == 0 && data[1] == 0 && (data[2] == 1 || data[2] == 2) && data[3] == 0) {
        size_t off = 0, len = 0;
        int png = 0;
        uint32_t target = size % 3 == 0 ? 0 : (size % 3 == 1 ? 16 : 48);
        if (vgn_ico_select(data, size, target, &off, &len, &png, &info, &err) == VGN_OK) {
            if (off > size || len > size - off) abort(); /* the range must lie inside the data */
            if (!png) d = vgn_dib_open(data + off, len, &info, &err);
        } else {
            d = vgn_tga_open(data, size, &info, &err);
        }
    } else {
        d = vgn_tga_open(data, size, &info, &err);
    }
    if (d && (uint64_t)info.width * info.height > MAX_PIXELS) {
        vgn_decoder_close(d);
        return 0;
    }
    drain(d);
    return 0;
}
