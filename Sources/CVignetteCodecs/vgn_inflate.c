/* vgn_inflate.c - streaming decompression over zlib, libbz2, liblzma and libzstd (see vgn_inflate.h). */
#include <bzlib.h>
#include <limits.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

#include "vgn_inflate.h"
#include "vgn_internal.h"

/* zlib and libbz2 count in 32-bit unsigned ints: never hand them more per call. */
#define VGN_STREAM_MAX_CHUNK ((size_t)1 << 30)

struct vgn_stream {
    int kind;
    int state;       /* 0 running, 1 ended, negative: the sticky error */
    int member_done; /* gzip/bzip2/zstd: one member (frame) ended, another may follow */
    char message[VGN_MSG_LEN];
    z_stream z;
    bz_stream bz;
    lzma_stream lz;
    ZSTD_DStream *zs;
};

static const char *kind_name(int kind)
{
    switch (kind) {
    case VGN_STREAM_DEFLATE: return "deflate";
    case VGN_STREAM_GZIP: return "gzip";
    case VGN_STREAM_BZIP2: return "bzip2";
    case VGN_STREAM_XZ: return "xz";
    case VGN_STREAM_ZSTD: return "zstd";
    default: return "lzma";
    }
}

static int fail(vgn_stream *s, int code, const char *what, vgn_error *err)
{
    s->state = code;
    vgn_copy_message(s->message, what);
    vgn_err_fill(err, code, s->message, NULL);
    return code;
}

static int fail_kind(vgn_stream *s, int code, const char *fmt, const char *detail, vgn_error *err)
{
    char text[VGN_MSG_LEN];
    snprintf(text, sizeof text, fmt, kind_name(s->kind), detail != NULL ? detail : "");
    return fail(s, code, text, err);
}

static int start_decoder(vgn_stream *s)
{
    switch (s->kind) {
    case VGN_STREAM_DEFLATE:
        memset(&s->z, 0, sizeof s->z);
        return inflateInit2(&s->z, -15) == Z_OK ? 0 : -1;
    case VGN_STREAM_GZIP:
        memset(&s->z, 0, sizeof s->z);
        return inflateInit2(&s->z, 15 + 16) == Z_OK ? 0 : -1;
    case VGN_STREAM_BZIP2:
        memset(&s->bz, 0, sizeof s->bz);
        return BZ2_bzDecompressInit(&s->bz, 0, 0) == BZ_OK ? 0 : -1;
    case VGN_STREAM_XZ: {
        lzma_stream init = LZMA_STREAM_INIT;
        s->lz = init;
        return lzma_stream_decoder(&s->lz, VGN_STREAM_MAX_MEMORY, LZMA_CONCATENATED) == LZMA_OK ? 0 : -1;
    }
    case VGN_STREAM_LZMA: {
        lzma_stream init = LZMA_STREAM_INIT;
        s->lz = init;
        return lzma_alone_decoder(&s->lz, VGN_STREAM_MAX_MEMORY) == LZMA_OK ? 0 : -1;
    }
    case VGN_STREAM_ZSTD:
        s->zs = ZSTD_createDStream();
        if (s->zs == NULL) return -1;
        /* A frame's window is what its decoder allocates: cap it as xz's dictionary is capped. */
        return ZSTD_isError(ZSTD_DCtx_setParameter(s->zs, ZSTD_d_windowLogMax, VGN_STREAM_ZSTD_WINDOW_LOG)) ? -1 : 0;
    default:
        return -1;
    }
}

static void end_decoder(vgn_stream *s)
{
    switch (s->kind) {
    case VGN_STREAM_DEFLATE:
    case VGN_STREAM_GZIP: inflateEnd(&s->z); break;
    case VGN_STREAM_BZIP2: BZ2_bzDecompressEnd(&s->bz); break;
    case VGN_STREAM_ZSTD:
        ZSTD_freeDStream(s->zs);
        s->zs = NULL;
        break;
    default: lzma_end(&s->lz); break;
    }
}

