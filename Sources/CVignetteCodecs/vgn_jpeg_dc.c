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
    /* low-frequency decoder only (vgn_jpeg_lowfreq_decode) */
    int ta;            /* AC table of the current scan */
    uint16_t qn[64];   /* latched quantization table, natural order */
    int ssize;         /* libjpeg's DCT_scaled_size for this component (1, 2, 4, 8) */
    int nac;           /* AC coefficients kept per block */
    int8_t slot[64];   /* natural index -> slot in the block's AC array, -1 = not kept */
    uint8_t keep_nat[64]; /* slot -> natural index */
    int8_t coef_bits[64]; /* libjpeg's coef_bits (progression check): -1 = never coded */
    int16_t *ac;       /* bw * bh * nac kept AC coefficients */
    uint64_t *nz;      /* bw * bh masks of nonzero AC coefficients (bit = zigzag index) */
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
    /* low-frequency decoder only */
    int lf_denom;       /* 0 = DC decoder; 2, 4, 8 = vgn_jpeg_lowfreq_decode */
    int lf_exact;       /* keep the coefficients libjpeg's reduced IDCT reads (bit-exact) */
    uint16_t qtab[4][64]; /* DQT tables, natural order */
    dc_rawhuff rawac[4];
    dc_huff huffac[4];
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

/* low-frequency decoder (defined at the end of the file) */
/* jpeg_natural_order plus 16 extra entries (libjpeg's safety margin for corrupt run lengths) */
static const uint8_t lf_natural[80] = {
    0,  1,  8,  16, 9,  2,  3,  10, 17, 24, 32, 25, 18, 11, 4,  5,
    12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6,  7,  14, 21, 28,
    35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
    58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63, 63};
static int lf_ac_scan(dc_dec *d, dc_comp *c, int ss, int se, int ah, int al);
static int lf_alloc(dc_comp *c, size_t nblocks);
static void lf_setup_comps(dc_dec *d);

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
static int dc_huff_build_max(dc_huff *h, const dc_rawhuff *raw, unsigned maxsym);

static int dc_huff_build(dc_huff *h, const dc_rawhuff *raw)
{
    return dc_huff_build_max(h, raw, 15);
}

/* Same for any table: symbols up to maxsym (15 for DC, 255 for AC). */
static int dc_huff_build_max(dc_huff *h, const dc_rawhuff *raw, unsigned maxsym)
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
            if (sym > maxsym)
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
        {
            int k;
            for (k = 0; k < 64; k++)
                d->qtab[tq][lf_natural[k]] = (uint16_t)((p[0] >> 4) ? dc_be16(p + 1 + 2 * k) : p[1 + k]);
        }
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
        {
            dc_rawhuff *t = ac ? &d->rawac[index] : &d->raw[index];
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
        memset(c->coef_bits, -1, sizeof(c->coef_bits));
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
    if (d->lf_denom != 0)
        lf_setup_comps(d);
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
        if (d->lf_denom != 0 && lf_alloc(c, n) != 0)
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
        sc[i]->ta = p[2 + 2 * i] & 15;
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
        memcpy(c->qn, d->qtab[c->tq], sizeof(c->qn));
        c->q_latched = 1;
    }
    d->pos += len;

    if (ss != 0) {
        if (d->lf_denom != 0)
            return lf_ac_scan(d, sc[0], ss, se, ah, al);
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
        sc[i]->coef_bits[0] = (int8_t)al;
    }
    dc_decode_scan(d, sc, n, ah, al);
    if (d->lf_denom != 0)
        return 0; /* the low-frequency decoder reads every scan */
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

/* ======================================================================================
 * Low-frequency decoder (vgn_jpeg_lowfreq_decode): every scan is entropy-decoded like
 * libjpeg-turbo's jdphuff.c, but each block keeps only its DC (in comp->coef, shared with
 * the DC decoder above), a few AC coefficients (comp->ac) and a mask of which AC
 * coefficients are nonzero (comp->nz), which AC refinement scans need to parse their
 * correction bits. Output: libjpeg-turbo's scaled IDCT (jidctred.c / jidctint.c, islow),
 * its upsampling choices for scaled output (jdsample.c) and jdcolor.c's YCbCr -> RGB.
 * ====================================================================================== */

/* 1-D coefficient indices read by libjpeg-turbo's IDCT for 1, 2, 4 and 8 output samples */
static const uint8_t lf_exact_idx[4][8] = {{0}, {0, 1, 3, 5, 7}, {0, 1, 2, 3, 5, 6, 7}, {0, 1, 2, 3, 4, 5, 6, 7}};
static const int lf_exact_cnt[4] = {1, 5, 7, 8};

static int lf_log2(int s)
{
    return s <= 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3;
}

/* libjpeg-turbo jdmaster.c: each component's DCT scaled size (a chroma component can get a
   larger IDCT instead of being upsampled), then the coefficients kept per block. */
