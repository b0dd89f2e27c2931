/* vgn_ljpeg.c - lossless JPEG (ITU T.81 process 14: SOF3, Huffman-coded prediction differences), as DICOM
 * stores most of its compressed pictures (libjpeg-turbo before 3.0 does not read it). See vgn_internal.h.
 *
 * One frame of 1 to 4 components sampled alike, 2- to 16-bit, in one interleaved scan: a component's
 * sample is its predictor's value (T.81 H.1.2.1: the left, upper or upper-left neighbour or one of four
 * combinations, 2^(P - Pt - 1) to start a line's first sample at the top and after each restart, the
 * left one along the first line, the upper one down the first column) plus the coded difference, modulo
 * 2^16, then shifted left by the point transform Pt. Restart intervals are whole rows (T.81 H.1.1).
 * Hierarchical and arithmetic-coded frames, and scans of some of the components, are refused by name. */
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define VGN_LJPEG_MAX_COMPONENTS 4

/* Codes of at most this many bits are looked up in one step. */
#define VGN_LJPEG_LOOKUP 9

/* A Huffman table in T.81 F.2.2.3's form (the largest code of each length, and where its values
 * start), with every code of up to VGN_LJPEG_LOOKUP bits also in a table indexed by the next bits:
 * its length << 8 | its value, 0 for a longer code. */
typedef struct {
    int defined;
    int32_t maxcode[18];
    int32_t valoffset[17];
    uint8_t values[256];
    uint16_t lookup[1 << VGN_LJPEG_LOOKUP];
} vgn_ljpeg_table;

/* The scan's bit reader: up to 64 bits ahead, most significant first; stuffed zero bytes dropped,
 * zeros fed past a marker. */
typedef struct {
    const uint8_t *data;
    size_t size, at;
    uint64_t bits;
    int count;
    int marker; /* a marker was reached: no more entropy-coded bytes until a restart */
} vgn_ljpeg_bits;

