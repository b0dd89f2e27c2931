/* vgn_tiff.c - TIFF through libtiff 4.5 (TIFFRGBAImage), from memory or from a file descriptor.
 * See vgn_decoder.h; floating-point and signed samples are read in vgn_tiff_scaled.c.
 *
 * From memory libtiff reads the caller's buffer as a mapped file; from a descriptor every read is
 * a pread of the bytes libtiff asks for (nothing is mapped), so memory is libtiff's strip and tile
 * buffers, not the file. The file's size is taken once at open (fstat): reads past it give nothing,
 * as they do past the end of a buffer, and a file that shrinks under the decoder gives short reads,
 * which libtiff reports as read errors (a truncated file), never a crash.
 *
 * open reads IFD 0 (page 1) and, when `target` > 0, the reduced-resolution copies of it (the IFDs
 * that follow it with NewSubfileType/SubfileType FILETYPE_REDUCEDIMAGE, and the SubIFDs of IFD 0);
 * the smallest one whose longest side covers `target` is decoded instead of page 1. info gets page
 * 1's size; the handle's size is the chosen copy's.
 *
 * Rows come from TIFFRGBAImageGet with req_orientation = the file's orientation (libtiff flips
 * nothing: rows in stored order, top-down) and row_offset stepping over bands as tall as a strip
 * (RowsPerStrip) or a tile row, so every strip/tile is decoded once and memory is width x band
 * height (plus libtiff's own strip/tile buffer), both reported in `working`. A compressed image
 * stored as a single strip therefore gets one band as tall as the image: the caller sees that in
 * `working` (libtiff already chops uncompressed single strips into small virtual strips).
 * info->orientation is the Orientation tag, for the caller to apply. libtiff's messages go to
 * per-handle handlers (the first error becomes the message, warnings are counted); libtiff's
 * allocations are bounded by VGN_TIFF_MAX_ALLOC.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "vgn_icc.h"
#include "vgn_tiff_internal.h"

/* ---- I/O over the caller's buffer or descriptor ---- */

/* Up to n bytes of the file at off (pread until n or end of file); -1 on a read error. */
static int64_t vgn_tiff_pread(int fd, void *buf, uint64_t n, uint64_t off)
{
    uint64_t done = 0;
    while (done < n) {
        ssize_t k;
        if (off + done > (uint64_t)INT64_MAX)
            break;
        k = pread(fd, (uint8_t *)buf + done, (size_t)(n - done), (off_t)(off + done));
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (k == 0)
            break; /* end of file: the file is shorter than it was */
        done += (uint64_t)k;
    }
    return (int64_t)done;
}

static tmsize_t vgn_tiff_read(thandle_t h, void *buf, tmsize_t n)
{
    vgn_tiff *t = (vgn_tiff *)h;
    uint64_t left, k;
    if (n <= 0 || t->pos >= t->size)
        return 0;
    left = t->size - t->pos;
    k = (uint64_t)n < left ? (uint64_t)n : left;
    if (t->fd >= 0) {
        int64_t got = vgn_tiff_pread(t->fd, buf, k, t->pos);
        if (got < 0)
            return -1;
        k = (uint64_t)got; /* short: libtiff reports a read error */
    } else {
        memcpy(buf, t->data + t->pos, (size_t)k);
    }
    t->pos += k;
    return (tmsize_t)k;
}

static tmsize_t vgn_tiff_write(thandle_t h, void *buf, tmsize_t n)
{
    (void)h;
    (void)buf;
    (void)n;
    return -1;
}

static toff_t vgn_tiff_seek(thandle_t h, toff_t off, int whence)
{
    vgn_tiff *t = (vgn_tiff *)h;
    uint64_t base;
    switch (whence) {
    case SEEK_SET: base = 0; break;
    case SEEK_CUR: base = t->pos; break;
    case SEEK_END: base = t->size; break;
    default: return (toff_t)-1;
    }
    if (off > UINT64_MAX - base)
        return (toff_t)-1;
    t->pos = base + off; /* past the end is allowed; reads then give 0 bytes */
    return (toff_t)t->pos;
}

static int vgn_tiff_closeproc(thandle_t h)
{
    (void)h;
    return 0;
}

static toff_t vgn_tiff_sizeproc(thandle_t h)
{
    return (toff_t)((vgn_tiff *)h)->size;
}