vgn_stream *vgn_stream_open(int kind, vgn_error *err)
{
    if (kind < VGN_STREAM_DEFLATE || kind > VGN_STREAM_ZSTD) {
        vgn_err_fill(err, VGN_E_STATE, "unknown compression kind", NULL);
        return NULL;
    }
    vgn_stream *s = calloc(1, sizeof *s);
    if (s == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    s->kind = kind;
    if (start_decoder(s) != 0) {
        free(s);
        vgn_err_fill(err, VGN_E_NOMEM, "could not start the decoder (out of memory)", NULL);
        return NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return s;
}

void vgn_stream_close(vgn_stream *s)
{
    if (s == NULL)
        return;
    end_decoder(s);
    free(s);
}

uint32_t vgn_crc32(uint32_t crc, const uint8_t *data, size_t len)
{
    uLong c = crc;
    while (len > 0) {
        uInt n = len > UINT_MAX ? UINT_MAX : (uInt)len;
        c = crc32(c, data, n);
        data += n;
        len -= n;
    }
    return (uint32_t)c;
}

/*
 * After a gzip/bzip2 member ended: decides from the next bytes whether another member follows.
 * Returns 1 (restarted), 0 (the stream is over), 2 (undecided: need more input).
 */
static int next_member(vgn_stream *s, const uint8_t *in, size_t len, int finish)
{
    const uint8_t *magic = s->kind == VGN_STREAM_GZIP   ? (const uint8_t *)"\x1f\x8b"
                           : s->kind == VGN_STREAM_ZSTD ? (const uint8_t *)"\x28\xb5\x2f\xfd"
                                                        : (const uint8_t *)"BZh";
    size_t need = s->kind == VGN_STREAM_GZIP ? 2 : s->kind == VGN_STREAM_ZSTD ? 4 : 3;
    size_t have = len < need ? len : need;
    if (memcmp(in, magic, have) != 0)
        return 0;
    if (have < need)
        return finish ? 0 : 2;
    end_decoder(s);
    if (start_decoder(s) != 0)
        return -1;
    s->member_done = 0;
    return 1;
}

/* One library call over the given buffers; returns VGN_OK, VGN_STREAM_END, or a negative status. */
static int step(vgn_stream *s, const uint8_t *in, size_t in_len, int finish, uint8_t *out, size_t out_cap,
                size_t *used, size_t *made, vgn_error *err)
{
    *used = 0;
    *made = 0;
    if (s->kind == VGN_STREAM_DEFLATE || s->kind == VGN_STREAM_GZIP) {
        s->z.next_in = (Bytef *)in;
        s->z.avail_in = (uInt)in_len;
        s->z.next_out = out;
        s->z.avail_out = (uInt)out_cap;
        int r = inflate(&s->z, Z_NO_FLUSH);
        *used = in_len - s->z.avail_in;
        *made = out_cap - s->z.avail_out;
        switch (r) {
        case Z_OK:
        case Z_BUF_ERROR: return VGN_OK;
        case Z_STREAM_END: return VGN_STREAM_END;
        case Z_NEED_DICT: return fail_kind(s, VGN_E_UNSUPPORTED, "%s data needs a preset dictionary%s", NULL, err);
        case Z_MEM_ERROR: return fail(s, VGN_E_NOMEM, "out of memory", err);
        default: return fail_kind(s, VGN_E_INVALID, "corrupt %s data: %s", s->z.msg != NULL ? s->z.msg : "invalid", err);
        }
    }
    if (s->kind == VGN_STREAM_BZIP2) {
        s->bz.next_in = (char *)in;
        s->bz.avail_in = (unsigned)in_len;
        s->bz.next_out = (char *)out;
        s->bz.avail_out = (unsigned)out_cap;
        int r = BZ2_bzDecompress(&s->bz);
        *used = in_len - s->bz.avail_in;
        *made = out_cap - s->bz.avail_out;
        switch (r) {
        case BZ_OK: return VGN_OK;
        case BZ_STREAM_END: return VGN_STREAM_END;
        case BZ_MEM_ERROR: return fail(s, VGN_E_NOMEM, "out of memory", err);
        case BZ_DATA_ERROR_MAGIC: return fail(s, VGN_E_INVALID, "not bzip2 data (bad magic)", err);
        default: return fail(s, VGN_E_INVALID, "corrupt bzip2 data", err);
        }
    }
    if (s->kind == VGN_STREAM_ZSTD) {
        ZSTD_inBuffer input = {in, in_len, 0};
        ZSTD_outBuffer output = {out, out_cap, 0};
        size_t r = ZSTD_decompressStream(s->zs, &output, &input);
        *used = input.pos;
        *made = output.pos;
        if (!ZSTD_isError(r)) return r == 0 ? VGN_STREAM_END : VGN_OK;
        switch (ZSTD_getErrorCode(r)) {
        case ZSTD_error_frameParameter_windowTooLarge:
            return fail_kind(s, VGN_E_LIMIT, "%s data needs more than 256 MiB of memory to decompress%s", NULL, err);
        case ZSTD_error_memory_allocation: return fail(s, VGN_E_NOMEM, "out of memory", err);
        case ZSTD_error_prefix_unknown: return fail_kind(s, VGN_E_INVALID, "not %s data%s", NULL, err);
        default: return fail_kind(s, VGN_E_INVALID, "corrupt %s data: %s", ZSTD_getErrorName(r), err);
        }
    }
    s->lz.next_in = in;
    s->lz.avail_in = in_len;
    s->lz.next_out = out;
    s->lz.avail_out = out_cap;
    lzma_ret r = lzma_code(&s->lz, finish ? LZMA_FINISH : LZMA_RUN);
    *used = in_len - s->lz.avail_in;
    *made = out_cap - s->lz.avail_out;
    switch (r) {
    case LZMA_OK:
    case LZMA_BUF_ERROR: return VGN_OK;
    case LZMA_STREAM_END: return VGN_STREAM_END;
    case LZMA_MEMLIMIT_ERROR:
        return fail_kind(s, VGN_E_LIMIT, "%s data needs more than 256 MiB of memory to decompress%s", NULL, err);
    case LZMA_MEM_ERROR: return fail(s, VGN_E_NOMEM, "out of memory", err);
    case LZMA_FORMAT_ERROR: return fail_kind(s, VGN_E_INVALID, "not %s data%s", NULL, err);
    case LZMA_OPTIONS_ERROR: return fail_kind(s, VGN_E_UNSUPPORTED, "unsupported %s options%s", NULL, err);
    default: return fail_kind(s, VGN_E_INVALID, "corrupt %s data%s", NULL, err);
    }
}

int vgn_stream_feed(vgn_stream *s, const uint8_t *in, size_t in_len, int finish,
                    uint8_t *out, size_t out_cap, size_t *consumed, size_t *produced, vgn_error *err)
{
    if (consumed != NULL)
        *consumed = 0;
    if (produced != NULL)
        *produced = 0;
    if (s == NULL || consumed == NULL || produced == NULL || out == NULL || out_cap == 0 || (in == NULL && in_len > 0)) {
        vgn_err_fill(err, VGN_E_STATE, "invalid arguments to vgn_stream_feed", NULL);
        return VGN_E_STATE;
    }
    if (s->state < 0) {
        vgn_err_fill(err, s->state, s->message, NULL);
        return s->state;
    }
    if (s->state == 1) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return VGN_STREAM_END;
    }
    static const uint8_t empty = 0;
    if (in == NULL)
        in = &empty;
    if (in_len > VGN_STREAM_MAX_CHUNK) {
        in_len = VGN_STREAM_MAX_CHUNK;
        finish = 0; /* the caller still holds the rest */
    }
    if (out_cap > VGN_STREAM_MAX_CHUNK)
        out_cap = VGN_STREAM_MAX_CHUNK;

    size_t in_pos = 0, out_pos = 0;
    for (;;) {
        if (s->member_done) {
            int next = next_member(s, in + in_pos, in_len - in_pos, finish);
            if (next < 0)
                return fail(s, VGN_E_NOMEM, "could not restart the decoder (out of memory)", err);
            if (next == 2 || (next == 0 && in_pos == in_len && !finish))
                break; /* wait for more input */
            if (next == 0) {
                s->state = 1;
                break;
            }
        }
        size_t used = 0, made = 0;
        int r = step(s, in + in_pos, in_len - in_pos, finish, out + out_pos, out_cap - out_pos, &used, &made, err);
        in_pos += used;
        out_pos += made;
        if (r < 0) {
            *consumed = in_pos;
            *produced = out_pos;
            return r;
        }
        if (r == VGN_STREAM_END) {
            if (s->kind == VGN_STREAM_GZIP || s->kind == VGN_STREAM_BZIP2 || s->kind == VGN_STREAM_ZSTD) {
                s->member_done = 1;
                continue;
            }
            s->state = 1;
            break;
        }
        /* VGN_OK: stop when the output is full, or when no progress is possible without more input. */
        if (out_pos == out_cap || (used == 0 && made == 0))
            break;
        if (in_pos == in_len && !finish)
            break;
    }
    *consumed = in_pos;
    *produced = out_pos;
    if (s->state == 1) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return VGN_STREAM_END;
    }
    if (finish && in_pos == in_len && out_pos == 0 && !s->member_done) {
        /* The decoder had room and all the input, yet produced nothing and did not finish: the data
           stops early. (Output made before that is returned first; the next call reports the end.) */
        return fail_kind(s, VGN_E_TRUNCATED, "unexpected end of %s data%s", NULL, err);
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}
