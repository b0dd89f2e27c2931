/* vgn_dds.c - DirectDraw Surface (.dds), the texture format of games and 3D tools: the first
 * mipmap level of the first surface (cube maps: the first face) whose longest side covers the
 * thumbnail, decoded a row of 4 x 4 blocks at a time. See vgn_decoder.h.
 *
 * Block compression: BC1 (DXT1, with its 1-bit alpha), BC2 (DXT2/DXT3, explicit 4-bit alpha),
 * BC3 (DXT4/DXT5, interpolated alpha), BC4 (ATI1, one channel: grey) and BC5 (ATI2, two channels:
 * a normal map's X and Y, Z rebuilt, as texture viewers show them); uncompressed pixels of 8 to 32
 * bits by their channel masks (RGB, luminance, alpha-only); the DX10 header's DXGI formats of
 * the same kinds. BC6H and BC7 are refused by name. The level's size is checked against the
 * file's before anything is allocated. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

enum { VGN_DDS_RAW, VGN_DDS_BC1, VGN_DDS_BC2, VGN_DDS_BC3, VGN_DDS_BC4, VGN_DDS_BC5 };

typedef struct {
    vgn_decoder base;
    const uint8_t *pixels; /* the first level's data */
    int kind;              /* VGN_DDS_* */
    size_t block_bytes;    /* compressed: 8 or 16 */
    size_t row_bytes;      /* a row of blocks, or of pixels */
    uint32_t bits;         /* uncompressed: bits a pixel */
    uint32_t mask[4];      /* uncompressed: R, G, B, A masks (A 0: opaque; R only: luminance) */
    int luminance, alpha_only;
    uint8_t *band;         /* 4 rows of RGBA (compressed) */
    uint32_t next_row;
} vgn_dds;

static uint32_t vgn_le32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }

static void vgn_dds_close(vgn_decoder *d)
{
    vgn_dds *s = (vgn_dds *)d;
    if (s == NULL) return;
    free(s->band);
    free(s);
}

/* An RGB565 colour as 8-bit RGB. */
static void vgn_dds_565(uint16_t c, uint8_t *rgb)
{
    uint32_t r = c >> 11 & 31, g = c >> 5 & 63, b = c & 31;
    rgb[0] = (uint8_t)(r << 3 | r >> 2);
    rgb[1] = (uint8_t)(g << 2 | g >> 4);
    rgb[2] = (uint8_t)(b << 3 | b >> 2);
}

/* A BC1 colour block into a 4 x 4 RGBA tile (stride 16 bytes); `four` forces the 4-colour mode
 * (BC2/BC3 colour blocks). */
static void vgn_dds_colour_block(const uint8_t *p, uint8_t tile[64], int four)
{
    uint16_t c0 = (uint16_t)(p[0] | p[1] << 8), c1 = (uint16_t)(p[2] | p[3] << 8);
    uint32_t indices = vgn_le32(p + 4);
    uint8_t palette[4][4];
    int i;
    vgn_dds_565(c0, palette[0]);
    vgn_dds_565(c1, palette[1]);
    palette[0][3] = palette[1][3] = palette[2][3] = palette[3][3] = 255;
    for (i = 0; i < 3; i++) {
        if (four || c0 > c1) {
            palette[2][i] = (uint8_t)((2 * palette[0][i] + palette[1][i] + 1) / 3);
            palette[3][i] = (uint8_t)((palette[0][i] + 2 * palette[1][i] + 1) / 3);
        } else {
            palette[2][i] = (uint8_t)((palette[0][i] + palette[1][i]) / 2);
            palette[3][i] = 0;
        }
    }
    if (!four && c0 <= c1) palette[3][3] = 0;
    for (i = 0; i < 16; i++) memcpy(tile + i * 4, palette[indices >> (2 * i) & 3], 4);
}

/* A BC3/BC4 8-value block (two endpoints, 3-bit indices) into 16 bytes. */
static void vgn_dds_value_block(const uint8_t *p, uint8_t out[16])
{
    uint8_t v[8];
    uint64_t bits = 0;
    int i;
    v[0] = p[0], v[1] = p[1];
    if (v[0] > v[1]) {
        for (i = 1; i < 7; i++) v[i + 1] = (uint8_t)(((7 - i) * v[0] + i * v[1] + 3) / 7);
    } else {
        for (i = 1; i < 5; i++) v[i + 1] = (uint8_t)(((5 - i) * v[0] + i * v[1] + 2) / 5);
        v[6] = 0, v[7] = 255;
    }
    for (i = 0; i < 6; i++) bits |= (uint64_t)p[2 + i] << (8 * i);
    for (i = 0; i < 16; i++) out[i] = v[bits >> (3 * i) & 7];
}