static int vgn_tiff_map(thandle_t h, void **base, toff_t *size)
{
    vgn_tiff *t = (vgn_tiff *)h;
    if (t->data == NULL)
        return 0; /* a descriptor: never mapped, libtiff reads what it needs */
    /* libtiff only reads mapped data (bit-reversed strips are copied first) */
    *base = (void *)(uintptr_t)t->data;
    *size = (toff_t)t->size;
    return 1;
}

static void vgn_tiff_unmap(thandle_t h, void *base, toff_t size)
{
    (void)h;
    (void)base;
    (void)size;
}

/* ---- messages ---- */

static void vgn_tiff_format(char *dst, const char *module, const char *fmt, va_list ap)
{
    char text[VGN_MSG_LEN], tmp[VGN_MSG_LEN * 2];
    const char *body = text;
    vsnprintf(text, sizeof text, fmt != NULL ? fmt : "", ap);
    /* read from a descriptor, libtiff names the file (our "tiff") where mapped data gets no name */
    if (strncmp(body, "tiff: ", 6) == 0)
        body += 6;
    if (module != NULL && module[0] != '\0' && strcmp(module, "tiff") != 0)
        snprintf(tmp, sizeof tmp, "tiff: %s: %s", module, body);
    else
        snprintf(tmp, sizeof tmp, "tiff: %s", body);
    vgn_copy_message(dst, tmp);
}

static int vgn_tiff_error_handler(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    vgn_tiff *t = (vgn_tiff *)user;
    (void)tif;
    if (t != NULL && t->first_err[0] == '\0')
        vgn_tiff_format(t->first_err, module, fmt, ap);
    return 1; /* handled: libtiff calls no global handler (nothing on stderr) */
}

static int vgn_tiff_warning_handler(TIFF *tif, void *user, const char *module, const char *fmt, va_list ap)
{
    vgn_tiff *t = (vgn_tiff *)user;
    (void)tif;
    if (t != NULL) {
        char m[VGN_MSG_LEN];
        vgn_tiff_format(m, module, fmt, ap);
        vgn_warn_add(&t->warn, m);
    }
    return 1;
}

static int vgn_contains(const char *s, const char *needle)
{
    return strstr(s, needle) != NULL;
}

int vgn_tiff_classify(const char *m, int fallback)
{
    if (vgn_contains(m, "beyond the") && vgn_contains(m, "limit"))
        return VGN_E_LIMIT;
    if (vgn_contains(m, "ut of memory") || vgn_contains(m, "No space") || vgn_contains(m, "Cannot allocate") ||
        vgn_contains(m, "Failed to allocate") || vgn_contains(m, "allocation failed"))
        return VGN_E_NOMEM;
    if (vgn_contains(m, "Sorry") || vgn_contains(m, "not configured") || vgn_contains(m, "not supported") ||
        vgn_contains(m, "unsupported"))
        return VGN_E_UNSUPPORTED;
    if (vgn_contains(m, "Read error") || vgn_contains(m, "IO error during reading") ||
        vgn_contains(m, "Premature end"))
        return VGN_E_TRUNCATED;
    return fallback;
}

static void vgn_tiff_close(vgn_decoder *d)
{
    vgn_tiff *t = (vgn_tiff *)d;
    if (t == NULL)
        return;
    if (t->img_ok)
        TIFFRGBAImageEnd(&t->img);
    if (t->tif != NULL)
        TIFFClose(t->tif);
    free(t->band);
    free(t->cmyk_rgb);
    free(t->scanline);
    vgn_tiff_scaled_free(t);
    free(t);
}

static vgn_decoder *vgn_tiff_fail_open(vgn_tiff *t, int code, const char *msg, vgn_error *err)
{
    vgn_err_fill(err, code, msg, &t->warn);
    vgn_tiff_close(&t->base);
    return NULL;
}

/* Fails open with libtiff's first error (or `fallback_msg`). */
static vgn_decoder *vgn_tiff_fail_lib(vgn_tiff *t, int fallback_code, const char *fallback_msg, vgn_error *err)
{
    char msg[VGN_MSG_LEN];
    if (t->first_err[0] != '\0') {
        vgn_copy_message(msg, t->first_err);
        return vgn_tiff_fail_open(t, vgn_tiff_classify(msg, fallback_code), msg, err);
    }
    return vgn_tiff_fail_open(t, fallback_code, fallback_msg, err);
}

static int vgn_tiff_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* The bytes there are now: the buffer's size, or the file's if it has shrunk since open. */
static uint64_t vgn_tiff_current_size(const vgn_tiff *t)
{
    struct stat st;
    if (t->fd >= 0 && fstat(t->fd, &st) == 0 && st.st_size >= 0 && (uint64_t)st.st_size < t->size)
        return (uint64_t)st.st_size;
    return t->size;
}

