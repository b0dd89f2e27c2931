/* vgn_dicom.c - DICOM images (PS3.10 files: the 128-byte preamble, "DICM", the file meta group, the
 * data set). See vgn_decoder.h.
 *
 * The data set is walked element by element in its transfer syntax (implicit or explicit VR, little
 * or big endian) up to the top-level Pixel Data (7FE0,0010); sequences are stepped over, nested
 * VGN_DICOM_MAX_DEPTH deep at most, by their lengths or their delimiters. What the picture needs
 * comes from the image pixel module: rows, columns, samples, bits allocated/stored, high bit, pixel
 * representation, photometric interpretation, planar configuration, the rescale (modality LUT), the
 * first window (VOI LUT) and the palette. The first frame is shown.
 *
 * Pixel data:
 *   - native (uncompressed): read in place, rows as they are asked for (8-bit samples in big-endian
 *     OW words, whose bytes come swapped, are copied back in order first);
 *   - RLE Lossless and lossless JPEG (vgn_ljpeg.c): the frame unpacked into one buffer at the first read;
 *   - JPEG baseline/extended 8-bit: the frame's codestream is handed back to the caller
 *     (vgn_dicom_select), who decodes it as a JPEG file;
 *   - JPEG 2000: OpenJPEG over the frame's codestream (vgn_dicom_jp2_open, run in a child as
 *     vgn_jp2_open is), its grey samples mapped as native ones are;
 *   - JPEG-LS: CharLS decodes the frame into one buffer at the first read (vgn_jls.c; vgn_dicom_jls_open,
 *     run in a child);
 *   - 12-bit JPEG, MPEG/HEVC video and deflated data sets are refused by name.
 * Rows are boxes of k x k stored pixels averaged when the thumbnail is small, so that a radiograph
 * costs one pass over its samples.
 *
 * Grey pictures (MONOCHROME1/2) go through the rescale, then the first window (PS3.3 C.11.2.1.2's
 * linear function), or, when the file has none, over the range of the frame's values, as viewers do;
 * MONOCHROME1 is inverted; 1-bit ones (segmentations) are black and white. Colour: RGB, YBR_FULL and
 * YBR_FULL_422 (converted as JPEG's full-range YCbCr), PALETTE COLOR through its three lookup tables.
 * Overlays are not drawn. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

#define VGN_DICOM_MAX_DEPTH 32
#define VGN_DICOM_UNDEFINED 0xFFFFFFFFu
#define VGN_DICOM_PIXEL_DATA 0x7FE00010u

/* How the pixel data is coded, from the transfer syntax (VGN_DICOM_JPEG and _JPEG2000 as vgn_dicom_select
 * gives them). */
enum { VGN_DICOM_RAW = VGN_DICOM_NATIVE, VGN_DICOM_RLE = 4, VGN_DICOM_LOSSLESS = 5 };

/* The photometric interpretations read. */
enum { VGN_DICOM_MONO1, VGN_DICOM_MONO2, VGN_DICOM_RGB, VGN_DICOM_YBR, VGN_DICOM_YBR422, VGN_DICOM_PALETTE };

/* A cursor over the data set. */
typedef struct {
    const uint8_t *data;
    size_t size, at;
    int explicit_vr, big_endian;
} vgn_dicom_cursor;

/* What the header says. */
typedef struct {
    char syntax[72];
    int coding;                /* VGN_DICOM_RAW, _RLE, _LOSSLESS, _JPEG, _JPEG2000, _JPEGLS */
    int big_endian;            /* of native pixel data */
    int values_big;            /* of the data set's values (the palette's tables) */
    int samples, rows, columns, allocated, stored, high_bit, is_signed, planar;
    int has_samples, has_rows, has_columns, has_allocated;
    char photometric[20];
    int has_window;
    double center, width;
    double slope, intercept;
    int lut_entries[3], lut_first[3], lut_bits[3];
    const uint8_t *lut[3];
    size_t lut_size[3];
    int has_pixels;
    size_t pixels;             /* the pixel data's first byte (native), or its first item (encapsulated) */
    uint32_t pixel_length;     /* VGN_DICOM_UNDEFINED when encapsulated */
    int pixel_words;           /* the pixel data's VR is OW */
    vgn_dicom_facts facts;     /* what a preview says of the file (vgn_dicom_read_facts) */
} vgn_dicom_header;

typedef struct {
    vgn_decoder base;
    vgn_dicom_header h;
    int photometric;
    int bytes;                 /* bytes a sample */
    size_t plane;              /* bytes between samples of one pixel's planes (planar), else 0 */
    const uint8_t *raster;     /* the frame's first byte */
    int little;                /* the raster's samples are little-endian */
    int planar;
    const uint8_t *frame_item; /* RLE, lossless JPEG: the frame's codestream, unpacked at the first read */
    size_t frame_item_size;
    uint8_t *joined;           /* the frame's fragments joined, when it has several */
    uint8_t *unpacked;         /* the frame unpacked (RLE, lossless JPEG) or byte-swapped, when it is */
    size_t frame_size;         /* bytes of the native frame */
    int swap_bytes;            /* 8-bit samples in big-endian OW words: each pair swapped */
    int ready;
    uint32_t k;                /* rows are k x k boxes of stored pixels, averaged */
    size_t row_bytes;          /* bytes a stored row (of one plane, when planar) */
    uint8_t *line;             /* one stored row as RGB */
    uint32_t *sums;            /* one output row's box sums, when k > 1 */
    double low, range;         /* grey: the values shown from black to white */
    int invert;
    uint8_t *table;            /* grey 8/16-bit: the level of every stored word */
    uint32_t next_row;
} vgn_dicom;

static uint16_t vgn_dicom_u16(const uint8_t *p, int big)
{
    return big ? (uint16_t)(p[0] << 8 | p[1]) : (uint16_t)(p[1] << 8 | p[0]);
}