static void lf_setup_comps(dc_dec *d)
{
    static const uint8_t corner[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    int min_s = 8 / d->lf_denom, i;
    for (i = 0; i < d->ncomp; i++) {
        dc_comp *c = &d->comp[i];
        int s = min_s, n = 0, r, q, cnt;
        const uint8_t *idx;
        while (s < 8 && (d->hmax * min_s) % (c->h * s * 2) == 0 && (d->vmax * min_s) % (c->v * s * 2) == 0)
            s *= 2;
        c->ssize = s;
        if (d->lf_exact) {
            idx = lf_exact_idx[lf_log2(s)];
            cnt = lf_exact_cnt[lf_log2(s)];
        } else {
            idx = corner;
            cnt = s < 4 ? s : 4;
        }
        memset(c->slot, -1, sizeof(c->slot));
        memset(c->keep_nat, 0, sizeof(c->keep_nat));
        for (r = 0; r < cnt; r++)
            for (q = 0; q < cnt; q++) {
                int nat = idx[r] * 8 + idx[q];
                if (nat != 0) {
                    c->keep_nat[n] = (uint8_t)nat;
                    c->slot[nat] = (int8_t)n++;
                }
            }
        c->nac = n;
    }
}

static int lf_alloc(dc_comp *c, size_t n)
{
    if (c->nac > 0) {
        if (n > ((size_t)-1) / (sizeof(int16_t) * (size_t)c->nac))
            return -1;
        c->ac = (int16_t *)calloc(n * (size_t)c->nac, sizeof(int16_t));
        if (c->ac == NULL)
            return -1;
    }
    if (n > ((size_t)-1) / sizeof(uint64_t))
        return -1;
    c->nz = (uint64_t *)calloc(n == 0 ? 1 : n, sizeof(uint64_t));
    return c->nz == NULL ? -1 : 0;
}

/* JCOEF arithmetic: keep the low 16 bits, two's complement (as libjpeg's short stores). */
static inline int16_t lf_jcoef(unsigned v)
{
    v &= 0xFFFFu;
    return (int16_t)(v >= 0x8000u ? (int)v - 65536 : (int)v);
}

/* Reads one bit (0 past a marker / the end, setting overrun like dc_bits_skip). */
static inline unsigned lf_bit(dc_src *src, dc_bb *b)
{
    unsigned v;
    if (b->cnt < 1) {
        *b = dc_fill(src, *b);
        if (b->cnt < 1) {
            b->overrun = 1;
            b->buf = 0;
            b->cnt = 0;
            return 0;
        }
    }
    v = (unsigned)(b->buf >> 63);
    b->buf <<= 1;
    b->cnt--;
    return v;
}

/* Index of the lowest set bit of x != 0 (portable de Bruijn multiplication). */
static inline int lf_ctz64(uint64_t x)
{
    static const uint8_t tab[64] = {
        0,  1,  2,  53, 3,  7,  54, 27, 4,  38, 41, 8,  34, 55, 48, 28, 62, 5,  39, 46, 44, 42,
        22, 9,  24, 35, 59, 56, 49, 18, 29, 11, 63, 52, 6,  26, 37, 40, 33, 47, 61, 45, 43, 21,
        23, 58, 17, 10, 51, 25, 36, 32, 60, 20, 57, 16, 50, 31, 19, 15, 30, 14, 13, 12};
    return tab[((x & (~x + 1)) * (uint64_t)0x022FDD63CC95386DULL) >> 58];
}

/* Appends a correction bit that was 1 to a kept coefficient (decode_mcu_AC_refine). */
static inline void lf_correct(int16_t *a, int sl, int p1)
{
    int v;
    if (sl < 0)
        return; /* not kept: stays nonzero, value not needed */
    v = a[sl];
    if ((v & p1) == 0)
        a[sl] = lf_jcoef((unsigned)(v >= 0 ? v + p1 : v - p1));
}

/* decode_mcu_AC_first for one block; -1 on a bad Huffman code. */
static int lf_block_first(dc_src *src, dc_bb *bb, const dc_huff *tbl, dc_comp *c, size_t bi, int ss, int se, int al,
                          unsigned *eobrun)
{
    int16_t *a = c->nac > 0 ? c->ac + bi * (size_t)c->nac : NULL;
    uint64_t m;
    int k;
    if (*eobrun > 0) {
        (*eobrun)--;
        return 0;
    }
    m = c->nz[bi];
    for (k = ss; k <= se; k++) {
        int s = dc_huff_decode(src, bb, tbl), r;
        if (s < 0) {
            c->nz[bi] = m;
            return -1;
        }
        r = s >> 4;
        s &= 15;
        if (s) {
            unsigned v, nat;
            int val, sl;
            int16_t cv;
            k += r; /* <= 63 + 15: lf_natural has 80 entries */
            v = dc_bits_get(src, bb, s);
            val = v < (1u << (s - 1)) ? (int)v + 1 - (1 << s) : (int)v;
            cv = lf_jcoef((unsigned)val << al);
            nat = lf_natural[k];
            sl = c->slot[nat];
            if (sl >= 0)
                a[sl] = cv;
            if (k > 63)
                k = 63; /* jpeg_natural_order[k > 63] = 63 */
            if (cv != 0)
                m |= (uint64_t)1 << k;
            else
                m &= ~((uint64_t)1 << k);
        } else if (r == 15) {
            k += 15; /* ZRL */
        } else {
            unsigned run = 1u << r;
            if (r)
                run += dc_bits_get(src, bb, r);
            *eobrun = run - 1;
            break;
        }
    }
    c->nz[bi] = m;
    return 0;
}

/* decode_mcu_AC_refine for one block; -1 on a bad Huffman code. */
static int lf_block_refine(dc_dec *d, dc_src *src, dc_bb *bb, const dc_huff *tbl, dc_comp *c, size_t bi, int ss,
                           int se, int al, unsigned *eobrun)
{
    const int p1 = 1 << al;
    int16_t *a = c->nac > 0 ? c->ac + bi * (size_t)c->nac : NULL;
    uint64_t m = c->nz[bi];
    int k = ss;
    if (*eobrun == 0) {
        for (; k <= se; k++) {
            int s = dc_huff_decode(src, bb, tbl), r;
            if (s < 0) {
                c->nz[bi] = m;
                return -1;
            }
            r = s >> 4;
            s &= 15;
            if (s) {
                if (s != 1)
                    dc_warn(d, "Corrupt JPEG data: bad Huffman code");
                s = dc_bits_get(src, bb, 1) ? p1 : -p1;
            } else if (r != 15) {
                unsigned run = 1u << r;
                if (r)
                    run += dc_bits_get(src, bb, r);
                *eobrun = run;
                break; /* the rest of the block is handled by the EOB logic */
            }
            /* skip already-nonzero coefficients (appending correction bits) and r zero ones */
            do {
                if ((m >> k) & 1u) {
                    if (lf_bit(src, bb))
                        lf_correct(a, c->slot[lf_natural[k]], p1);
                } else if (--r < 0) {
                    break; /* reached the target zero coefficient */
                }
                k++;
            } while (k <= se);
            if (s) {
                int sl = c->slot[lf_natural[k]]; /* k <= 64 */
                if (sl >= 0)
                    a[sl] = (int16_t)s;
                m |= (uint64_t)1 << (k > 63 ? 63 : k);
            }
        }
    }
    if (*eobrun > 0) {
        if (k <= se) {
            /* correction bits for the nonzero coefficients in zigzag positions k..se */
            uint64_t bits = m & (se == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (se + 1)) - 1)) & ~(((uint64_t)1 << k) - 1);
            while (bits != 0) {
                int z = lf_ctz64(bits);
                bits &= bits - 1;
                if (lf_bit(src, bb))
                    lf_correct(a, c->slot[lf_natural[z]], p1);
            }
        }
        (*eobrun)--;
    }
    c->nz[bi] = m;
    return 0;
}