/* Size and reduced-image flag of the current directory; 0 when it gives no usable size. */
static int vgn_tiff_dir_size(TIFF *tif, uint32_t *w, uint32_t *h, int *reduced)
{
    uint32_t sft = 0;
    uint16_t osft = 0;
    *w = *h = 0;
    *reduced = 0;
    if (!TIFFGetField(tif, TIFFTAG_IMAGEWIDTH, w) || !TIFFGetField(tif, TIFFTAG_IMAGELENGTH, h) || *w == 0 ||
        *h == 0)
        return 0;
    if (TIFFGetField(tif, TIFFTAG_SUBFILETYPE, &sft) && (sft & FILETYPE_REDUCEDIMAGE))
        *reduced = 1;
    if (TIFFGetField(tif, TIFFTAG_OSUBFILETYPE, &osft) && osft == OFILETYPE_REDUCEDIMAGE)
        *reduced = 1;
    return 1;
}

/* The page's ICC profile (owned by libtiff until close): RGB-like pages give it to the caller to
 * apply on the output; 8-bit contiguous CMYK pages take a CMYK transform back (see
 * vgn_tiff_put_cmyk), since their samples are gone once libtiff has made them RGB. */
static void vgn_tiff_find_icc(vgn_tiff *t, uint16_t photometric)
{
    uint32_t count = 0;
    void *profile = NULL;
    uint16_t inkset = INKSET_CMYK;
    if (!TIFFGetField(t->tif, TIFFTAG_ICCPROFILE, &count, &profile) || profile == NULL || count == 0) return;
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_INKSET, &inkset);
    if (photometric == PHOTOMETRIC_SEPARATED) {
        if (inkset != INKSET_CMYK || t->img.samplesperpixel != 4 || t->img.bitspersample != 8 || !t->img.isContig) return;
        t->base.icc_cmyk = 1;
    } else if (photometric != PHOTOMETRIC_RGB && photometric != PHOTOMETRIC_YCBCR && photometric != PHOTOMETRIC_PALETTE) {
        return; /* grey and CIELab profiles are left alone */
    }
    t->base.icc = (const uint8_t *)profile;
    t->base.icc_size = count;
}

/* libtiff's put routine for 8-bit contiguous CMYK, with the samples converted by the page's
 * profile instead of the plain formula (same raster walk as putRGBcontig8bitCMYKtile). */
static void vgn_tiff_put_cmyk(TIFFRGBAImage *img, uint32_t *cp, uint32_t x, uint32_t y, uint32_t w, uint32_t h,
                              int32_t fromskew, int32_t toskew, unsigned char *pp)
{
    vgn_tiff *t = (vgn_tiff *)(void *)((char *)img - offsetof(vgn_tiff, img));
    (void)x;
    (void)y;
    for (; h > 0; --h) {
        uint32_t i;
        vgn_icc_apply(t->base.cmyk_transform, pp, t->cmyk_rgb, w);
        for (i = 0; i < w; i++) {
            const uint8_t *c = t->cmyk_rgb + (size_t)i * 3;
            *cp++ = (uint32_t)c[0] | ((uint32_t)c[1] << 8) | ((uint32_t)c[2] << 16) | 0xff000000u;
        }
        pp += (size_t)w * 4 + (ptrdiff_t)fromskew * 4;
        cp += toskew;
    }
}

/* Strips of unsigned grey (with alpha) or RGB(A) samples of a size TIFFRGBAImage has no path for
 * (9-15, 24 or 32 bits: 12-bit scans, for one): read a scanline at a time and unpacked here, the
 * top 8 bits of each sample kept. Returns 0 (nothing changed) when the page is not such a page. */
static int vgn_tiff_packed_open(vgn_tiff *t, uint32_t w, uint32_t h, vgn_image_info *info)
{
    uint16_t spp = 1, bps = 1, photometric = 0, planar = PLANARCONFIG_CONTIG, format = SAMPLEFORMAT_UINT,
             orientation = ORIENTATION_TOPLEFT;
    tmsize_t line;
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLEFORMAT, &format);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_ORIENTATION, &orientation);
    if (!TIFFGetField(t->tif, TIFFTAG_PHOTOMETRIC, &photometric) || TIFFIsTiled(t->tif) || format != SAMPLEFORMAT_UINT ||
        !((bps > 8 && bps < 16) || bps == 24 || bps == 32) || (planar != PLANARCONFIG_CONTIG && spp > 1))
        return 0;
    if (!(((photometric == PHOTOMETRIC_MINISBLACK || photometric == PHOTOMETRIC_MINISWHITE) && (spp == 1 || spp == 2)) ||
          (photometric == PHOTOMETRIC_RGB && (spp == 3 || spp == 4))))
        return 0;
    line = TIFFScanlineSize(t->tif);
    if (line <= 0 || (uint64_t)line < ((uint64_t)w * spp * bps + 7) / 8) return 0;
    t->packed = 1;
    t->p_spp = spp;
    t->p_bps = bps;
    t->p_photometric = photometric;
    t->base.width = w;
    t->base.height = h;
    t->base.working = (size_t)line;
    info->orientation = orientation >= 1 && orientation <= 8 ? orientation : 1;
    t->state = VGN_TST_OPENED;
    return 1;
}