static uint32_t vgn_dicom_u32(const uint8_t *p, int big)
{
    return big ? (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]
               : (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/* Whether a VR's length takes four bytes (after two reserved ones) in explicit VR. */
static int vgn_dicom_long_vr(const char vr[3])
{
    static const char longs[][3] = {"OB", "OD", "OF", "OL", "OV", "OW", "SQ", "SV", "UC", "UN", "UR", "UT", "UV"};
    size_t i;
    for (i = 0; i < sizeof longs / sizeof longs[0]; i++)
        if (vr[0] == longs[i][0] && vr[1] == longs[i][1]) return 1;
    return 0;
}

/* An element's head: its tag, VR ("" for implicit VR and items) and value length. 0, or -1 when the
 * data ends inside it. */
static int vgn_dicom_element(vgn_dicom_cursor *c, uint32_t *tag, char vr[3], uint32_t *length)
{
    const uint8_t *p = c->data + c->at;
    uint16_t group;
    if (c->size - c->at < 8) return -1;
    group = vgn_dicom_u16(p, c->big_endian);
    *tag = (uint32_t)group << 16 | vgn_dicom_u16(p + 2, c->big_endian);
    vr[0] = vr[1] = vr[2] = 0;
    // Items and delimiters never have a VR, whatever the syntax.
    if (!c->explicit_vr || group == 0xFFFE) {
        *length = vgn_dicom_u32(p + 4, c->big_endian);
        c->at += 8;
        return 0;
    }
    vr[0] = (char)p[4];
    vr[1] = (char)p[5];
    if (vgn_dicom_long_vr(vr)) {
        if (c->size - c->at < 12) return -1;
        *length = vgn_dicom_u32(p + 8, c->big_endian);
        c->at += 12;
    } else {
        *length = vgn_dicom_u16(p + 6, c->big_endian);
        c->at += 8;
    }
    return 0;
}

static int vgn_dicom_fail(vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static int vgn_dicom_skip_items(vgn_dicom_cursor *c, int depth, vgn_error *err);

/* Steps over a data set nested in an item of undefined length, up to its item delimiter. */
static int vgn_dicom_skip_dataset(vgn_dicom_cursor *c, int depth, vgn_error *err)
{
    for (;;) {
        uint32_t tag, length;
        char vr[3];
        if (vgn_dicom_element(c, &tag, vr, &length) != 0)
            return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside a sequence");
        if (tag == 0xFFFEE00Du) return 0;
        if (length == VGN_DICOM_UNDEFINED) {
            int saved = c->explicit_vr, status;
            // An undefined-length UN holds implicit VR little-endian (PS3.5 6.2.2).
            if (strcmp(vr, "UN") == 0) c->explicit_vr = 0;
            status = vgn_dicom_skip_items(c, depth + 1, err);
            c->explicit_vr = saved;
            if (status != 0) return status;
        } else {
            if (length > c->size - c->at) return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside an element");
            c->at += length;
        }
    }
}

/* Steps over the items of a sequence of undefined length, up to its sequence delimiter. */
static int vgn_dicom_skip_items(vgn_dicom_cursor *c, int depth, vgn_error *err)
{
    if (depth > VGN_DICOM_MAX_DEPTH) return vgn_dicom_fail(err, VGN_E_LIMIT, "sequences nested more than 32 deep");
    for (;;) {
        uint32_t tag, length;
        char vr[3];
        if (vgn_dicom_element(c, &tag, vr, &length) != 0)
            return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside a sequence");
        if (tag == 0xFFFEE0DDu) return 0;
        if (tag != 0xFFFEE000u) return vgn_dicom_fail(err, VGN_E_INVALID, "a sequence holds something other than items");
        if (length == VGN_DICOM_UNDEFINED) {
            int status = vgn_dicom_skip_dataset(c, depth, err);
            if (status != 0) return status;
        } else {
            if (length > c->size - c->at) return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside an item");
            c->at += length;
        }
    }
}

/* A string value's first part (up to a backslash), blanks and NULs trimmed, into out[size]. */
static void vgn_dicom_string(const uint8_t *p, uint32_t length, char *out, size_t size)
{
    size_t n = 0, i;
    for (i = 0; i < length && p[i] != '\\' && n + 1 < size; i++) out[n++] = (char)p[i];
    while (n > 0 && (out[n - 1] == ' ' || out[n - 1] == 0)) n--;
    out[n] = 0;
    for (i = 0; i < n && out[i] == ' '; i++) {}
    if (i > 0) memmove(out, out + i, n - i + 1);
}

/* A decimal string's (DS, IS) first value; 0 when it has one. */
static int vgn_dicom_number(const uint8_t *p, uint32_t length, double *v)
{
    char text[64], *end;
    vgn_dicom_string(p, length, text, sizeof text);
    if (text[0] == 0) return -1;
    *v = strtod(text, &end);
    return *end == 0 && *v == *v && *v > -1e300 && *v < 1e300 ? 0 : -1;
}

/* Records a top-level element the picture needs. */
static void vgn_dicom_note(vgn_dicom_header *h, const vgn_dicom_cursor *c, uint32_t tag, const uint8_t *p, uint32_t length)
{
    int big = c->big_endian;
    unsigned us = length >= 2 ? vgn_dicom_u16(p, big) : 0;
    double number;
    switch (tag) {
    case 0x00280002u: h->samples = (int)us, h->has_samples = length >= 2; break;
    case 0x00280004u: vgn_dicom_string(p, length, h->photometric, sizeof h->photometric); break;
    case 0x00280006u: h->planar = (int)us; break;
    case 0x00280010u: h->rows = (int)us, h->has_rows = length >= 2; break;
    case 0x00280011u: h->columns = (int)us, h->has_columns = length >= 2; break;
    case 0x00280100u: h->allocated = (int)us, h->has_allocated = length >= 2; break;
    case 0x00280101u: h->stored = (int)us; break;
    case 0x00280102u: h->high_bit = (int)us; break;
    case 0x00280103u: h->is_signed = us == 1; break;
    case 0x00281050u:
        if (vgn_dicom_number(p, length, &number) == 0) h->center = number, h->has_window |= 1;
        break;
    case 0x00281051u:
        if (vgn_dicom_number(p, length, &number) == 0) h->width = number, h->has_window |= 2;
        break;
    case 0x00281052u:
        if (vgn_dicom_number(p, length, &number) == 0) h->intercept = number;
        break;
    case 0x00281053u:
        if (vgn_dicom_number(p, length, &number) == 0 && number != 0.0) h->slope = number;
        break;
    case 0x00281101u:
    case 0x00281102u:
    case 0x00281103u:
        if (length >= 6) {
            int i = (int)(tag - 0x00281101u);
            unsigned entries = vgn_dicom_u16(p, big);
            h->lut_entries[i] = entries == 0 ? 65536 : (int)entries;
            // The first mapped value is US or SS as the pixels are; read as stored, signed when they are.
            h->lut_first[i] = vgn_dicom_u16(p + 2, big);
            h->lut_bits[i] = vgn_dicom_u16(p + 4, big);
        }
        break;
    case 0x00281201u:
    case 0x00281202u:
    case 0x00281203u:
        h->lut[tag - 0x00281201u] = p;
        h->lut_size[tag - 0x00281201u] = length;
        break;
    // What a preview says; never the patient's name, identifiers or dates of birth.
    case 0x00080005u: vgn_dicom_string(p, length, h->facts.charset, sizeof h->facts.charset); break;
    case 0x00080020u: vgn_dicom_string(p, length, h->facts.study_date, sizeof h->facts.study_date); break;
    case 0x00080060u: vgn_dicom_string(p, length, h->facts.modality, sizeof h->facts.modality); break;
    case 0x00080070u: vgn_dicom_string(p, length, h->facts.manufacturer, sizeof h->facts.manufacturer); break;
    case 0x00081030u: vgn_dicom_string(p, length, h->facts.study, sizeof h->facts.study); break;
    case 0x0008103Eu: vgn_dicom_string(p, length, h->facts.series, sizeof h->facts.series); break;
    case 0x00081090u: vgn_dicom_string(p, length, h->facts.model, sizeof h->facts.model); break;
    case 0x00180015u: vgn_dicom_string(p, length, h->facts.body_part, sizeof h->facts.body_part); break;
    case 0x00280008u:
        if (vgn_dicom_number(p, length, &number) == 0 && number >= 1 && number <= 1e9) h->facts.frames = (int)number;
        break;
    default: break;
    }
}

/* The transfer syntax's coding and byte layout; 0, or the refusal. */
static int vgn_dicom_syntax(vgn_dicom_header *h, vgn_dicom_cursor *c, vgn_error *err)
{
    static const struct {
        const char *uid, *name;
        int coding, explicit_vr, big_endian;
    } known[] = {
        {"1.2.840.10008.1.2", NULL, VGN_DICOM_RAW, 0, 0},
        {"1.2.840.10008.1.2.1", NULL, VGN_DICOM_RAW, 1, 0},
        {"1.2.840.10008.1.2.2", NULL, VGN_DICOM_RAW, 1, 1},
        // GE's private syntax (old GE scanners; GDCM writes it from PGM): implicit VR little-endian,
        // big-endian pixels (2 below).
        {"1.2.840.113619.5.2", NULL, VGN_DICOM_RAW, 0, 2},
        {"1.2.840.10008.1.2.5", NULL, VGN_DICOM_RLE, 1, 0},
        {"1.2.840.10008.1.2.4.50", NULL, VGN_DICOM_JPEG, 1, 0},
        {"1.2.840.10008.1.2.4.51", NULL, VGN_DICOM_JPEG, 1, 0},
        {"1.2.840.10008.1.2.4.90", NULL, VGN_DICOM_JPEG2000, 1, 0},
        {"1.2.840.10008.1.2.4.91", NULL, VGN_DICOM_JPEG2000, 1, 0},
        {"1.2.840.10008.1.2.1.99", "a deflated data set", -1, 0, 0},
        {"1.2.840.10008.1.2.4.57", NULL, VGN_DICOM_LOSSLESS, 1, 0},
        {"1.2.840.10008.1.2.4.70", NULL, VGN_DICOM_LOSSLESS, 1, 0},
        {"1.2.840.10008.1.2.4.80", NULL, VGN_DICOM_JPEGLS, 1, 0},
        {"1.2.840.10008.1.2.4.81", NULL, VGN_DICOM_JPEGLS, 1, 0},
        {"1.2.840.10008.1.2.4.100", "MPEG-2 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.101", "MPEG-2 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.102", "MPEG-4 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.103", "MPEG-4 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.104", "MPEG-4 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.105", "MPEG-4 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.106", "MPEG-4 video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.107", "HEVC video", -1, 0, 0},
        {"1.2.840.10008.1.2.4.108", "HEVC video", -1, 0, 0},
    };
    char msg[VGN_MSG_LEN];
    size_t i;
    // Without one, the data set says which of the little-endian syntaxes it is in: a VR's two capitals
    // after the first tag, or a length there (implicit VR, the default).
    if (h->syntax[0] == 0) {
        const uint8_t *p = c->data + c->at;
        int explicit_vr = c->size - c->at >= 6 && p[4] >= 'A' && p[4] <= 'Z' && p[5] >= 'A' && p[5] <= 'Z';
        strcpy(h->syntax, explicit_vr ? "1.2.840.10008.1.2.1" : "1.2.840.10008.1.2");
    }
    for (i = 0; i < sizeof known / sizeof known[0]; i++) {
        if (strcmp(h->syntax, known[i].uid) != 0) continue;
        if (known[i].coding < 0) {
            snprintf(msg, sizeof msg, "%s (transfer syntax %s) is not read", known[i].name, known[i].uid);
            return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, msg);
        }
        h->coding = known[i].coding;
        c->explicit_vr = known[i].explicit_vr;
        c->big_endian = known[i].big_endian == 1;
        h->big_endian = known[i].big_endian != 0;
        h->values_big = c->big_endian;
        return 0;
    }
    snprintf(msg, sizeof msg, "transfer syntax %.60s is not read", h->syntax);
    return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, msg);
}

/* Reads the file meta group and the data set's head up to the pixel data into h. 0, or the error. */
static int vgn_dicom_parse(const uint8_t *data, size_t size, vgn_dicom_header *h, vgn_error *err)
{
    vgn_dicom_cursor c = {data, size, 132, 1, 0};
    int status;
    memset(h, 0, sizeof *h);
    h->slope = 1.0;
    h->samples = 1;
    if (size < 132 || memcmp(data + 128, "DICM", 4) != 0)
        return vgn_dicom_fail(err, VGN_E_INVALID, "no \"DICM\" after the 128-byte preamble");
    // The file meta group is explicit VR little-endian whatever the data set's syntax.
    while (c.size - c.at >= 8 && vgn_dicom_u16(data + c.at, 0) == 0x0002) {
        uint32_t tag, length;
        char vr[3];
        if (vgn_dicom_element(&c, &tag, vr, &length) != 0 || length > c.size - c.at)
            return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside its meta information");
        if (tag == 0x00020010u) vgn_dicom_string(data + c.at, length, h->syntax, sizeof h->syntax);
        c.at += length;
    }
    status = vgn_dicom_syntax(h, &c, err);
    if (status != 0) return status;
    for (;;) {
        uint32_t tag, length;
        char vr[3];
        if (c.at == c.size) return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, "no pixel data in the file (an object without a picture: a report, plan or waveform)");
        if (vgn_dicom_element(&c, &tag, vr, &length) != 0)
            return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside an element");
        if (tag == VGN_DICOM_PIXEL_DATA) {
            h->has_pixels = 1;
            h->pixels = c.at;
            h->pixel_length = length;
            h->pixel_words = strcmp(vr, "OW") == 0;
            if (length != VGN_DICOM_UNDEFINED && length > c.size - c.at)
                return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside its pixel data");
            return 0;
        }
        if (tag == 0x7FE00008u || tag == 0x7FE00009u)
            return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, "floating-point pixel data is not read");
        if (length == VGN_DICOM_UNDEFINED) {
            int saved = c.explicit_vr, status;
            if (strcmp(vr, "UN") == 0) c.explicit_vr = 0;
            status = vgn_dicom_skip_items(&c, 1, err);
            c.explicit_vr = saved;
            if (status != 0) return status;
            continue;
        }
        if (length > c.size - c.at) return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside an element");
        if ((tag >> 16) == 0x0028 || (tag >> 16) == 0x0008 || (tag >> 16) == 0x0018) vgn_dicom_note(h, &c, tag, data + c.at, length);
        c.at += length;
    }
}

