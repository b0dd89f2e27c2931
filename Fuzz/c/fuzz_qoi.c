/* libFuzzer harness: the QOI and PFM decoders as ImageDecoder drives them (open, pixel cap, rows in
 * bands, close); each input goes to both (each refuses the other's header at once). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    fuzz_drain(vgn_qoi_open(data, size, &info, &err), &info);
    return fuzz_drain(vgn_pfm_open(data, size, &info, &err), &info);
}
