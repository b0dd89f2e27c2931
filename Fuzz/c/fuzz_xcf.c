/* libFuzzer harness: the XCF compositor as ImageDecoder drives it (open for a 48-pixel target,
 * pixel cap, rows in bands, close); the first read composites every visible layer. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    return fuzz_drain(vgn_xcf_open(data, size, 48, &info, &err), &info);
}