/* The packed mode's next rows: one scanline at a time, unpacked most significant bit first. */
static int vgn_tiff_packed_rows(vgn_tiff *t, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    int n = 0;
    uint32_t x;
    if (t->scanline == NULL && (t->scanline = (uint8_t *)malloc(t->base.working)) == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory for a TIFF row", &t->warn);
        return VGN_E_NOMEM;
    }
    while (n < max_rows && t->row < t->base.height) {
        uint8_t *o = dst + (size_t)n * stride;
        uint64_t bit = 0;
        t->first_err[0] = '\0';
        if (TIFFReadScanline(t->tif, t->scanline, t->row, 0) < 0) {
            char m[VGN_MSG_LEN];
            vgn_copy_message(m, t->first_err[0] ? t->first_err : "tiff: cannot read a row");
            t->state = VGN_TST_FAILED;
            t->fail_code = vgn_tiff_classify(m, VGN_E_INVALID);
            vgn_copy_message(t->fail_msg, m);
            if (n > 0) break;
            vgn_err_fill(err, t->fail_code, t->fail_msg, &t->warn);
            return t->fail_code;
        }
        for (x = 0; x < t->base.width; x++, o += 4) {
            unsigned v[4] = {0, 0, 0, 255}, c;
            for (c = 0; c < t->p_spp; c++) {
                uint32_t value = 0, b;
                for (b = 0; b < t->p_bps; b++, bit++)
                    value = (value << 1) | ((t->scanline[bit >> 3] >> (7 - (bit & 7))) & 1u);
                v[c] = value >> (t->p_bps - 8);
            }
            if (t->p_spp <= 2) {
                unsigned grey = t->p_photometric == PHOTOMETRIC_MINISWHITE ? 255 - v[0] : v[0];
                o[0] = o[1] = o[2] = (uint8_t)grey;
                o[3] = (uint8_t)(t->p_spp == 2 ? v[1] : 255);
            } else {
                o[0] = (uint8_t)v[0];
                o[1] = (uint8_t)v[1];
                o[2] = (uint8_t)v[2];
                o[3] = (uint8_t)v[3];
            }
        }
        t->row++;
        n++;
    }
    if (t->row >= t->base.height) t->state = VGN_TST_DONE;
    vgn_err_fill(err, VGN_OK, NULL, &t->warn);
    return n;
}

/* Whether the current directory can be decoded (TIFFRGBAImageOK, silently). */
static int vgn_tiff_dir_ok(TIFF *tif)
{
    char emsg[1024];
    emsg[0] = '\0';
    return TIFFRGBAImageOK(tif, emsg);
}

/* Picks the directory to decode and makes it current: IFD 0, or its smallest reduced copy whose
 * longest side is >= target. Returns 0 when libtiff cannot get back to the chosen directory. */
