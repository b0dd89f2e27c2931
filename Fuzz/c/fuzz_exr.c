/* libFuzzer harness: the OpenEXR decoder as ImageDecoder drives it, in its isolated child (a fork
 * here): OpenEXRCore 3.1.5 dereferences NULL on damaged chunks, which in production is an error for
 * that file; what this harness looks for is a fault on our side of the pipe (open, pixel cap, rows
 * in bands, close). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    vgn_isolate_set_self_start(0); /* a fork, as documented above: a fresh program per input is slower */
    if (size == 0 || vgn_library_load(VGN_LIB_OPENEXR, &err) != 0) return 0;
    /* the last byte's low bit chooses the full resolution or a mipmap level covering 4 pixels */
    uint32_t target = size > 0 && (data[size - 1] & 1) ? 4 : 0;
    return fuzz_drain(vgn_isolated_open(vgn_exr_open, "OpenEXR", data, size, target, 10000, &info, &err), &info);
}
