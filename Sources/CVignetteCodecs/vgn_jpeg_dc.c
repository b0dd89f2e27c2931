/*
 * vgn_jpeg_dc.c - DC-only decoder for progressive Huffman JPEG (see vgn_jpeg_dc.h).
 *
 * Pure C11 + standard library; independent of libjpeg. The error/resync behaviour follows
 * libjpeg-turbo 2.1 where it matters for the output (jdmarker.c, jdphuff.c, jdhuff.c):
 *  - the bit reader stops at any marker and supplies zero bits after it; once a DC first
 *    scan has run out of data, the rest of that restart segment is left at 0 (mid-gray);
 *  - a missing or wrong RSTn is resynchronised like jpeg_resync_to_restart();
 *  - quantisation tables are latched when a component first appears in a scan.
 * Unlike libjpeg, a bad Huffman code (or a DC category > 11) ends decoding of the current
 * restart segment (the rest stays as it was) instead of decoding garbage.
 *
 * Every loop is bounded by the data size or by the block count; the number of scans is
 * limited; every read is bounds-checked against `size`.
 */
#include "vgn_jpeg_dc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Chroma upsampling to the luma block grid: 1 = libjpeg's triangle ("fancy") filters
   h2v1/h1v2/h2v2 with libjpeg's rounding; 0 = replication, which is bit-exact with
   libjpeg's own 1/8 output from DC-only data (libjpeg disables fancy upsampling at 1/8). */
#ifndef VGN_DC_FANCY_UPSAMPLING
#define VGN_DC_FANCY_UPSAMPLING 0
#endif

#define DC_FAST_BITS    9
#define DC_MAX_SCANS    500  /* SOS markers of any kind (= VGN_JPEG_MAX_SCANS) */
#define DC_MAX_DC_SCANS 64   /* DC scans decoded (a sane file needs at most 3 x 14) */
#define DC_MAX_COMPS    3

/* Why parsing stopped. */
enum {
    DC_STOP_DONE = 1,  /* every component's DC is complete */
    DC_STOP_EOI,       /* EOI marker */
    DC_STOP_EOD,       /* end of the buffer without EOI */
    DC_STOP_CORRUPT,   /* malformed data (message set) */
    DC_STOP_NA,        /* not handled here (message set) */
    DC_STOP_NOMEM
};

typedef struct {
    int defined;
    uint8_t bits[17];  /* bits[1..16]: number of codes of each length */
    uint8_t vals[256];
} dc_rawhuff;

typedef struct {
    uint16_t fast[1 << DC_FAST_BITS]; /* (length << 8) | symbol for codes <= DC_FAST_BITS, 0 = slow path */
    int32_t maxcode[17];              /* largest code of each length, -1 if none */
    int32_t valoff[17];               /* symbol index = code + valoff[length] */
    uint8_t vals[256];
} dc_huff;

typedef struct {
    int id, h, v, tq;
    int q0, q_latched;
    int dc_bits;       /* -1 before any DC scan, else Al of the last DC scan (0 = complete) */
    uint32_t bw, bh;   /* block array size (padded to the MCU grid) */
    uint32_t rbw, rbh; /* blocks that cover the image */
    uint16_t *coef;    /* bw * bh DC coefficients, two's complement, 0 = mid-gray */
    int td;            /* DC table of the current scan */
} dc_comp;

typedef struct {
    const uint8_t *data;
    size_t size;
    size_t pos;
    int have_sof;
    int seen_sos;
    uint32_t width, height;
    int ncomp;
    int hmax, vmax;
    uint32_t mcux, mcuy;
    dc_comp comp[DC_MAX_COMPS];
    int q_defined[4];
    int q0[4];
    dc_rawhuff raw[4];
    dc_huff huff[4];
    unsigned restart_interval;
    int saw_jfif, saw_adobe, adobe_transform;
    int scans, dc_scans;
    int warn;
    char *msg;
    size_t msg_size;
    int msg_is_warning; /* msg holds a warning (an error message may replace it) */
} dc_dec;

/* Byte source of entropy-coded data: stops at any marker. */
typedef struct {
    const uint8_t *data;
    size_t end;
    size_t pos;        /* next byte to load */
    int at_marker;     /* loading stopped at a marker or at the end of the data */
    size_t marker_pos; /* index of the 0xFF that starts that marker (end if none) */
} dc_src;

/* Bit buffer, passed by value / kept in locals so the scan loop can hold it in registers. */
typedef struct {
    uint64_t buf; /* MSB-aligned bits; everything below the valid bits is zero */
    int cnt;      /* valid bits in buf */
    int overrun;  /* bits past the marker/end were consumed (zeros supplied) */
} dc_bb;

/* One component of the current scan. */
typedef struct {
    uint16_t *coef;
    size_t stride;
    uint32_t h, v;      /* blocks per MCU (1x1 in a non-interleaved scan) */
    const dc_huff *tbl; /* DC table (first scans) */
    unsigned pred;      /* DC predictor; only its low 16 bits matter (JCOEF wraps) */
} dc_scomp;

/* ---- messages ----------------------------------------------------------------------- */

static void dc_vmsg(dc_dec *d, int is_warning, const char *fmt, va_list ap)
{
    if (d->msg == NULL || d->msg_size == 0)
        return;
    if (is_warning && d->msg[0] != '\0')
        return; /* keep the first warning */
    if (!is_warning && d->msg[0] != '\0' && !d->msg_is_warning)
        return; /* keep the first error */
    vsnprintf(d->msg, d->msg_size, fmt, ap);
    d->msg_is_warning = is_warning;
}

