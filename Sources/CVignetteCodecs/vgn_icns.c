/* vgn_icns.c - Apple icon files (.icns): the entry that best covers the target, and the old
 * bitmap entries decoded here. See vgn_decoder.h.
 *
 * An .icns is "icns", its length, then entries (type, length with its 8-byte header, data).
 * Since Mac OS X 10.5 the large entries (ic07 to ic14, icp4 to icp6, and ic04/ic05) hold a PNG
 * or a JPEG 2000 file, which the caller decodes; the old ones (is32, il32, ih32, it32: 16, 32, 48
 * and 128 pixels) hold RGB run-length coded a channel at a time, with their 8-bit masks in
 * s8mk, l8mk, h8mk and t8mk; ic04/ic05 may hold "ARGB" coded the same way with alpha first. */
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

/* Most entries walked. */
#define VGN_ICNS_MAX_ENTRIES 4096

/* What an entry type holds and its side in pixels. kind: 0 PNG/JPEG 2000 (or ARGB for ic04/ic05),
 * 1 RGB run-length with a mask entry. */
typedef struct {
    char type[5];
    uint32_t side;
    int rgb;
    char mask[5];
} vgn_icns_type;

static const vgn_icns_type vgn_icns_types[] = {
    {"icp4", 16, 0, ""},  {"icp5", 32, 0, ""},  {"icp6", 64, 0, ""},   {"ic07", 128, 0, ""}, {"ic08", 256, 0, ""},
    {"ic09", 512, 0, ""}, {"ic10", 1024, 0, ""}, {"ic11", 32, 0, ""},  {"ic12", 64, 0, ""},  {"ic13", 256, 0, ""},
    {"ic14", 512, 0, ""}, {"ic04", 16, 0, ""},  {"ic05", 32, 0, ""},   {"is32", 16, 1, "s8mk"}, {"il32", 32, 1, "l8mk"},
    {"ih32", 48, 1, "h8mk"}, {"it32", 128, 1, "t8mk"},
};

static uint32_t vgn_icns_u32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

/* Finds entry `type` in the file: its data's offset and length; 0 when there is none. */
static int vgn_icns_find(const uint8_t *data, size_t size, const char *type, size_t *offset, size_t *length)
{
    size_t at = 8;
    int entries = 0;
    while (size - at >= 8 && entries++ < VGN_ICNS_MAX_ENTRIES) {
        uint32_t n = vgn_icns_u32(data + at + 4);
        if (n < 8 || n > size - at) return 0;
        if (memcmp(data + at, type, 4) == 0) {
            *offset = at + 8;
            *length = n - 8;
            return 1;
        }
        at += n;
    }
    return 0;
}

/* The file's own length field and entries must agree with the data: the end of the entries. */
static size_t vgn_icns_end(const uint8_t *data, size_t size)
{
    uint32_t declared = vgn_icns_u32(data + 4);
    return declared >= 8 && declared < size ? declared : size;
}

int vgn_icns_select(const uint8_t *data, size_t size, uint32_t target, size_t *offset, size_t *length, int *kind,
                    vgn_image_info *info, vgn_error *err)
{
    size_t at = 8, end, best_offset = 0, best_length = 0;
    uint32_t best_side = 0;
    int entries = 0, best_kind = -1;
    if (data == NULL || info == NULL || offset == NULL || length == NULL || kind == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(info, 0, sizeof *info);
    if (size < 8 || memcmp(data, "icns", 4) != 0) {
        vgn_err_fill(err, VGN_E_INVALID, "not an Apple icon file (no \"icns\" header)", NULL);
        return VGN_E_INVALID;
    }
    end = vgn_icns_end(data, size);
    while (end - at >= 8 && entries++ < VGN_ICNS_MAX_ENTRIES) {
        uint32_t n = vgn_icns_u32(data + at + 4);
        size_t t, c = at + 8, len;
        if (n < 8 || n > end - at) break; /* what came before is still usable */
        len = n - 8;
        for (t = 0; t < sizeof vgn_icns_types / sizeof *vgn_icns_types; t++) {
            const vgn_icns_type *type = &vgn_icns_types[t];
            int entry_kind;
            size_t mask_offset, mask_length;
            if (memcmp(data + at, type->type, 4) != 0) continue;
            if (type->rgb) {
                /* usable with its mask only, which must be side x side bytes */
                if (!vgn_icns_find(data, end, type->mask, &mask_offset, &mask_length) ||
                    mask_length < (size_t)type->side * type->side)
                    break;
                entry_kind = VGN_ICNS_BITMAP;
            } else if (len >= 8 && memcmp(data + c, "\x89PNG\r\n\x1a\n", 8) == 0) {
                entry_kind = VGN_ICNS_PNG;
            } else if ((len >= 12 && memcmp(data + c, "\0\0\0\x0cjP  \r\n\x87\n", 12) == 0) ||
                       (len >= 4 && memcmp(data + c, "\xff\x4f\xff\x51", 4) == 0)) {
                entry_kind = VGN_ICNS_JPEG2000;
            } else if (len >= 4 && memcmp(data + c, "ARGB", 4) == 0 && type->side <= 32) {
                entry_kind = VGN_ICNS_BITMAP;
            } else {
                break;
            }
            /* the smallest covering the target, else the largest; encoded pictures win ties */
            {
                int covers = best_side >= target, this_covers = type->side >= target;
                int better = best_kind < 0 || (this_covers && (!covers || type->side < best_side)) ||
                             (!this_covers && !covers && type->side > best_side) ||
                             (type->side == best_side && best_kind == VGN_ICNS_BITMAP && entry_kind != VGN_ICNS_BITMAP);
                if (target == 0) better = best_kind < 0 || type->side > best_side ||
                                          (type->side == best_side && best_kind == VGN_ICNS_BITMAP && entry_kind != VGN_ICNS_BITMAP);
                if (better) best_kind = entry_kind, best_side = type->side, best_offset = c, best_length = len;
            }
            break;
        }
        at += n;
    }
    if (best_kind < 0) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "the icon file has no picture it can show (PNG, JPEG 2000 or RGB with its mask)", NULL);
        return VGN_E_UNSUPPORTED;
    }
    *offset = best_offset;
    *length = best_length;
    *kind = best_kind;
    info->width = info->height = best_side;
    info->components = 4;
    info->bit_depth = 8;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