static int vgn_tiff_choose(vgn_tiff *t, uint32_t target, uint32_t w0, uint32_t h0)
{
    TIFF *tif = t->tif;
    uint64_t subifd[VGN_TIFF_MAX_REDUCED];
    uint16_t nsub = 0;
    uint64_t best_area = (uint64_t)w0 * h0;
    int best_kind = 0; /* 0: IFD 0, 1: following IFD best_dir, 2: SubIFD at best_off */
    tdir_t best_dir = 0, dir;
    uint64_t best_off = 0;
    int examined = 0, i;
    uint32_t w, h;
    int reduced;

    if (target == 0)
        return 1;
    {
        uint16_t n = 0;
        uint64_t *offs = NULL;
        if (TIFFGetField(tif, TIFFTAG_SUBIFD, &n, &offs) && offs != NULL) {
            nsub = n > VGN_TIFF_MAX_REDUCED ? VGN_TIFF_MAX_REDUCED : n;
            memcpy(subifd, offs, (size_t)nsub * sizeof subifd[0]);
        }
    }
    /* following IFDs: reductions of page 1 until the next page */
    for (dir = 1; examined < VGN_TIFF_MAX_REDUCED; dir++, examined++) {
        if (!TIFFReadDirectory(tif))
            break;
        if (!vgn_tiff_dir_size(tif, &w, &h, &reduced) || !reduced)
            break;
        if (w <= w0 && h <= h0 && (w > h ? w : h) >= target && (uint64_t)w * h < best_area && vgn_tiff_dir_ok(tif)) {
            best_area = (uint64_t)w * h;
            best_kind = 1;
            best_dir = dir;
        }
    }
    for (i = 0; i < nsub; i++) {
        if (!TIFFSetSubDirectory(tif, subifd[i]))
            continue;
        if (!vgn_tiff_dir_size(tif, &w, &h, &reduced))
            continue;
        if (w <= w0 && h <= h0 && (w > h ? w : h) >= target && (uint64_t)w * h < best_area && vgn_tiff_dir_ok(tif)) {
            best_area = (uint64_t)w * h;
            best_kind = 2;
            best_off = subifd[i];
        }
    }
    /* the walk's errors (a broken later IFD) do not concern the chosen image */
    t->first_err[0] = '\0';
    if (best_kind == 2)
        return TIFFSetSubDirectory(tif, best_off);
    return TIFFSetDirectory(tif, best_dir);
}

/* Whether the header is cut short or points its first directory past the end of the data: `d` is
 * the first `avail` bytes (16 are enough) of data of `size` bytes. */
static int vgn_tiff_ifd0_past_end(const uint8_t *d, size_t avail, uint64_t size)
{
    int le;
    unsigned magic;
    uint64_t off = 0;
    int i;
    if (avail < 8 || size < 8)
        return 1;
    if (d[0] == 'I' && d[1] == 'I')
        le = 1;
    else if (d[0] == 'M' && d[1] == 'M')
        le = 0;
    else
        return 0;
    magic = le ? (unsigned)d[2] | ((unsigned)d[3] << 8) : ((unsigned)d[2] << 8) | (unsigned)d[3];
    if (magic == 42) {
        for (i = 0; i < 4; i++)
            off |= (uint64_t)d[4 + i] << (le ? 8 * i : 8 * (3 - i));
    } else if (magic == 43) {
        if (avail < 16 || size < 16)
            return 1;
        for (i = 0; i < 8; i++)
            off |= (uint64_t)d[8 + i] << (le ? 8 * i : 8 * (7 - i));
    } else {
        return 0;
    }
    return off >= size;
}

/* Whether the data's header is cut short or points IFD 0 past its end (from a descriptor: the
 * first 16 bytes read again, against the size now). */
static int vgn_tiff_header_past_end(const vgn_tiff *t)
{
    uint8_t head[16];
    int64_t got;
    if (t->fd < 0)
        return vgn_tiff_ifd0_past_end(t->data, (size_t)t->size, t->size);
    got = vgn_tiff_pread(t->fd, head, t->size < sizeof head ? t->size : sizeof head, 0);
    if (got < 0)
        return 0; /* a read error, not a short file: libtiff's message says so */
    return vgn_tiff_ifd0_past_end(head, (size_t)got, vgn_tiff_current_size(t));
}

/* A handle over `data` (fd -1) or over descriptor `fd` (data NULL) of `size` bytes, or NULL. */
static vgn_tiff *vgn_tiff_new(const uint8_t *data, int fd, uint64_t size, vgn_error *err)
{
    vgn_tiff *t;
    if (vgn_library_load(VGN_LIB_TIFF, err) != VGN_OK) return NULL;
    vgn_tiff_register_tags();
    t = (vgn_tiff *)calloc(1, sizeof *t);
    if (t == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    t->base.read_rows = vgn_tiff_read_rows;
    t->base.close = vgn_tiff_close;
    t->data = data;
    t->fd = fd;
    t->size = size;
    return t;
}

static vgn_decoder *vgn_tiff_start(vgn_tiff *t, uint32_t target, vgn_image_info *info, vgn_error *err);

vgn_decoder *vgn_tiff_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_tiff *t;
    if (info != NULL)
        memset(info, 0, sizeof *info);
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    if ((t = vgn_tiff_new(data, -1, size, err)) == NULL)
        return NULL;
    return vgn_tiff_start(t, target, info, err);
}