/* Records a warning (first text kept). */
static void dc_warn(dc_dec *d, const char *fmt, ...)
{
    va_list ap;
    d->warn = 1;
    va_start(ap, fmt);
    dc_vmsg(d, 1, fmt, ap);
    va_end(ap);
}

/* Records an error text and returns `stop` (so callers can `return dc_fail(...)`). */
static int dc_fail(dc_dec *d, int stop, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    dc_vmsg(d, 0, fmt, ap);
    va_end(ap);
    return stop;
}

/* ---- byte helpers -------------------------------------------------------------------- */

static unsigned dc_be16(const uint8_t *p)
{
    return ((unsigned)p[0] << 8) | p[1];
}

/* Index of the 0xFF that introduces the next marker at or after p, skipping 0xFF00
   stuffing, 0xFF fill bytes and (if skip_rst) RSTn markers; size if there is none. */
static size_t dc_find_marker(const uint8_t *data, size_t size, size_t p, int skip_rst)
{
    while (p < size) {
        const uint8_t *f = (const uint8_t *)memchr(data + p, 0xFF, size - p);
        if (f == NULL)
            return size;
        p = (size_t)(f - data) + 1;
        while (p < size && data[p] == 0xFF)
            p++;
        if (p >= size)
            return size;
        if (data[p] == 0x00 || (skip_rst && data[p] >= 0xD0 && data[p] <= 0xD7)) {
            p++;
            continue;
        }
        return p - 1;
    }
    return size;
}

/* ---- bit reader ---------------------------------------------------------------------- */

static void dc_src_init(dc_src *src, const uint8_t *data, size_t size, size_t pos)
{
    src->data = data;
    src->end = size;
    src->pos = pos;
    src->at_marker = 0;
    src->marker_pos = size;
}

/* Loads bytes until more than 56 bits are buffered or a marker / the end is reached. */
static dc_bb dc_fill(dc_src *src, dc_bb b)
{
    while (b.cnt <= 56 && !src->at_marker) {
        size_t p = src->pos;
        unsigned c;
        if (p >= src->end) {
            src->at_marker = 1;
            src->marker_pos = src->end;
            break;
        }
        c = src->data[p];
        if (c == 0xFF) {
            size_t q = p + 1;
            while (q < src->end && src->data[q] == 0xFF)
                q++;
            if (q >= src->end) {
                src->at_marker = 1;
                src->marker_pos = p;
                break;
            }
            if (src->data[q] != 0x00) {
                src->at_marker = 1;
                src->marker_pos = q - 1;
                break;
            }
            src->pos = q + 1; /* FF (FF...) 00 = one data byte 0xFF */
        } else {
            src->pos = p + 1;
        }
        b.buf |= (uint64_t)c << (56 - b.cnt);
        b.cnt += 8;
    }
    return b;
}

/* Drops n (1..16) bits; past a marker/the end the bits are zeros and `overrun` is set. */
static inline void dc_bits_skip(dc_bb *b, int n)
{
    if (n > b->cnt) {
        b->overrun = 1;
        b->buf = 0;
        b->cnt = 0;
        return;
    }
    b->buf <<= n;
    b->cnt -= n;
}

/* Reads n (1..16) bits. */
static inline unsigned dc_bits_get(dc_src *src, dc_bb *b, int n)
{
    unsigned v;
    if (b->cnt < n)
        *b = dc_fill(src, *b);
    v = (unsigned)(b->buf >> (64 - n));
    dc_bits_skip(b, n);
    return v;
}

/* ---- Huffman ------------------------------------------------------------------------- */

/* Builds the decoding tables for a DC table; -1 if malformed (libjpeg's checks:
   over-subscribed lengths, all-ones codes, DC symbols > 15). */
static int dc_huff_build(dc_huff *h, const dc_rawhuff *raw)
{
    int32_t code = 0;
    int k = 0, l;
    memset(h->fast, 0, sizeof(h->fast));
    h->maxcode[0] = -1;
    h->valoff[0] = 0;
    for (l = 1; l <= 16; l++) {
        int n = raw->bits[l], i;
        h->valoff[l] = k - code;
        h->maxcode[l] = n ? code + n - 1 : -1;
        for (i = 0; i < n; i++, k++, code++) {
            unsigned sym;
            if (k >= 256 || code >= ((int32_t)1 << l))
                return -1;
            sym = raw->vals[k];
            if (sym > 15)
                return -1;
            h->vals[k] = (uint8_t)sym;
            if (l <= DC_FAST_BITS) {
                int shift = DC_FAST_BITS - l, j;
                int32_t base = code << shift;
                for (j = 0; j < (1 << shift); j++)
                    h->fast[base + j] = (uint16_t)((l << 8) | sym);
            }
        }
        if (code >= ((int32_t)1 << l)) /* the all-ones code was used */
            return -1;
        code <<= 1;
    }
    for (; k < 256; k++)
        h->vals[k] = 0;
    return 0;
}

