/* libFuzzer harness: the TIFF decoder as ImageDecoder drives it (open, pixel cap, all rows in bands). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    uint32_t target = size % 2 ? 64 : 0;
    return fuzz_drain(vgn_tiff_open(data, size, target, &info, &err), &info);
}