int vgn_dicom_read_facts(const uint8_t *data, size_t size, vgn_dicom_facts *facts)
{
    vgn_dicom_header h;
    vgn_error ignored;
    if (data == NULL || facts == NULL) return -1;
    memset(facts, 0, sizeof *facts);
    if (size < 132 || memcmp(data + 128, "DICM", 4) != 0) return -1;
    // A damaged or truncated file still gives what came before the damage.
    (void)vgn_dicom_parse(data, size, &h, &ignored);
    *facts = h.facts;
    memcpy(facts->syntax, h.syntax, sizeof facts->syntax);
    memcpy(facts->photometric, h.photometric, sizeof facts->photometric);
    facts->width = h.has_columns ? (uint32_t)h.columns : 0;
    facts->height = h.has_rows ? (uint32_t)h.rows : 0;
    facts->samples = h.has_samples ? h.samples : 0;
    facts->bits_stored = h.stored != 0 ? h.stored : h.allocated;
    facts->has_pixels = h.has_pixels;
    return 0;
}

/* The photometric interpretation, or -1. */
static int vgn_dicom_photometric(const char *name)
{
    static const char *const names[] = {"MONOCHROME1", "MONOCHROME2", "RGB", "YBR_FULL", "YBR_FULL_422", "PALETTE COLOR"};
    int i;
    for (i = 0; i < 6; i++)
        if (strcmp(name, names[i]) == 0) return i;
    return -1;
}