/* Decodes one symbol; -1 for a code that is not in the table. */
static inline int dc_huff_decode(dc_src *src, dc_bb *b, const dc_huff *h)
{
    unsigned e, code;
    int l;
    if (b->cnt < 16)
        *b = dc_fill(src, *b);
    e = h->fast[b->buf >> (64 - DC_FAST_BITS)];
    if (e != 0) {
        dc_bits_skip(b, (int)(e >> 8));
        return (int)(e & 0xFF);
    }
    code = (unsigned)(b->buf >> 48);
    for (l = DC_FAST_BITS + 1; l <= 16; l++) {
        int32_t c = (int32_t)(code >> (16 - l));
        if (c <= h->maxcode[l]) {
            int32_t idx = c + h->valoff[l];
            if (idx < 0 || idx > 255)
                return -1;
            dc_bits_skip(b, l);
            return h->vals[idx];
        }
    }
    return -1;
}

/* ---- restart markers ----------------------------------------------------------------- */

/* At a restart boundary (the caller discards the buffered bits): find RSTn like libjpeg's
   read_restart_marker() + jpeg_resync_to_restart(). Sets *insufficient when the next
   segment must be treated as empty; returns 1 when every later segment of the scan will
   be empty too (a non-RST marker or the end of the data is next). */
static int dc_restart(dc_dec *d, dc_src *src, int *next_rst, int *insufficient)
{
    size_t p = src->at_marker ? src->marker_pos : src->pos;
    int want = *next_rst;
    *next_rst = (want + 1) & 7;
    for (;;) {
        size_t q = dc_find_marker(d->data, d->size, p, 0);
        int code, action;
        if (q > p)
            dc_warn(d, "Corrupt JPEG data: %zu extraneous bytes before a restart marker", q - p);
        if (q >= d->size) { /* like libjpeg's fake EOI at the end of the data */
            src->pos = d->size;
            src->at_marker = 1;
            src->marker_pos = d->size;
            *insufficient = 1;
            return 1;
        }
        code = d->data[q + 1];
        if (code == 0xD0 + want) {
            action = 1;
        } else {
            dc_warn(d, "Corrupt JPEG data: restart marker RST%d missing or out of place", want);
            if (code < 0xC0) {
                action = 2; /* invalid marker: skip it */
            } else if (code < 0xD0 || code > 0xD7) {
                action = 3; /* valid non-restart marker: leave it, segment is empty */
            } else {
                int n = code - 0xD0;
                if (n == ((want + 1) & 7) || n == ((want + 2) & 7))
                    action = 3; /* one of the next two: leave it */
                else if (n == ((want + 7) & 7) || n == ((want + 6) & 7))
                    action = 2; /* a previous one: skip it */
                else
                    action = 1; /* too far away: take it */
            }
        }
        if (action == 1) {
            src->pos = q + 2;
            src->at_marker = 0;
            src->marker_pos = d->size;
            *insufficient = 0;
            return 0;
        }
        if (action == 3) {
            src->pos = q;
            src->at_marker = 1;
            src->marker_pos = q;
            *insufficient = 1;
            return code < 0xD0 || code > 0xD7;
        }
        p = q + 2;
    }
}

/* ---- scan decoding -------------------------------------------------------------------- */

/* Decodes one DC scan (first pass when ah == 0, refinement otherwise) starting at d->pos;
   leaves d->pos where the following marker search should start. */
static void dc_decode_scan(dc_dec *d, dc_comp **sc, int ns, int ah, int al)
{
    dc_src src;
    dc_bb bb = {0, 0, 0};
    dc_scomp comp[4];
    struct {
        int ci;
        uint32_t dx, dy;
    } blk[16];
    uint32_t mx, my, mcus_x, mcus_y;
    unsigned ri = d->restart_interval, togo = ri;
    int next_rst = 0, insufficient = 0, i, b, nblk = 0;
    const unsigned refine_bit = 1u << al;

    dc_src_init(&src, d->data, d->size, d->pos);
    for (i = 0; i < ns; i++) {
        uint32_t x, y;
        comp[i].coef = sc[i]->coef;
        comp[i].stride = sc[i]->bw;
        comp[i].h = ns == 1 ? 1 : (uint32_t)sc[i]->h;
        comp[i].v = ns == 1 ? 1 : (uint32_t)sc[i]->v;
        comp[i].tbl = &d->huff[sc[i]->td & 3];
        comp[i].pred = 0;
        for (y = 0; y < comp[i].v; y++)
            for (x = 0; x < comp[i].h && nblk < 16; x++) {
                blk[nblk].ci = i;
                blk[nblk].dx = x;
                blk[nblk].dy = y;
                nblk++;
            }
    }
    if (ns == 1) {
        mcus_x = sc[0]->rbw;
        mcus_y = sc[0]->rbh;
    } else {
        mcus_x = d->mcux;
        mcus_y = d->mcuy;
    }
    for (my = 0; my < mcus_y; my++) {
        for (mx = 0; mx < mcus_x; mx++) {
            int bad = 0;
            if (ri != 0) {
                if (togo == 0) {
                    bb.buf = 0;
                    bb.cnt = 0;
                    bb.overrun = 0;
                    if (dc_restart(d, &src, &next_rst, &insufficient))
                        goto done; /* the rest of the scan is empty (left as it is) */
                    for (i = 0; i < ns; i++)
                        comp[i].pred = 0;
                    togo = ri;
                }
                togo--;
            }
            if (insufficient) {
                if (ri == 0)
                    goto done; /* no restart marker can follow: the rest of the scan is empty */
                continue;
            }
            for (b = 0; b < nblk; b++) {
                dc_scomp *c = &comp[blk[b].ci];
                uint16_t *px = c->coef + (size_t)(my * c->v + blk[b].dy) * c->stride + mx * c->h + blk[b].dx;
                if (ah == 0) {
                    int s = dc_huff_decode(&src, &bb, c->tbl);
                    if (s < 0 || s > 11) {
                        dc_warn(d, s < 0 ? "Corrupt JPEG data: bad Huffman code"
                                         : "Corrupt JPEG data: DC difference out of range");
                        bad = 1;
                        break;
                    }
                    if (s != 0) {
                        unsigned r = dc_bits_get(&src, &bb, s);
                        /* HUFF_EXTEND in unsigned arithmetic (only the low 16 bits are kept) */
                        c->pred += r < (1u << (s - 1)) ? r + 1u - (1u << s) : r;
                    }
                    *px = (uint16_t)((c->pred & 0xFFFFu) << al);
                } else if (dc_bits_get(&src, &bb, 1)) {
                    *px = (uint16_t)(*px | refine_bit);
                }
            }
            if (bad) {
                insufficient = 1; /* skip the rest of this restart segment */
            } else if (bb.overrun) {
                if (src.marker_pos >= d->size)
                    dc_warn(d, "Premature end of JPEG file (inside a DC scan)");
                else
                    dc_warn(d, "Corrupt JPEG data: premature end of data segment");
                insufficient = 1;
            }
        }
    }
done:
    d->pos = src.at_marker ? src.marker_pos : src.pos;
}

