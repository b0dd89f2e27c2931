/* libFuzzer harness: the DDS decoder as ImageDecoder drives it (open, pixel cap, rows in bands, close), at
 * the full size or a small target (a mipmap level). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    /* the last byte's low bit chooses the first level or a mipmap covering 16 pixels */
    uint32_t target = size > 0 && (data[size - 1] & 1) ? 16 : 0;
    return fuzz_drain(vgn_dds_open(data, size, target, &info, &err), &info);
}
