/* libFuzzer harness: the JBIG decoder in-process (production runs it in its isolated child, as
 * libjbig aborts when an allocation fails): our header checks and layer choice in front of
 * libjbig, and libjbig itself on what passes them; at the full size or a small target (a lower
 * resolution layer) by the last byte's low bit. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    if (size == 0 || vgn_library_load(VGN_LIB_JBIG, &err) != 0) return 0;
    uint32_t target = (data[size - 1] & 1) ? 16 : 0;
    return fuzz_drain(vgn_jbig_open(data, size, target, &info, &err), &info);
}
