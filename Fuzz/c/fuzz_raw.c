/* libFuzzer harness: the RAW preview path as ImageDecoder drives it: LibRaw in a forked child
 * (vgn_raw_extract_isolated: a LibRaw crash is that child's, reported as an error), then the
 * bitmap preview's rows in bands. LibRaw 0.20.2 itself crashes on some inputs (a SEGV in
 * parse_tiff_ifd found by an in-process run of this harness): that is why production isolates it. */
#include <stdlib.h>
#include "vgn_decoder.h"

#define MAX_PIXELS (4u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_error err;
    vgn_raw_extract preview;
    vgn_isolate_set_self_start(0); /* a fork, as documented above: a fresh program per input is slower */
    if (size == 0 || vgn_raw_extract_isolated(data, size, 5000, &preview, &err) != VGN_OK) return 0;
    if (!preview.is_jpeg && (uint64_t)preview.width * preview.height <= MAX_PIXELS) {
        vgn_decoder *d = vgn_bitmap_open(preview.bytes, preview.width, preview.height, preview.colors);
        uint8_t *rows = d ? malloc((size_t)preview.width * 4 * 16) : NULL;
        if (rows) {
            while (vgn_decoder_read_rows(d, rows, (size_t)preview.width * 4, 16, &err) > 0) {
            }
        }
        free(rows);
        vgn_decoder_close(d);
    }
    vgn_free(preview.bytes);
    return 0;
}