/* Decodes one AC scan (always one component) starting at d->pos. */
static int lf_ac_scan(dc_dec *d, dc_comp *c, int ss, int se, int ah, int al)
{
    dc_src src;
    dc_bb bb = {0, 0, 0};
    const dc_huff *tbl;
    unsigned ri = d->restart_interval, togo = ri, eobrun = 0;
    int next_rst = 0, insufficient = 0, t = c->ta, k;
    uint32_t mx, my;

    if (t > 3 || !d->rawac[t].defined)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: Huffman table 0x%02x was not defined", t + 0x10);
    if (dc_huff_build_max(&d->huffac[t], &d->rawac[t], 255) != 0)
        return dc_fail(d, DC_STOP_CORRUPT, "Corrupt JPEG data: bad Huffman table");
    tbl = &d->huffac[t];
    /* progression bookkeeping (start_pass_phuff_decoder): warnings only */
    if (c->coef_bits[0] < 0)
        dc_warn(d, "Corrupt JPEG data: inconsistent progression sequence");
    for (k = ss; k <= se; k++) {
        int expected = c->coef_bits[k] < 0 ? 0 : c->coef_bits[k];
        if (ah != expected)
            dc_warn(d, "Corrupt JPEG data: inconsistent progression sequence");
        c->coef_bits[k] = (int8_t)al;
    }

    dc_src_init(&src, d->data, d->size, d->pos);
    for (my = 0; my < c->rbh; my++) {
        for (mx = 0; mx < c->rbw; mx++) {
            size_t bi = (size_t)my * c->bw + mx;
            int bad;
            if (ri != 0) {
                if (togo == 0) {
                    bb.buf = 0;
                    bb.cnt = 0;
                    bb.overrun = 0;
                    if (dc_restart(d, &src, &next_rst, &insufficient))
                        goto done; /* the rest of the scan is empty (left as it is) */
                    eobrun = 0;
                    togo = ri;
                }
                togo--;
            }
            if (insufficient) {
                if (ri == 0)
                    goto done;
                continue;
            }
            if (ah == 0)
                bad = lf_block_first(&src, &bb, tbl, c, bi, ss, se, al, &eobrun);
            else
                bad = lf_block_refine(d, &src, &bb, tbl, c, bi, ss, se, al, &eobrun);
            if (bad) {
                dc_warn(d, "Corrupt JPEG data: bad Huffman code");
                insufficient = 1; /* skip the rest of this restart segment */
            } else if (bb.overrun) {
                if (src.marker_pos >= d->size)
                    dc_warn(d, "Premature end of JPEG file (inside an AC scan)");
                else
                    dc_warn(d, "Corrupt JPEG data: premature end of data segment");
                insufficient = 1;
            }
        }
    }
done:
    d->pos = src.at_marker ? src.marker_pos : src.pos;
    return 0;
}

/* ---- reconstruction ------------------------------------------------------------------- */

/* Floor division by 2^n (no >> of negative values). */
static inline int64_t lf_asr(int64_t x, int n)
{
    return x >= 0 ? x >> n : -(((-x) - 1) >> n) - 1;
}

#define LF_DESCALE(x, n) lf_asr((x) + ((int64_t)1 << ((n) - 1)), (n))

/* (int) conversion of a JLONG: low 32 bits, two's complement */
static inline int32_t lf_int(int64_t x)
{
    uint32_t u = (uint32_t)((uint64_t)x & 0xFFFFFFFFu);
    return u >= 0x80000000u ? (int32_t)((int64_t)u - 4294967296LL) : (int32_t)u;
}