vgn_decoder *vgn_tiff_open_fd(int fd, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_tiff *t;
    uint64_t size;
    if (vgn_fd_file_size(fd, "tiff", info, &size, err) != VGN_OK)
        return NULL;
    if ((t = vgn_tiff_new(NULL, fd, size, err)) == NULL)
        return NULL;
    return vgn_tiff_start(t, target, info, err);
}

/* Opens libtiff over the handle's data and reads page 1's header (and its reduced copies). */
static vgn_decoder *vgn_tiff_start(vgn_tiff *t, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    TIFFOpenOptions *opts;
    uint32_t w0 = 0, h0 = 0, w, h;
    uint16_t spp = 1, bps = 1, photometric = 0, orientation = 1, nextra = 0;
    uint16_t *extra = NULL;
    int reduced;
    char emsg[1024];
    uint64_t band_bytes, lib_bytes, total;

    opts = TIFFOpenOptionsAlloc();
    if (opts == NULL)
        return vgn_tiff_fail_open(t, VGN_E_NOMEM, "out of memory", err);
    TIFFOpenOptionsSetErrorHandlerExtR(opts, vgn_tiff_error_handler, t);
    TIFFOpenOptionsSetWarningHandlerExtR(opts, vgn_tiff_warning_handler, t);
    TIFFOpenOptionsSetMaxSingleMemAlloc(opts, VGN_TIFF_MAX_ALLOC);
    /* "m": a descriptor is read, never mapped */
    t->tif = TIFFClientOpenExt("tiff", t->fd >= 0 ? "rm" : "r", (thandle_t)t, vgn_tiff_read, vgn_tiff_write,
                               vgn_tiff_seek, vgn_tiff_closeproc, vgn_tiff_sizeproc, vgn_tiff_map, vgn_tiff_unmap, opts);
    TIFFOpenOptionsFree(opts);
    if (t->tif == NULL) {
        if (vgn_tiff_header_past_end(t)) {
            char msg[VGN_MSG_LEN];
            vgn_copy_message(msg, t->first_err[0] ? t->first_err : "tiff: the data ends before the first directory");
            return vgn_tiff_fail_open(t, VGN_E_TRUNCATED, msg, err);
        }
        return vgn_tiff_fail_lib(t, VGN_E_INVALID, "not a readable TIFF", err);
    }

    /* page 1 */
    if (!vgn_tiff_dir_size(t->tif, &w0, &h0, &reduced))
        return vgn_tiff_fail_lib(t, VGN_E_INVALID, "the first TIFF page has no size", err);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_SAMPLESPERPIXEL, &spp);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_BITSPERSAMPLE, &bps);
    TIFFGetField(t->tif, TIFFTAG_PHOTOMETRIC, &photometric);
    TIFFGetFieldDefaulted(t->tif, TIFFTAG_EXTRASAMPLES, &nextra, &extra);
    info->width = w0;
    info->height = h0;
    info->components = spp;
    info->bit_depth = bps;
    info->color_type = photometric;
    info->has_alpha = nextra > 0 ? 1 : 0;

    if (!vgn_tiff_choose(t, target, w0, h0))
        return vgn_tiff_fail_lib(t, VGN_E_INVALID, "cannot return to the chosen TIFF directory", err);
    if (!vgn_tiff_dir_size(t->tif, &w, &h, &reduced))
        return vgn_tiff_fail_lib(t, VGN_E_INVALID, "the TIFF page has no size", err);

    /* Floating-point and signed samples first: TIFFRGBAImage would read signed ones as unsigned. */
    if (vgn_tiff_scaled_open(t, w, h, info)) {
        vgn_err_fill(err, VGN_OK, NULL, &t->warn);
        return &t->base;
    }
    emsg[0] = '\0';
    if (!TIFFRGBAImageOK(t->tif, emsg) && vgn_tiff_packed_open(t, w, h, info)) {
        vgn_err_fill(err, VGN_OK, NULL, &t->warn);
        return &t->base;
    }
    emsg[0] = '\0';
    if (!TIFFRGBAImageOK(t->tif, emsg)) {
        char m[VGN_MSG_LEN * 2];
        snprintf(m, sizeof m, "tiff: %s", emsg[0] ? emsg : "cannot handle this image");
        vgn_copy_message(emsg, m);
        return vgn_tiff_fail_open(t, vgn_tiff_classify(emsg, VGN_E_UNSUPPORTED), emsg, err);
    }
    emsg[0] = '\0';
    if (!TIFFRGBAImageBegin(&t->img, t->tif, 1, emsg)) {
        char m[VGN_MSG_LEN * 2];
        if (t->first_err[0] != '\0')
            return vgn_tiff_fail_lib(t, VGN_E_INVALID, "", err);
        snprintf(m, sizeof m, "tiff: %s", emsg[0] ? emsg : "cannot handle this image");
        vgn_copy_message(emsg, m);
        return vgn_tiff_fail_open(t, vgn_tiff_classify(emsg, VGN_E_UNSUPPORTED), emsg, err);
    }
    t->img_ok = 1;
    t->base.opaque = t->img.alpha == 0; /* libtiff's raster then has 255 in every alpha byte */
    if (t->img.width != w || t->img.height != h)
        return vgn_tiff_fail_open(t, VGN_E_INVALID, "inconsistent TIFF image size", err);
    /* stored order: libtiff flips nothing, the caller applies the orientation */
    t->img.req_orientation = t->img.orientation;
    orientation = t->img.orientation;
    info->orientation = (orientation >= 1 && orientation <= 8) ? orientation : 1;

    vgn_tiff_find_icc(t, photometric);

    t->tiled = TIFFIsTiled(t->tif);
    if (t->tiled) {
        uint32_t th = 0;
        TIFFGetField(t->tif, TIFFTAG_TILELENGTH, &th);
        t->band_h = th;
        lib_bytes = (uint64_t)TIFFTileSize64(t->tif);
    } else {
        uint32_t rps = 0;
        TIFFGetFieldDefaulted(t->tif, TIFFTAG_ROWSPERSTRIP, &rps);
        t->band_h = rps;
        lib_bytes = (uint64_t)TIFFStripSize64(t->tif);
    }
    if (t->band_h == 0 || t->band_h > h)
        t->band_h = h;
    if (!t->img.isContig)
        lib_bytes *= 4; /* one buffer per plane (r, g, b, a) */
    t->first_err[0] = '\0'; /* size computations may complain about overflows; Get will too */
    band_bytes = (uint64_t)w * t->band_h;
    total = band_bytes > (UINT64_MAX - lib_bytes) / 4 ? UINT64_MAX : band_bytes * 4 + lib_bytes + (uint64_t)w * 3;
    t->base.width = w;
    t->base.height = h;
    t->base.working = total > (uint64_t)SIZE_MAX ? SIZE_MAX : (size_t)total;
    t->state = VGN_TST_OPENED;
    vgn_err_fill(err, VGN_OK, NULL, &t->warn);
    return &t->base;
}