/* ---- marker segments ------------------------------------------------------------------ */

/* Reads a segment length at d->pos; 0 and *len (>= 2) if the segment fits in the data,
   DC_STOP_EOD if it runs past the end. Lengths < 2 are given as 2 when allow_short. */
static int dc_seg_len(dc_dec *d, size_t *len, int allow_short)
{
    size_t l;
    if (d->size - d->pos < 2)
        return DC_STOP_EOD;
    l = dc_be16(d->data + d->pos);
    if (l < 2) {
        if (!allow_short)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad marker segment length");
        l = 2;
    }
    if (l > d->size - d->pos)
        return DC_STOP_EOD;
    *len = l;
    return 0;
}

static int dc_parse_app(dc_dec *d, int code)
{
    size_t len = 0;
    const uint8_t *p;
    int r = dc_seg_len(d, &len, 1);
    if (r)
        return r;
    p = d->data + d->pos + 2;
    if (code == 0xE0 && len - 2 >= 14 && memcmp(p, "JFIF\0", 5) == 0)
        d->saw_jfif = 1;
    if (code == 0xEE && len - 2 >= 12 && memcmp(p, "Adobe", 5) == 0) {
        d->saw_adobe = 1;
        d->adobe_transform = p[11];
    }
    d->pos += len;
    return 0;
}

static int dc_parse_dqt(dc_dec *d)
{
    size_t len = 0, left;
    const uint8_t *p;
    int r = dc_seg_len(d, &len, 0);
    if (r)
        return r;
    p = d->data + d->pos + 2;
    left = len - 2;
    while (left > 0) {
        unsigned tq = p[0] & 15;
        size_t need = (p[0] >> 4) ? 1 + 128 : 1 + 64; /* any non-zero Pq = 16-bit, like libjpeg */
        if (tq > 3)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad quantization table index %u", tq);
        if (left < need)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad DQT segment length");
        d->q0[tq] = (p[0] >> 4) ? (int)dc_be16(p + 1) : p[1]; /* entry 0 (zigzag 0 = DC) */
        d->q_defined[tq] = 1;
        p += need;
        left -= need;
    }
    d->pos += len;
    return 0;
}

static int dc_parse_dht(dc_dec *d)
{
    size_t len = 0, left;
    const uint8_t *p;
    int r = dc_seg_len(d, &len, 0);
    if (r)
        return r;
    p = d->data + d->pos + 2;
    left = len - 2;
    while (left > 16) {
        unsigned index = p[0], count = 0, i;
        int ac = 0;
        if (index & 0x10) {
            index -= 0x10;
            ac = 1;
        }
        if (index > 3)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad Huffman table index 0x%02x", p[0]);
        for (i = 1; i <= 16; i++)
            count += p[i];
        p += 17;
        left -= 17;
        if (count > 256 || count > left)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad Huffman table");
        if (!ac) {
            dc_rawhuff *t = &d->raw[index];
            t->defined = 1;
            t->bits[0] = 0;
            memcpy(t->bits + 1, p - 16, 16);
            memset(t->vals, 0, sizeof(t->vals));
            memcpy(t->vals, p, count);
        }
        p += count;
        left -= count;
    }
    if (left != 0)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad DHT segment length");
    d->pos += len;
    return 0;
}

static int dc_parse_dri(dc_dec *d)
{
    size_t len = 0;
    int r = dc_seg_len(d, &len, 0);
    if (r)
        return r;
    if (len != 4)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad DRI segment length");
    d->restart_interval = dc_be16(d->data + d->pos + 2);
    d->pos += len;
    return 0;
}

