/*
 * vgn_inflate.h - streaming decompression (zlib, libbz2, liblzma) with caller-owned buffers.
 *
 * One opaque handle per stream: open -> feed... -> close. Each feed call decodes as much of
 * `in` as fits into `out` and reports how much it consumed and produced; the caller keeps the
 * unconsumed input and calls again. Nothing is allocated for output by the shim, so the caller
 * decides how much output it accepts in total (zip bombs are stopped on the Swift side).
 * Errors fill `vgn_error` (see vgn_codecs.h) with a lower-case sentence fragment.
 * One handle must not be used by two threads at once; different handles are independent.
 */
#ifndef VGN_INFLATE_H
#define VGN_INFLATE_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Formats a stream can decode. */
typedef enum vgn_stream_kind {
    VGN_STREAM_DEFLATE = 1, /* raw deflate (zip method 8), no header */
    VGN_STREAM_GZIP    = 2, /* gzip, members concatenated (trailing non-gzip bytes are ignored) */
    VGN_STREAM_BZIP2   = 3, /* bzip2, streams concatenated (pbzip2) */
    VGN_STREAM_XZ      = 4, /* .xz, streams concatenated, stream padding allowed */
    VGN_STREAM_LZMA    = 5, /* legacy .lzma (LZMA_Alone) */
    VGN_STREAM_ZSTD    = 6  /* Zstandard, frames concatenated */
} vgn_stream_kind;

/* Returned by vgn_stream_feed when the stream is complete (VGN_OK = more may follow). */
#define VGN_STREAM_END 1
/* Most memory the xz/lzma decoder may use (a hostile header can ask for 4 GiB of dictionary). */
#define VGN_STREAM_MAX_MEMORY 268435456ULL
/* The same bound for zstd: the largest window (log2) a frame may ask for (2^28 = 256 MiB). */
#define VGN_STREAM_ZSTD_WINDOW_LOG 28

typedef struct vgn_stream vgn_stream;

/* Opens a decoder of `kind`; NULL on error (unknown kind, out of memory). */
vgn_stream *vgn_stream_open(int kind, vgn_error *err);

/*
 * Decodes from in[0..in_len) into out[0..out_cap) (out_cap > 0). Sets *consumed and *produced.
 * Set `finish` when `in` holds the last of the input: a stream that then cannot complete gives
 * VGN_E_TRUNCATED. Returns VGN_OK (call again: with the rest of the input, more input, or after
 * draining `out`), VGN_STREAM_END (complete; input after *consumed is not part of the stream),
 * or a negative vgn_status (VGN_E_INVALID corrupt data, VGN_E_TRUNCATED, VGN_E_LIMIT memory,
 * VGN_E_UNSUPPORTED, VGN_E_NOMEM, VGN_E_STATE bad arguments). After END or an error, further
 * calls repeat that result without touching the buffers.
 */
int vgn_stream_feed(vgn_stream *s, const uint8_t *in, size_t in_len, int finish,
                    uint8_t *out, size_t out_cap, size_t *consumed, size_t *produced, vgn_error *err);

/* Releases the decoder (NULL is fine). */
void vgn_stream_close(vgn_stream *s);

/* Updates a CRC-32 (zip, gzip, PNG polynomial) with len bytes; start with crc = 0. */
uint32_t vgn_crc32(uint32_t crc, const uint8_t *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* VGN_INFLATE_H */