/* Whether a strip/tile of the band [y0, y0+n) lies (partly) past the end of the data. */
static int vgn_tiff_band_truncated(vgn_tiff *t, uint32_t y0, uint32_t n)
{
    TIFF *tif = t->tif;
    uint64_t size = vgn_tiff_current_size(t);
    uint32_t first, last, per_plane, planes, p, k;
    if (t->tiled) {
        uint32_t tw = 0, th = 0, across;
        TIFFGetField(tif, TIFFTAG_TILEWIDTH, &tw);
        TIFFGetField(tif, TIFFTAG_TILELENGTH, &th);
        if (tw == 0 || th == 0)
            return 0;
        across = (uint32_t)(((uint64_t)t->base.width + tw - 1) / tw);
        first = (y0 / th) * across;
        last = ((y0 + n - 1) / th) * across + across - 1;
        per_plane = TIFFNumberOfTiles(tif);
    } else {
        uint32_t rps = t->band_h;
        first = y0 / rps;
        last = (y0 + n - 1) / rps;
        per_plane = TIFFNumberOfStrips(tif);
    }
    planes = t->img.isContig ? 1 : t->img.samplesperpixel;
    if (planes > 1)
        per_plane /= planes;
    for (p = 0; p < planes && p < 4; p++) {
        for (k = first; k <= last && k < per_plane; k++) {
            uint32_t s = p * per_plane + k;
            uint64_t off = TIFFGetStrileOffset(tif, s), cnt = TIFFGetStrileByteCount(tif, s);
            if (off > size || cnt > size - off)
                return 1;
        }
    }
    return 0;
}