/* Checks the image pixel module for what is read (filling in the defaults) and gives the photometric
 * interpretation; 0, or the refusal. */
static int vgn_dicom_check(vgn_dicom_header *h, int *photometric_out, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    int photometric;
    if (!h->has_rows || !h->has_columns || !h->has_allocated)
        return vgn_dicom_fail(err, VGN_E_INVALID, "the image has no Rows, Columns or Bits Allocated");
    if (h->rows == 0 || h->columns == 0) return vgn_dicom_fail(err, VGN_E_INVALID, "the image has no pixels (Rows or Columns is 0)");
    if (h->photometric[0] == 0) strcpy(h->photometric, h->samples == 3 ? "RGB" : "MONOCHROME2");
    photometric = vgn_dicom_photometric(h->photometric);
    if (photometric < 0) {
        snprintf(msg, sizeof msg, "photometric interpretation %.20s is not read", h->photometric);
        return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, msg);
    }
    if ((photometric <= VGN_DICOM_MONO2 || photometric == VGN_DICOM_PALETTE) ? h->samples != 1 : h->samples != 3) {
        snprintf(msg, sizeof msg, "%d samples a pixel do not go with %s", h->samples, h->photometric);
        return vgn_dicom_fail(err, VGN_E_INVALID, msg);
    }
    if (h->allocated == 1 && photometric <= VGN_DICOM_MONO2 && h->coding == VGN_DICOM_RAW) {
        h->stored = 1;
        h->high_bit = 0;
        *photometric_out = photometric;
        return 0;
    }
    if (h->allocated != 8 && h->allocated != 16 && h->allocated != 32) {
        snprintf(msg, sizeof msg, "%d bits allocated a sample are not read (1 for uncompressed grey, 8, 16 and 32 are)", h->allocated);
        return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, msg);
    }
    if (h->stored == 0) h->stored = h->allocated;
    if (h->high_bit == 0 && h->stored > 1) h->high_bit = h->stored - 1;
    if (h->stored > h->allocated || h->high_bit >= h->allocated || h->high_bit + 1 < h->stored)
        return vgn_dicom_fail(err, VGN_E_INVALID, "Bits Stored and High Bit do not fit in Bits Allocated");
    if (photometric > VGN_DICOM_MONO2 && photometric != VGN_DICOM_PALETTE && h->allocated == 32)
        return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, "32-bit colour samples are not read");
    *photometric_out = photometric;
    return 0;
}

static void vgn_dicom_close(vgn_decoder *d)
{
    vgn_dicom *m = (vgn_dicom *)d;
    if (m == NULL) return;
    free(m->unpacked);
    free(m->joined);
    free(m->line);
    free(m->sums);
    free(m->table);
    free(m);
}

/* The stored word at p (bytes 1, 2 or 4), as the bits it holds: shifted, masked, sign-extended. */
static int64_t vgn_dicom_sample(const vgn_dicom *m, const uint8_t *p)
{
    uint32_t w;
    int shift = m->h.high_bit + 1 - m->h.stored;
    if (m->bytes == 1) w = p[0];
    else if (m->bytes == 2) w = vgn_dicom_u16(p, !m->little);
    // Big-endian OW swaps each 16-bit word, so a 32-bit sample's low word still comes first.
    else if (!m->little && m->h.pixel_words) w = (uint32_t)vgn_dicom_u16(p, 1) | (uint32_t)vgn_dicom_u16(p + 2, 1) << 16;
    else w = vgn_dicom_u32(p, !m->little);
    w >>= shift;
    if (m->h.stored < 32) {
        w &= (1u << m->h.stored) - 1u;
        if (m->h.is_signed && (w >> (m->h.stored - 1)) != 0) return (int64_t)w - ((int64_t)1 << m->h.stored);
        return (int64_t)w;
    }
    return m->h.is_signed ? (int64_t)(int32_t)w : (int64_t)w;
}

/* A grey value after the rescale as a level 0-255, by the window or range chosen. */
static uint8_t vgn_dicom_grey(const vgn_dicom *m, int64_t stored)
{
    double v = (double)stored * m->h.slope + m->h.intercept, x = (v - m->low) / m->range;
    int level = x <= 0.0 ? 0 : x >= 1.0 ? 255 : (int)(x * 255.0 + 0.5);
    return (uint8_t)(m->invert ? 255 - level : level);
}

/* The sample of pixel x in channel k of a row. */
static const uint8_t *vgn_dicom_at(const vgn_dicom *m, const uint8_t *row, uint32_t x, int k)
{
    if (m->planar) return row + (size_t)x * (size_t)m->bytes + (size_t)k * m->plane;
    return row + ((size_t)x * (size_t)m->h.samples + (size_t)k) * (size_t)m->bytes;
}

/* Unpacks the RLE frame (PS3.5 annex G): a 64-byte header of segment offsets, then one PackBits
 * segment a byte of each sample, most significant first. Written planar, little-endian. */
