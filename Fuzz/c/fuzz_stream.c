/* libFuzzer harness: the decompressors (deflate, gzip, bzip2, xz, lzma, zstd) fed in small pieces. */
#include "vgn_inflate.h"

/* Stop after this much output: a valid bomb is not a finding. */
#define MAX_OUTPUT (16u << 20)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    /* The first byte picks the format and the piece size; the rest is the stream. */
    int kind = data[0] % 6 + 1;
    size_t piece = (size_t)(data[0] / 6) % 64 + 1;
    data++, size--;
    vgn_error err;
    vgn_stream *s = vgn_stream_open(kind, &err);
    if (!s) return 0;
    uint8_t out[4096];
    size_t at = 0, total = 0;
    for (;;) {
        size_t len = size - at < piece ? size - at : piece;
        size_t consumed = 0, produced = 0;
        int rc = vgn_stream_feed(s, data + at, len, at + len == size, out, sizeof out, &consumed, &produced, &err);
        at += consumed;
        total += produced;
        if (rc != VGN_OK || total > MAX_OUTPUT) break;
        if (consumed == 0 && produced == 0 && at == size) break;
    }
    vgn_stream_close(s);
    (void)vgn_crc32(0, data, size);
    return 0;
}