/* One block of the current row into its 4 x 4 tile. */
static void vgn_dds_block(const vgn_dds *s, const uint8_t *p, uint8_t tile[64])
{
    uint8_t a[16], b[16];
    int i;
    switch (s->kind) {
    case VGN_DDS_BC1: vgn_dds_colour_block(p, tile, 0); break;
    case VGN_DDS_BC2:
        vgn_dds_colour_block(p + 8, tile, 1);
        for (i = 0; i < 16; i++) tile[i * 4 + 3] = (uint8_t)((p[i / 2] >> (4 * (i % 2)) & 15) * 17);
        break;
    case VGN_DDS_BC3:
        vgn_dds_colour_block(p + 8, tile, 1);
        vgn_dds_value_block(p, a);
        for (i = 0; i < 16; i++) tile[i * 4 + 3] = a[i];
        break;
    case VGN_DDS_BC4:
        vgn_dds_value_block(p, a);
        for (i = 0; i < 16; i++) tile[i * 4] = tile[i * 4 + 1] = tile[i * 4 + 2] = a[i], tile[i * 4 + 3] = 255;
        break;
    default: /* BC5: X and Y of a unit normal, Z rebuilt */
        vgn_dds_value_block(p, a);
        vgn_dds_value_block(p + 8, b);
        for (i = 0; i < 16; i++) {
            float x = a[i] / 127.5f - 1.0f, y = b[i] / 127.5f - 1.0f, zz = 1.0f - x * x - y * y;
            float z = zz > 0.0f ? sqrtf(zz) : 0.0f;
            tile[i * 4] = a[i], tile[i * 4 + 1] = b[i], tile[i * 4 + 2] = (uint8_t)((z + 1.0f) * 127.5f + 0.5f);
            tile[i * 4 + 3] = 255;
        }
    }
}

/* A channel's value under `mask` in `v`, scaled to 8 bits. */
static uint8_t vgn_dds_channel(uint32_t v, uint32_t mask)
{
    uint32_t shift = 0, width = 0, x;
    if (mask == 0) return 0;
    while (!(mask >> shift & 1)) shift++;
    while (shift + width < 32 && mask >> (shift + width) & 1) width++;
    x = (v & mask) >> shift;
    return width >= 8 ? (uint8_t)(x >> (width - 8)) : (uint8_t)((x * 255 + ((1u << width) - 1) / 2) / ((1u << width) - 1));
}

static void vgn_dds_raw_row(const vgn_dds *s, const uint8_t *row, uint8_t *out)
{
    uint32_t x, bytes = s->bits / 8;
    for (x = 0; x < s->base.width; x++, out += 4) {
        const uint8_t *p = row + (size_t)x * bytes;
        uint32_t v = 0, i;
        for (i = 0; i < bytes; i++) v |= (uint32_t)p[i] << (8 * i);
        if (s->alpha_only) {
            out[0] = out[1] = out[2] = 255;
        } else if (s->luminance) {
            out[0] = out[1] = out[2] = vgn_dds_channel(v, s->mask[0]);
        } else {
            out[0] = vgn_dds_channel(v, s->mask[0]);
            out[1] = vgn_dds_channel(v, s->mask[1]);
            out[2] = vgn_dds_channel(v, s->mask[2]);
        }
        out[3] = s->mask[3] != 0 ? vgn_dds_channel(v, s->mask[3]) : 255;
    }
}

