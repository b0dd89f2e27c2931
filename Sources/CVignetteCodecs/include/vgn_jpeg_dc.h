/*
 * vgn_jpeg_dc.h - DC-only decoder for progressive Huffman JPEG (1/8-scale thumbnails).
 *
 * A separate code path from vgn_codecs.h: pure C11 and the standard library, no libjpeg.
 * It reads only the DC scans of a progressive (SOF2) file and keeps one 16-bit value per
 * 8x8 block (about 1/32 of what libjpeg's whole-image coefficient buffer needs), plus the
 * output image. Anything it does not handle is reported as VGN_DC_NOT_APPLICABLE so the
 * caller can fall back to libjpeg (vgn_jpeg_open/start with scale_denom 8).
 *
 * Output follows libjpeg's 1/8 scaling: pixel = clamp(round(DC * Q0 / 8) + 128) per block
 * (jpeg_idct_1x1), chroma replicated to the luma block grid (what libjpeg does at 1/8: it
 * turns fancy upsampling off there), then YCbCr -> RGB with jdcolor.c's integer math. The
 * result is bit-identical to djpeg -scale 1/8 for 4:4:4, 4:2:2, 4:4:0 and grayscale; for
 * 4:2:0 libjpeg's chroma uses a 2x2 IDCT with AC terms, so chroma differs slightly.
 * (Compile with -DVGN_DC_FANCY_UPSAMPLING=1 for a triangle filter instead.)
 *
 * No global mutable state: the function is safe to call from several threads at once.
 */
#ifndef VGN_JPEG_DC_H
#define VGN_JPEG_DC_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Result of vgn_jpeg_dc_decode. */
typedef enum vgn_dc_status {
    VGN_DC_OK             = 0,  /* *out holds the image (check *warnings) */
    VGN_DC_NOT_APPLICABLE = 1,  /* not handled here (nothing allocated): fall back to libjpeg */
    VGN_DC_CORRUPT        = -1, /* invalid data (or bad arguments) and no usable image */
    VGN_DC_NOMEM          = -4  /* out of memory (or sizes overflow) */
} vgn_dc_status;

/* Decodes the DC scans of a progressive Huffman JPEG into a malloc'd 8-bit image of ceil(w/8) x ceil(h/8) pixels (RGB or gray); returns a vgn_dc_status. */
int vgn_jpeg_dc_decode(const uint8_t *data, size_t size, uint8_t **out, uint32_t *out_w, uint32_t *out_h,
                       int *channels_out, int *warnings, char *message, size_t message_size);

/*
 * Details of vgn_jpeg_dc_decode:
 *  - data/size: the whole JPEG file in memory (read only, not kept).
 *  - On VGN_DC_OK: *out = malloc'd pixels (release with free()), rows packed, stride =
 *    *out_w * *channels_out; *channels_out = 3 (RGB, from YCbCr) or 1 (grayscale).
 *    *warnings = 1 when the data ended early or a scan was corrupt but an image was still
 *    produced (blocks never decoded are mid-gray); message then says why.
 *  - On anything else: *out = NULL, *out_w = *out_h = 0, *channels_out = 0.
 *  - VGN_DC_NOT_APPLICABLE for: not progressive Huffman (baseline/extended sequential,
 *    arithmetic, lossless, hierarchical), precision != 8, components other than 1 or 3
 *    (CMYK/YCCK), RGB JPEG (Adobe transform 0 / 'R','G','B' component ids), sampling other
 *    than luma HxV in {1,2}x{1,2} with chroma 1x1 (gray: HxV in {1,2}x{1,2}), duplicate
 *    component ids, and data that ends (EOI or end of buffer) before every component had
 *    a DC scan.
 *  - VGN_DC_CORRUPT for malformed data found before every component had a DC scan: not a
 *    JPEG, bad segment lengths/tables/scan headers, zero width/height, missing tables.
 *  - message (may be NULL, message_size may be 0): a short English sentence for errors,
 *    NOT_APPLICABLE and warnings; "" on a clean VGN_DC_OK. warnings may be NULL.
 *  - Decoding stops as soon as every component's DC is complete (successive-approximation
 *    refinement scans after AC scans are found by skipping the AC data without decoding).
 *  - Memory: 2 bytes per block of every component (padded to the MCU grid) + 1 byte per
 *    chroma block + the output; about 1.3 MB + 0.75 MB output for a 16 MP 4:2:2 photo.
 *  - Width and height come from SOF (1..65535); the caller should bound the pixel count
 *    beforehand: the worst case (65535x65535, 4:4:4) needs ~400 MB of block arrays.
 */

#ifdef __cplusplus
}
#endif

#endif /* VGN_JPEG_DC_H */
