/* libFuzzer harness: the BMP, ICO/CUR (DIB entries), TGA and PNM/PAM streaming decoders as
 * ImageDecoder drives them (open, pixel cap, rows in bands of 16, close). The first bytes pick the
 * opener: "BM" BMP, "P1".."P7" PNM, an ICO/CUR directory (00 00 01|02 00) whose selected entry is
 * a DIB, anything else (and ICO-looking data that is no icon) TGA. */
#include <string.h>
#include "fuzz_decoder.h"

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
    return fuzz_drain(d, &info);
}
