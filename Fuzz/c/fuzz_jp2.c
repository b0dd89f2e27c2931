/* libFuzzer harness: the JPEG 2000 decoder as ImageDecoder drives it (open, pixel cap, rows in bands, close). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    /* The full picture on even lengths, a reduced one (target 64) on odd ones. */
    return fuzz_drain(vgn_jp2_open(data, size, size % 2 ? 64 : 0, &info, &err), &info);
}