static int vgn_dds_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_dds *s = (vgn_dds *)d;
    int n = 0;
    while (n < max_rows && s->next_row < s->base.height) {
        uint32_t y = s->next_row;
        if (s->kind == VGN_DDS_RAW) {
            vgn_dds_raw_row(s, s->pixels + (size_t)y * s->row_bytes, dst + (size_t)n * stride);
        } else {
            uint32_t bx, blocks = (s->base.width + 3) / 4;
            if (y % 4 == 0) {
                if (s->band == NULL && (s->band = (uint8_t *)malloc((size_t)blocks * 4 * 64)) == NULL) {
                    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
                    return n > 0 ? n : VGN_E_NOMEM;
                }
                /* the band holds 4 rows of blocks*4 pixels */
                for (bx = 0; bx < blocks; bx++) {
                    uint8_t tile[64];
                    int r;
                    vgn_dds_block(s, s->pixels + (size_t)(y / 4) * s->row_bytes + (size_t)bx * s->block_bytes, tile);
                    for (r = 0; r < 4; r++) memcpy(s->band + ((size_t)r * blocks * 4 + (size_t)bx * 4) * 4, tile + r * 16, 16);
                }
            }
            memcpy(dst + (size_t)n * stride, s->band + (size_t)(y % 4) * blocks * 16, (size_t)s->base.width * 4);
        }
        n++;
        s->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

/* The kind a DXGI format (DX10 header) decodes as, or -1 with the reason in `why`. */
static int vgn_dds_dxgi(uint32_t format, vgn_dds *s, char *why, size_t n)
{
    switch (format) {
    case 71: case 72: return VGN_DDS_BC1;
    case 74: case 75: return VGN_DDS_BC2;
    case 77: case 78: return VGN_DDS_BC3;
    case 80: return VGN_DDS_BC4;
    case 83: return VGN_DDS_BC5;
    case 28: case 29: /* R8G8B8A8 */
        s->bits = 32, s->mask[0] = 0xFF, s->mask[1] = 0xFF00, s->mask[2] = 0xFF0000, s->mask[3] = 0xFF000000u;
        return VGN_DDS_RAW;
    case 87: case 91: case 88: case 93: /* B8G8R8A8, B8G8R8X8 */
        s->bits = 32, s->mask[0] = 0xFF0000, s->mask[1] = 0xFF00, s->mask[2] = 0xFF;
        s->mask[3] = format == 87 || format == 91 ? 0xFF000000u : 0;
        return VGN_DDS_RAW;
    case 94: case 95: case 96: snprintf(why, n, "BC6H (DXGI format %u, floating-point HDR) is not supported", format); return -1;
    case 97: case 98: case 99: snprintf(why, n, "BC7 (DXGI format %u) is not supported", format); return -1;
    default: snprintf(why, n, "DXGI format %u is not supported", format); return -1;
    }
}

/* The bytes of a level of lw x lh pixels, and its row of blocks (or pixels) in *row. */
static uint64_t vgn_dds_level_bytes(const vgn_dds *s, uint32_t lw, uint32_t lh, size_t *row)
{
    if (s->kind == VGN_DDS_RAW) {
        *row = (size_t)(((uint64_t)lw * s->bits + 7) / 8);
        return (uint64_t)*row * lh;
    }
    *row = (size_t)(((uint64_t)lw + 3) / 4 * s->block_bytes);
    return (uint64_t)*row * (((uint64_t)lh + 3) / 4);
}

vgn_decoder *vgn_dds_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_dds *s;
    uint32_t w, h, pf_flags, fourcc, levels, level;
    size_t offset = 128;
    uint64_t need;
    char why[VGN_MSG_LEN] = "";
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 128 || memcmp(data, "DDS ", 4) != 0 || vgn_le32(data + 4) != 124) {
        vgn_err_fill(err, VGN_E_INVALID, "no \"DDS \" header of 124 bytes", NULL);
        return NULL;
    }
    h = vgn_le32(data + 12);
    w = vgn_le32(data + 16);
    if (w == 0 || h == 0) {
        vgn_err_fill(err, VGN_E_INVALID, "the header gives no size", NULL);
        return NULL;
    }
    s = (vgn_dds *)calloc(1, sizeof *s);
    if (s == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    s->base.read_rows = vgn_dds_read_rows;
    s->base.close = vgn_dds_close;
    pf_flags = vgn_le32(data + 80);
    fourcc = vgn_le32(data + 84);
    s->kind = -1;
    if (pf_flags & 0x4) { /* DDPF_FOURCC */
        if (memcmp(data + 84, "DXT1", 4) == 0) s->kind = VGN_DDS_BC1;
        else if (memcmp(data + 84, "DXT2", 4) == 0 || memcmp(data + 84, "DXT3", 4) == 0) s->kind = VGN_DDS_BC2;
        else if (memcmp(data + 84, "DXT4", 4) == 0 || memcmp(data + 84, "DXT5", 4) == 0) s->kind = VGN_DDS_BC3;
        else if (memcmp(data + 84, "ATI1", 4) == 0 || memcmp(data + 84, "BC4U", 4) == 0) s->kind = VGN_DDS_BC4;
        else if (memcmp(data + 84, "ATI2", 4) == 0 || memcmp(data + 84, "BC5U", 4) == 0) s->kind = VGN_DDS_BC5;
        else if (memcmp(data + 84, "DX10", 4) == 0) {
            if (size < 148) {
                vgn_err_fill(err, VGN_E_TRUNCATED, "the DX10 header is cut short", NULL);
                vgn_dds_close(&s->base);
                return NULL;
            }
            offset = 148;
            s->kind = vgn_dds_dxgi(vgn_le32(data + 128), s, why, sizeof why);
        } else {
            char c[5];
            int i;
            for (i = 0; i < 4; i++) c[i] = data[84 + i] >= 32 && data[84 + i] < 127 ? (char)data[84 + i] : '?';
            c[4] = '\0';
            snprintf(why, sizeof why, "compression \"%s\" (0x%08X) is not supported", c, fourcc);
        }
    } else if (pf_flags & (0x40 | 0x20000 | 0x2)) { /* DDPF_RGB, DDPF_LUMINANCE, DDPF_ALPHA */
        s->bits = vgn_le32(data + 88);
        s->mask[0] = vgn_le32(data + 92), s->mask[1] = vgn_le32(data + 96), s->mask[2] = vgn_le32(data + 100);
        s->mask[3] = pf_flags & (0x1 | 0x2) ? vgn_le32(data + 104) : 0;
        s->luminance = (pf_flags & 0x20000) != 0;
        s->alpha_only = (pf_flags & 0x2) && !(pf_flags & (0x40 | 0x20000));
        if (s->bits == 8 || s->bits == 16 || s->bits == 24 || s->bits == 32) s->kind = VGN_DDS_RAW;
        else snprintf(why, sizeof why, "%u-bit uncompressed pixels are not supported", s->bits);
    } else {
        snprintf(why, sizeof why, "pixel format flags 0x%X are not supported (YUV, or none)", pf_flags);
    }
    if (s->kind < 0) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, why, NULL);
        vgn_dds_close(&s->base);
        return NULL;
    }
    if (s->kind != VGN_DDS_RAW) s->block_bytes = s->kind == VGN_DDS_BC1 || s->kind == VGN_DDS_BC4 ? 8 : 16;
    need = vgn_dds_level_bytes(s, w, h, &s->row_bytes);
    if (need / (s->kind == VGN_DDS_RAW ? h : ((uint64_t)h + 3) / 4) != s->row_bytes || need > size - offset) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is too short for the pixels its header gives", NULL);
        vgn_dds_close(&s->base);
        return NULL;
    }
    info->width = w;
    info->height = h;
    /* A mipmap chain (DDSD_MIPMAPCOUNT) follows the first level: the smallest level whose longest
     * side still covers the target is read instead, as long as the file holds it. */
    levels = vgn_le32(data + 8) & 0x20000 ? vgn_le32(data + 28) : 1;
    for (level = 1; level < levels && level < 32 && target > 0; level++) {
        uint32_t lw = info->width >> level > 0 ? info->width >> level : 1;
        uint32_t lh = info->height >> level > 0 ? info->height >> level : 1;
        size_t row;
        uint64_t bytes = vgn_dds_level_bytes(s, lw, lh, &row);
        if ((lw > lh ? lw : lh) < target || offset + need > size || bytes > size - offset - need) break;
        offset += need;
        need = bytes;
        s->row_bytes = row;
        w = lw, h = lh;
    }
    s->pixels = data + offset;
    s->base.width = w;
    s->base.height = h;
    s->base.working = s->kind == VGN_DDS_RAW ? 0 : (size_t)((((uint64_t)w + 3) / 4) * 4 * 64);
    s->base.opaque = s->kind == VGN_DDS_BC4 || s->kind == VGN_DDS_BC5 || (s->kind == VGN_DDS_RAW && s->mask[3] == 0);
    info->has_alpha = !s->base.opaque;
    info->components = 4;
    info->bit_depth = 8;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &s->base;
}
