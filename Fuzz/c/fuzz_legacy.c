/* libFuzzer harness: the PCX, SGI and Sun raster decoders as ImageDecoder drives them (open, pixel cap, rows
 * in bands, close); every input goes to all three (each refuses the others' files at its magic, so a seed of one
 * kind also reaches the other two's first checks). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    fuzz_drain(vgn_pcx_open(data, size, &info, &err), &info);
    fuzz_drain(vgn_sgi_open(data, size, &info, &err), &info);
    return fuzz_drain(vgn_sun_open(data, size, &info, &err), &info);
}
