/* vgn_common.c - error helpers, EXIF orientation parser, growing buffer, vgn_free. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "vgn_internal.h"

void vgn_copy_message(char *dst, const char *src)
{
    size_t n = 0;
    if (src != NULL) {
        n = strlen(src);
        if (n > VGN_MSG_LEN - 1)
            n = VGN_MSG_LEN - 1;
        memcpy(dst, src, n);
        while (n > 0 && (dst[n - 1] == '\n' || dst[n - 1] == '\r' || dst[n - 1] == ' '))
            n--;
    }
    dst[n] = '\0';
}

void vgn_warn_add(vgn_warnings *w, const char *msg)
{
    if (w->count == 0)
        vgn_copy_message(w->first, msg);
    if (w->count < 0x7fffffff)
        w->count++;
}

void vgn_err_fill(vgn_error *err, int code, const char *msg, const vgn_warnings *w)
{
    if (err == NULL)
        return;
    err->code = code;
    vgn_copy_message(err->message, code == VGN_OK ? NULL : msg);
    if (w != NULL && w->count > 0) {
        err->warning_count = w->count;
        memcpy(err->warning, w->first, VGN_MSG_LEN);
        err->warning[VGN_MSG_LEN - 1] = '\0';
    } else {
        err->warning_count = 0;
        err->warning[0] = '\0';
    }
}

void vgn_free(void *p)
{
    free(p);
}

/* ---- EXIF (TIFF) orientation ---- */

static unsigned rd16(const uint8_t *p, int le)
{
    return le ? (unsigned)p[0] | ((unsigned)p[1] << 8) : ((unsigned)p[0] << 8) | (unsigned)p[1];
}

static uint32_t rd32(const uint8_t *p, int le)
{
    return le ? (uint32_t)p[0] | ((uint32_t)p[1] << 8) | ((uint32_t)p[2] << 16) | ((uint32_t)p[3] << 24)
              : ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

int vgn_exif_orientation_tiff(const uint8_t *tiff, size_t len)
{
    int le;
    uint32_t ifd;
    unsigned count, i;

    if (tiff == NULL || len < 8)
        return 1;
    if (tiff[0] == 'I' && tiff[1] == 'I' && tiff[2] == 0x2A && tiff[3] == 0x00)
        le = 1;
    else if (tiff[0] == 'M' && tiff[1] == 'M' && tiff[2] == 0x00 && tiff[3] == 0x2A)
        le = 0;
    else
        return 1;
    ifd = rd32(tiff + 4, le);
    if (ifd < 8 || (size_t)ifd > len || len - (size_t)ifd < 2)
        return 1;
    count = rd16(tiff + ifd, le);
    /* only walk entries that are fully inside the block */
    if ((size_t)count > (len - (size_t)ifd - 2) / 12)
        count = (unsigned)((len - (size_t)ifd - 2) / 12);
    for (i = 0; i < count; i++) {
        const uint8_t *e = tiff + ifd + 2 + (size_t)i * 12;
        unsigned tag = rd16(e, le), type = rd16(e + 2, le);
        uint32_t n = rd32(e + 4, le);
        unsigned v;
        if (tag != 0x0112)
            continue;
        if (n != 1)
            return 1;
        if (type == 3) /* SHORT */
            v = rd16(e + 8, le);
        else if (type == 4) /* LONG (non-standard, seen in the wild) */
            v = (unsigned)rd32(e + 8, le);
        else
            return 1;
        return (v >= 1 && v <= 8) ? (int)v : 1;
    }
    return 1;
}

/* ---- growing buffer ---- */

int vgn_buf_reserve(vgn_buf *b, size_t extra)
{
    size_t need, ncap;
    uint8_t *nd;
    if (extra > SIZE_MAX - b->size)
        return -1;
    need = b->size + extra;
    if (need <= b->cap)
        return 0;
    ncap = b->cap ? b->cap : 4096;
    while (ncap < need) {
        if (ncap > SIZE_MAX / 2) {
            ncap = need;
            break;
        }
        ncap *= 2;
    }
    nd = (uint8_t *)realloc(b->data, ncap);
    if (nd == NULL)
        return -1;
    b->data = nd;
    b->cap = ncap;
    return 0;
}

int vgn_buf_append(vgn_buf *b, const uint8_t *p, size_t n)
{
    if (n == 0)
        return 0;
    if (vgn_buf_reserve(b, n) != 0)
        return -1;
    memcpy(b->data + b->size, p, n);
    b->size += n;
    return 0;
}

int vgn_fd_file_size(int fd, const char *format, vgn_image_info *info, uint64_t *size, vgn_error *err)
{
    struct stat st;
    char m[VGN_MSG_LEN];
    if (info != NULL)
        memset(info, 0, sizeof *info);
    if (fd < 0 || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no file", NULL);
        return VGN_E_STATE;
    }
    if (fstat(fd, &st) != 0) {
        snprintf(m, sizeof m, "%s: cannot read the file (%s)", format, strerror(errno));
        vgn_err_fill(err, VGN_E_IO, m, NULL);
        return VGN_E_IO;
    }
    if (!S_ISREG(st.st_mode) || st.st_size < 0 || (uint64_t)st.st_size > SIZE_MAX) {
        snprintf(m, sizeof m, "%s: not a regular file", format);
        vgn_err_fill(err, VGN_E_IO, m, NULL);
        return VGN_E_IO;
    }
    *size = (uint64_t)st.st_size;
    return VGN_OK;
}

float vgn_srgb_encode(float v)
{
    return v <= 0.0031308f ? v * 12.92f : 1.055f * powf(v, 1.0f / 2.4f) - 0.055f;
}

float vgn_srgb_decode(float v)
{
    return v <= 0.04045f ? v / 12.92f : powf((v + 0.055f) / 1.055f, 2.4f);
}

void *vgn_err_null(vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    return NULL;
}

uint8_t vgn_linear_to_srgb8(float v)
{
    if (!(v > 0.0f)) return 0; /* NaN too */
    if (v >= 1.0f) return 255;
    return (uint8_t)(vgn_srgb_encode(v) * 255.0f + 0.5f);
}

double vgn_half(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return (h & 0x8000) ? -v : v;
}