typedef struct {
    vgn_decoder base;
    uint8_t *pixels; /* side x side RGBA */
    uint32_t next_row;
} vgn_icns_bitmap;

static void vgn_icns_close(vgn_decoder *d)
{
    vgn_icns_bitmap *b = (vgn_icns_bitmap *)d;
    if (b == NULL) return;
    free(b->pixels);
    free(b);
}

static int vgn_icns_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_icns_bitmap *b = (vgn_icns_bitmap *)d;
    int n = 0;
    while (n < max_rows && b->next_row < b->base.height) {
        memcpy(dst + (size_t)n * stride, b->pixels + (size_t)b->next_row * b->base.width * 4, (size_t)b->base.width * 4);
        n++;
        b->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* Unpacks one channel of `count` samples run-length coded at *at (a byte n below 0x80: n + 1
 * literal bytes follow; else the next byte n - 125 times) into every fourth byte of `out`. */
static int vgn_icns_unpack(const uint8_t *p, size_t size, size_t *at, uint8_t *out, size_t count)
{
    size_t done = 0;
    while (done < count) {
        uint8_t n;
        size_t run, i;
        if (*at >= size) return -1;
        n = p[(*at)++];
        if (n < 0x80) {
            run = (size_t)n + 1;
            if (run > count - done || run > size - *at) return -1;
            for (i = 0; i < run; i++) out[(done + i) * 4] = p[*at + i];
            *at += run;
        } else {
            run = (size_t)n - 125;
            if (run > count - done || *at >= size) return -1;
            for (i = 0; i < run; i++) out[(done + i) * 4] = p[*at];
            (*at)++;
        }
        done += run;
    }
    return 0;
}

vgn_decoder *vgn_icns_bitmap_open(const uint8_t *data, size_t size, size_t offset, size_t length, vgn_image_info *info,
                                  vgn_error *err)
{
    vgn_icns_bitmap *b;
    const vgn_icns_type *type = NULL;
    size_t t, at, end, count, mask_offset = 0, mask_length = 0, i;
    int argb, channel;
    if (data == NULL || info == NULL || offset < 16 || offset > size || length > size - offset) {
        vgn_err_fill(err, VGN_E_STATE, "no entry", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    for (t = 0; t < sizeof vgn_icns_types / sizeof *vgn_icns_types; t++)
        if (memcmp(data + offset - 8, vgn_icns_types[t].type, 4) == 0) type = &vgn_icns_types[t];
    if (type == NULL || type->side > 128) {
        vgn_err_fill(err, VGN_E_STATE, "not a bitmap entry", NULL);
        return NULL;
    }
    argb = !type->rgb;
    if (argb ? length < 4 || memcmp(data + offset, "ARGB", 4) != 0
             : !vgn_icns_find(data, vgn_icns_end(data, size), type->mask, &mask_offset, &mask_length)) {
        vgn_err_fill(err, VGN_E_STATE, "not a bitmap entry", NULL);
        return NULL;
    }
    count = (size_t)type->side * type->side;
    if (!argb && mask_length < count) {
        vgn_err_fill(err, VGN_E_INVALID, "the icon's mask is shorter than its picture", NULL);
        return NULL;
    }
    b = (vgn_icns_bitmap *)calloc(1, sizeof *b);
    if (b == NULL || (b->pixels = (uint8_t *)malloc(count * 4)) == NULL) {
        free(b);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    b->base.read_rows = vgn_icns_read_rows;
    b->base.close = vgn_icns_close;
    b->base.width = b->base.height = type->side;
    end = offset + length;
    at = offset + (argb ? 4 : 0);
    /* it32's data starts with four zero bytes */
    if (memcmp(data + offset - 8, "it32", 4) == 0 && length >= 4 && vgn_icns_u32(data + offset) == 0) at += 4;
    if (!argb && length == count * 3) {
        /* stored without run-length coding: RGB triplets */
        for (i = 0; i < count; i++) memcpy(b->pixels + i * 4, data + offset + i * 3, 3);
    } else {
        for (channel = argb ? 0 : 1; channel < 4; channel++) {
            /* ARGB: alpha, red, green, blue planes; the RGB ones: red, green, blue */
            uint8_t *plane = b->pixels + (argb ? (channel + 3) % 4 : channel - 1);
            if (vgn_icns_unpack(data, end, &at, plane, count) != 0) {
                vgn_err_fill(err, VGN_E_INVALID, "the icon's run-length coded pixels are damaged", NULL);
                vgn_icns_close(&b->base);
                return NULL;
            }
        }
    }
    if (!argb)
        for (i = 0; i < count; i++) b->pixels[i * 4 + 3] = data[mask_offset + i];
    info->width = info->height = type->side;
    info->components = 4;
    info->bit_depth = 8;
    info->has_alpha = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &b->base;
}
