/* libFuzzer harness: the Windows metafile renderer (WMF, placeable or not, and EMF) as ImageDecoder
 * drives it (open, pixel cap, rows in bands, close), in-process so that a fault in our record
 * walk shows here (production runs it through vgn_isolated_open as "cairo"). Every input is
 * rendered at a 256-pixel target (as thumbnails are) and at its natural size under the cap. */
#include "fuzz_decoder.h"

/* cairo's toy fonts keep fontconfig's configuration for the process: its allocations are found
 * by name (Fuzz/lsan.supp) only with full stacks through fontconfig, built without frame pointers. */
const char *__asan_default_options(void) { return "fast_unwind_on_malloc=0"; }

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    if (vgn_library_load(VGN_LIB_CAIRO, &err) != 0) return 0;
    fuzz_drain(vgn_metafile_open(data, size, 256, &info, &err), &info);
    return fuzz_drain(vgn_metafile_open(data, size, 0, &info, &err), &info);
}