/* range_limit[x & RANGE_MASK] of jdmaster.c's post-IDCT table (x without the +128) */
static inline uint8_t lf_range(int64_t x)
{
    unsigned i = (unsigned)((uint64_t)x & 1023u);
    return (uint8_t)(i < 128 ? i + 128 : i < 512 ? 255 : i < 896 ? 0 : i - 896);
}

/* jidctred.c jpeg_idct_2x2 (dq = dequantized coefficients, natural order) */
static void lf_idct2(const int32_t *dq, uint8_t *out, size_t stride)
{
    int32_t ws[16];
    int c, r;
    memset(ws, 0, sizeof(ws));
    for (c = 0; c < 8; c++) {
        int64_t tmp10, tmp0;
        if (c == 2 || c == 4 || c == 6)
            continue;
        if (dq[8 + c] == 0 && dq[24 + c] == 0 && dq[40 + c] == 0 && dq[56 + c] == 0) {
            ws[c] = ws[8 + c] = lf_int((int64_t)dq[c] * 4);
            continue;
        }
        tmp10 = (int64_t)dq[c] * (1 << 15);
        tmp0 = (int64_t)dq[56 + c] * -5906 + (int64_t)dq[40 + c] * 6967 + (int64_t)dq[24 + c] * -10426 +
               (int64_t)dq[8 + c] * 29692;
        ws[c] = lf_int(LF_DESCALE(tmp10 + tmp0, 13));
        ws[8 + c] = lf_int(LF_DESCALE(tmp10 - tmp0, 13));
    }
    for (r = 0; r < 2; r++) {
        const int32_t *w = ws + 8 * r;
        uint8_t *o = out + (size_t)r * stride;
        int64_t tmp10, tmp0;
        if (w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0) {
            o[0] = o[1] = lf_range(LF_DESCALE((int64_t)w[0], 5));
            continue;
        }
        tmp10 = (int64_t)w[0] * (1 << 15);
        tmp0 = (int64_t)w[7] * -5906 + (int64_t)w[5] * 6967 + (int64_t)w[3] * -10426 + (int64_t)w[1] * 29692;
        o[0] = lf_range(LF_DESCALE(tmp10 + tmp0, 20));
        o[1] = lf_range(LF_DESCALE(tmp10 - tmp0, 20));
    }
}

/* jidctred.c jpeg_idct_4x4 */
static void lf_idct4(const int32_t *dq, uint8_t *out, size_t stride)
{
    int32_t ws[32];
    int c, r;
    memset(ws, 0, sizeof(ws));
    for (c = 0; c < 8; c++) {
        int64_t tmp0, tmp2, tmp10, tmp12, z1, z2, z3, z4;
        if (c == 4)
            continue;
        if (dq[8 + c] == 0 && dq[16 + c] == 0 && dq[24 + c] == 0 && dq[40 + c] == 0 && dq[48 + c] == 0 &&
            dq[56 + c] == 0) {
            ws[c] = ws[8 + c] = ws[16 + c] = ws[24 + c] = lf_int((int64_t)dq[c] * 4);
            continue;
        }
        tmp0 = (int64_t)dq[c] * (1 << 14);
        tmp2 = (int64_t)dq[16 + c] * 15137 + (int64_t)dq[48 + c] * -6270;
        tmp10 = tmp0 + tmp2;
        tmp12 = tmp0 - tmp2;
        z1 = dq[56 + c];
        z2 = dq[40 + c];
        z3 = dq[24 + c];
        z4 = dq[8 + c];
        tmp0 = z1 * -1730 + z2 * 11893 + z3 * -17799 + z4 * 8697;
        tmp2 = z1 * -4176 + z2 * -4926 + z3 * 7373 + z4 * 20995;
        ws[c] = lf_int(LF_DESCALE(tmp10 + tmp2, 12));
        ws[24 + c] = lf_int(LF_DESCALE(tmp10 - tmp2, 12));
        ws[8 + c] = lf_int(LF_DESCALE(tmp12 + tmp0, 12));
        ws[16 + c] = lf_int(LF_DESCALE(tmp12 - tmp0, 12));
    }
    for (r = 0; r < 4; r++) {
        const int32_t *w = ws + 8 * r;
        uint8_t *o = out + (size_t)r * stride;
        int64_t tmp0, tmp2, tmp10, tmp12, z1, z2, z3, z4;
        if (w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0) {
            o[0] = o[1] = o[2] = o[3] = lf_range(LF_DESCALE((int64_t)w[0], 5));
            continue;
        }
        tmp0 = (int64_t)w[0] * (1 << 14);
        tmp2 = (int64_t)w[2] * 15137 + (int64_t)w[6] * -6270;
        tmp10 = tmp0 + tmp2;
        tmp12 = tmp0 - tmp2;
        z1 = w[7];
        z2 = w[5];
        z3 = w[3];
        z4 = w[1];
        tmp0 = z1 * -1730 + z2 * 11893 + z3 * -17799 + z4 * 8697;
        tmp2 = z1 * -4176 + z2 * -4926 + z3 * 7373 + z4 * 20995;
        o[0] = lf_range(LF_DESCALE(tmp10 + tmp2, 19));
        o[3] = lf_range(LF_DESCALE(tmp10 - tmp2, 19));
        o[1] = lf_range(LF_DESCALE(tmp12 + tmp0, 19));
        o[2] = lf_range(LF_DESCALE(tmp12 - tmp0, 19));
    }
}

