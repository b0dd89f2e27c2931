/* libFuzzer harness: the DPX decoder as ImageDecoder drives it (open, pixel cap, rows in bands,
 * close). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    return fuzz_drain(vgn_dpx_open(data, size, &info, &err), &info);
}
