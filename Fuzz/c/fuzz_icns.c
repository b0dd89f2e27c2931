/* libFuzzer harness: Apple icon files as ImageDecoder.icns drives them: the entry chosen for a
 * target (64 on odd lengths, 512 on even ones), then its old bitmap or JPEG 2000 decoded (PNG
 * entries go to libpng, which the png harness covers). */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    size_t offset = 0, length = 0;
    int kind = -1;
    if (vgn_icns_select(data, size, size % 2 ? 64 : 512, &offset, &length, &kind, &info, &err) != 0) return 0;
    if (kind == VGN_ICNS_BITMAP) return fuzz_drain(vgn_icns_bitmap_open(data, size, offset, length, &info, &err), &info);
    if (kind == VGN_ICNS_JPEG2000) return fuzz_drain(vgn_jp2_open(data + offset, length, 64, &info, &err), &info);
    return 0;
}
