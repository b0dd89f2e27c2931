/* libFuzzer harness: the XPM and XBM decoders as ImageDecoder drives them (open, pixel cap, rows in
 * bands, close); the first byte's parity picks which (seeds of both kinds are each read by both). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    if (size == 0) return 0;
    return fuzz_drain(data[0] % 2 ? vgn_xbm_open(data, size, &info, &err) : vgn_xpm_open(data, size, &info, &err), &info);
}
