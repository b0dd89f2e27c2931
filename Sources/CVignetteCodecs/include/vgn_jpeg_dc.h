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

/* ---- 1/2, 1/4 (and 1/8) scale: low-frequency decoder -------------------------------- */

/* Flag for vgn_jpeg_lowfreq_decode_ex: keep every coefficient libjpeg-turbo's scaled IDCT
   reads, so the output is bit-identical to djpeg -scale 1/denom (more memory, see below). */
#define VGN_LF_EXACT 1

/* Decodes a progressive Huffman JPEG at scale 1/scale_denom (2, 4 or 8) keeping only the low-frequency N×N corner of each block (N = 8/scale_denom): output ceil(w/denom) × ceil(h/denom), RGB or gray, malloc'd; same status/warning/message conventions as vgn_jpeg_dc_decode. */
int vgn_jpeg_lowfreq_decode(const uint8_t *data, size_t size, int scale_denom, uint8_t **out, uint32_t *out_w, uint32_t *out_h,
                            int *channels_out, int *warnings, char *message, size_t message_size);

/* Same with flags (0 or VGN_LF_EXACT); vgn_jpeg_lowfreq_decode(...) == ..._ex(..., 0, ...). */
int vgn_jpeg_lowfreq_decode_ex(const uint8_t *data, size_t size, int scale_denom, int flags, uint8_t **out,
                               uint32_t *out_w, uint32_t *out_h, int *channels_out, int *warnings, char *message,
                               size_t message_size);

/*
 * Details of vgn_jpeg_lowfreq_decode(_ex):
 *  - Same input/output/status conventions and the same VGN_DC_NOT_APPLICABLE set as
 *    vgn_jpeg_dc_decode (baseline, arithmetic, lossless, hierarchical, 12-bit, CMYK/YCCK,
 *    RGB JPEG, sampling other than luma {1,2}x{1,2} with 1x1 chroma, duplicate ids, data
 *    ending before every component had a DC scan). scale_denom not 2/4/8 or unknown flags:
 *    VGN_DC_CORRUPT with "bad arguments".
 *  - Every scan is entropy-decoded (DC/AC first and refinement scans as in libjpeg-turbo's
 *    jdphuff.c, restart markers resynchronised like libjpeg); the data is read to EOI.
 *    *warnings = 1 (image still produced) for truncated data, corrupt scans, bad Huffman
 *    codes, inconsistent progression; blocks/coefficients never decoded stay 0.
 *  - Reconstruction follows libjpeg-turbo 2.1 for scaled output: per component DCT scaled
 *    size (4:2:0 chroma gets a 2x larger IDCT instead of upsampling: 4x4 at 1/4, 8x8 at
 *    1/2, 2x2 at 1/8), jidctred.c jpeg_idct_2x2/4x4, jidctint.c islow 8x8, jpeg_idct_1x1
 *    (range-limit table semantics), jdsample.c fancy upsampling (h2v1/h1v2/h2v2 triangle,
 *    replication when the chroma width is <= 2), jdcolor.c YCbCr->RGB.
 *  - Kept coefficients and memory per block (component block grid padded to the MCU):
 *      flags 0 (default): the min(S,4) x min(S,4) low-frequency corner, S = that
 *        component's IDCT size: 2 bytes per kept coefficient + 8 (nonzero mask): 16 bytes
 *        at 1/4 (2x2), 40 bytes at 1/2 (4x4) and for 4:2:0 chroma at 1/4 or 1/2. libjpeg's
 *        reduced IDCTs also read the odd coefficients 3,5,7 (2x2) and 5,6,7 (4x4) rows and
 *        columns (they average 8-point IDCT outputs); dropping them changes textured
 *        areas by a few levels (see the test report), with less aliasing.
 *      VGN_LF_EXACT: rows/cols {0,1,3,5,7} at S=2 (58 bytes/block), {0,1,2,3,5,6,7} at
 *        S=4 (106 bytes), all 64 at S=8 (136 bytes): bit-identical to djpeg for complete
 *        files, but only ~2x less than libjpeg's 128 bytes/block (for 1/2: about the same).
 *      scale_denom 8 without VGN_LF_EXACT simply calls vgn_jpeg_dc_decode (fast, DC only);
 *      with VGN_LF_EXACT it decodes all scans (exact for 4:2:0 too).
 *    Plus the output and a few rows. E.g. a 16 MP 4:2:0 photo at 1/4: ~9 MB of block
 *    data (libjpeg: ~48 MB); measured peak RSS 14 MB vs 51 MB (VGN_LF_EXACT: 31 MB).
 *  - Differences from djpeg besides the dropped coefficients: libjpeg's block smoothing
 *    (only applied when some low AC coefficients were never fully coded, i.e. truncated or
 *    incomplete progressions) is not done; bad Huffman codes end the restart segment.
 *  - Width and height come from SOF; the caller should bound the pixel count beforehand.
 */

#ifdef __cplusplus
}
#endif

#endif /* VGN_JPEG_DC_H */
