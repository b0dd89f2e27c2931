/* vgn_internal.h - helpers shared by the shim's C files (not part of the public API). */
#ifndef VGN_INTERNAL_H
#define VGN_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "vgn_codecs.h"

#if defined(__GNUC__) || defined(__clang__)
#define VGN_HIDDEN __attribute__((visibility("hidden")))
#else
#define VGN_HIDDEN
#endif

#if defined(__GNUC__) || defined(__clang__)
#define VGN_NORETURN __attribute__((noreturn))
#else
#define VGN_NORETURN
#endif

#define VGN_MSG_LEN 256

/* Warnings collected on one handle/call: count + first text. */
typedef struct {
    int count;
    char first[VGN_MSG_LEN];
} vgn_warnings;

/* Copies a library message into a 256-byte field, dropping trailing newlines/spaces. */
VGN_HIDDEN void vgn_copy_message(char *dst, const char *src);

/* Records a warning (counts it; keeps the first text). */
VGN_HIDDEN void vgn_warn_add(vgn_warnings *w, const char *msg);

/* Caps the calling process's private memory (RLIMIT_DATA) at what it holds now plus `extra` bytes:
 * a forked child inherits its parent's heap, so a fixed limit would mean something else in every
 * process. For the children that run a library over hostile input (vgn_child.c, vgn_isolate.c),
 * forked or started as vignette-decode. */
VGN_HIDDEN void vgn_cap_private_memory(size_t extra);

/* Linear light to an 8-bit sRGB value: clamped to 0-1 (NaN and negatives 0), then the sRGB curve
 * (OpenEXR and Radiance HDR are shown as a display would). */
VGN_HIDDEN uint8_t vgn_linear_to_srgb8(float v);

/* The sRGB curve, unclamped: linear light to encoded values, and back. */
VGN_HIDDEN float vgn_srgb_encode(float v);
VGN_HIDDEN float vgn_srgb_decode(float v);

/* Half-precision (IEEE 754 binary16) to double, NaN and infinities kept. */
VGN_HIDDEN double vgn_half(uint16_t h);

/* Fills err (if non-NULL) with code, message (NULL -> "") and the warnings (NULL -> none). */
VGN_HIDDEN void vgn_err_fill(vgn_error *err, int code, const char *msg, const vgn_warnings *w);

/* vgn_err_fill(err, code, msg, NULL), then NULL: how an opener gives up. */
VGN_HIDDEN void *vgn_err_null(vgn_error *err, int code, const char *msg);

/* The size of the regular file open as `fd`, for a decoder that reads it through the descriptor
 * (`format` names it in messages); clears `info`. 0, or the error in `err`. */
VGN_HIDDEN int vgn_fd_file_size(int fd, const char *format, vgn_image_info *info, uint64_t *size, vgn_error *err);

/* Returns EXIF orientation 1..8 from a TIFF-structured EXIF block (starting at "II*\0"/"MM\0*"), 1 if absent/invalid. */
VGN_HIDDEN int vgn_exif_orientation_tiff(const uint8_t *tiff, size_t len);

/* Growing output buffer (malloc/realloc; released with free, i.e. vgn_free). */
typedef struct {
    uint8_t *data;
    size_t size;
    size_t cap;
} vgn_buf;

/* Ensures room for `extra` more bytes; 0 on success, -1 on overflow/out of memory. */
VGN_HIDDEN int vgn_buf_reserve(vgn_buf *b, size_t extra);

/* Appends n bytes; 0 on success, -1 on overflow/out of memory. */
VGN_HIDDEN int vgn_buf_append(vgn_buf *b, const uint8_t *p, size_t n);


#include "vgn_decoder.h"

/* The common head of every streaming decoder (see vgn_decoder.h); each codec's handle starts with
 * one and fills it in open. read_rows/close are the codec's own; vgn_decoder.c dispatches. */
struct vgn_decoder {
    int (*read_rows)(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);
    void (*close)(vgn_decoder *d);
    uint32_t width, height; /* size of the rows read_rows gives */
    size_t working;         /* bytes still to be allocated while reading */
    double extent_width, extent_height; /* vgn_decoder_extent, when not the size (else 0) */
    const uint8_t *icc;     /* the embedded ICC profile (owned by the codec's handle), or NULL */
    size_t icc_size;
    int icc_cmyk;           /* 1: a CMYK profile the codec applies itself once given cmyk_transform */
    int opaque;             /* 1: every row's alpha is 255 (vgn_decoder_opaque) */
    const struct vgn_icc *cmyk_transform; /* set by vgn_decoder_set_cmyk_transform before the first read */
};

/* How a caller shows a grey JPEG 2000 picture's samples itself (DICOM's rescale and window): prepare
 * sees the decoded component once, before the first row (count samples, signed when sgnd), map turns
 * each sample as coded into a level. Set on a vgn_jp2_open handle before its first read. */
typedef struct {
    void (*prepare)(void *context, const int32_t *samples, size_t count, int sgnd);
    uint8_t (*map)(void *context, int32_t sample, int sgnd);
    void *context;
} vgn_jp2_grey_map;
VGN_HIDDEN void vgn_jp2_set_grey_map(vgn_decoder *d, const vgn_jp2_grey_map *map);