/* jidctint.c jpeg_idct_islow (one 1-D pass; in/out strides select columns or rows) */
static void lf_idct8_1d(int64_t i0, int64_t i1, int64_t i2, int64_t i3, int64_t i4, int64_t i5, int64_t i6,
                        int64_t i7, int64_t *o)
{
    int64_t tmp0, tmp1, tmp2, tmp3, tmp10, tmp11, tmp12, tmp13, z1, z2, z3, z4, z5;
    z2 = i2;
    z3 = i6;
    z1 = (z2 + z3) * 4433;
    tmp2 = z1 + z3 * -15137;
    tmp3 = z1 + z2 * 6270;
    tmp0 = (i0 + i4) * 8192;
    tmp1 = (i0 - i4) * 8192;
    tmp10 = tmp0 + tmp3;
    tmp13 = tmp0 - tmp3;
    tmp11 = tmp1 + tmp2;
    tmp12 = tmp1 - tmp2;
    tmp3 = i1;
    tmp2 = i3;
    tmp1 = i5;
    tmp0 = i7;
    z4 = tmp1 + tmp3;
    z3 = tmp0 + tmp2;
    z2 = tmp1 + tmp2;
    z1 = tmp0 + tmp3;
    z5 = (z3 + z4) * 9633;
    tmp3 *= 12299;
    tmp2 *= 25172;
    tmp1 *= 16819;
    tmp0 *= 2446;
    z4 = z4 * -3196 + z5;
    z3 = z3 * -16069 + z5;
    z1 = z1 * -7373;
    z2 = z2 * -20995;
    tmp3 += z1 + z4;
    tmp2 += z2 + z3;
    tmp1 += z2 + z4;
    tmp0 += z1 + z3;
    o[0] = tmp10 + tmp3;
    o[7] = tmp10 - tmp3;
    o[1] = tmp11 + tmp2;
    o[6] = tmp11 - tmp2;
    o[2] = tmp12 + tmp1;
    o[5] = tmp12 - tmp1;
    o[3] = tmp13 + tmp0;
    o[4] = tmp13 - tmp0;
}

static void lf_idct8(const int32_t *dq, uint8_t *out, size_t stride)
{
    int32_t ws[64];
    int64_t o[8];
    int c, r, i;
    for (c = 0; c < 8; c++) {
        const int32_t *p = dq + c;
        if (p[8] == 0 && p[16] == 0 && p[24] == 0 && p[32] == 0 && p[40] == 0 && p[48] == 0 && p[56] == 0) {
            int32_t v = lf_int((int64_t)p[0] * 4);
            for (i = 0; i < 8; i++)
                ws[8 * i + c] = v;
            continue;
        }
        lf_idct8_1d(p[0], p[8], p[16], p[24], p[32], p[40], p[48], p[56], o);
        for (i = 0; i < 8; i++)
            ws[8 * i + c] = lf_int(LF_DESCALE(o[i], 11));
    }
    for (r = 0; r < 8; r++) {
        const int32_t *w = ws + 8 * r;
        uint8_t *q = out + (size_t)r * stride;
        if (w[1] == 0 && w[2] == 0 && w[3] == 0 && w[4] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0) {
            uint8_t v = lf_range(LF_DESCALE((int64_t)w[0], 5));
            for (i = 0; i < 8; i++)
                q[i] = v;
            continue;
        }
        lf_idct8_1d(w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7], o);
        for (i = 0; i < 8; i++)
            q[i] = lf_range(LF_DESCALE(o[i], 18));
    }
}

/* Dequantizes block bi of c into dq (all-zero on entry and on return) and runs the IDCT of
   size c->ssize into out. */
static void lf_idct_block(const dc_comp *c, size_t bi, int32_t *dq, uint8_t *out, size_t stride)
{
    const int16_t *a = c->nac > 0 ? c->ac + bi * (size_t)c->nac : NULL;
    int i;
    /* DEQUANTIZE: (ISLOW_MULT_TYPE = short) coef * (short) quantval */
    dq[0] = (int32_t)lf_jcoef(c->coef[bi]) * (int32_t)lf_jcoef(c->qn[0]);
    for (i = 0; i < c->nac; i++) {
        int nat = c->keep_nat[i];
        dq[nat] = (int32_t)a[i] * (int32_t)lf_jcoef(c->qn[nat]);
    }
    switch (c->ssize) {
    case 1:
        out[0] = lf_range(LF_DESCALE((int64_t)dq[0], 3));
        break;
    case 2:
        lf_idct2(dq, out, stride);
        break;
    case 4:
        lf_idct4(dq, out, stride);
        break;
    default:
        lf_idct8(dq, out, stride);
        break;
    }
    dq[0] = 0;
    for (i = 0; i < c->nac; i++)
        dq[c->keep_nat[i]] = 0;
}

/* IDCT of block row `by` of component c into rows [0, ssize) of dst (width rbw * ssize). */
static void lf_block_row(const dc_comp *c, uint32_t by, int32_t *dq, uint8_t *dst, size_t stride)
{
    uint32_t bx;
    for (bx = 0; bx < c->rbw; bx++)
        lf_idct_block(c, (size_t)by * c->bw + bx, dq, dst + (size_t)bx * (size_t)c->ssize, stride);
}

enum { LF_UP_COPY, LF_UP_REP, LF_UP_H2V1_FANCY, LF_UP_H1V2_FANCY, LF_UP_H2V2_FANCY };