static int vgn_tiff_load_band(vgn_tiff *t, uint32_t y0)
{
    uint32_t n = t->base.height - y0 < t->band_h ? t->base.height - y0 : t->band_h;
    t->band_n = 0;
    t->first_err[0] = '\0';
    t->img.row_offset = (int)y0;
    t->img.col_offset = 0;
    if (!TIFFRGBAImageGet(&t->img, t->band, t->base.width, n)) {
        int code;
        char m[VGN_MSG_LEN * 2];
        if (t->first_err[0] != '\0') {
            vgn_copy_message(m, t->first_err);
            code = vgn_tiff_classify(m, VGN_E_INVALID);
        } else {
            snprintf(m, sizeof m, "tiff: cannot decode rows %u to %u", y0, y0 + n - 1);
            code = VGN_E_INVALID;
        }
        /* strips past the end: said the same way whether libtiff read memory or a file (its read
         * errors differ between the two) */
        if ((code == VGN_E_INVALID || code == VGN_E_TRUNCATED) && vgn_tiff_band_truncated(t, y0, n)) {
            snprintf(m, sizeof m, "tiff: the data ends before rows %u to %u", y0, y0 + n - 1);
            code = VGN_E_TRUNCATED;
        }
        t->state = VGN_TST_FAILED;
        t->fail_code = code;
        vgn_copy_message(t->fail_msg, m);
        return 0;
    }
    t->band_y0 = y0;
    t->band_n = n;
    return 1;
}

static void vgn_tiff_emit(const vgn_tiff *t, const uint32_t *src, uint8_t *o)
{
    uint32_t x, w = t->base.width;
    int unpremultiply = t->img.alpha != 0;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* libtiff packs R, G, B, A from the low byte up: in memory, already our RGBA order */
    if (!unpremultiply) {
        memcpy(o, src, (size_t)w * 4);
        return;
    }
#endif
    for (x = 0; x < w; x++, o += 4) {
        uint32_t v = src[x];
        unsigned r = TIFFGetR(v), g = TIFFGetG(v), b = TIFFGetB(v), a = TIFFGetA(v);
        if (unpremultiply && a != 255) {
            /* libtiff's raster is premultiplied (it associates unassociated alpha itself) */
            if (a == 0) {
                r = g = b = 0;
            } else {
                r = (r * 255 + a / 2) / a;
                g = (g * 255 + a / 2) / a;
                b = (b * 255 + a / 2) / a;
                if (r > 255) r = 255;
                if (g > 255) g = 255;
                if (b > 255) b = 255;
            }
        }
        o[0] = (uint8_t)r;
        o[1] = (uint8_t)g;
        o[2] = (uint8_t)b;
        o[3] = (uint8_t)a;
    }
}

static int vgn_tiff_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_tiff *t = (vgn_tiff *)d;
    int n = 0;
    if (t->state == VGN_TST_FAILED) {
        vgn_err_fill(err, t->fail_code, t->fail_msg, &t->warn);
        return t->fail_code;
    }
    if (t->state == VGN_TST_DONE || max_rows == 0) {
        vgn_err_fill(err, VGN_OK, NULL, &t->warn);
        return 0;
    }
    if (t->packed) return vgn_tiff_packed_rows(t, dst, stride, max_rows, err);
    if (t->scaled) return vgn_tiff_scaled_rows(t, dst, stride, max_rows, err);
    if (t->band == NULL) {
        size_t px = (size_t)t->base.width * t->band_h;
        if ((uint64_t)t->base.width * t->band_h > SIZE_MAX / 4 ||
            (t->band = (uint32_t *)malloc(px * 4)) == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory for the TIFF band buffer", &t->warn);
            return VGN_E_NOMEM;
        }
        if (t->base.icc_cmyk && t->base.cmyk_transform != NULL) {
            if ((t->cmyk_rgb = (uint8_t *)malloc((size_t)t->base.width * 3)) == NULL) {
                vgn_err_fill(err, VGN_E_NOMEM, "out of memory for the TIFF band buffer", &t->warn);
                return VGN_E_NOMEM;
            }
            t->img.put.contig = vgn_tiff_put_cmyk;
        }
    }
    while (n < max_rows && t->row < t->base.height) {
        if (t->band_n == 0 || t->row < t->band_y0 || t->row - t->band_y0 >= t->band_n) {
            if (!vgn_tiff_load_band(t, t->row - t->row % t->band_h))
                break;
        }
        vgn_tiff_emit(t, t->band + (size_t)(t->row - t->band_y0) * t->base.width, dst + (size_t)n * stride);
        t->row++;
        n++;
    }
    if (t->state == VGN_TST_FAILED) {
        if (n > 0) {
            vgn_err_fill(err, VGN_OK, NULL, &t->warn);
            return n;
        }
        vgn_err_fill(err, t->fail_code, t->fail_msg, &t->warn);
        return t->fail_code;
    }
    if (t->row >= t->base.height) {
        t->state = VGN_TST_DONE;
        free(t->band);
        t->band = NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, &t->warn);
    return n;
}