/* Decodes a lossless JPEG (SOF3) codestream of width x height pixels of `components` samples into out
 * (host-order 16-bit samples, pixel by pixel: width x height x components of them); 0, or the error
 * (a frame of another size or kind is refused). See vgn_ljpeg.c. */
VGN_HIDDEN int vgn_ljpeg_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int components, uint16_t *out,
                                vgn_error *err);

/* Decodes a JPEG-LS codestream (CharLS, loaded here on first use: call it in a child) of width x height
 * pixels of `components` samples into *out (malloc'd): host-order 16-bit samples when *bytes is 2, else
 * bytes; pixel by pixel, or plane by plane when *planar. 0, or the error (a frame of another size or
 * kind is refused before decoding). See vgn_jls.c. */
VGN_HIDDEN int vgn_jls_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int components, uint8_t **out,
                              int *bytes, int *planar, vgn_error *err);

/* In a decoder child: fault signals back to their default action, stderr to /dev/null. */
VGN_HIDDEN void vgn_child_quiet(void);

/* Pipes to decoder children (vgn_isolate.c, vgn_child.c). The monotonic clock in milliseconds. */
VGN_HIDDEN int64_t vgn_monotonic_ms(void);

/* Writes all n bytes (retrying on EINTR); 0, or -1 on error. */
VGN_HIDDEN int vgn_fd_write_all(int fd, const void *p, size_t n);

/* Reads exactly n bytes before `deadline` (vgn_monotonic_ms; -1 for none): 0, -1 at the end of
 * the stream or on error, -2 on timeout. */
VGN_HIDDEN int vgn_fd_read_all(int fd, void *p, size_t n, int64_t deadline);

/* A reader in a child process that answers through a pipe (vgn_child.c; the PDF, media and
 * camera RAW readers). */
typedef struct {
    int pid;          /* the child */
    int fd;           /* the read end of its answer pipe */
    int64_t deadline; /* vgn_monotonic_ms past which it is stopped */
} vgn_child;

/* What a child runs: it writes its answer to fd. */
typedef void (*vgn_child_body)(int fd, const uint8_t *data, size_t size, const void *request);

/* A reader a child can run: the name vignette-decode knows it by, its body, the size of its
 * request (plain bytes, copied to the helper; 0: none), and where in the request the path of a
 * file to read goes (VGN_CHILD_NO_PATH: nowhere), as a pointer means nothing in another program. */
typedef struct {
    const char *name;
    vgn_child_body body;
    size_t request_size;
    size_t path_offset;
} vgn_child_reader;
#define VGN_CHILD_NO_PATH ((size_t)-1)

VGN_HIDDEN extern const vgn_child_reader vgn_pdf_reader, vgn_media_reader, vgn_raw_reader;

/* Starts a child that runs reader->body(fd, data, size, request) quietly (vgn_child_quiet), its
 * private memory capped at what it starts with plus `max_memory` (0: no cap), then exits; the
 * parent keeps the read end and the deadline (timeout_ms from now). The child is a fresh program
 * (vgn_helper_spawn), else a fork. 0, or VGN_E_IO with err naming `what`. */
VGN_HIDDEN int vgn_child_start(vgn_child *c, const vgn_child_reader *reader, const uint8_t *data, size_t size,
                               const void *request, const char *path, unsigned timeout_ms, size_t max_memory,
                               const char *what, vgn_error *err);

/* vignette-decode's main for `reader NAME SIZE MAX-MEMORY [PATH]`: the input in a memfd on fd 3,
 * the request's bytes on fd 4, the answer to fd 5. */
VGN_HIDDEN int vgn_child_helper_main(int argc, char **argv);

/* In vignette-decode: the input of `size_arg` bytes (a decimal number) mapped from the memfd on
 * fd 3, which is then closed; *data is NULL for 0 bytes. 0, or -1 when the number or the memfd is
 * not what the caller sent. */
VGN_HIDDEN int vgn_helper_input(const char *size_arg, const uint8_t **data, size_t *size);

/* Whether children start as a fresh program: the named helper or the caller's executable. */
VGN_HIDDEN int vgn_helper_named(void);

/* Starts the helper, or the caller's executable when none is named, with args after its name
 * (NULL-terminated, 6 at most), `data` in a memfd on fd 3, `in` on fd 4 and `out` on fd 5: its
 * pid, or -1 (neither is to start, or it could not; the caller forks instead). */
VGN_HIDDEN pid_t vgn_helper_spawn(char *const args[], const uint8_t *data, size_t size, int in, int out);

/* Reads exactly n bytes of the answer before the deadline: 0, -1 at its end or on error, -2 on timeout. */
VGN_HIDDEN int vgn_child_read(vgn_child *c, void *p, size_t n);

/* Ends the child (killed first when rc is -2, a timeout) and reaps it; returns its wait status. */
VGN_HIDDEN int vgn_child_end(vgn_child *c, int rc);

/* Fills err for a child that gave no whole answer, naming `library`: rc -2 timed out, -3 an answer
 * larger than asked for, else how the child ended (status); returns the error code. */
VGN_HIDDEN int vgn_child_failure(vgn_error *err, const char *library, int rc, int status, unsigned timeout_ms,
                                 size_t max_memory);

#endif /* VGN_INTERNAL_H */