static int vgn_ljpeg_fail(vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static uint32_t vgn_ljpeg_u16(const uint8_t *p) { return (uint32_t)p[0] << 8 | p[1]; }

/* Reads one DHT segment's tables (p..end). */
static int vgn_ljpeg_dht(const uint8_t *p, const uint8_t *end, vgn_ljpeg_table tables[4], vgn_error *err)
{
    while (p < end) {
        int cls, id, length, i, k = 0;
        int32_t code = 0;
        vgn_ljpeg_table *t;
        if (end - p < 17) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a Huffman table is cut short");
        cls = p[0] >> 4;
        id = p[0] & 15;
        if (cls != 0 || id > 3) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a Huffman table is not a DC table 0-3");
        t = &tables[id];
        memset(t, 0, sizeof *t);
        for (length = 1, i = 0; length <= 16; length++) i += p[length];
        if (i > 256 || end - p - 17 < i) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a Huffman table is cut short");
        memcpy(t->values, p + 17, (size_t)i);
        // Canonical codes, length by length (T.81 C.2 and F.2.2.3).
        for (length = 1; length <= 16; length++) {
            int n = p[length], j;
            // Checked before the codes are entered: more than fit would run past the lookup table.
            if (code + n > (1 << length)) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a Huffman table has more codes than fit");
            t->valoffset[length] = k - code;
            for (j = 0; j < n && length <= VGN_LJPEG_LOOKUP; j++) {
                int shift = VGN_LJPEG_LOOKUP - length, first = (code + j) << shift, m;
                for (m = 0; m < 1 << shift; m++) t->lookup[first + m] = (uint16_t)(length << 8 | t->values[k + j]);
            }
            code += n;
            k += n;
            t->maxcode[length] = n > 0 ? code - 1 : -1;
            code <<= 1;
        }
        t->maxcode[17] = INT32_MAX;
        t->defined = 1;
        p += 17 + i;
    }
    return 0;
}

/* Tops the reader up to more than 56 bits. */
static inline void vgn_ljpeg_fill(vgn_ljpeg_bits *b)
{
    while (b->count <= 56) {
        uint64_t byte = 0;
        if (!b->marker && b->at < b->size) {
            byte = b->data[b->at];
            if (byte != 0xFF) {
                b->at++;
            } else if (b->at + 1 < b->size && b->data[b->at + 1] == 0) {
                b->at += 2;
            } else {
                b->marker = 1;
                byte = 0;
            }
        }
        b->bits |= byte << (56 - b->count);
        b->count += 8;
    }
}

/* Takes n (1-16) bits from a filled reader. */
static inline int32_t vgn_ljpeg_take(vgn_ljpeg_bits *b, int n)
{
    int32_t v = (int32_t)(b->bits >> (64 - n));
    b->bits <<= n;
    b->count -= n;
    return v;
}

/* The next Huffman-coded category from a filled reader; -1 for a code the table does not have. */
static inline int vgn_ljpeg_category(vgn_ljpeg_bits *b, const vgn_ljpeg_table *t)
{
    uint16_t entry = t->lookup[b->bits >> (64 - VGN_LJPEG_LOOKUP)];
    int length;
    if (entry != 0) {
        vgn_ljpeg_take(b, entry >> 8);
        return entry & 0xFF;
    }
    for (length = VGN_LJPEG_LOOKUP + 1; length <= 16; length++) {
        int32_t code = (int32_t)(b->bits >> (64 - length));
        if (code <= t->maxcode[length]) {
            vgn_ljpeg_take(b, length);
            return t->values[(code + t->valoffset[length]) & 255];
        }
    }
    return -1;
}

/* Looks for the restart marker at or after the reader's position (stepping over fill bytes) and resets
 * the reader past it; 0, or -1 when there is none. */
static int vgn_ljpeg_restart(vgn_ljpeg_bits *b)
{
    while (b->at + 1 < b->size) {
        if (b->data[b->at] == 0xFF && b->data[b->at + 1] >= 0xD0 && b->data[b->at + 1] <= 0xD7) {
            b->at += 2;
            b->bits = 0;
            b->count = 0;
            b->marker = 0;
            return 0;
        }
        b->at++;
    }
    return -1;
}

int vgn_ljpeg_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int components, uint16_t *out,
                     vgn_error *err)
{
    vgn_ljpeg_table tables[4];
    int frame_components = 0, precision = 0, predictor = 0, transform = 0, c;
    int ids[VGN_LJPEG_MAX_COMPONENTS], table_of[VGN_LJPEG_MAX_COMPONENTS];
    uint32_t frame_width = 0, frame_height = 0, interval = 0;
    size_t at = 2;
    memset(tables, 0, sizeof tables);
    if (size < 4 || data[0] != 0xFF || data[1] != 0xD8) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG frame does not start with SOI");
    // The header's segments, up to the scan.
    for (;;) {
        uint32_t marker, length;
        const uint8_t *p;
        while (at < size && data[at] == 0xFF && at + 1 < size && data[at + 1] == 0xFF) at++;
        if (size - at < 4 || data[at] != 0xFF) return vgn_ljpeg_fail(err, VGN_E_TRUNCATED, "the lossless JPEG frame ends before its scan");
        marker = data[at + 1];
        length = vgn_ljpeg_u16(data + at + 2);
        if (length < 2 || length > size - at - 2) return vgn_ljpeg_fail(err, VGN_E_TRUNCATED, "a lossless JPEG segment is cut short");
        p = data + at + 4;
        at += 2 + length;
        length -= 2;
        if (marker == 0xC3) {
            if (length < 6) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG frame header is cut short");
            precision = p[0];
            frame_height = vgn_ljpeg_u16(p + 1);
            frame_width = vgn_ljpeg_u16(p + 3);
            frame_components = p[5];
            if (precision < 2 || precision > 16) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG precision is not 2 to 16 bits");
            if (frame_components < 1 || frame_components > VGN_LJPEG_MAX_COMPONENTS || length < 6 + 3 * (uint32_t)frame_components)
                return vgn_ljpeg_fail(err, VGN_E_UNSUPPORTED, "a lossless JPEG of more than 4 components is not read");
            for (c = 0; c < frame_components; c++) {
                ids[c] = p[6 + 3 * c];
                if (p[7 + 3 * c] != 0x11) return vgn_ljpeg_fail(err, VGN_E_UNSUPPORTED, "subsampled lossless JPEG components are not read");
            }
        } else if (marker == 0xC4) {
            int status = vgn_ljpeg_dht(p, p + length, tables, err);
            if (status != 0) return status;
        } else if (marker == 0xDD) {
            if (length < 2) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the restart interval segment is cut short");
            interval = vgn_ljpeg_u16(p);
        } else if (marker == 0xDA) {
            if (frame_components == 0) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG scan comes before its frame header");
            if (length < 1 || p[0] != frame_components || length < 4 + 2 * (uint32_t)frame_components)
                return vgn_ljpeg_fail(err, VGN_E_UNSUPPORTED, "lossless JPEG scans of some of the components are not read");
            for (c = 0; c < frame_components; c++) {
                if (p[1 + 2 * c] != ids[c]) return vgn_ljpeg_fail(err, VGN_E_UNSUPPORTED, "lossless JPEG scans of some of the components are not read");
                table_of[c] = p[2 + 2 * c] >> 4;
                if (table_of[c] > 3 || !tables[table_of[c]].defined) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a component's Huffman table is missing");
            }
            predictor = p[1 + 2 * frame_components];
            transform = p[3 + 2 * frame_components] & 15;
            if (predictor < 1 || predictor > 7) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG predictor is not 1 to 7");
            if (transform >= precision) return vgn_ljpeg_fail(err, VGN_E_INVALID, "the point transform is not below the precision");
            break;
        } else if (marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) {
            return vgn_ljpeg_fail(err, VGN_E_UNSUPPORTED, "the frame is not lossless JPEG (SOF3)");
        } else if (marker == 0xD9) {
            return vgn_ljpeg_fail(err, VGN_E_TRUNCATED, "the lossless JPEG frame ends before its scan");
        }
    }
    if (frame_width != width || frame_height != height || frame_components != components)
        return vgn_ljpeg_fail(err, VGN_E_INVALID, "the lossless JPEG frame's size or components are not the image's");
    if (interval % width != 0)
        return vgn_ljpeg_fail(err, VGN_E_INVALID, "the restart interval is not a whole number of rows (T.81 H.1.1)");
    {
        vgn_ljpeg_bits b = {data, size, at, 0, 0, 0};
        const int32_t start = 1 << (precision - transform - 1);
        const size_t n = (size_t)components, stride = (size_t)width * n;
        const uint32_t rows_between = interval / width; /* rows a restart interval, 0 for none */
        uint32_t x, y;
        int32_t diff;
        // Samples are kept unshifted until the end; the neighbours are in those units.
#define VGN_LJPEG_DIFF(C)                                                                                              \
    do {                                                                                                               \
        int category;                                                                                                  \
        vgn_ljpeg_fill(&b);                                                                                            \
        category = vgn_ljpeg_category(&b, &tables[table_of[C]]);                                                       \
        if (category < 0 || category > 16) return vgn_ljpeg_fail(err, VGN_E_INVALID, "a lossless JPEG difference has a bad code"); \
        diff = category == 16 ? 32768 : category == 0 ? 0 : vgn_ljpeg_take(&b, category);                             \
        if (category > 0 && category < 16 && diff < (1 << (category - 1))) diff -= (1 << category) - 1;               \
    } while (0)
#define VGN_LJPEG_ROW(PREDICTION)                                                                                      \
    for (x = 1; x < width; x++)                                                                                        \
        for (c = 0; c < components; c++) {                                                                            \
            size_t i = (size_t)x * n + (size_t)c;                                                                      \
            int32_t ra = row[i - n], rb = up[i], rc = up[i - n];                                                       \
            (void)ra, (void)rb, (void)rc;                                                                              \
            VGN_LJPEG_DIFF(c);                                                                                         \
            row[i] = (uint16_t)((uint32_t)((PREDICTION) + diff) & 0xFFFFu);                                            \
        }
        for (y = 0; y < height; y++) {
            uint16_t *row = out + (size_t)y * stride;
            const uint16_t *up = y > 0 ? row - stride : row;
            // T.81 H.1.2.1: a restart interval's first line starts from 2^(P - Pt - 1) and runs on from the left.
            int first = y == 0 || (rows_between != 0 && y % rows_between == 0);
            if (first && y > 0 && vgn_ljpeg_restart(&b) != 0) return vgn_ljpeg_fail(err, VGN_E_TRUNCATED, "a restart marker is missing");
            for (c = 0; c < components; c++) {
                VGN_LJPEG_DIFF(c);
                row[c] = (uint16_t)((uint32_t)((first ? start : up[c]) + diff) & 0xFFFFu);
            }
            if (first) {
                for (x = 1; x < width; x++)
                    for (c = 0; c < components; c++) {
                        size_t i = (size_t)x * n + (size_t)c;
                        VGN_LJPEG_DIFF(c);
                        row[i] = (uint16_t)((uint32_t)(row[i - n] + diff) & 0xFFFFu);
                    }
                continue;
            }
            switch (predictor) {
            case 1: VGN_LJPEG_ROW(ra) break;
            case 2: VGN_LJPEG_ROW(rb) break;
            case 3: VGN_LJPEG_ROW(rc) break;
            case 4: VGN_LJPEG_ROW(ra + rb - rc) break;
            case 5: VGN_LJPEG_ROW(ra + ((rb - rc) >> 1)) break;
            case 6: VGN_LJPEG_ROW(rb + ((ra - rc) >> 1)) break;
            default: VGN_LJPEG_ROW((ra + rb) >> 1) break;
            }
        }
#undef VGN_LJPEG_ROW
#undef VGN_LJPEG_DIFF
        if (transform > 0) {
            size_t i, total = stride * (size_t)height;
            for (i = 0; i < total; i++) out[i] = (uint16_t)(out[i] << transform);
        }
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}