/* A chroma component at its IDCT resolution (three block rows cached, decoded on demand)
   and how jdsample.c brings it to the output grid. */
typedef struct {
    const dc_comp *c;
    int32_t *dq;     /* zeroed dequantization scratch */
    uint8_t *buf;    /* 3 block rows of ssize sample rows each */
    size_t stride;   /* rbw * ssize */
    uint32_t tag[3]; /* block row held by each slot, UINT32_MAX = none */
    uint32_t dw, dh; /* downsampled_width / downsampled_height */
    int hf, vf;      /* 1 or 2 */
    int method;
} lf_chroma;

/* Sample row cy (< rbh * ssize) of a chroma component. Rows are requested in increasing
   order give or take one, so block rows j-1, j, j+1 (distinct slots j % 3) suffice. */
static const uint8_t *lf_crow(lf_chroma *ch, uint32_t cy)
{
    uint32_t s = (uint32_t)ch->c->ssize, j = cy / s, slot = j % 3;
    uint8_t *rows = ch->buf + (size_t)slot * s * ch->stride;
    if (ch->tag[slot] != j) {
        lf_block_row(ch->c, j, ch->dq, rows, ch->stride);
        ch->tag[slot] = j;
    }
    return rows + (size_t)(cy % s) * ch->stride;
}

/* One output row y of a chroma component (jdsample.c: fullsize, h2v1/h1v2/h2v2 fancy,
   replication); writes hf * dw samples to out. */
static void lf_chroma_row(lf_chroma *ch, uint32_t y, int *colsum, uint8_t *out)
{
    uint32_t x, n = ch->dw;
    if (ch->method == LF_UP_H1V2_FANCY || ch->method == LF_UP_H2V2_FANCY) {
        uint32_t cy = y >> 1, ny;
        const uint8_t *r0, *r1;
        if (cy >= ch->dh)
            cy = ch->dh - 1;
        if (y & 1)
            ny = cy + 1 < ch->dh ? cy + 1 : cy;
        else
            ny = cy > 0 ? cy - 1 : 0;
        r0 = lf_crow(ch, cy);
        r1 = lf_crow(ch, ny);
        for (x = 0; x < n; x++)
            colsum[x] = 3 * r0[x] + r1[x];
        if (ch->method == LF_UP_H1V2_FANCY) {
            int bias = (y & 1) ? 2 : 1;
            for (x = 0; x < n; x++)
                out[x] = (uint8_t)((colsum[x] + bias) >> 2);
            return;
        }
        /* h2v2_fancy_upsample (dw > 2) */
        out[0] = (uint8_t)((colsum[0] * 4 + 8) >> 4);
        out[1] = (uint8_t)((colsum[0] * 3 + colsum[1] + 7) >> 4);
        for (x = 1; x + 1 < n; x++) {
            out[2 * x] = (uint8_t)((colsum[x] * 3 + colsum[x - 1] + 8) >> 4);
            out[2 * x + 1] = (uint8_t)((colsum[x] * 3 + colsum[x + 1] + 7) >> 4);
        }
        out[2 * n - 2] = (uint8_t)((colsum[n - 1] * 3 + colsum[n - 2] + 8) >> 4);
        out[2 * n - 1] = (uint8_t)((colsum[n - 1] * 4 + 7) >> 4);
        return;
    }
    {
        uint32_t cy = ch->vf == 2 ? y >> 1 : y;
        const uint8_t *in;
        if (cy >= ch->dh)
            cy = ch->dh - 1;
        in = lf_crow(ch, cy);
        if (ch->method == LF_UP_H2V1_FANCY) { /* dw > 2 */
            out[0] = in[0];
            out[1] = (uint8_t)((in[0] * 3 + in[1] + 2) >> 2);
            for (x = 1; x + 1 < n; x++) {
                out[2 * x] = (uint8_t)((in[x] * 3 + in[x - 1] + 1) >> 2);
                out[2 * x + 1] = (uint8_t)((in[x] * 3 + in[x + 1] + 2) >> 2);
            }
            out[2 * n - 2] = (uint8_t)((in[n - 1] * 3 + in[n - 2] + 1) >> 2);
            out[2 * n - 1] = in[n - 1];
        } else if (ch->hf == 2) {
            for (x = 0; x < n; x++)
                out[2 * x] = out[2 * x + 1] = in[x];
        } else {
            memcpy(out, in, n);
        }
    }
}

