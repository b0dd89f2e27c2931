/*
 * vgn_codecs.h - Vignette's C shim over libjpeg-turbo (8-bit) and libpng 1.6.
 *
 * Conventions (apply to every function below):
 *  - Every call that takes a `vgn_error *err` fills it (err may be NULL):
 *      code           VGN_OK or one of the negative vgn_status values;
 *      message        a human sentence when code != 0 ("" on success), no trailing newline;
 *      warning_count  number of library warnings so far on this handle (cumulative over
 *                     open/start/read_rows of one decoder; per call for the encoders);
 *      warning        text of the FIRST such warning ("" if none).
 *    Warnings are never printed to stderr.
 *  - Functions returning int return 0 (or a row count) on success, a negative vgn_status
 *    on failure. Functions returning a handle return NULL on failure.
 *  - Input is always memory owned by the caller: keep `data` alive and unmodified until
 *    the corresponding close call.
 *  - No global mutable state: different handles may be used on different threads at the
 *    same time; one handle must not be used by two threads at once.
 *  - setjmp/longjmp never cross this interface.
 */
#ifndef VGN_CODECS_H
#define VGN_CODECS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes (returned by functions and stored in vgn_error.code). */
typedef enum vgn_status {
    VGN_OK            = 0,
    VGN_E_INVALID     = -1, /* corrupt or invalid data */
    VGN_E_UNSUPPORTED = -2, /* valid but unsupported (12-bit / lossless / hierarchical JPEG, ...) */
    VGN_E_TRUNCATED   = -3, /* the input ended too early (rows returned before the error stay valid) */
    VGN_E_NOMEM       = -4, /* out of memory */
    VGN_E_LIMIT       = -5, /* a size/memory/scan/warning limit was exceeded */
    VGN_E_STATE       = -6, /* API misuse: NULL/bad argument, wrong call order */
    VGN_E_IO          = -7  /* a file could not be read (vgn_tiff_open_fd), or output could not be produced */
} vgn_status;

/* Error/warning report filled by every call. */
typedef struct {
    int code;            /* VGN_OK or a negative vgn_status */
    char message[256];   /* NUL-terminated sentence, "" when code == VGN_OK */
    int warning_count;   /* library warnings so far (see conventions above) */
    char warning[256];   /* first warning text, "" when warning_count == 0 */
} vgn_error;

/* Header information, filled by vgn_jpeg_open / vgn_png_open. */
typedef struct {
    uint32_t width, height; /* full image size from the header */
    int components;         /* as stored: JPEG 1 gray, 3 YCbCr/RGB, 4 CMYK/YCCK; PNG channels before transforms (palette = 1) */
    int bit_depth;          /* JPEG 8 (12-bit files are rejected at open); PNG 1/2/4/8/16 */
    int color_type;         /* PNG colour type (0,2,3,4,6); JPEG J_COLOR_SPACE value (1 gray, 2 RGB, 3 YCbCr, 4 CMYK, 5 YCCK, 0 unknown) */
    int progressive;        /* JPEG: progressive (SOF2/SOF10) */
    int arithmetic;         /* JPEG: arithmetic entropy coding (SOF9/SOF10) */
    int interlaced;         /* PNG: Adam7 */
    int has_alpha;          /* PNG: alpha channel or a valid tRNS chunk */
    int orientation;        /* EXIF orientation 1..8 (JPEG APP1 "Exif", PNG eXIf before IDAT, WebP EXIF chunk); 1 when absent/invalid */
} vgn_image_info;

/* Limits applied inside the shim (informational; plain literals so Swift imports the right values). */
#define VGN_JPEG_MAX_WARNINGS        1000          /* more corrupt-data warnings -> VGN_E_INVALID "too many errors in JPEG data" */
#define VGN_JPEG_MAX_SCANS           500           /* more scans -> VGN_E_LIMIT */
#define VGN_JPEG_MAX_MEMORY          2147483648ULL /* 2 GiB of libjpeg working memory (whole-image coefficient buffer of progressive/multi-scan files) -> VGN_E_LIMIT */
#define VGN_PNG_MAX_DIMENSION        1000000       /* png_set_user_limits width/height -> VGN_E_LIMIT at open */
#define VGN_PNG_MAX_CHUNK            8388608       /* png_set_chunk_malloc_max (8 MiB) */
#define VGN_PNG_MAX_INTERLACED_BYTES 4294967296ULL /* 4 GiB: RGBA buffer for Adam7 images -> VGN_E_LIMIT at first read_rows */

/* ------------------------------------------------------------------------------------ */
/* JPEG decoding. Call order: open -> [caller checks info] -> start -> read_rows... -> close. */

typedef struct vgn_jpeg vgn_jpeg;