static int dc_parse_sof2(dc_dec *d)
{
    size_t len = 0;
    const uint8_t *p;
    int r = dc_seg_len(d, &len, 0), i;
    unsigned prec, nc;
    if (r)
        return r;
    if (d->have_sof)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: more than one SOF marker");
    if (len < 8)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad SOF segment length");
    p = d->data + d->pos + 2;
    prec = p[0];
    d->height = dc_be16(p + 1);
    d->width = dc_be16(p + 3);
    nc = p[5];
    if (len != 8 + 3 * (size_t)nc)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad SOF segment length");
    if (d->width == 0 || d->height == 0 || nc == 0)
        return dc_fail(d, DC_STOP_CORRUPT, "Empty JPEG image (zero width, height or components)");
    if (prec != 8)
        return dc_fail(d, DC_STOP_NA, "%u-bit JPEG is not handled by the DC decoder", prec);
    if (nc != 1 && nc != 3)
        return dc_fail(d, DC_STOP_NA, "JPEG with %u components is not handled by the DC decoder", nc);
    d->ncomp = (int)nc;
    p += 6;
    for (i = 0; i < d->ncomp; i++, p += 3) {
        dc_comp *c = &d->comp[i];
        int j;
        c->id = p[0];
        c->h = p[1] >> 4;
        c->v = p[1] & 15;
        c->tq = p[2];
        c->dc_bits = -1;
        if (c->h < 1 || c->h > 4 || c->v < 1 || c->v > 4)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad sampling factors");
        for (j = 0; j < i; j++)
            if (d->comp[j].id == c->id)
                return dc_fail(d, DC_STOP_NA, "JPEG with duplicate component ids is not handled by the DC decoder");
    }
    /* supported: luma HxV in {1,2}x{1,2}, chroma 1x1 */
    if (d->comp[0].h > 2 || d->comp[0].v > 2 ||
        (d->ncomp == 3 && (d->comp[1].h != 1 || d->comp[1].v != 1 || d->comp[2].h != 1 || d->comp[2].v != 1)))
        return dc_fail(d, DC_STOP_NA, "JPEG sampling factors not handled by the DC decoder");
    d->hmax = d->comp[0].h;
    d->vmax = d->comp[0].v;
    d->mcux = (d->width + 8u * (uint32_t)d->hmax - 1) / (8u * (uint32_t)d->hmax);
    d->mcuy = (d->height + 8u * (uint32_t)d->vmax - 1) / (8u * (uint32_t)d->vmax);
    for (i = 0; i < d->ncomp; i++) {
        dc_comp *c = &d->comp[i];
        uint32_t sw = (d->width * (uint32_t)c->h + (uint32_t)d->hmax - 1) / (uint32_t)d->hmax;
        uint32_t sh = (d->height * (uint32_t)c->v + (uint32_t)d->vmax - 1) / (uint32_t)d->vmax;
        c->rbw = (sw + 7) / 8;
        c->rbh = (sh + 7) / 8;
        c->bw = d->mcux * (uint32_t)c->h;
        c->bh = d->mcuy * (uint32_t)c->v;
    }
    d->have_sof = 1;
    d->pos += len;
    return 0;
}

/* First SOS: colour space check (libjpeg's default_decompress_parms) and block arrays. */
static int dc_first_scan_setup(dc_dec *d)
{
    int i;
    if (d->ncomp == 3) {
        int rgb = 0;
        if (d->saw_jfif)
            rgb = 0;
        else if (d->saw_adobe)
            rgb = d->adobe_transform == 0;
        else
            rgb = d->comp[0].id == 'R' && d->comp[1].id == 'G' && d->comp[2].id == 'B';
        if (rgb)
            return dc_fail(d, DC_STOP_NA, "RGB JPEG (no YCbCr transform) is not handled by the DC decoder");
    }
    for (i = 0; i < d->ncomp; i++) {
        dc_comp *c = &d->comp[i];
        size_t n = (size_t)c->bw * (size_t)c->bh;
        if (c->bh != 0 && n / c->bh != c->bw)
            return DC_STOP_NOMEM;
        if (n > ((size_t)-1) / sizeof(uint16_t))
            return DC_STOP_NOMEM;
        c->coef = (uint16_t *)calloc(n, sizeof(uint16_t));
        if (c->coef == NULL)
            return DC_STOP_NOMEM;
    }
    return 0;
}

static int dc_all_dc_complete(const dc_dec *d)
{
    int i;
    for (i = 0; i < d->ncomp; i++)
        if (d->comp[i].dc_bits != 0)
            return 0;
    return 1;
}