static int vgn_dicom_unrle(vgn_dicom *m, vgn_error *err)
{
    const uint8_t *item = m->frame_item;
    size_t n = m->frame_item_size, pixels = (size_t)m->h.rows * (size_t)m->h.columns;
    uint32_t segments, s;
    if (n < 64) return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the RLE frame is shorter than its header");
    segments = vgn_dicom_u32(item, 0);
    if (segments != (uint32_t)(m->h.samples * m->bytes))
        return vgn_dicom_fail(err, VGN_E_INVALID, "the RLE frame's segments do not match the samples");
    m->unpacked = (uint8_t *)calloc(pixels, (size_t)m->h.samples * (size_t)m->bytes);
    if (m->unpacked == NULL) return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
    for (s = 0; s < segments; s++) {
        uint32_t start = vgn_dicom_u32(item + 4 + 4 * s, 0);
        uint32_t end = s + 1 < segments ? vgn_dicom_u32(item + 8 + 4 * s, 0) : (uint32_t)(n > UINT32_MAX ? UINT32_MAX : n);
        int sample = (int)s / m->bytes, byte = m->bytes - 1 - (int)s % m->bytes;
        uint8_t *out = m->unpacked + (size_t)sample * pixels * (size_t)m->bytes + (size_t)byte;
        size_t i = 0, at;
        if (start < 64 || end > n || start > end) return vgn_dicom_fail(err, VGN_E_INVALID, "an RLE segment lies outside its frame");
        at = start;
        while (at < end && i < pixels) {
            int8_t control = (int8_t)item[at++];
            if (control >= 0) {
                size_t count = (size_t)control + 1, k;
                if (count > end - at) count = end - at;
                for (k = 0; k < count && i < pixels; k++) out[(i++) * (size_t)m->bytes] = item[at + k];
                at += count;
            } else if (control != -128) {
                size_t count = (size_t)(1 - control), k;
                if (at == end) break;
                for (k = 0; k < count && i < pixels; k++) out[(i++) * (size_t)m->bytes] = item[at];
                at++;
            }
        }
    }
    m->raster = m->unpacked;
    m->little = 1;
    m->planar = 1;
    m->plane = pixels * (size_t)m->bytes;
    return 0;
}

/* Decodes the lossless JPEG frame into host-order 16-bit samples, pixel by pixel; the values are the
 * stored ones, at the bottom of their words. */
static int vgn_dicom_unjpeg(vgn_dicom *m, vgn_error *err)
{
    static const uint16_t one = 1;
    size_t samples = (size_t)m->h.rows * (size_t)m->h.columns * (size_t)m->h.samples;
    int status;
    m->unpacked = (uint8_t *)malloc(samples * 2);
    if (m->unpacked == NULL) return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
    status = vgn_ljpeg_decode(m->frame_item, m->frame_item_size, (uint32_t)m->h.columns, (uint32_t)m->h.rows, m->h.samples,
                              (uint16_t *)(void *)m->unpacked, err);
    if (status != 0) return status;
    m->raster = m->unpacked;
    m->bytes = 2;
    m->little = *(const uint8_t *)&one == 1;
    m->planar = 0;
    m->h.high_bit = m->h.stored - 1;
    return 0;
}

/* Decodes the JPEG-LS frame through CharLS into host-order samples (bytes, or 16-bit words above 8 bits),
 * pixel by pixel or, for a frame coded plane by plane, in planes; the values are the stored ones. */
static int vgn_dicom_unjls(vgn_dicom *m, vgn_error *err)
{
    static const uint16_t one = 1;
    int bytes = 0, planar = 0, status;
    status = vgn_jls_decode(m->frame_item, m->frame_item_size, (uint32_t)m->h.columns, (uint32_t)m->h.rows, m->h.samples,
                            &m->unpacked, &bytes, &planar, err);
    if (status != 0) return status;
    m->raster = m->unpacked;
    m->bytes = bytes;
    m->little = *(const uint8_t *)&one == 1;
    m->planar = planar;
    m->plane = (size_t)m->h.rows * (size_t)m->h.columns * (size_t)bytes;
    m->h.high_bit = m->h.stored - 1;
    return 0;
}

/* Copies an 8-bit frame stored in big-endian OW words with each byte pair swapped back. */
static int vgn_dicom_unswap(vgn_dicom *m, vgn_error *err)
{
    size_t i;
    m->unpacked = (uint8_t *)malloc(m->frame_size + 1);
    if (m->unpacked == NULL) return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
    // An odd-sized frame's last byte is the first of a word whose second holds padding or the next frame.
    for (i = 0; i < m->frame_size; i++) m->unpacked[i] = m->raster[i ^ 1u];
    m->raster = m->unpacked;
    return 0;
}

/* Sets the values shown from black to white: the first window (PS3.3 C.11.2.1.2.1: c - 0.5 - (w - 1) / 2
 * is black, c - 0.5 + (w - 1) / 2 white), else the rescaled range of the stored values lo..hi. */
static void vgn_dicom_set_range(vgn_dicom *m, int64_t lo, int64_t hi)
{
    if (m->h.has_window == 3 && m->h.width >= 1.0) {
        m->low = m->h.center - 0.5 - (m->h.width - 1.0) / 2.0;
        m->range = m->h.width - 1.0;
    } else {
        m->low = (double)lo * m->h.slope + m->h.intercept;
        m->range = ((double)hi - (double)lo) * m->h.slope;
        if (m->range < 0) m->low += m->range, m->range = -m->range;
    }
    if (m->range <= 0.0) m->range = 1.0;
}

/* Chooses the grey mapping (window, else range of the frame) and fills the table. */
static void vgn_dicom_prepare_grey(vgn_dicom *m)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    if (m->h.has_window != 3 || m->h.width < 1.0) {
        size_t row_bytes = (size_t)m->h.columns * (size_t)m->bytes;
        uint32_t y, x;
        for (y = 0; y < (uint32_t)m->h.rows; y++)
            for (x = 0; x < (uint32_t)m->h.columns; x++) {
                int64_t v = vgn_dicom_sample(m, m->raster + (size_t)y * row_bytes + (size_t)x * (size_t)m->bytes);
                if (v < lo) lo = v;
                if (v > hi) hi = v;
            }
    }
    vgn_dicom_set_range(m, lo, hi);
    if (m->table != NULL) {
        uint32_t w, words = m->bytes == 1 ? 256u : 65536u;
        uint8_t p[2];
        for (w = 0; w < words; w++) {
            if (m->bytes == 1) p[0] = (uint8_t)w;
            else if (m->little) p[0] = (uint8_t)w, p[1] = (uint8_t)(w >> 8);
            else p[0] = (uint8_t)(w >> 8), p[1] = (uint8_t)w;
            m->table[w] = vgn_dicom_grey(m, vgn_dicom_sample(m, p));
        }
    }
}

/* A colour sample as 8 bits. */
static uint8_t vgn_dicom_eight(const vgn_dicom *m, const uint8_t *p)
{
    int64_t v = vgn_dicom_sample(m, p);
    if (m->h.is_signed) v += (int64_t)1 << (m->h.stored - 1);
    return (uint8_t)(m->h.stored > 8 ? v >> (m->h.stored - 8) : v << (8 - m->h.stored));
}

/* A palette entry of table k for a stored index, as 8 bits. */
static uint8_t vgn_dicom_palette(const vgn_dicom *m, int k, int64_t index)
{
    int64_t first = m->h.is_signed ? (int16_t)m->h.lut_first[k] : m->h.lut_first[k];
    int64_t i = index - first;
    const uint8_t *lut = m->h.lut[k];
    if (i < 0) i = 0;
    if (i >= m->h.lut_entries[k]) i = m->h.lut_entries[k] - 1;
    // Entries are words (PS3.3 C.7.6.3.1.6); an 8-bit table may also be packed a byte each.
    if (m->h.lut_bits[k] == 8 && m->h.lut_size[k] < 2 * (size_t)m->h.lut_entries[k]) return lut[i];
    {
        uint16_t w = vgn_dicom_u16(lut + 2 * i, m->h.values_big);
        if (m->h.lut_bits[k] <= 8) return (uint8_t)(w > 255 ? w >> 8 : w);
        return (uint8_t)(m->h.lut_bits[k] >= 16 ? w >> 8 : w >> (m->h.lut_bits[k] - 8));
    }
}