/* Parses the JPEG header (and EXIF orientation) from memory; allocates no pixel memory; NULL on error. */
vgn_jpeg *vgn_jpeg_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* Starts decompression at scale 1/scale_denom (1,2,4,8) with optional DC-only progressive shortcut; reports output size and channels (3 RGB or 1 gray). */
int vgn_jpeg_start(vgn_jpeg *j, int scale_denom, int dc_only,
                   uint32_t *out_w, uint32_t *out_h, int *out_channels, vgn_error *err);

/* Decodes up to max_rows output rows into dst (row i at dst + i*stride, stride >= out_w*out_channels); returns rows written, 0 at end, negative on error. */
int vgn_jpeg_read_rows(vgn_jpeg *j, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Releases the decoder (NULL is fine); never reads the rest of the input. */
void vgn_jpeg_close(vgn_jpeg *j);

/* ------------------------------------------------------------------------------------ */
/* PNG decoding (output always 8-bit RGBA, no gamma/colour management). Call order: open -> start -> read_rows... -> close. */

typedef struct vgn_png vgn_png;

/* Reads the PNG signature and chunks up to the first IDAT (png_read_info) from memory; NULL on error. */
vgn_png *vgn_png_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* Sets up the transforms: RGBA8 rows (info.width x 4 bytes), or with allow_rgb set, for an image without alpha (no alpha channel, no tRNS), 3-channel RGB rows, skipping the alpha filler; *out_channels (may be NULL) receives 3 or 4. */
int vgn_png_start_ex(vgn_png *p, int allow_rgb, int *out_channels, vgn_error *err);

/* Decodes up to max_rows rows (RGBA8, or RGB8 after vgn_png_start_ex chose 3 channels) into dst (stride >= width*channels); returns rows written, 0 at end, negative on error. */
int vgn_png_read_rows(vgn_png *p, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Releases the decoder and any internal image buffer (NULL is fine). */
void vgn_png_close(vgn_png *p);

/* ------------------------------------------------------------------------------------ */
/* Encoders: output is malloc'd by the shim; release it with vgn_free. On failure *out is NULL and *out_size 0. */

/* Encodes 8-bit pixels (channels 1 gray, 2 gray+alpha, 3 RGB, 4 RGBA) as a non-interlaced PNG with tEXt chunks (Latin-1 keys of 1..79 chars) before IDAT. */
int vgn_png_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                   const char *const *text_keys, const char *const *text_values, int text_count,
                   int compression_level, uint8_t **out, size_t *out_size, vgn_error *err);

/* Encodes 8-bit gray (channels 1) or RGB (channels 3) as a baseline JPEG (quality 1..100, optimized Huffman, 4:2:0 for colour). */
int vgn_jpeg_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels,
                    int quality, uint8_t **out, size_t *out_size, vgn_error *err);

/* WebP (libwebp). Reads the header: size, alpha (components 4, else 3), whether it is animated
 * (*animated may be NULL); nothing is decoded or allocated. */
int vgn_webp_info(const uint8_t *data, size_t size, vgn_image_info *info, int *animated, vgn_error *err);

/* Decodes the (first frame of the) image scaled to out_w x out_h, RGBA8 rows into dst (stride >=
 * out_w*4; dst holds stride*out_h bytes); libwebp scales while decoding, so only the output and
 * a few rows are ever held. Returns VGN_OK or a negative vgn_status. */
int vgn_webp_decode(const uint8_t *data, size_t size, uint32_t out_w, uint32_t out_h, uint8_t *dst, size_t stride,
                    vgn_error *err);

/* Decodes the first frame of an animated WebP (libwebpdemux) composed on its canvas: RGBA8 rows of
 * the canvas size vgn_webp_info reported into dst (stride >= width*4, stride*height bytes). The
 * other frames' bitstreams are never decoded; *frames (may be NULL) gets the frame count. */
int vgn_webp_decode_first_frame(const uint8_t *data, size_t size, uint8_t *dst, size_t stride, uint32_t *frames,
                                vgn_error *err);

/* Encodes RGB (channels 3) or RGBA (channels 4) as WebP: lossy at quality 0..100 (libwebp's photo
 * preset, method 4), or lossless when `lossless` is non-zero. Alpha is kept. */
int vgn_webp_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                    int lossless, uint8_t **out, size_t *out_size, vgn_error *err);

/* Encodes RGB or RGBA as AVIF through libheif's AV1 encoder (libaom): quality 1..100, speed 0..9
 * (libaom's cpu-used: higher is faster), 4:2:0. Alpha is kept as an alpha plane. */
int vgn_avif_encode(const uint8_t *pixels, uint32_t width, uint32_t height, size_t stride, int channels, int quality,
                    int speed, uint8_t **out, size_t *out_size, vgn_error *err);

/* Frees a buffer returned by an encoder (NULL is fine). */
void vgn_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* VGN_CODECS_H */
