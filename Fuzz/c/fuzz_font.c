/* libFuzzer harness: fonts from memory through FreeType as FontGenerator uses them (no hinting). */
#include <stdlib.h>
#include "vgn_codecs.h"
#include "vgn_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_error err;
    vgn_font *f = vgn_font_open_memory(data, size, 0, 0, &err);
    if (!f) return 0;
    vgn_font_info info;
    vgn_font_metrics metrics;
    vgn_font_get_info(f, &info, &err);
    if (vgn_font_set_pixel_size(f, 24, &err) == VGN_OK) {
        vgn_font_get_metrics(f, &metrics, &err);
        uint32_t codepoints[32];
        int count = vgn_font_codepoints(f, 0, codepoints, 32);
        static const uint32_t sample[] = {'A', 'a', 'g', 0x4E2D, 0x1F600};
        int32_t width = 0, end = 0;
        vgn_font_measure_run(f, sample, 5, &width, &err);
        static uint8_t canvas[64 * 256 * 4];
        static const uint8_t ink[4] = {0, 0, 0, 255};
        vgn_font_draw_run(f, sample, 5, canvas, 256, 64, 256 * 4, 4, 0, 40, ink, 0, 256, &end, &err);
        if (count > 0) vgn_font_draw_run(f, codepoints, (size_t)count, canvas, 256, 64, 256 * 4, 4, 0, 40, ink, 0, 256, &end, &err);
        int32_t kern = 0;
        vgn_font_kerning(f, 'A', 'V', &kern, &err);
    }
    vgn_font_close(f);
    return 0;
}