static int dc_parse_sos(dc_dec *d)
{
    size_t len = 0;
    const uint8_t *p;
    dc_comp *sc[4];
    int r, n, i, ss, se, ah, al;
    int used[DC_MAX_COMPS] = {0, 0, 0};

    if (!d->have_sof)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: SOS before SOF");
    r = dc_seg_len(d, &len, 0);
    if (r)
        return r;
    p = d->data + d->pos + 2;
    if (len < 3)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad SOS segment length");
    n = p[0];
    if (n < 1 || n > 4 || len != 6 + 2 * (size_t)n)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad SOS segment length");
    for (i = 0; i < n; i++) {
        int id = p[1 + 2 * i], ci;
        for (ci = 0; ci < d->ncomp; ci++)
            if (d->comp[ci].id == id && !used[ci])
                break;
        if (ci == d->ncomp)
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad component id %d in SOS", id);
        used[ci] = 1;
        sc[i] = &d->comp[ci];
        sc[i]->td = p[2 + 2 * i] >> 4;
    }
    ss = p[1 + 2 * n];
    se = p[2 + 2 * n];
    ah = p[3 + 2 * n] >> 4;
    al = p[3 + 2 * n] & 15;
    /* jdphuff.c start_pass_phuff_decoder's checks */
    if ((ss == 0 && se != 0) || (ss != 0 && (ss > se || se > 63 || n != 1)) ||
        (ah != 0 && al != ah - 1) || al > 13)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: invalid progressive parameters Ss=%d Se=%d Ah=%d Al=%d",
                       ss, se, ah, al);
    if (++d->scans > DC_MAX_SCANS)
        return dc_fail(d, DC_STOP_CORRUPT, "too many scans in JPEG data (more than %d)", DC_MAX_SCANS);
    if (!d->seen_sos) {
        r = dc_first_scan_setup(d);
        if (r)
            return r;
        d->seen_sos = 1;
    }
    for (i = 0; i < n; i++) { /* latch quantization tables (jdinput.c latch_quant_tables) */
        dc_comp *c = sc[i];
        if (c->q_latched)
            continue;
        if (c->tq > 3 || !d->q_defined[c->tq])
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: quantization table 0x%02x was not defined", c->tq);
        c->q0 = d->q0[c->tq];
        c->q_latched = 1;
    }
    d->pos += len;

    if (ss != 0) {
        /* AC scan: not needed; skip its entropy-coded data */
        d->pos = dc_find_marker(d->data, d->size, d->pos, 1);
        return 0;
    }

    if (ah == 0) {
        for (i = 0; i < n; i++) {
            int t = sc[i]->td;
            if (t > 3 || !d->raw[t].defined)
                return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: Huffman table 0x%02x was not defined", t);
        }
        for (i = 0; i < 4; i++) {
            int j, needed = 0;
            for (j = 0; j < n; j++)
                needed |= sc[j]->td == i;
            if (needed && dc_huff_build(&d->huff[i], &d->raw[i]) != 0)
                return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad Huffman table");
        }
    }
    if (++d->dc_scans > DC_MAX_DC_SCANS)
        return dc_fail(d, DC_STOP_CORRUPT, "too many DC scans in JPEG data (more than %d)", DC_MAX_DC_SCANS);
    for (i = 0; i < n; i++) {
        int expected = sc[i]->dc_bits < 0 ? 0 : sc[i]->dc_bits;
        if (ah != expected)
            dc_warn(d, "Corrupt JPEG data: inconsistent progression sequence");
        sc[i]->dc_bits = al;
    }
    dc_decode_scan(d, sc, n, ah, al);
    return dc_all_dc_complete(d) ? DC_STOP_DONE : 0;
}

/* Walks the markers from SOI until the DC is complete, EOI, the end of data or an error. */
static int dc_parse(dc_dec *d)
{
    if (d->size < 2 || d->data[0] != 0xFF || d->data[1] != 0xD8)
        return dc_fail(d, DC_STOP_CORRUPT, "Not a JPEG file");
    d->pos = 2;
    for (;;) {
        size_t q = dc_find_marker(d->data, d->size, d->pos, 0);
        int code, r = 0;
        if (q >= d->size)
            return DC_STOP_EOD;
        code = d->data[q + 1];
        d->pos = q + 2;
        switch (code) {
        case 0xC2:
            r = dc_parse_sof2(d);
            break;
        case 0xC0: case 0xC1:
            return dc_fail(d, DC_STOP_NA, "sequential (non-progressive) JPEG is not handled by the DC decoder");
        case 0xC3: case 0xC7: case 0xCB: case 0xCF:
            return dc_fail(d, DC_STOP_NA, "lossless JPEG is not handled by the DC decoder");
        case 0xC5: case 0xC6: case 0xCD: case 0xCE:
            return dc_fail(d, DC_STOP_NA, "hierarchical JPEG is not handled by the DC decoder");
        case 0xC9: case 0xCA:
            return dc_fail(d, DC_STOP_NA, "arithmetic-coded JPEG is not handled by the DC decoder");
        case 0xC4:
            r = dc_parse_dht(d);
            break;
        case 0xDB:
            r = dc_parse_dqt(d);
            break;
        case 0xDD:
            r = dc_parse_dri(d);
            break;
        case 0xDA:
            r = dc_parse_sos(d);
            break;
        case 0xD9:
            return DC_STOP_EOI;
        case 0xD8:
            return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: duplicate SOI marker");
        case 0x01: case 0xD0: case 0xD1: case 0xD2: case 0xD3:
        case 0xD4: case 0xD5: case 0xD6: case 0xD7:
            break; /* parameterless */
        case 0xCC: case 0xDC: case 0xFE: /* DAC, DNL, COM */
            r = dc_parse_app(d, code);
            break;
        default:
            if (code >= 0xE0 && code <= 0xEF)
                r = dc_parse_app(d, code);
            else
                return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: unsupported marker 0x%02x", code);
            break;
        }
        if (r)
            return r;
    }
}

/* ---- output --------------------------------------------------------------------------- */