/* Builds the output image; DC_STOP_NOMEM on allocation failure. */
static int lf_output(dc_dec *d, uint8_t **out, uint32_t *ow_out, uint32_t *oh_out, int *ch_out)
{
    const dc_comp *y0 = &d->comp[0];
    uint32_t denom = (uint32_t)d->lf_denom, min_s = 8 / denom;
    uint32_t ow = (uint32_t)(((uint64_t)d->width + denom - 1) / denom);
    uint32_t oh = (uint32_t)(((uint64_t)d->height + denom - 1) / denom);
    int ch = d->ncomp == 3 ? 3 : 1, i, ret = DC_STOP_NOMEM;
    size_t total = (size_t)ow * (size_t)oh, sw = (size_t)y0->rbw * (size_t)y0->ssize;
    uint8_t *img = NULL, *strip = NULL, *rows = NULL;
    int32_t *dq = NULL;
    int *colsum = NULL;
    lf_chroma cc[2];
    uint32_t by, y, x;

    memset(cc, 0, sizeof(cc));
    if (total / oh != ow || total > ((size_t)-1) / 3 || sw / (size_t)y0->ssize != y0->rbw ||
        sw > ((size_t)-1) / 8)
        return DC_STOP_NOMEM;
    img = (uint8_t *)malloc(total * (size_t)ch);
    strip = (uint8_t *)malloc(sw * (size_t)y0->ssize);
    dq = (int32_t *)calloc(64, sizeof(int32_t));
    if (img == NULL || strip == NULL || dq == NULL)
        goto fail;

    if (ch == 3) {
        int crr[256], cbb[256];
        int32_t crg[256], cbg[256];
        size_t rowlen = 0;
        uint8_t *rcb, *rcr;
        for (i = 0; i < 2; i++) {
            const dc_comp *c = &d->comp[1 + i];
            lf_chroma *q = &cc[i];
            uint32_t hin = (uint32_t)(c->h * c->ssize) / min_s, vin = (uint32_t)(c->v * c->ssize) / min_s;
            size_t psize;
            q->c = c;
            q->dq = dq;
            q->tag[0] = q->tag[1] = q->tag[2] = UINT32_MAX;
            q->hf = hin == (uint32_t)d->hmax ? 1 : 2;
            q->vf = vin == (uint32_t)d->vmax ? 1 : 2;
            /* jdmaster.c: downsampled_width = ceil(image_width * h * DCT_scaled_size / (max_h * 8)) */
            q->dw = (uint32_t)(((uint64_t)d->width * (uint64_t)(c->h * c->ssize) + (uint64_t)(d->hmax * 8) - 1) /
                               (uint64_t)(d->hmax * 8));
            q->dh = (uint32_t)(((uint64_t)d->height * (uint64_t)(c->v * c->ssize) + (uint64_t)(d->vmax * 8) - 1) /
                               (uint64_t)(d->vmax * 8));
            if (q->dw == 0)
                q->dw = 1;
            if (q->dh == 0)
                q->dh = 1;
            q->stride = (size_t)c->rbw * (size_t)c->ssize;
            psize = q->stride * 3 * (size_t)c->ssize;
            if (q->stride / (size_t)c->ssize != c->rbw || q->stride > ((size_t)-1) / 32)
                goto fail;
            /* jdsample.c jinit_upsampler: do_fancy = do_fancy_upsampling && min_DCT_scaled_size > 1 */
            if (q->hf == 1 && q->vf == 1)
                q->method = LF_UP_COPY;
            else if (q->hf == 2 && q->vf == 1)
                q->method = (min_s > 1 && q->dw > 2) ? LF_UP_H2V1_FANCY : LF_UP_REP;
            else if (q->hf == 1 && q->vf == 2)
                q->method = min_s > 1 ? LF_UP_H1V2_FANCY : LF_UP_REP;
            else
                q->method = (min_s > 1 && q->dw > 2) ? LF_UP_H2V2_FANCY : LF_UP_REP;
            q->buf = (uint8_t *)malloc(psize == 0 ? 1 : psize);
            if (q->buf == NULL)
                goto fail;
            if ((size_t)q->dw * 2 + 2 > rowlen)
                rowlen = (size_t)q->dw * 2 + 2;
        }
        if (rowlen < (size_t)ow + 2)
            rowlen = (size_t)ow + 2;
        rows = (uint8_t *)malloc(rowlen * 2);
        colsum = (int *)malloc(sizeof(int) * rowlen);
        if (rows == NULL || colsum == NULL)
            goto fail;
        rcb = rows;
        rcr = rows + rowlen;
        /* jdcolor.c build_ycc_rgb_table (SCALEBITS 16) */
        for (i = 0; i < 256; i++) {
            int32_t c = i - 128;
            crr[i] = DC_ASR16(91881 * c + 32768);
            cbb[i] = DC_ASR16(116130 * c + 32768);
            crg[i] = -46802 * c;
            cbg[i] = -22554 * c + 32768;
        }
        for (by = 0; by < y0->rbh; by++) {
            lf_block_row(y0, by, dq, strip, sw);
            for (i = 0; i < y0->ssize; i++) {
                const uint8_t *yr = strip + (size_t)i * sw;
                uint8_t *o;
                y = by * (uint32_t)y0->ssize + (uint32_t)i;
                if (y >= oh)
                    break;
                lf_chroma_row(&cc[0], y, colsum, rcb);
                lf_chroma_row(&cc[1], y, colsum, rcr);
                o = img + (size_t)y * ow * 3;
                for (x = 0; x < ow; x++, o += 3) {
                    int yy = yr[x], u = rcb[x], v = rcr[x];
                    o[0] = dc_clamp255(yy + crr[v]);
                    o[1] = dc_clamp255(yy + DC_ASR16(cbg[u] + crg[v]));
                    o[2] = dc_clamp255(yy + cbb[u]);
                }
            }
        }
    } else {
        for (by = 0; by < y0->rbh; by++) {
            lf_block_row(y0, by, dq, strip, sw);
            for (i = 0; i < y0->ssize; i++) {
                y = by * (uint32_t)y0->ssize + (uint32_t)i;
                if (y >= oh)
                    break;
                memcpy(img + (size_t)y * ow, strip + (size_t)i * sw, ow);
            }
        }
    }
    *out = img;
    *ow_out = ow;
    *oh_out = oh;
    *ch_out = ch;
    img = NULL;
    ret = 0;
fail:
    free(img);
    free(strip);
    free(dq);
    free(rows);
    free(colsum);
    free(cc[0].buf);
    free(cc[1].buf);
    return ret;
}