static void vgn_dicom_ybr(int y, int cb, int cr, uint8_t *out)
{
    double r = y + 1.402 * (cr - 128), g = y - 0.344136 * (cb - 128) - 0.714136 * (cr - 128), b = y + 1.772 * (cb - 128);
    out[0] = (uint8_t)(r < 0 ? 0 : r > 255 ? 255 : r + 0.5);
    out[1] = (uint8_t)(g < 0 ? 0 : g > 255 ? 255 : g + 0.5);
    out[2] = (uint8_t)(b < 0 ? 0 : b > 255 ? 255 : b + 0.5);
}

/* Stored row y, pixels x0 to x1 (exclusive), as RGB into out. */
static void vgn_dicom_pixels(const vgn_dicom *m, uint32_t y, uint32_t x0, uint32_t x1, uint8_t *out)
{
    const uint8_t *row = m->raster + (size_t)y * m->row_bytes;
    uint32_t x;
    if (m->bytes == 0) {
        for (x = x0; x < x1; x++, out += 3) {
            // One bit a pixel, packed least significant first and running on across rows.
            size_t i = (size_t)y * (size_t)m->h.columns + x;
            int bit = m->raster[i >> 3] >> (i & 7) & 1;
            out[0] = out[1] = out[2] = (uint8_t)(bit != m->invert ? 255 : 0);
        }
    } else if (m->photometric <= VGN_DICOM_MONO2 && m->table != NULL && m->bytes == 2) {
        const uint8_t *p = row + (size_t)x0 * 2;
        for (x = x0; x < x1; x++, out += 3, p += 2) out[0] = out[1] = out[2] = m->table[m->little ? p[0] | p[1] << 8 : p[0] << 8 | p[1]];
    } else if (m->photometric <= VGN_DICOM_MONO2) {
        for (x = x0; x < x1; x++, out += 3) {
            const uint8_t *p = row + (size_t)x * (size_t)m->bytes;
            out[0] = out[1] = out[2] = m->table != NULL ? m->table[p[0]] : vgn_dicom_grey(m, vgn_dicom_sample(m, p));
        }
    } else if (m->photometric == VGN_DICOM_PALETTE) {
        for (x = x0; x < x1; x++, out += 3) {
            int64_t index = vgn_dicom_sample(m, row + (size_t)x * (size_t)m->bytes);
            out[0] = vgn_dicom_palette(m, 0, index);
            out[1] = vgn_dicom_palette(m, 1, index);
            out[2] = vgn_dicom_palette(m, 2, index);
        }
    } else if (m->photometric == VGN_DICOM_YBR422) {
        size_t b = (size_t)m->bytes;
        for (x = x0; x < x1; x++, out += 3) {
            // Two pixels share Y0 Y1 Cb Cr.
            const uint8_t *pair = row + (size_t)(x / 2) * 4 * b;
            vgn_dicom_ybr(vgn_dicom_eight(m, pair + (x % 2) * b), vgn_dicom_eight(m, pair + 2 * b), vgn_dicom_eight(m, pair + 3 * b), out);
        }
    } else {
        for (x = x0; x < x1; x++, out += 3) {
            uint8_t a = vgn_dicom_eight(m, vgn_dicom_at(m, row, x, 0)), b = vgn_dicom_eight(m, vgn_dicom_at(m, row, x, 1)),
                    c = vgn_dicom_eight(m, vgn_dicom_at(m, row, x, 2));
            if (m->photometric == VGN_DICOM_YBR) vgn_dicom_ybr(a, b, c, out);
            else out[0] = a, out[1] = b, out[2] = c;
        }
    }
}