/* libjpeg's 1x1 IDCT: clamp(floor((DC * Q0 + 4) / 8) + 128). */
static inline uint8_t dc_pixel(uint16_t coef, int q0)
{
    int64_t dc = (int64_t)coef - ((coef & 0x8000u) ? 65536 : 0);
    int64_t x = dc * q0 + 4 + ((int64_t)1 << 40); /* > 0, so >> is a floor division */
    int64_t v = (x >> 3) - ((int64_t)1 << 37) + 128;
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

static inline uint8_t dc_clamp255(int v)
{
    return (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
}

/* Floor of v / 2^16 for |v| < 2^30 without relying on >> of negative numbers. */
#define DC_ASR16(v) ((int)((((int32_t)(v)) + 0x40000000) >> 16) - 0x4000)

/* Converts one component's block grid to 8-bit samples (rbw x rbh, packed). */
static void dc_component_plane(const dc_comp *c, uint8_t *dst)
{
    uint32_t x, y;
    for (y = 0; y < c->rbh; y++) {
        const uint16_t *row = c->coef + (size_t)y * c->bw;
        for (x = 0; x < c->rbw; x++)
            *dst++ = dc_pixel(row[x], c->q0);
    }
}

/* One output row of a chroma plane (n x rows, packed) brought to the luma grid: `out`
   receives 2n (h == 2) or n samples for output row y. */
static void dc_chroma_row(const uint8_t *plane, uint32_t n, uint32_t rows, int h, int v, uint32_t y,
                          int *colsum, uint8_t *out)
{
    uint32_t x;
#if VGN_DC_FANCY_UPSAMPLING
    if (v == 2) {
        uint32_t cy = y >> 1, ny;
        const uint8_t *r0, *r1;
        if (y & 1)
            ny = cy + 1 < rows ? cy + 1 : cy;
        else
            ny = cy > 0 ? cy - 1 : 0;
        r0 = plane + (size_t)cy * n;
        r1 = plane + (size_t)ny * n;
        for (x = 0; x < n; x++)
            colsum[x] = 3 * r0[x] + r1[x];
        if (h == 2) { /* h2v2_fancy_upsample */
            if (n == 1) {
                out[0] = (uint8_t)((colsum[0] * 4 + 8) >> 4);
                out[1] = (uint8_t)((colsum[0] * 4 + 7) >> 4);
                return;
            }
            out[0] = (uint8_t)((colsum[0] * 4 + 8) >> 4);
            out[1] = (uint8_t)((colsum[0] * 3 + colsum[1] + 7) >> 4);
            for (x = 1; x + 1 < n; x++) {
                out[2 * x] = (uint8_t)((colsum[x] * 3 + colsum[x - 1] + 8) >> 4);
                out[2 * x + 1] = (uint8_t)((colsum[x] * 3 + colsum[x + 1] + 7) >> 4);
            }
            out[2 * n - 2] = (uint8_t)((colsum[n - 1] * 3 + colsum[n - 2] + 8) >> 4);
            out[2 * n - 1] = (uint8_t)((colsum[n - 1] * 4 + 7) >> 4);
        } else { /* h1v2_fancy_upsample */
            int bias = (y & 1) ? 2 : 1;
            for (x = 0; x < n; x++)
                out[x] = (uint8_t)((colsum[x] + bias) >> 2);
        }
        return;
    }
    {
        const uint8_t *in = plane + (size_t)y * n;
        if (h == 2) { /* h2v1_fancy_upsample */
            if (n == 1) {
                out[0] = out[1] = in[0];
                return;
            }
            out[0] = in[0];
            out[1] = (uint8_t)((in[0] * 3 + in[1] + 2) >> 2);
            for (x = 1; x + 1 < n; x++) {
                out[2 * x] = (uint8_t)((in[x] * 3 + in[x - 1] + 1) >> 2);
                out[2 * x + 1] = (uint8_t)((in[x] * 3 + in[x + 1] + 2) >> 2);
            }
            out[2 * n - 2] = (uint8_t)((in[n - 1] * 3 + in[n - 2] + 1) >> 2);
            out[2 * n - 1] = in[n - 1];
        } else {
            memcpy(out, in, n);
        }
    }
#else
    {
        const uint8_t *in = plane + (size_t)(v == 2 ? y >> 1 : y) * n;
        (void)rows;
        (void)colsum;
        if (h == 2) {
            for (x = 0; x < n; x++)
                out[2 * x] = out[2 * x + 1] = in[x];
        } else {
            memcpy(out, in, n);
        }
    }
#endif
}

/* Builds the output image from the block arrays; DC_STOP_NOMEM on allocation failure. */
static int dc_output(dc_dec *d, uint8_t **out, uint32_t *ow_out, uint32_t *oh_out, int *ch_out)
{
    const dc_comp *y0 = &d->comp[0];
    uint32_t ow = (d->width + 7) / 8, oh = (d->height + 7) / 8, x, y;
    int ch = d->ncomp == 3 ? 3 : 1;
    size_t total = (size_t)ow * (size_t)oh;
    uint8_t *img;

    if (total / oh != ow || total > ((size_t)-1) / 3)
        return DC_STOP_NOMEM;
    img = (uint8_t *)malloc(total * (size_t)ch);
    if (img == NULL)
        return DC_STOP_NOMEM;

    if (ch == 1) {
        for (y = 0; y < oh; y++) {
            const uint16_t *row = y0->coef + (size_t)y * y0->bw;
            uint8_t *o = img + (size_t)y * ow;
            for (x = 0; x < ow; x++)
                o[x] = dc_pixel(row[x], y0->q0);
        }
    } else {
        const dc_comp *cb = &d->comp[1], *cr = &d->comp[2];
        uint32_t n = cb->rbw; /* == cr->rbw */
        size_t planesz = (size_t)cb->rbw * cb->rbh;
        size_t rowlen = 2 * (size_t)n + 2;
        uint8_t *pcb = (uint8_t *)malloc(planesz * 2 + rowlen * 2);
        int *colsum = (int *)malloc(sizeof(int) * ((size_t)n + 1));
        int crr[256], cbb[256];
        int32_t crg[256], cbg[256];
        uint8_t *pcr, *rcb, *rcr;
        int i;
        if (pcb == NULL || colsum == NULL) {
            free(pcb);
            free(colsum);
            free(img);
            return DC_STOP_NOMEM;
        }
        pcr = pcb + planesz;
        rcb = pcr + planesz;
        rcr = rcb + rowlen;
        dc_component_plane(cb, pcb);
        dc_component_plane(cr, pcr);
        /* jdcolor.c build_ycc_rgb_table (SCALEBITS 16) */
        for (i = 0; i < 256; i++) {
            int32_t c = i - 128;
            crr[i] = DC_ASR16(91881 * c + 32768);   /* FIX(1.40200) */
            cbb[i] = DC_ASR16(116130 * c + 32768);  /* FIX(1.77200) */
            crg[i] = -46802 * c;                    /* -FIX(0.71414) */
            cbg[i] = -22554 * c + 32768;            /* -FIX(0.34414) + ONE_HALF */
        }
        for (y = 0; y < oh; y++) {
            const uint16_t *row = y0->coef + (size_t)y * y0->bw;
            uint8_t *o = img + (size_t)y * ow * 3;
            dc_chroma_row(pcb, n, cb->rbh, d->hmax, d->vmax, y, colsum, rcb);
            dc_chroma_row(pcr, n, cr->rbh, d->hmax, d->vmax, y, colsum, rcr);
            for (x = 0; x < ow; x++, o += 3) {
                int yy = dc_pixel(row[x], y0->q0), u = rcb[x], v = rcr[x];
                o[0] = dc_clamp255(yy + crr[v]);
                o[1] = dc_clamp255(yy + DC_ASR16(cbg[u] + crg[v]));
                o[2] = dc_clamp255(yy + cbb[u]);
            }
        }
        free(pcb);
        free(colsum);
    }
    *out = img;
    *ow_out = ow;
    *oh_out = oh;
    *ch_out = ch;
    return 0;
}

/* ---- entry point ---------------------------------------------------------------------- */

int vgn_jpeg_dc_decode(const uint8_t *data, size_t size, uint8_t **out, uint32_t *out_w, uint32_t *out_h,
                       int *channels_out, int *warnings, char *message, size_t message_size)
{
    dc_dec *d;
    int stop, status, i, all_begun = 1;

    if (message != NULL && message_size > 0)
        message[0] = '\0';
    if (warnings != NULL)
        *warnings = 0;
    if (out != NULL)
        *out = NULL;
    if (out_w != NULL)
        *out_w = 0;
    if (out_h != NULL)
        *out_h = 0;
    if (channels_out != NULL)
        *channels_out = 0;
    if (out == NULL || out_w == NULL || out_h == NULL || channels_out == NULL || (data == NULL && size != 0)) {
        if (message != NULL && message_size > 0)
            snprintf(message, message_size, "bad arguments to vgn_jpeg_dc_decode");
        return VGN_DC_CORRUPT;
    }
    d = (dc_dec *)calloc(1, sizeof(*d));
    if (d == NULL) {
        if (message != NULL && message_size > 0)
            snprintf(message, message_size, "out of memory");
        return VGN_DC_NOMEM;
    }
    d->data = data;
    d->size = data == NULL ? 0 : size;
    d->msg = message;
    d->msg_size = message != NULL ? message_size : 0;

    stop = dc_parse(d);

    for (i = 0; i < d->ncomp; i++)
        if (d->comp[i].dc_bits < 0)
            all_begun = 0;
    if (!d->have_sof || !d->seen_sos)
        all_begun = 0;

    if (stop == DC_STOP_NOMEM) {
        d->msg_is_warning = 0;
        if (d->msg != NULL && d->msg_size > 0)
            snprintf(d->msg, d->msg_size, "out of memory (DC decoder)");
        status = VGN_DC_NOMEM;
    } else if (stop == DC_STOP_NA) {
        status = VGN_DC_NOT_APPLICABLE;
    } else if (!all_begun) {
        if (stop == DC_STOP_CORRUPT) {
            status = VGN_DC_CORRUPT;
        } else {
            d->msg_is_warning = 0;
            if (d->msg != NULL && d->msg_size > 0)
                snprintf(d->msg, d->msg_size, d->have_sof ? "JPEG data ends before every component has a DC scan"
                                                          : "JPEG data ends before the frame header (SOF)");
            status = VGN_DC_NOT_APPLICABLE;
        }
    } else {
        if (stop == DC_STOP_CORRUPT) {
            /* keep the error text, but as a warning: the image is built from the earlier scans */
            d->warn = 1;
            d->msg_is_warning = 1;
        } else if (stop == DC_STOP_EOD && !dc_all_dc_complete(d)) {
            dc_warn(d, "Premature end of JPEG file (DC scans incomplete)");
        }
        status = dc_output(d, out, out_w, out_h, channels_out) == 0 ? VGN_DC_OK : VGN_DC_NOMEM;
        if (status == VGN_DC_NOMEM && d->msg != NULL && d->msg_size > 0)
            snprintf(d->msg, d->msg_size, "out of memory (DC decoder output)");
        if (status == VGN_DC_OK && warnings != NULL)
            *warnings = d->warn;
    }
    if (status != VGN_DC_OK && d->msg != NULL && d->msg_size > 0 && d->msg[0] == '\0')
        snprintf(d->msg, d->msg_size, status == VGN_DC_CORRUPT ? "corrupt JPEG data" : "not handled by the DC decoder");
    for (i = 0; i < DC_MAX_COMPS; i++)
        free(d->comp[i].coef);
    free(d);
    return status;
}