/* ---- entry points ---------------------------------------------------------------------- */

/* The one walk behind both entry points: parse every marker segment and scan once, keeping the
 * DC of each block (lf_denom 0: the DC-only decoder, output replicated at 1/8) or the
 * low-frequency corner libjpeg's scaled IDCT needs (lf_denom 2, 4, 8), then build the output. */
static int dc_run(const uint8_t *data, size_t size, int lf_denom, int lf_exact, uint8_t **out, uint32_t *out_w,
                  uint32_t *out_h, int *channels_out, int *warnings, char *message, size_t message_size)
{
    const char *what = lf_denom != 0 ? "low-frequency decoder" : "DC decoder";
    dc_dec *d;
    int stop, status, i, all_begun = 1;

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
    d->lf_denom = lf_denom;
    d->lf_exact = lf_exact;

    stop = dc_parse(d);

    for (i = 0; i < d->ncomp; i++)
        if (d->comp[i].dc_bits < 0)
            all_begun = 0;
    if (!d->have_sof || !d->seen_sos)
        all_begun = 0;

    if (stop == DC_STOP_NOMEM) {
        d->msg_is_warning = 0;
        if (d->msg != NULL && d->msg_size > 0)
            snprintf(d->msg, d->msg_size, "out of memory (%s)", what);
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
        } else if (stop == DC_STOP_EOD && lf_denom != 0) {
            dc_warn(d, "Premature end of JPEG file");
        } else if (stop == DC_STOP_EOD && !dc_all_dc_complete(d)) {
            dc_warn(d, "Premature end of JPEG file (DC scans incomplete)");
        }
        status = (lf_denom != 0 ? lf_output(d, out, out_w, out_h, channels_out)
                                : dc_output(d, out, out_w, out_h, channels_out)) == 0
                     ? VGN_DC_OK
                     : VGN_DC_NOMEM;
        if (status == VGN_DC_NOMEM && d->msg != NULL && d->msg_size > 0)
            snprintf(d->msg, d->msg_size, "out of memory (%s output)", what);
        if (status == VGN_DC_OK && warnings != NULL)
            *warnings = d->warn;
    }
    if (status != VGN_DC_OK && d->msg != NULL && d->msg_size > 0 && d->msg[0] == '\0')
        snprintf(d->msg, d->msg_size, status == VGN_DC_CORRUPT ? "corrupt JPEG data" : "not handled by the %s", what);
    for (i = 0; i < DC_MAX_COMPS; i++) {
        free(d->comp[i].coef);
        free(d->comp[i].ac);
        free(d->comp[i].nz);
    }
    free(d);
    return status;
}

/* Clears the outputs; 0 when the arguments are usable, else VGN_DC_CORRUPT with the message. */
static int dc_begin(const uint8_t *data, size_t size, uint8_t **out, uint32_t *out_w, uint32_t *out_h,
                    int *channels_out, int *warnings, char *message, size_t message_size, int bad, const char *who)
{
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
    if (bad || out == NULL || out_w == NULL || out_h == NULL || channels_out == NULL || (data == NULL && size != 0)) {
        if (message != NULL && message_size > 0)
            snprintf(message, message_size, "bad arguments to %s", who);
        return VGN_DC_CORRUPT;
    }
    return 0;
}

int vgn_jpeg_dc_decode(const uint8_t *data, size_t size, uint8_t **out, uint32_t *out_w, uint32_t *out_h,
                       int *channels_out, int *warnings, char *message, size_t message_size)
{
    if (dc_begin(data, size, out, out_w, out_h, channels_out, warnings, message, message_size, 0, "vgn_jpeg_dc_decode"))
        return VGN_DC_CORRUPT;
    return dc_run(data, size, 0, 0, out, out_w, out_h, channels_out, warnings, message, message_size);
}

int vgn_jpeg_lowfreq_decode_ex(const uint8_t *data, size_t size, int scale_denom, int flags, uint8_t **out,
                               uint32_t *out_w, uint32_t *out_h, int *channels_out, int *warnings, char *message,
                               size_t message_size)
{
    int bad = (scale_denom != 2 && scale_denom != 4 && scale_denom != 8) || (flags & ~VGN_LF_EXACT) != 0;
    if (dc_begin(data, size, out, out_w, out_h, channels_out, warnings, message, message_size, bad,
                 "vgn_jpeg_lowfreq_decode"))
        return VGN_DC_CORRUPT;
    /* At 1/8 without VGN_LF_EXACT the DC of each block is all libjpeg's 1x1 IDCT reads. */
    if (scale_denom == 8 && !(flags & VGN_LF_EXACT))
        return dc_run(data, size, 0, 0, out, out_w, out_h, channels_out, warnings, message, message_size);
    return dc_run(data, size, scale_denom, (flags & VGN_LF_EXACT) != 0, out, out_w, out_h, channels_out, warnings,
                  message, message_size);
}

int vgn_jpeg_lowfreq_decode(const uint8_t *data, size_t size, int scale_denom, uint8_t **out, uint32_t *out_w,
                            uint32_t *out_h, int *channels_out, int *warnings, char *message, size_t message_size)
{
    return vgn_jpeg_lowfreq_decode_ex(data, size, scale_denom, 0, out, out_w, out_h, channels_out, warnings, message,
                                      message_size);
}