static int vgn_dicom_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_dicom *m = (vgn_dicom *)d;
    uint32_t k = m->k, columns = (uint32_t)m->h.columns, rows = (uint32_t)m->h.rows, width = m->base.width;
    int n = 0;
    if (!m->ready) {
        int status = 0;
        if (m->h.coding == VGN_DICOM_RLE) status = vgn_dicom_unrle(m, err);
        if (m->h.coding == VGN_DICOM_LOSSLESS) status = vgn_dicom_unjpeg(m, err);
        if (m->h.coding == VGN_DICOM_JPEGLS) status = vgn_dicom_unjls(m, err);
        if (status == 0 && m->swap_bytes) status = vgn_dicom_unswap(m, err);
        if (status != 0) return status;
        m->row_bytes = (size_t)m->h.columns * (size_t)m->bytes *
                       (size_t)(m->planar ? 1 : m->photometric == VGN_DICOM_YBR422 ? 2 : m->h.samples);
        m->line = (uint8_t *)malloc((size_t)columns * 3);
        m->sums = k > 1 ? (uint32_t *)malloc((size_t)width * 3 * sizeof *m->sums) : NULL;
        if (m->line == NULL || (k > 1 && m->sums == NULL)) return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
        if (m->photometric <= VGN_DICOM_MONO2 && m->bytes > 0) {
            if (m->bytes <= 2) {
                m->table = (uint8_t *)malloc(m->bytes == 1 ? 256 : 65536);
                if (m->table == NULL) return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
            }
            vgn_dicom_prepare_grey(m);
        }
        m->ready = 1;
    }
    while (n < max_rows && m->next_row < m->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x, c;
        if (k == 1) {
            vgn_dicom_pixels(m, m->next_row, 0, columns, m->line);
            for (x = 0; x < columns; x++) memcpy(out + 4 * (size_t)x, m->line + 3 * (size_t)x, 3), out[4 * (size_t)x + 3] = 255;
        } else {
            // k x k boxes of stored pixels averaged (the last ones partial), so that a radiograph's
            // thumbnail costs one pass over its samples and no full-size rows.
            uint32_t y0 = m->next_row * k, y1 = y0 + k < rows ? y0 + k : rows, y;
            memset(m->sums, 0, (size_t)width * 3 * sizeof *m->sums);
            for (y = y0; y < y1; y++) {
                uint32_t box;
                vgn_dicom_pixels(m, y, 0, columns, m->line);
                for (box = 0, x = 0; box < width; box++) {
                    uint32_t end = x + k < columns ? x + k : columns, r = 0, g = 0, b = 0;
                    for (; x < end; x++) r += m->line[3 * (size_t)x], g += m->line[3 * (size_t)x + 1], b += m->line[3 * (size_t)x + 2];
                    m->sums[3 * (size_t)box] += r, m->sums[3 * (size_t)box + 1] += g, m->sums[3 * (size_t)box + 2] += b;
                }
            }
            for (x = 0; x < width; x++) {
                uint32_t count = (y1 - y0) * ((x + 1) * k < columns ? k : columns - x * k);
                for (c = 0; c < 3; c++) out[4 * (size_t)x + c] = (uint8_t)((m->sums[3 * (size_t)x + c] + count / 2) / count);
                out[4 * (size_t)x + 3] = 255;
            }
        }
        n++;
        m->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* The encapsulated pixel data's first frame: the fragments after the offset table up to the one that
 * ends a JPEG or JPEG 2000 codestream (FF D9, perhaps with a pad byte), else every fragment; RLE: the
 * first fragment. Gives the range when it is one fragment, else a joined copy in *joined. */
static int vgn_dicom_frame(const uint8_t *data, size_t size, const vgn_dicom_header *h, size_t *offset, size_t *length,
                           uint8_t **joined, vgn_error *err)
{
    vgn_dicom_cursor c = {data, size, h->pixels, 0, 0};
    vgn_buf buf = {NULL, 0, 0};
    int fragments = 0;
    *joined = NULL;
    *offset = *length = 0;
    for (;;) {
        uint32_t tag, n;
        char vr[3];
        const uint8_t *p;
        if (vgn_dicom_element(&c, &tag, vr, &n) != 0) break;
        if (tag == 0xFFFEE0DDu) break;
        if (tag != 0xFFFEE000u || n == VGN_DICOM_UNDEFINED) {
            free(buf.data);
            return vgn_dicom_fail(err, VGN_E_INVALID, "the encapsulated pixel data holds something other than items");
        }
        if (n > c.size - c.at) {
            free(buf.data);
            return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the file ends inside a pixel data fragment");
        }
        p = data + c.at;
        c.at += n;
        // The first item is the basic offset table.
        if (fragments++ == 0) continue;
        if (fragments == 2) {
            *offset = (size_t)(p - data);
            *length = n;
        } else {
            if ((buf.data == NULL && vgn_buf_append(&buf, data + *offset, *length) != 0) || vgn_buf_append(&buf, p, n) != 0) {
                free(buf.data);
                return vgn_dicom_fail(err, VGN_E_NOMEM, "out of memory");
            }
        }
        if (h->coding == VGN_DICOM_RLE) break;
        if ((n >= 2 && p[n - 2] == 0xFF && p[n - 1] == 0xD9) || (n >= 3 && p[n - 3] == 0xFF && p[n - 2] == 0xD9 && p[n - 1] == 0)) break;
    }
    if (fragments < 2) {
        free(buf.data);
        return vgn_dicom_fail(err, VGN_E_TRUNCATED, "the encapsulated pixel data has no fragment");
    }
    if (buf.data != NULL) {
        *joined = buf.data;
        *offset = 0;
        *length = buf.size;
    }
    return 0;
}

int vgn_dicom_select(const uint8_t *data, size_t size, int *kind, size_t *offset, size_t *length, uint8_t **joined,
                     vgn_image_info *info, vgn_error *err)
{
    vgn_dicom_header h;
    int status;
    if (data == NULL || kind == NULL || offset == NULL || length == NULL || joined == NULL || info == NULL)
        return vgn_dicom_fail(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    *joined = NULL;
    *offset = *length = 0;
    status = vgn_dicom_parse(data, size, &h, err);
    if (status != 0) return status;
    *kind = h.coding == VGN_DICOM_JPEG || h.coding == VGN_DICOM_JPEG2000 || h.coding == VGN_DICOM_JPEGLS ? h.coding
                                                                                                          : VGN_DICOM_NATIVE;
    info->width = (uint32_t)h.columns;
    info->height = (uint32_t)h.rows;
    info->components = h.samples;
    info->bit_depth = h.stored;
    info->orientation = 1;
    if (*kind == VGN_DICOM_NATIVE) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return 0;
    }
    if (h.pixel_length != VGN_DICOM_UNDEFINED)
        return vgn_dicom_fail(err, VGN_E_INVALID, "compressed pixel data is not encapsulated");
    if (h.coding == VGN_DICOM_JPEG && h.has_allocated && h.allocated > 8 && h.stored > 8)
        return vgn_dicom_fail(err, VGN_E_UNSUPPORTED, "12-bit JPEG pixel data is not read");
    if (h.coding == VGN_DICOM_JPEG) {
        status = vgn_dicom_frame(data, size, &h, offset, length, joined, err);
        if (status != 0) return status;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

/* vgn_dicom_open, and with `jpegls` vgn_dicom_jls_open: the same reader, the second for JPEG-LS frames
 * only (CharLS is a library to run in a child, as vgn_isolated_open does). */
static vgn_decoder *vgn_dicom_open_coded(const uint8_t *data, size_t size, uint32_t target, int jpegls, vgn_image_info *info,
                                         vgn_error *err)
{
    vgn_dicom *m;
    vgn_dicom_header h;
    int photometric;
    size_t pixels, frame, item;
    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    if (vgn_dicom_parse(data, size, &h, err) != 0) return NULL;
    if (h.coding == VGN_DICOM_JPEG || h.coding == VGN_DICOM_JPEG2000 || (h.coding == VGN_DICOM_JPEGLS) != jpegls)
        return vgn_err_null(err, VGN_E_STATE, "this pixel data's coding goes through another opener (vgn_dicom_select)");
    if (vgn_dicom_check(&h, &photometric, err) != 0) return NULL;
    if (photometric == VGN_DICOM_PALETTE) {
        int k;
        for (k = 0; k < 3; k++)
            if (h.lut[k] == NULL || h.lut_entries[k] == 0 ||
                h.lut_size[k] < (h.lut_bits[k] == 8 ? (size_t)h.lut_entries[k] : 2 * (size_t)h.lut_entries[k]))
                return vgn_err_null(err, VGN_E_INVALID, "a palette lookup table is missing or shorter than its descriptor says");
    }
    if (photometric == VGN_DICOM_YBR422 && (h.coding != VGN_DICOM_RAW || h.columns % 2 != 0))
        return vgn_err_null(err, VGN_E_UNSUPPORTED, "YBR_FULL_422 is read only uncompressed and an even number of pixels wide");
    m = (vgn_dicom *)calloc(1, sizeof *m);
    if (m == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    m->h = h;
    m->photometric = photometric;
    m->bytes = h.allocated / 8;
    m->little = !h.big_endian;
    pixels = (size_t)h.rows * (size_t)h.columns;
    frame = pixels * (size_t)m->bytes * (size_t)h.samples;
    if (photometric == VGN_DICOM_YBR422) frame = pixels * (size_t)m->bytes * 2;
    if (m->bytes == 0) frame = (pixels + 7) / 8;
    if (h.coding == VGN_DICOM_RAW) {
        if (h.pixel_length == VGN_DICOM_UNDEFINED) {
            vgn_dicom_close(&m->base);
            return vgn_err_null(err, VGN_E_INVALID, "uncompressed pixel data is encapsulated");
        }
        if (frame > h.pixel_length) {
            vgn_dicom_close(&m->base);
            return vgn_err_null(err, VGN_E_TRUNCATED, "the pixel data is shorter than one frame");
        }
        m->raster = data + h.pixels;
        m->frame_size = frame;
        if (h.big_endian && h.pixel_words && m->bytes <= 1) {
            // Reading byte i^1 of an odd-sized frame reaches one past it: within the element, which is even-sized.
            if (frame % 2 != 0 && frame == h.pixel_length) {
                vgn_dicom_close(&m->base);
                return vgn_err_null(err, VGN_E_INVALID, "an OW element has an odd length");
            }
            m->swap_bytes = 1;
            m->base.working = frame;
        }
        m->planar = h.samples == 3 && h.planar == 1 && photometric != VGN_DICOM_YBR422;
        m->plane = pixels * (size_t)m->bytes;
    } else {
        uint8_t *joined;
        if (h.pixel_length != VGN_DICOM_UNDEFINED || vgn_dicom_frame(data, size, &h, &item, &m->frame_item_size, &joined, err) != 0) {
            if (h.pixel_length != VGN_DICOM_UNDEFINED) vgn_err_fill(err, VGN_E_INVALID, "compressed pixel data is not encapsulated", NULL);
            vgn_dicom_close(&m->base);
            return NULL;
        }
        m->joined = joined;
        m->frame_item = joined != NULL ? joined : data + item;
        m->base.working = pixels * (size_t)(h.coding == VGN_DICOM_RLE ? m->bytes : 2) * (size_t)h.samples;
    }
    if (photometric <= VGN_DICOM_MONO2 && m->bytes > 0 && m->bytes <= 2) m->base.working += 65536;
    m->invert = photometric == VGN_DICOM_MONO1;
    m->base.read_rows = vgn_dicom_read_rows;
    m->base.close = vgn_dicom_close;
    {
        uint32_t longest = (uint32_t)(h.columns > h.rows ? h.columns : h.rows);
        m->k = target > 0 && longest / 2 / target > 1 ? longest / 2 / target : 1;
    }
    info->width = (uint32_t)h.columns;
    info->height = (uint32_t)h.rows;
    m->base.width = ((uint32_t)h.columns + m->k - 1) / m->k;
    m->base.height = ((uint32_t)h.rows + m->k - 1) / m->k;
    m->base.extent_width = (double)h.columns / m->k;
    m->base.extent_height = (double)h.rows / m->k;
    m->base.working += (size_t)h.columns * 3 + (size_t)m->base.width * 3 * sizeof(uint32_t);
    m->base.opaque = 1;
    info->components = h.samples;
    info->bit_depth = h.stored;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &m->base;
}

vgn_decoder *vgn_dicom_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    return vgn_dicom_open_coded(data, size, target, 0, info, err);
}

vgn_decoder *vgn_dicom_jls_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    return vgn_dicom_open_coded(data, size, target, 1, info, err);
}

/* A JPEG 2000 frame: OpenJPEG's decoder over the frame's codestream, grey samples shown through the
 * rescale and window as native ones are. */
typedef struct {
    vgn_decoder base;
    vgn_decoder *inner;
    uint8_t *joined;
    vgn_dicom m; /* the header and the grey mapping */
} vgn_dicom_j2k;

/* A J2K sample as DICOM stores it: an unsigned codestream under Pixel Representation 1 holds the
 * two's complement bits (pydicom and GDCM read it so). */
static int64_t vgn_dicom_j2k_value(const vgn_dicom *m, int32_t sample, int sgnd)
{
    int64_t v = sample;
    if (!sgnd && m->h.is_signed && m->h.stored > 0 && m->h.stored < 32 && v >= (int64_t)1 << (m->h.stored - 1) &&
        v < (int64_t)1 << m->h.stored)
        v -= (int64_t)1 << m->h.stored;
    return v;
}

static void vgn_dicom_j2k_prepare(void *context, const int32_t *samples, size_t count, int sgnd)
{
    vgn_dicom *m = (vgn_dicom *)context;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t i;
    for (i = 0; i < count; i++) {
        int64_t v = vgn_dicom_j2k_value(m, samples[i], sgnd);
        if (v < lo) lo = v;
        if (v > hi) hi = v;
    }
    vgn_dicom_set_range(m, lo, hi);
}

static uint8_t vgn_dicom_j2k_map(void *context, int32_t sample, int sgnd)
{
    const vgn_dicom *m = (const vgn_dicom *)context;
    return vgn_dicom_grey(m, vgn_dicom_j2k_value(m, sample, sgnd));
}

static int vgn_dicom_j2k_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    return vgn_decoder_read_rows(((vgn_dicom_j2k *)d)->inner, dst, stride, max_rows, err);
}

static void vgn_dicom_j2k_close(vgn_decoder *d)
{
    vgn_dicom_j2k *w = (vgn_dicom_j2k *)d;
    if (w == NULL) return;
    vgn_decoder_close(w->inner);
    free(w->joined);
    free(w);
}

vgn_decoder *vgn_dicom_jp2_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_dicom_j2k *w;
    size_t offset, length;
    int photometric;
    if (data == NULL || info == NULL) return vgn_err_null(err, VGN_E_STATE, "no data");
    memset(info, 0, sizeof *info);
    w = (vgn_dicom_j2k *)calloc(1, sizeof *w);
    if (w == NULL) return vgn_err_null(err, VGN_E_NOMEM, "out of memory");
    if (vgn_dicom_parse(data, size, &w->m.h, err) != 0) {
        free(w);
        return NULL;
    }
    if (w->m.h.coding != VGN_DICOM_JPEG2000 || w->m.h.pixel_length != VGN_DICOM_UNDEFINED) {
        free(w);
        return vgn_err_null(err, VGN_E_INVALID, "the pixel data is not encapsulated JPEG 2000");
    }
    if (vgn_dicom_frame(data, size, &w->m.h, &offset, &length, &w->joined, err) != 0) {
        free(w);
        return NULL;
    }
    w->inner = vgn_jp2_open(w->joined != NULL ? w->joined : data + offset, length, target, info, err);
    if (w->inner == NULL) {
        vgn_dicom_j2k_close(&w->base);
        return NULL;
    }
    photometric = vgn_dicom_photometric(w->m.h.photometric);
    if (photometric == VGN_DICOM_MONO1 || photometric == VGN_DICOM_MONO2 || w->m.h.photometric[0] == 0) {
        vgn_jp2_grey_map map = {vgn_dicom_j2k_prepare, vgn_dicom_j2k_map, &w->m};
        if (w->m.h.stored == 0) w->m.h.stored = w->m.h.allocated;
        w->m.invert = photometric == VGN_DICOM_MONO1;
        vgn_jp2_set_grey_map(w->inner, &map);
    }
    w->base.read_rows = vgn_dicom_j2k_read_rows;
    w->base.close = vgn_dicom_j2k_close;
    w->base.width = w->inner->width;
    w->base.height = w->inner->height;
    w->base.working = w->inner->working;
    w->base.extent_width = w->inner->extent_width;
    w->base.extent_height = w->inner->extent_height;
    w->base.icc = w->inner->icc;
    w->base.icc_size = w->inner->icc_size;
    w->base.opaque = w->inner->opaque;
    return &w->base;
}
