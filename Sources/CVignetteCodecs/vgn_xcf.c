/* vgn_xcf.c - GIMP's XCF: its visible layers composited on a canvas reduced for the target (see
 * vgn_decoder.h; the format as GIMP's devel-docs/xcf.txt describes it, versions 0 to 12+).
 *
 * XCF keeps layers and no flattened picture, so a thumbnail needs them composited. open reads the
 * header, the image's properties and each layer's (size, offsets, visibility, opacity, mode,
 * colour spaces, mask, group), nothing proportional to the area. The first read composites: each
 * visible top-level layer, bottom first (a group by the projection GIMP stores as its pixels, its
 * members skipped), is decoded tile by tile (64 x 64 pixels: RLE by byte plane, zlib or flat), its
 * mask applied, and averaged in linear light straight into a canvas k times smaller than the
 * picture (k the largest whole factor leaving the longest side at least twice the target); then
 * it meets the canvas as GIMP 2.10 composites: the legacy modes in perceptual values with their own
 * formula, the 2.10 modes blended in their blend space and composited (union, clip to backdrop,
 * or clip to layer and intersection, which keep only the layer's part of the canvas) in their
 * composite space, as the mode's defaults or the layer's own settings say. Every mode
 * that blends colours is drawn, 2.10's and legacy: the separable ones, HSV and HSL, luma and
 * luminance, and LCH (blended in CIE L*a*b*, D50, as babl converts); Erase, Merge and Split by
 * their own alpha rules; Colour erase as Normal, with a warning; Dissolve as Normal, its noise
 * meaning nothing shrunk. Tiles wholly off the canvas are not decoded.
 *
 * Bounds: every structure is read through checked offsets; a level must point at exactly the
 * tiles its size needs; a tile's runs must fill its planes exactly; the visible layers together
 * may hold 2^31 pixels at most, and no more than 2,048 a byte of the file (pointers may alias, so
 * a small file could otherwise ask for any amount of work); 65,536 layers at most. A damaged tile
 * is left transparent with a warning. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "vgn_internal.h"

#define VGN_XCF_TILE 64
#define VGN_XCF_MAX_LAYERS 65536
#define VGN_XCF_MAX_WORK ((uint64_t)1 << 31)
/* The most pixels a byte of tiles can give: a zlib stream of a flat 64 x 64 tile of two bytes a
 * pixel is about 1,600 pixels a byte (RLE about 256): more means layers or tiles pointing at the
 * same data, which GIMP never writes. Small files get 16 M pixels regardless. */
#define VGN_XCF_PIXELS_PER_BYTE 2048
#define VGN_XCF_FREE_WORK ((uint64_t)16 << 20)
#define VGN_XCF_MAX_PROPS 100000

enum {
    VGN_XCF_PROP_END = 0,
    VGN_XCF_PROP_COLORMAP = 1,
    VGN_XCF_PROP_FLOATING_SELECTION = 5,
    VGN_XCF_PROP_OPACITY = 6,
    VGN_XCF_PROP_MODE = 7,
    VGN_XCF_PROP_VISIBLE = 8,
    VGN_XCF_PROP_APPLY_MASK = 11,
    VGN_XCF_PROP_OFFSETS = 15,
    VGN_XCF_PROP_COMPRESSION = 17,
    VGN_XCF_PROP_ITEM_PATH = 30,
    VGN_XCF_PROP_FLOAT_OPACITY = 33,
    VGN_XCF_PROP_COMPOSITE_MODE = 35,
    VGN_XCF_PROP_COMPOSITE_SPACE = 36,
    VGN_XCF_PROP_BLEND_SPACE = 37
};

/* GIMP's colour spaces and composite modes, as stored (0: the mode's default). */
enum { VGN_SPACE_AUTO = 0, VGN_SPACE_LINEAR = 1, VGN_SPACE_PERCEPTUAL = 2, VGN_SPACE_LAB = 3 };
enum { VGN_COMPOSITE_AUTO = 0, VGN_COMPOSITE_UNION = 1, VGN_COMPOSITE_CLIP_TO_BACKDROP = 2, VGN_COMPOSITE_CLIP_TO_LAYER = 3,
       VGN_COMPOSITE_INTERSECTION = 4 };

/* The blend function of a layer mode. */
typedef enum {
    VGN_BLEND_NORMAL,
    VGN_BLEND_BEHIND,
    VGN_BLEND_MULTIPLY,
    VGN_BLEND_SCREEN,
    VGN_BLEND_OVERLAY,
    VGN_BLEND_DIFFERENCE,
    VGN_BLEND_ADDITION,
    VGN_BLEND_SUBTRACT,
    VGN_BLEND_DARKEN,
    VGN_BLEND_LIGHTEN,
    VGN_BLEND_DIVIDE,
    VGN_BLEND_DODGE,
    VGN_BLEND_BURN,
    VGN_BLEND_HARD_LIGHT,
    VGN_BLEND_SOFT_LIGHT,
    VGN_BLEND_GRAIN_EXTRACT,
    VGN_BLEND_GRAIN_MERGE,
    VGN_BLEND_VIVID_LIGHT,
    VGN_BLEND_PIN_LIGHT,
    VGN_BLEND_LINEAR_LIGHT,
    VGN_BLEND_HARD_MIX,
    VGN_BLEND_EXCLUSION,
    VGN_BLEND_LINEAR_BURN,
    /* the ones that take a whole pixel */
    VGN_BLEND_HSV_HUE,
    VGN_BLEND_HSV_SATURATION,
    VGN_BLEND_HSL_COLOR,
    VGN_BLEND_HSV_VALUE,
    VGN_BLEND_LUMA_DARKEN,
    VGN_BLEND_LUMA_LIGHTEN,
    VGN_BLEND_LUMINANCE,
    VGN_BLEND_LCH_HUE,
    VGN_BLEND_LCH_CHROMA,
    VGN_BLEND_LCH_COLOR,
    VGN_BLEND_LCH_LIGHTNESS,
    /* the ones that change alpha and composite by their own rule (gimpoperationerase.c, merge, split) */
    VGN_BLEND_ERASE,
    VGN_BLEND_MERGE,
    VGN_BLEND_SPLIT
} vgn_blend;

/* How a layer meets the canvas: GIMP 2.10's layer_mode_infos[] for its mode, or the layer's own
 * spaces and composite mode where the mode lets them be changed. */
typedef struct {
    vgn_blend blend;
    int legacy;   /* GIMP's legacy formula: perceptual, the layer's alpha capped by the canvas's */
    int drawn;    /* 0: a mode drawn as Normal instead (warned about) */
    int blend_space, composite_space, composite_mode;
} vgn_xcf_how;

static vgn_xcf_how vgn_xcf_how_of(uint32_t mode)
{
    static const vgn_blend legacy[23] = {
        VGN_BLEND_NORMAL,     VGN_BLEND_NORMAL,     VGN_BLEND_BEHIND,        VGN_BLEND_MULTIPLY,    VGN_BLEND_SCREEN,
        VGN_BLEND_SOFT_LIGHT, VGN_BLEND_DIFFERENCE, VGN_BLEND_ADDITION,      VGN_BLEND_SUBTRACT,    VGN_BLEND_DARKEN,
        VGN_BLEND_LIGHTEN,    VGN_BLEND_HSV_HUE,    VGN_BLEND_HSV_SATURATION, VGN_BLEND_HSL_COLOR,  VGN_BLEND_HSV_VALUE,
        VGN_BLEND_DIVIDE,     VGN_BLEND_DODGE,      VGN_BLEND_BURN,          VGN_BLEND_HARD_LIGHT,  VGN_BLEND_SOFT_LIGHT,
        VGN_BLEND_GRAIN_EXTRACT, VGN_BLEND_GRAIN_MERGE, VGN_BLEND_NORMAL};
    vgn_xcf_how h = {VGN_BLEND_NORMAL, 0, 1, VGN_SPACE_PERCEPTUAL, VGN_SPACE_LINEAR, VGN_COMPOSITE_CLIP_TO_BACKDROP};
    if (mode <= 22) {
        /* 0 Normal, 1 Dissolve (drawn as Normal: its noise means nothing shrunk) and 2 Behind are
           unions; 22 (colour erase) is not drawn. */
        h.blend = legacy[mode];
        h.drawn = mode != 22;
        h.legacy = mode >= 3 && h.drawn;
        h.blend_space = h.composite_space = VGN_SPACE_PERCEPTUAL;
        h.composite_mode = h.legacy ? VGN_COMPOSITE_CLIP_TO_BACKDROP : VGN_COMPOSITE_UNION;
        return h;
    }
    switch (mode) {
    case 23: h.blend = VGN_BLEND_OVERLAY; break;
    case 28: case 61: h.blend_space = VGN_SPACE_LINEAR, h.composite_mode = VGN_COMPOSITE_UNION; break; /* a pass-through group by its projection */
    case 29: h.blend = VGN_BLEND_BEHIND, h.blend_space = VGN_SPACE_LINEAR, h.composite_mode = VGN_COMPOSITE_UNION; break;
    case 30: h.blend = VGN_BLEND_MULTIPLY, h.blend_space = VGN_SPACE_LINEAR; break;
    case 31: h.blend = VGN_BLEND_SCREEN; break;
    case 32: h.blend = VGN_BLEND_DIFFERENCE; break;
    case 33: h.blend = VGN_BLEND_ADDITION, h.blend_space = VGN_SPACE_LINEAR; break;
    case 34: h.blend = VGN_BLEND_SUBTRACT, h.blend_space = VGN_SPACE_LINEAR; break;
    case 35: h.blend = VGN_BLEND_DARKEN, h.blend_space = VGN_SPACE_LINEAR; break;
    case 36: h.blend = VGN_BLEND_LIGHTEN, h.blend_space = VGN_SPACE_LINEAR; break;
    case 41: h.blend = VGN_BLEND_DIVIDE, h.blend_space = VGN_SPACE_LINEAR; break;
    case 42: h.blend = VGN_BLEND_DODGE; break;
    case 43: h.blend = VGN_BLEND_BURN; break;
    case 44: h.blend = VGN_BLEND_HARD_LIGHT; break;
    case 45: h.blend = VGN_BLEND_SOFT_LIGHT; break;
    case 46: h.blend = VGN_BLEND_GRAIN_EXTRACT; break;
    case 47: h.blend = VGN_BLEND_GRAIN_MERGE; break;
    case 24: h.blend = VGN_BLEND_LCH_HUE, h.blend_space = VGN_SPACE_LAB; break;
    case 25: h.blend = VGN_BLEND_LCH_CHROMA, h.blend_space = VGN_SPACE_LAB; break;
    case 26: h.blend = VGN_BLEND_LCH_COLOR, h.blend_space = VGN_SPACE_LAB; break;
    case 27: h.blend = VGN_BLEND_LCH_LIGHTNESS, h.blend_space = VGN_SPACE_LAB; break;
    case 37: h.blend = VGN_BLEND_HSV_HUE; break;
    case 38: h.blend = VGN_BLEND_HSV_SATURATION; break;
    case 39: h.blend = VGN_BLEND_HSL_COLOR; break;
    case 40: h.blend = VGN_BLEND_HSV_VALUE; break;
    case 48: h.blend = VGN_BLEND_VIVID_LIGHT; break;
    case 49: h.blend = VGN_BLEND_PIN_LIGHT; break;
    case 50: h.blend = VGN_BLEND_LINEAR_LIGHT; break;
    case 51: h.blend = VGN_BLEND_HARD_MIX; break;
    case 52: h.blend = VGN_BLEND_EXCLUSION; break;
    case 53: h.blend = VGN_BLEND_LINEAR_BURN; break;
    case 54: h.blend = VGN_BLEND_LUMA_DARKEN; break;
    case 55: h.blend = VGN_BLEND_LUMA_LIGHTEN; break;
    case 56: h.blend = VGN_BLEND_LUMINANCE, h.blend_space = VGN_SPACE_LINEAR; break;
    case 58: h.blend = VGN_BLEND_ERASE, h.blend_space = VGN_SPACE_LINEAR; break;
    case 59: h.blend = VGN_BLEND_MERGE, h.blend_space = VGN_SPACE_LINEAR, h.composite_mode = VGN_COMPOSITE_UNION; break;
    case 60: h.blend = VGN_BLEND_SPLIT, h.blend_space = VGN_SPACE_LINEAR; break;
    default:
        h.drawn = 0;
        h.blend_space = VGN_SPACE_LINEAR, h.composite_mode = VGN_COMPOSITE_UNION;
        break;
    }
    return h;
}

typedef struct {
    uint32_t width, height, type; /* type: 0 RGB, 1 RGBA, 2 grey, 3 grey+alpha, 4 indexed, 5 indexed+alpha */
    int32_t x, y;
    uint32_t mode;
    float opacity;
    int visible, apply_mask, floating, depth;
    int blend_space, composite_space, composite_mode; /* as stored: 0 the mode's default */
    uint64_t hierarchy, mask; /* offsets of the pixels' hierarchy and of the mask's channel (0: none) */
} vgn_xcf_layer;

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    uint32_t version, width, height, base_type;
    int pointer_bytes;
    int compression;     /* 0 flat, 1 RLE, 2 zlib */
    int component_bytes; /* 1, 2, 4 or 8 */
    int is_float, linear;
    uint8_t colormap[256 * 3];
    uint32_t colors;
    vgn_xcf_layer *layers;
    uint32_t layer_count;
    uint32_t k;         /* the reduction: one canvas cell is k x k pixels */
    float *canvas;      /* premultiplied RGBA, base.width x base.height */
    float *sums;        /* one layer's premultiplied sums, the same size */
    uint8_t *tile;      /* a tile's pixels as stored, interleaved */
    uint8_t *mask_tile; /* its mask's */
    uint8_t *planes;    /* one RLE byte plane of a tile */
    float linear8[256]; /* 8-bit perceptual values in linear light */
    float *linear16;    /* 16-bit ones, for 16-bit perceptual integers only */
    z_stream z;
    int z_ready;
    int composited;
    uint32_t next_row;
    vgn_warnings warnings;
} vgn_xcf;

/* ---- reading the structures --------------------------------------------------------------- */

static int vgn_xcf_u32(const vgn_xcf *x, uint64_t pos, uint32_t *v)
{
    const uint8_t *p;
    if (pos > x->size || x->size - pos < 4) return -1;
    p = x->data + pos;
    *v = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return 0;
}

/* A pointer: 32 bits before version 11, 64 from it. */
static int vgn_xcf_pointer(const vgn_xcf *x, uint64_t pos, uint64_t *v)
{
    uint32_t hi = 0, lo;
    if (x->pointer_bytes == 8) {
        if (vgn_xcf_u32(x, pos, &hi) != 0 || vgn_xcf_u32(x, pos + 4, &lo) != 0) return -1;
    } else if (vgn_xcf_u32(x, pos, &lo) != 0) {
        return -1;
    }
    *v = (uint64_t)hi << 32 | lo;
    return 0;
}

/* Skips a string (its length word counts the closing NUL). */
static int vgn_xcf_skip_string(const vgn_xcf *x, uint64_t *pos)
{
    uint32_t n;
    if (vgn_xcf_u32(x, *pos, &n) != 0 || x->size - (*pos + 4) < n) return -1;
    *pos += 4 + (uint64_t)n;
    return 0;
}

/* A space or composite mode as saved: negative when it is the mode's default, resolved; 0 for one
 * out of range (then the mode's default applies). */
static int vgn_xcf_setting(uint32_t v, int max)
{
    int64_t s = (int32_t)v;
    if (s < 0) s = -s;
    return s <= max ? (int)s : 0;
}

static float vgn_xcf_float_bits(uint32_t bits)
{
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

/* Walks a property list from *pos to past its PROP_END, giving each property to `take` (its type,
 * the payload's offset and length). The colour map's length word is not trusted (some GIMPs wrote
 * n + 4): its payload is measured from its count. */
typedef void (*vgn_xcf_prop_fn)(vgn_xcf *x, uint32_t type, uint64_t at, uint32_t length, void *ctx);

static int vgn_xcf_props(vgn_xcf *x, uint64_t *pos, vgn_xcf_prop_fn take, void *ctx)
{
    uint32_t type, length, n, count = 0;
    for (;;) {
        if (++count > VGN_XCF_MAX_PROPS || vgn_xcf_u32(x, *pos, &type) != 0 || vgn_xcf_u32(x, *pos + 4, &length) != 0)
            return -1;
        *pos += 8;
        if (type == VGN_XCF_PROP_END) return 0;
        if (type == VGN_XCF_PROP_COLORMAP) {
            if (vgn_xcf_u32(x, *pos, &n) != 0 || n > 0x10000) return -1;
            length = 4 + 3 * n;
        }
        if (x->size - *pos < length) return -1;
        take(x, type, *pos, length, ctx);
        *pos += length;
    }
}

static void vgn_xcf_image_prop(vgn_xcf *x, uint32_t type, uint64_t at, uint32_t length, void *ctx)
{
    uint32_t n;
    (void)ctx;
    if (type == VGN_XCF_PROP_COMPRESSION && length >= 1) {
        x->compression = x->data[at];
    } else if (type == VGN_XCF_PROP_COLORMAP && vgn_xcf_u32(x, at, &n) == 0) {
        x->colors = n > 256 ? 256 : n;
        memcpy(x->colormap, x->data + at + 4, (size_t)x->colors * 3);
    }
}

static void vgn_xcf_layer_prop(vgn_xcf *x, uint32_t type, uint64_t at, uint32_t length, void *ctx)
{
    vgn_xcf_layer *l = (vgn_xcf_layer *)ctx;
    uint32_t v = 0, w = 0;
    if (length >= 4) (void)vgn_xcf_u32(x, at, &v);
    switch (type) {
    case VGN_XCF_PROP_FLOATING_SELECTION: l->floating = 1; break;
    case VGN_XCF_PROP_OPACITY:
        if (length >= 4) l->opacity = (float)(v > 255 ? 255 : v) / 255.0f;
        break;
    case VGN_XCF_PROP_FLOAT_OPACITY:
        if (length >= 4) {
            float f = vgn_xcf_float_bits(v);
            l->opacity = f >= 0.0f && f <= 1.0f ? f : f > 1.0f ? 1.0f : 0.0f; /* NaN: 0 */
        }
        break;
    case VGN_XCF_PROP_MODE:
        if (length >= 4) l->mode = v;
        break;
    case VGN_XCF_PROP_VISIBLE:
        if (length >= 4) l->visible = v != 0;
        break;
    case VGN_XCF_PROP_APPLY_MASK:
        if (length >= 4) l->apply_mask = v != 0;
        break;
    case VGN_XCF_PROP_OFFSETS:
        if (length >= 8 && vgn_xcf_u32(x, at + 4, &w) == 0) {
            l->x = (int32_t)v;
            l->y = (int32_t)w;
        }
        break;
    case VGN_XCF_PROP_ITEM_PATH: l->depth = (int)(length / 4); break;
    /* negative: the mode's default, saved resolved; either way its magnitude is the setting */
    case VGN_XCF_PROP_BLEND_SPACE:
        if (length >= 4) l->blend_space = vgn_xcf_setting(v, VGN_SPACE_LAB);
        break;
    case VGN_XCF_PROP_COMPOSITE_SPACE:
        if (length >= 4) l->composite_space = vgn_xcf_setting(v, VGN_SPACE_PERCEPTUAL);
        break;
    case VGN_XCF_PROP_COMPOSITE_MODE:
        if (length >= 4) l->composite_mode = vgn_xcf_setting(v, VGN_COMPOSITE_INTERSECTION);
        break;
    default: break;
    }
}

/* ---- pixels --------------------------------------------------------------------------------- */

/* The channels of a layer type, 0 for an unknown one. */
static int vgn_xcf_channels(uint32_t type)
{
    static const int channels[6] = {3, 4, 1, 2, 1, 2};
    return type < 6 ? channels[type] : 0;
}

/* One stored component (big-endian) as 0-1, NaN 0. */
static float vgn_xcf_component(const vgn_xcf *x, const uint8_t *p)
{
    float v;
    switch (x->component_bytes) {
    case 1: return (float)p[0] / 255.0f;
    case 2:
        if (!x->is_float) return (float)((uint32_t)p[0] << 8 | p[1]) / 65535.0f;
        v = (float)vgn_half((uint16_t)(p[0] << 8 | p[1]));
        break;
    case 4: {
        uint32_t b = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
        if (!x->is_float) return (float)((double)b / 4294967295.0);
        v = vgn_xcf_float_bits(b);
        break;
    }
    default: {
        uint64_t b = 0;
        double d;
        int i;
        for (i = 0; i < 8; i++) b = b << 8 | p[i];
        memcpy(&d, &b, sizeof d);
        v = (float)d;
        break;
    }
    }
    return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f;
}

/* A colour component in linear light. */
static float vgn_xcf_linear(const vgn_xcf *x, const uint8_t *p)
{
    if (x->linear) return vgn_xcf_component(x, p);
    if (x->component_bytes == 1) return x->linear8[p[0]];
    if (x->linear16 != NULL) return x->linear16[(uint32_t)p[0] << 8 | p[1]];
    return vgn_srgb_decode(vgn_xcf_component(x, p));
}

/* Decodes one RLE byte plane of n bytes to out (contiguous): the input's bytes used, -1 for a run
 * past the plane's end, -2 when the input ends first. */
static long vgn_xcf_rle_plane(const uint8_t *in, size_t in_len, uint8_t *out, size_t n)
{
    size_t pos = 0, done = 0;
    while (done < n) {
        size_t count;
        uint8_t op;
        if (pos >= in_len) return -2;
        op = in[pos++];
        if (op <= 127) {
            uint8_t v;
            if (op == 127) {
                if (in_len - pos < 2) return -2;
                count = (size_t)in[pos] << 8 | in[pos + 1];
                pos += 2;
            } else {
                count = (size_t)op + 1;
            }
            if (count > n - done) return -1;
            if (pos >= in_len) return -2;
            v = in[pos++];
            memset(out + done, v, count);
            done += count;
        } else {
            if (op == 128) {
                if (in_len - pos < 2) return -2;
                count = (size_t)in[pos] << 8 | in[pos + 1];
                pos += 2;
            } else {
                count = 256 - (size_t)op;
            }
            if (count > n - done) return -1;
            if (in_len - pos < count) return -2;
            memcpy(out + done, in + pos, count);
            done += count;
            pos += count;
        }
    }
    return (long)pos;
}

/* Decodes tile `index` (of `tiles`, `pixels` pixels of bpp bytes) of the level at `level` into
 * out, interleaved: 0, or -1 with a reason in why. */
static int vgn_xcf_tile(vgn_xcf *x, uint64_t level, uint32_t tiles, uint32_t index, size_t pixels, uint32_t bpp, uint8_t *out,
                        const char **why)
{
    size_t need = pixels * bpp, avail;
    uint64_t start, next = 0;
    const uint8_t *in;
    if (vgn_xcf_pointer(x, level + 8 + (uint64_t)index * x->pointer_bytes, &start) != 0 || start == 0 || start >= x->size) {
        *why = "its data is past the end of the file";
        return -1;
    }
    /* A level's tiles are contiguous: the next pointer ends this one's data (the last runs to the end). */
    if (index + 1 < tiles) (void)vgn_xcf_pointer(x, level + 8 + (uint64_t)(index + 1) * x->pointer_bytes, &next);
    avail = next > start && next <= x->size ? (size_t)(next - start) : x->size - (size_t)start;
    in = x->data + start;
    if (x->compression == 0) {
        if (avail < need) {
            *why = start + avail == x->size ? "the file ends before its data does" : "its data is shorter than the tile";
            return -1;
        }
        memcpy(out, in, need);
    } else if (x->compression == 1) {
        uint32_t plane;
        size_t pos = 0;
        for (plane = 0; plane < bpp; plane++) {
            long used = vgn_xcf_rle_plane(in + pos, avail - pos, x->planes, pixels);
            size_t i;
            if (used < 0) {
                *why = used == -2 && start + avail == x->size ? "the file ends before its data does"
                                                              : "its run-length data is damaged";
                return -1;
            }
            pos += (size_t)used;
            for (i = 0; i < pixels; i++) out[i * bpp + plane] = x->planes[i];
        }
    } else { /* zlib: open allowed no other compression */
        int rc;
        if (!x->z_ready) {
            memset(&x->z, 0, sizeof x->z);
            if (inflateInit(&x->z) != Z_OK) {
                *why = "zlib could not start";
                return -1;
            }
            x->z_ready = 1;
        } else {
            inflateReset(&x->z);
        }
        x->z.next_in = (Bytef *)(uintptr_t)in;
        x->z.avail_in = avail > 0x7FFFFFFF ? 0x7FFFFFFF : (uInt)avail;
        x->z.next_out = out;
        x->z.avail_out = (uInt)need;
        rc = inflate(&x->z, Z_FINISH);
        if ((rc != Z_STREAM_END && rc != Z_BUF_ERROR && rc != Z_OK) || x->z.avail_out != 0) {
            *why = rc == Z_BUF_ERROR && x->z.avail_in == 0 && start + avail == x->size ? "the file ends before its data does"
                                                                                     : "its zlib data is damaged";
            return -1;
        }
    }
    return 0;
}

/* The first level of the hierarchy at `at`, checked against the size and bytes a pixel expected. */
static int vgn_xcf_level(const vgn_xcf *x, uint64_t at, uint32_t width, uint32_t height, uint32_t bpp, uint64_t *level)
{
    uint32_t w, h, b, lw, lh;
    if (vgn_xcf_u32(x, at, &w) != 0 || vgn_xcf_u32(x, at + 4, &h) != 0 || vgn_xcf_u32(x, at + 8, &b) != 0 ||
        w != width || h != height || b != bpp || vgn_xcf_pointer(x, at + 12, level) != 0 || *level == 0 ||
        vgn_xcf_u32(x, *level, &lw) != 0 || vgn_xcf_u32(x, *level + 4, &lh) != 0 || lw != width || lh != height)
        return -1;
    return 0;
}

static float vgn_xcf_clamp(float v) { return v > 0.0f ? (v < 1.0f ? v : 1.0f) : 0.0f; }

/* GIMP's safe_div: 0 for a numerator within 1e-6 of 0, else the quotient within +-1e6. */
static float vgn_xcf_safe_div(float a, float b)
{
    float q;
    if (fabsf(a) <= 1e-6f) return 0.0f;
    q = a / b;
    return q > 1e6f ? 1e6f : q < -1e6f ? -1e6f : q == q ? q : 0.0f;
}

/* One colour value of the blend of layer over in (both in the blend space). */
static float vgn_xcf_blend_value(vgn_blend blend, int legacy, float in, float layer)
{
    const float half = legacy ? 128.0f / 255.0f : 0.5f;
    float v;
    switch (blend) {
    case VGN_BLEND_MULTIPLY: return in * layer;
    case VGN_BLEND_SCREEN: return 1.0f - (1.0f - in) * (1.0f - layer);
    case VGN_BLEND_OVERLAY: return in < 0.5f ? 2.0f * in * layer : 1.0f - 2.0f * (1.0f - layer) * (1.0f - in);
    case VGN_BLEND_DIFFERENCE: return fabsf(in - layer);
    case VGN_BLEND_ADDITION: return legacy ? vgn_xcf_clamp(in + layer) : in + layer;
    case VGN_BLEND_SUBTRACT: return legacy ? vgn_xcf_clamp(in - layer) : in - layer;
    case VGN_BLEND_DARKEN: return in < layer ? in : layer;
    case VGN_BLEND_LIGHTEN: return in > layer ? in : layer;
    case VGN_BLEND_DIVIDE:
        if (!legacy) return vgn_xcf_safe_div(in, layer);
        v = in / layer;
        return v == v ? vgn_xcf_clamp(v) : 0.0f;
    case VGN_BLEND_DODGE:
        if (!legacy) return vgn_xcf_safe_div(in, 1.0f - layer);
        v = in / (1.0f - layer);
        return v == v ? vgn_xcf_clamp(v) : 0.0f;
    case VGN_BLEND_BURN:
        if (!legacy) return 1.0f - vgn_xcf_safe_div(1.0f - in, layer);
        v = 1.0f - (1.0f - in) / layer;
        return v < 0.0f ? 0.0f : v < 1.0f ? v : 1.0f; /* NaN: 1, as GIMP's comparisons give */
    case VGN_BLEND_HARD_LIGHT:
        v = layer > half ? 1.0f - (1.0f - in) * (1.0f - (layer - 0.5f) * 2.0f) : in * layer * 2.0f;
        return v < 1.0f ? v : 1.0f;
    case VGN_BLEND_SOFT_LIGHT: return (1.0f - in) * (in * layer) + in * (1.0f - (1.0f - in) * (1.0f - layer));
    case VGN_BLEND_GRAIN_EXTRACT: return legacy ? vgn_xcf_clamp(in - layer + half) : in - layer + 0.5f;
    case VGN_BLEND_GRAIN_MERGE: return legacy ? vgn_xcf_clamp(in + layer - half) : in + layer - 0.5f;
    /* GIMP 2.10's expressions as written, doubles where it has them, for its roundings; vivid
       light clamped on the side each half can overshoot, as 2.10 does (later GIMP does not) */
    case VGN_BLEND_VIVID_LIGHT:
        return layer <= 0.5f ? fmaxf(1.0f - vgn_xcf_safe_div(1.0f - in, 2.0f * layer), 0.0f)
                             : fminf(vgn_xcf_safe_div(in, 2.0f * (1.0f - layer)), 1.0f);
    case VGN_BLEND_PIN_LIGHT:
        return layer > 0.5f ? (float)fmax(in, 2 * (layer - 0.5)) : (float)fmin(in, 2 * layer);
    case VGN_BLEND_LINEAR_LIGHT: return layer <= 0.5f ? (float)(in + 2.0 * layer - 1.0f) : (float)(in + 2.0 * (layer - 0.5f));
    case VGN_BLEND_HARD_MIX: return in + layer < 1.0f ? 0.0f : 1.0f;
    case VGN_BLEND_EXCLUSION: return 0.5f - 2.0f * (in - 0.5f) * (layer - 0.5f);
    case VGN_BLEND_LINEAR_BURN: return in + layer - 1.0f;
    default: return layer;
    }
}

/* GIMP_RGB_LUMINANCE (in doubles, as the macro is), for the luma modes; and the Y of babl's
 * D50-adapted sRGB matrix, for Luminance. */
static float vgn_xcf_luma(const float *v) { return (float)(v[0] * 0.22248840 + v[1] * 0.71690369 + v[2] * 0.06060791); }
static float vgn_xcf_y(const float *v) { return 0.222488403f * v[0] + 0.716873169f * v[1] + 0.060607910f * v[2]; }

static float vgn_xcf_min3(const float *v) { return fminf(fminf(v[0], v[1]), v[2]); }

/* RGB and HSV or HSL (hue 0 to 1), as babl's HSV and HSL models convert them, for the legacy modes. */
static void vgn_rgb_to_hsx(const float *rgb, int hsl, double *h)
{
    const double r = rgb[0], g = rgb[1], b = rgb[2];
    const double max = fmax(fmax(r, g), b), min = fmin(fmin(r, g), b), delta = max - min;
    double hue = 0.0;
    if (hsl) {
        h[2] = (max + min) / 2.0;
        h[1] = max == min ? 0.0 : h[2] <= 0.5 ? delta / (max + min) : delta / (2.0 - max - min);
    } else {
        h[2] = max;
        h[1] = max != 0.0 ? delta / max : 0.0;
    }
    if (max != min && h[1] != 0.0) {
        if (max == r) hue = (g - b) / delta + (g < b ? 6.0 : 0.0);
        else if (max == g) hue = (b - r) / delta + 2.0;
        else hue = (r - g) / delta + 4.0;
    }
    h[0] = hue / 6.0;
}

static double vgn_hsl_component(double p, double q, double h)
{
    if (h < 0.0) h += 1.0;
    if (h > 1.0) h -= 1.0;
    if (h < 1.0 / 6.0) return p + (q - p) * 6.0 * h;
    if (h < 0.5) return q;
    if (h < 2.0 / 3.0) return p + (q - p) * (2.0 / 3.0 - h) * 6.0;
    return p;
}

static void vgn_hsx_to_rgb(const double *h, int hsl, float *rgb)
{
    const double hue = h[0], s = h[1], v = h[2];
    double r, g, b;
    if (s == 0.0) {
        r = g = b = v;
    } else if (hsl) {
        const double q = v < 0.5 ? v * (1.0 + s) : v + s - v * s, p = 2.0 * v - q;
        r = vgn_hsl_component(p, q, hue + 1.0 / 3.0), g = vgn_hsl_component(p, q, hue), b = vgn_hsl_component(p, q, hue - 1.0 / 3.0);
    } else {
        const double six = hue * 6.0, i = floor(six), f = six - i;
        const double p = v * (1.0 - s), q = v * (1.0 - s * f), t = v * (1.0 - s * (1.0 - f));
        switch ((int)i % 6) {
        case 0: r = v, g = t, b = p; break;
        case 1: r = q, g = v, b = p; break;
        case 2: r = p, g = v, b = t; break;
        case 3: r = p, g = q, b = v; break;
        case 4: r = t, g = p, b = v; break;
        default: r = v, g = p, b = q; break;
        }
    }
    rgb[0] = (float)r, rgb[1] = (float)g, rgb[2] = (float)b;
}

/* The legacy HSV and HSL modes: the canvas's pixel with the layer's hue (when the layer has a
 * saturation), saturation, value, or HSL hue and saturation. */
static void vgn_xcf_blend_hsx_legacy(vgn_blend blend, const float *in, const float *layer, float *comp)
{
    const int hsl = blend == VGN_BLEND_HSL_COLOR;
    double i[3], l[3];
    vgn_rgb_to_hsx(in, hsl, i);
    vgn_rgb_to_hsx(layer, hsl, l);
    if (blend == VGN_BLEND_HSV_HUE) {
        if (l[1] != 0.0) i[0] = l[0];
    } else if (blend == VGN_BLEND_HSV_SATURATION) {
        i[1] = l[1];
    } else if (blend == VGN_BLEND_HSV_VALUE) {
        i[2] = l[2];
    } else {
        i[0] = l[0], i[1] = l[1];
    }
    vgn_hsx_to_rgb(i, hsl, comp);
}
static float vgn_xcf_max3(const float *v) { return fmaxf(fmaxf(v[0], v[1]), v[2]); }

/* The blend of a pixel of layer over in (both in the blend space) into comp: the modes that take
 * a whole pixel as GIMP 2.10's gimpoperationlayermode-blend.c has them, the others a value at a time. */
static void vgn_xcf_blend(vgn_blend blend, int legacy, const float *in, const float *layer, float *comp)
{
    const float epsilon = 1e-6f;
    float in_min, in_max, l_min, l_max, ratio, offset, a, b;
    int c;
    if (legacy && blend >= VGN_BLEND_HSV_HUE && blend <= VGN_BLEND_HSV_VALUE) {
        vgn_xcf_blend_hsx_legacy(blend, in, layer, comp);
        return;
    }
    switch (blend) {
    case VGN_BLEND_HSV_HUE:
        l_min = vgn_xcf_min3(layer), l_max = vgn_xcf_max3(layer);
        if (l_max - l_min > epsilon) {
            in_min = vgn_xcf_min3(in), in_max = vgn_xcf_max3(in);
            ratio = (in_max != 0.0f ? (in_max - in_min) / in_max : 0.0f) * in_max / (l_max - l_min);
            offset = in_max - l_max * ratio;
            for (c = 0; c < 3; c++) comp[c] = layer[c] * ratio + offset;
        } else {
            for (c = 0; c < 3; c++) comp[c] = in[c];
        }
        return;
    case VGN_BLEND_HSV_SATURATION:
        in_min = vgn_xcf_min3(in), in_max = vgn_xcf_max3(in);
        if (in_max - in_min > epsilon) {
            l_min = vgn_xcf_min3(layer), l_max = vgn_xcf_max3(layer);
            ratio = (l_max != 0.0f ? (l_max - l_min) / l_max : 0.0f) * in_max / (in_max - in_min);
            offset = (1.0f - ratio) * in_max;
            for (c = 0; c < 3; c++) comp[c] = in[c] * ratio + offset;
        } else {
            for (c = 0; c < 3; c++) comp[c] = in_max;
        }
        return;
    case VGN_BLEND_HSL_COLOR: {
        float in_l = (vgn_xcf_min3(in) + vgn_xcf_max3(in)) / 2.0f, l_l = (vgn_xcf_min3(layer) + vgn_xcf_max3(layer)) / 2.0f;
        if (fabsf(l_l) > epsilon && fabsf(1.0f - l_l) > epsilon) {
            int in_high = in_l > 0.5f, l_high = l_l > 0.5f;
            in_l = fminf(in_l, 1.0f - in_l);
            l_l = fminf(l_l, 1.0f - l_l);
            ratio = in_l / l_l;
            offset = 0.0f;
            if (in_high) offset += 1.0f - 2.0f * in_l;
            if (l_high) offset += 2.0f * in_l - ratio;
            for (c = 0; c < 3; c++) comp[c] = layer[c] * ratio + offset;
        } else {
            for (c = 0; c < 3; c++) comp[c] = in_l;
        }
        return;
    }
    case VGN_BLEND_HSV_VALUE:
        in_max = vgn_xcf_max3(in), l_max = vgn_xcf_max3(layer);
        if (fabsf(in_max) > epsilon) {
            ratio = l_max / in_max;
            for (c = 0; c < 3; c++) comp[c] = in[c] * ratio;
        } else {
            for (c = 0; c < 3; c++) comp[c] = l_max;
        }
        return;
    case VGN_BLEND_LUMA_DARKEN:
    case VGN_BLEND_LUMA_LIGHTEN: {
        const float in_y = vgn_xcf_luma(in), l_y = vgn_xcf_luma(layer);
        const int keep = blend == VGN_BLEND_LUMA_DARKEN ? in_y <= l_y : in_y >= l_y;
        for (c = 0; c < 3; c++) comp[c] = keep ? in[c] : layer[c];
        return;
    }
    case VGN_BLEND_LUMINANCE:
        ratio = vgn_xcf_safe_div(vgn_xcf_y(layer), vgn_xcf_y(in));
        for (c = 0; c < 3; c++) comp[c] = in[c] * ratio;
        return;
    case VGN_BLEND_LCH_HUE:
    case VGN_BLEND_LCH_CHROMA: {
        /* hue: the layer's direction at the canvas's chroma; chroma: the canvas's direction at the layer's */
        const float *dir = blend == VGN_BLEND_LCH_HUE ? layer : in, *length = blend == VGN_BLEND_LCH_HUE ? in : layer;
        const float cd = hypotf(dir[1], dir[2]);
        comp[0] = in[0];
        if (cd > epsilon) {
            const float cl = hypotf(length[1], length[2]);
            a = cl * dir[1] / cd, b = cl * dir[2] / cd;
            comp[1] = a, comp[2] = b;
        } else {
            comp[1] = in[1], comp[2] = in[2];
        }
        return;
    }
    case VGN_BLEND_LCH_COLOR: comp[0] = in[0], comp[1] = layer[1], comp[2] = layer[2]; return;
    case VGN_BLEND_LCH_LIGHTNESS: comp[0] = layer[0], comp[1] = in[1], comp[2] = in[2]; return;
    default:
        for (c = 0; c < 3; c++) comp[c] = vgn_xcf_blend_value(blend, legacy, in[c], layer[c]);
        return;
    }
}

/* Linear light to a space's values and back. */
static float vgn_xcf_to_space(float v, int space) { return space == VGN_SPACE_LINEAR ? v : vgn_srgb_encode(v); }
static float vgn_xcf_from_space(float v, int space) { return space == VGN_SPACE_LINEAR ? v : vgn_srgb_decode(v); }

/* CIE L*a*b*'s f and its inverse (D50 white, the CIE's exact epsilon and kappa, as babl has them). */
#define VGN_LAB_EPSILON (216.0f / 24389.0f)
#define VGN_LAB_KAPPA (24389.0f / 27.0f)
static float vgn_lab_f(float t) { return t > VGN_LAB_EPSILON ? cbrtf(t) : (VGN_LAB_KAPPA * t + 16.0f) / 116.0f; }
static float vgn_lab_f_inverse(float f)
{
    const float cube = f * f * f;
    return cube > VGN_LAB_EPSILON ? cube : (116.0f * f - 16.0f) / VGN_LAB_KAPPA;
}

/* A linear pixel in a blend space's values, and back: sRGB's curve, or CIE L*a*b* by way of XYZ
 * with babl's D50-adapted sRGB matrix (LAB, the LCH modes' space). */
static void vgn_xcf_pixel_to_space(const float *lin, int space, float *out)
{
    int c;
    if (space == VGN_SPACE_LAB) {
        const float x = 0.436065674f * lin[0] + 0.385147095f * lin[1] + 0.143066406f * lin[2];
        const float y = vgn_xcf_y(lin);
        const float z = 0.013916016f * lin[0] + 0.097076416f * lin[1] + 0.714096069f * lin[2];
        const float fx = vgn_lab_f(x / 0.96420288f), fy = vgn_lab_f(y), fz = vgn_lab_f(z / 0.82490540f);
        out[0] = 116.0f * fy - 16.0f, out[1] = 500.0f * (fx - fy), out[2] = 200.0f * (fy - fz);
        return;
    }
    for (c = 0; c < 3; c++) out[c] = vgn_xcf_to_space(lin[c], space);
}

static void vgn_xcf_pixel_from_space(const float *v, int space, float *lin)
{
    int c;
    if (space == VGN_SPACE_LAB) {
        const float fy = (v[0] + 16.0f) / 116.0f, fx = fy + v[1] / 500.0f, fz = fy - v[2] / 200.0f;
        const float x = vgn_lab_f_inverse(fx) * 0.96420288f, z = vgn_lab_f_inverse(fz) * 0.82490540f;
        const float y = v[0] > VGN_LAB_KAPPA * VGN_LAB_EPSILON ? fy * fy * fy : v[0] / VGN_LAB_KAPPA;
        lin[0] = 3.134112151f * x - 1.617392460f * y - 0.490633404f * z;
        lin[1] = -0.978787294f * x + 1.916279585f * y + 0.033454714f * z;
        lin[2] = 0.071983042f * x - 0.228985849f * y + 1.405385133f * z;
        return;
    }
    for (c = 0; c < 3; c++) lin[c] = vgn_xcf_from_space(v[c], space);
}

/* Erase, Merge and Split: the canvas's colour ci and alpha ai and the layer's cl and la (its
 * opacity and mask applied) into out and *out_a, in the composite space, as GIMP 2.10's
 * operations for those modes do for each composite mode. */
static void vgn_xcf_meet_alpha(const vgn_xcf_how *how, float ai, float la, const float *ci, const float *cl, float *out, float *out_a)
{
    const int mode = how->composite_mode;
    float a = 0.0f, ratio = 0.0f;
    const float *take = ci; /* the colour when not mixed */
    int c;
    if (how->blend == VGN_BLEND_ERASE) {
        a = ai - ai * la;
    } else if (how->blend == VGN_BLEND_MERGE) {
        if (mode == VGN_COMPOSITE_CLIP_TO_BACKDROP) {
            float over = la - (1.0f - ai);
            a = ai;
            if (over > 0.0f) ratio = over / ai;
        } else if (mode == VGN_COMPOSITE_CLIP_TO_LAYER || mode == VGN_COMPOSITE_INTERSECTION) {
            a = mode == VGN_COMPOSITE_CLIP_TO_LAYER ? la : fmaxf(la - (1.0f - ai), 0.0f);
            if (a != 0.0f) take = cl;
        } else {
            a = fminf(ai, 1.0f - la) + la;
            if (a != 0.0f) ratio = la / a;
        }
    } else { /* split */
        if (mode == VGN_COMPOSITE_UNION) {
            a = la <= ai ? ai - la : la - ai;
            if (la > ai) take = cl;
        } else if (mode == VGN_COMPOSITE_CLIP_TO_LAYER) {
            a = fmaxf(la - ai, 0.0f);
            if (a != 0.0f) take = cl;
        } else if (mode != VGN_COMPOSITE_INTERSECTION) {
            a = fmaxf(ai - la, 0.0f);
        }
    }
    for (c = 0; c < 3; c++) out[c] = take[c] + (cl[c] - take[c]) * ratio;
    *out_a = a;
}

/* The layer's cell s (linear, premultiplied, its mask applied) meets the canvas cell b (the same)
 * at `opacity`, as GIMP composites (gimpoperationlayermode-composite.c and the legacy modes). */
static void vgn_xcf_meet(float *b, const float *s, float opacity, const vgn_xcf_how *how)
{
    const int cs = how->composite_space, bs = how->blend_space;
    float ai = b[3], al = s[3], la = al * opacity, in[3], layer[3], ci[3], cl[3], comp[3], out[3], out_a;
    int c;
    /* nothing of the layer here changes nothing, but where the result keeps only the layer's part */
    if (la <= 0.0f && (how->composite_mode == VGN_COMPOSITE_UNION || how->composite_mode == VGN_COMPOSITE_CLIP_TO_BACKDROP))
        return;
    for (c = 0; c < 3; c++) {
        in[c] = ai > 0.0f ? b[c] / ai : 0.0f, layer[c] = al > 0.0f ? s[c] / al : 0.0f; /* linear, straight */
        ci[c] = vgn_xcf_to_space(in[c], cs);
        cl[c] = vgn_xcf_to_space(layer[c], cs);
    }
    if (how->blend >= VGN_BLEND_ERASE) {
        vgn_xcf_meet_alpha(how, ai, la, ci, cl, out, &out_a);
        for (c = 0; c < 3; c++) b[c] = vgn_xcf_from_space(out[c], cs) * out_a;
        b[3] = out_a;
        return;
    }
    if (how->blend == VGN_BLEND_NORMAL || how->blend == VGN_BLEND_BEHIND) {
        for (c = 0; c < 3; c++) comp[c] = cl[c];
    } else if (bs == cs) {
        vgn_xcf_blend(how->blend, how->legacy, ci, cl, comp);
    } else {
        float bi[3], bl[3], bc[3], lc[3];
        vgn_xcf_pixel_to_space(in, bs, bi);
        vgn_xcf_pixel_to_space(layer, bs, bl);
        vgn_xcf_blend(how->blend, how->legacy, bi, bl, bc);
        vgn_xcf_pixel_from_space(bc, bs, lc);
        for (c = 0; c < 3; c++) comp[c] = vgn_xcf_to_space(lc[c], cs);
    }
    if (how->legacy) {
        float ca = (ai < al ? ai : al) * opacity, ratio;
        if (ai <= 0.0f) return;
        ratio = ca / (ai + (1.0f - ai) * ca);
        for (c = 0; c < 3; c++) out[c] = comp[c] * ratio + ci[c] * (1.0f - ratio);
        out_a = ai;
    } else if (how->blend == VGN_BLEND_BEHIND) {
        out_a = ai + (1.0f - ai) * la;
        for (c = 0; c < 3; c++) out[c] = (ci[c] * ai + cl[c] * la * (1.0f - ai)) / out_a;
    } else {
        switch (how->composite_mode) {
        case VGN_COMPOSITE_CLIP_TO_BACKDROP:
            if (ai <= 0.0f) return;
            for (c = 0; c < 3; c++) out[c] = comp[c] * la + ci[c] * (1.0f - la);
            out_a = ai;
            break;
        case VGN_COMPOSITE_CLIP_TO_LAYER:
            for (c = 0; c < 3; c++) out[c] = comp[c] * ai + cl[c] * (1.0f - ai);
            out_a = la;
            break;
        case VGN_COMPOSITE_INTERSECTION:
            for (c = 0; c < 3; c++) out[c] = comp[c];
            out_a = ai * la;
            break;
        default: { /* union */
            float ratio;
            out_a = la + (1.0f - la) * ai;
            ratio = la / out_a;
            for (c = 0; c < 3; c++)
                out[c] = ai > 0.0f ? ratio * (ai * (comp[c] - cl[c]) + cl[c] - ci[c]) + ci[c] : cl[c];
            break;
        }
        }
    }
    for (c = 0; c < 3; c++) b[c] = vgn_xcf_from_space(out[c], cs) * out_a;
    b[3] = out_a;
}

/* Whether layer l is composited: visible, not a floating selection, not inside a group (whose
 * projection stands for it), not fully transparent. */
static int vgn_xcf_drawn(const vgn_xcf_layer *l)
{
    return l->visible && !l->floating && l->depth <= 1 && l->opacity > 0.0f;
}

/* The part of layer l on the canvas, [*x0, *x1) x [*y0, *y1): 1, or 0 when it is off the canvas. */
static int vgn_xcf_clip(const vgn_xcf *x, const vgn_xcf_layer *l, int64_t *x0, int64_t *y0, int64_t *x1, int64_t *y1)
{
    *x0 = l->x > 0 ? l->x : 0, *y0 = l->y > 0 ? l->y : 0;
    *x1 = (int64_t)l->x + l->width, *y1 = (int64_t)l->y + l->height;
    if (*x1 > x->width) *x1 = x->width;
    if (*y1 > x->height) *y1 = x->height;
    return *x1 > *x0 && *y1 > *y0;
}

/* A property list read only to be passed over (a mask channel's). */
static void vgn_xcf_ignore_prop(vgn_xcf *x, uint32_t type, uint64_t at, uint32_t length, void *ctx)
{
    (void)x, (void)type, (void)at, (void)length, (void)ctx;
}

/* Decodes layer l's visible tiles into x->sums and composites them onto the canvas; the bottom
 * layer drawn is always Normal, as in GIMP. */
static void vgn_xcf_draw_layer(vgn_xcf *x, const vgn_xcf_layer *l, uint32_t number, int bottom)
{
    const int channels = vgn_xcf_channels(l->type);
    const uint32_t bpp = (uint32_t)(channels * x->component_bytes), mask_bpp = (uint32_t)x->component_bytes;
    const uint32_t k = x->k, cw = x->base.width;
    const uint32_t columns = (l->width + VGN_XCF_TILE - 1) / VGN_XCF_TILE, rows = (l->height + VGN_XCF_TILE - 1) / VGN_XCF_TILE;
    uint64_t level, mask_level = 0;
    int64_t x0, y0, x1, y1;
    uint32_t index, cx0, cy0, cx1, cy1, cx, cy;
    int has_alpha = channels == 2 || channels == 4, indexed = l->type >= 4, use_mask = 0;
    vgn_xcf_how how = vgn_xcf_how_of(bottom ? 28 : l->mode);
    char msg[VGN_MSG_LEN];
    const char *why = NULL;
    if (!vgn_xcf_clip(x, l, &x0, &y0, &x1, &y1)) return;
    if (vgn_xcf_level(x, l->hierarchy, l->width, l->height, bpp, &level) != 0) {
        snprintf(msg, sizeof msg, "layer %u has no readable pixels; it is left out", number);
        vgn_warn_add(&x->warnings, msg);
        return;
    }
    if (l->mask != 0 && l->apply_mask) {
        uint64_t pos = l->mask + 8, hierarchy;
        uint32_t w, h;
        if (vgn_xcf_u32(x, l->mask, &w) == 0 && vgn_xcf_u32(x, l->mask + 4, &h) == 0 && w == l->width && h == l->height &&
            vgn_xcf_skip_string(x, &pos) == 0 && vgn_xcf_props(x, &pos, vgn_xcf_ignore_prop, NULL) == 0 &&
            vgn_xcf_pointer(x, pos, &hierarchy) == 0 && vgn_xcf_level(x, hierarchy, w, h, mask_bpp, &mask_level) == 0) {
            use_mask = 1;
        } else {
            snprintf(msg, sizeof msg, "the mask of layer %u could not be read; the layer is drawn without it", number);
            vgn_warn_add(&x->warnings, msg);
        }
    }
    if (!how.drawn) {
        snprintf(msg, sizeof msg, "layer mode %u is drawn as Normal", l->mode);
        vgn_warn_add(&x->warnings, msg);
    } else if (!how.legacy && l->mode > 22 && !bottom) {
        /* the 2.10 modes let a layer choose its spaces and composite mode (LAB is taken as perceptual) */
        if (l->blend_space != VGN_SPACE_AUTO && how.blend != VGN_BLEND_NORMAL) how.blend_space = l->blend_space;
        if (l->composite_space != VGN_SPACE_AUTO) how.composite_space = l->composite_space;
        if (l->composite_mode != VGN_COMPOSITE_AUTO && l->mode != 61) how.composite_mode = l->composite_mode;
    }
    if (bottom) how.composite_space = l->mode <= 22 ? VGN_SPACE_PERCEPTUAL : VGN_SPACE_LINEAR;
    cx0 = (uint32_t)x0 / k, cy0 = (uint32_t)y0 / k, cx1 = (uint32_t)(x1 - 1) / k, cy1 = (uint32_t)(y1 - 1) / k;
    for (cy = cy0; cy <= cy1; cy++) memset(x->sums + ((size_t)cy * cw + cx0) * 4, 0, (size_t)(cx1 - cx0 + 1) * 4 * sizeof(float));
    for (index = 0; index < columns * rows; index++) {
        int64_t tx = l->x + (int64_t)(index % columns) * VGN_XCF_TILE, ty = l->y + (int64_t)(index / columns) * VGN_XCF_TILE;
        uint32_t tw = (index % columns) + 1 < columns ? VGN_XCF_TILE : l->width - (index % columns) * VGN_XCF_TILE;
        uint32_t th = (index / columns) + 1 < rows ? VGN_XCF_TILE : l->height - (index / columns) * VGN_XCF_TILE;
        uint32_t i, j;
        if (tx >= x1 || ty >= y1 || tx + tw <= x0 || ty + th <= y0) continue;
        if (vgn_xcf_tile(x, level, columns * rows, index, (size_t)tw * th, bpp, x->tile, &why) != 0 ||
            (use_mask && vgn_xcf_tile(x, mask_level, columns * rows, index, (size_t)tw * th, mask_bpp, x->mask_tile, &why) != 0)) {
            snprintf(msg, sizeof msg, "a tile of layer %u is left out: %s", number, why);
            vgn_warn_add(&x->warnings, msg);
            continue;
        }
        /* the tile's columns on the canvas: [i0, i1), the first in cell c0 at offset o0 within it */
        {
            uint32_t i0 = tx < x0 ? (uint32_t)(x0 - tx) : 0, i1 = tx + tw > x1 ? (uint32_t)(x1 - tx) : tw;
            uint32_t c0 = (uint32_t)(tx + i0) / k, o0 = (uint32_t)(tx + i0) % k;
            const int plain8 = x->component_bytes == 1 && !x->linear && !indexed;
            for (j = 0; j < th; j++) {
                int64_t py = ty + j;
                const uint8_t *p, *m;
                float *cell;
                uint32_t o = o0;
                if (py < y0 || py >= y1) continue;
                cell = x->sums + ((size_t)((uint32_t)py / k) * cw + c0) * 4;
                p = x->tile + ((size_t)j * tw + i0) * bpp;
                m = x->mask_tile + ((size_t)j * tw + i0) * mask_bpp;
                for (i = i0; i < i1; i++, p += bpp, m += mask_bpp) {
                    float r, g, b, a;
                    if (plain8) { /* the common case, without the general readers' branches */
                        r = x->linear8[p[0]];
                        if (channels >= 3) {
                            g = x->linear8[p[1]], b = x->linear8[p[2]];
                            a = has_alpha ? p[3] * (1.0f / 255.0f) : 1.0f;
                        } else {
                            g = b = r;
                            a = has_alpha ? p[1] * (1.0f / 255.0f) : 1.0f;
                        }
                    } else if (indexed) {
                        uint32_t c = p[0] < x->colors ? p[0] : 0;
                        r = x->linear8[x->colormap[c * 3]], g = x->linear8[x->colormap[c * 3 + 1]], b = x->linear8[x->colormap[c * 3 + 2]];
                        a = !has_alpha ? 1.0f : p[1] >= 128 ? 1.0f : 0.0f;
                    } else if (channels >= 3) {
                        r = vgn_xcf_linear(x, p);
                        g = vgn_xcf_linear(x, p + x->component_bytes);
                        b = vgn_xcf_linear(x, p + 2 * x->component_bytes);
                        a = has_alpha ? vgn_xcf_component(x, p + 3 * x->component_bytes) : 1.0f;
                    } else {
                        r = g = b = vgn_xcf_linear(x, p);
                        a = has_alpha ? vgn_xcf_component(x, p + x->component_bytes) : 1.0f;
                    }
                    if (use_mask) a *= vgn_xcf_component(x, m);
                    cell[0] += r * a, cell[1] += g * a, cell[2] += b * a, cell[3] += a;
                    if (++o == k) {
                        o = 0;
                        cell += 4;
                    }
                }
            }
        }
    }
    for (cy = cy0; cy <= cy1; cy++) {
        /* the last row and column of cells may cover fewer than k pixels of the picture */
        uint32_t ch = cy * k + k <= x->height ? k : x->height - cy * k;
        for (cx = cx0; cx <= cx1; cx++) {
            uint32_t cwid = cx * k + k <= x->width ? k : x->width - cx * k;
            float *s = x->sums + ((size_t)cy * cw + cx) * 4, scale = 1.0f / (float)(cwid * ch);
            s[0] *= scale, s[1] *= scale, s[2] *= scale, s[3] *= scale;
            vgn_xcf_meet(x->canvas + ((size_t)cy * cw + cx) * 4, s, l->opacity, &how);
        }
    }
    if (how.composite_mode == VGN_COMPOSITE_CLIP_TO_LAYER || how.composite_mode == VGN_COMPOSITE_INTERSECTION) {
        /* the result is the layer's part of the canvas alone: what lies outside the layer goes */
        const uint32_t chh = x->base.height;
        for (cy = 0; cy < chh; cy++)
            for (cx = 0; cx < cw; cx++)
                if (cy < cy0 || cy > cy1 || cx < cx0 || cx > cx1) memset(x->canvas + ((size_t)cy * cw + cx) * 4, 0, 4 * sizeof(float));
    }
}

static void vgn_xcf_composite(vgn_xcf *x)
{
    uint32_t i;
    int bottom = 1;
    for (i = x->layer_count; i-- > 0;) {
        const vgn_xcf_layer *l = &x->layers[i];
        if (vgn_xcf_drawn(l)) {
            vgn_xcf_draw_layer(x, l, i + 1, bottom);
            bottom = 0;
        }
    }
}

static int vgn_xcf_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_xcf *x = (vgn_xcf *)d;
    int n = 0;
    if (!x->composited) {
        size_t cells = (size_t)x->base.width * x->base.height;
        x->canvas = (float *)calloc(cells, 4 * sizeof(float));
        x->sums = (float *)malloc(cells * 4 * sizeof(float));
        x->tile = (uint8_t *)malloc((size_t)VGN_XCF_TILE * VGN_XCF_TILE * 4 * (size_t)x->component_bytes);
        x->mask_tile = (uint8_t *)malloc((size_t)VGN_XCF_TILE * VGN_XCF_TILE * (size_t)x->component_bytes);
        x->planes = (uint8_t *)malloc((size_t)VGN_XCF_TILE * VGN_XCF_TILE);
        uint32_t i;
        for (i = 0; i < 256; i++) x->linear8[i] = vgn_srgb_decode((float)i / 255.0f);
        if (!x->linear && !x->is_float && x->component_bytes == 2 && (x->linear16 = (float *)malloc(65536 * sizeof(float))) != NULL)
            for (i = 0; i < 65536; i++) x->linear16[i] = vgn_srgb_decode((float)i / 65535.0f);
        if (x->canvas == NULL || x->sums == NULL || x->tile == NULL || x->mask_tile == NULL || x->planes == NULL) {
            vgn_err_fill(err, VGN_E_NOMEM, "out of memory for the composited layers", &x->warnings);
            return VGN_E_NOMEM;
        }
        vgn_xcf_composite(x);
        free(x->sums);
        x->sums = NULL;
        x->composited = 1;
    }
    while (n < max_rows && x->next_row < x->base.height) {
        const float *c = x->canvas + (size_t)x->next_row * x->base.width * 4;
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t i;
        for (i = 0; i < x->base.width; i++, c += 4, out += 4) {
            float a = c[3] < 1.0f ? c[3] : 1.0f;
            int ch;
            if (a <= 0.0f) {
                memset(out, 0, 4);
                continue;
            }
            for (ch = 0; ch < 3; ch++) out[ch] = vgn_linear_to_srgb8(c[ch] / a);
            out[3] = (uint8_t)(a * 255.0f + 0.5f);
        }
        x->next_row++;
        n++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &x->warnings);
    return n;
}

static void vgn_xcf_close(vgn_decoder *d)
{
    vgn_xcf *x = (vgn_xcf *)d;
    if (x == NULL) return;
    if (x->z_ready) inflateEnd(&x->z);
    free(x->layers);
    free(x->canvas);
    free(x->sums);
    free(x->tile);
    free(x->mask_tile);
    free(x->planes);
    free(x->linear16);
    free(x);
}

/* Sets the component size, kind and transfer of `precision` (read per the version's numbering). */
static int vgn_xcf_precision(vgn_xcf *x, uint32_t precision)
{
    if (x->version == 4) {
        static const uint32_t v4[5] = {150, 250, 300, 500, 600};
        if (precision > 4) return -1;
        precision = v4[precision];
    } else if (x->version == 5 || x->version == 6) {
        if (precision == 400 || precision == 450 || precision == 500 || precision == 550) precision += 100;
    }
    x->linear = precision % 100 == 0;
    switch (precision / 100) {
    case 1: x->component_bytes = 1; break;
    case 2: x->component_bytes = 2; break;
    case 3: x->component_bytes = 4; break;
    case 5: x->component_bytes = 2, x->is_float = 1; break;
    case 6: x->component_bytes = 4, x->is_float = 1; break;
    case 7: x->component_bytes = 8, x->is_float = 1; break;
    default: return -1;
    }
    return precision % 50 == 0 ? 0 : -1;
}

static vgn_decoder *vgn_xcf_fail(vgn_xcf *x, vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    vgn_xcf_close(&x->base);
    return NULL;
}

vgn_decoder *vgn_xcf_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_xcf *x;
    uint64_t pos, ptr, work = 0;
    uint32_t i, precision = 150, count = 0, longest;
    char msg[VGN_MSG_LEN];
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    if (size < 14 || memcmp(data, "gimp xcf ", 9) != 0 || data[13] != 0) {
        vgn_err_fill(err, VGN_E_INVALID, "no \"gimp xcf\" header", NULL);
        return NULL;
    }
    x = (vgn_xcf *)calloc(1, sizeof *x);
    if (x == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    x->base.read_rows = vgn_xcf_read_rows;
    x->base.close = vgn_xcf_close;
    x->data = data;
    x->size = size;
    if (memcmp(data + 9, "file", 4) == 0) {
        x->version = 0;
    } else if (data[9] == 'v' && data[10] >= '0' && data[10] <= '9' && data[11] >= '0' && data[11] <= '9' && data[12] >= '0' &&
               data[12] <= '9') {
        x->version = (uint32_t)(data[10] - '0') * 100 + (uint32_t)(data[11] - '0') * 10 + (uint32_t)(data[12] - '0');
    } else {
        return vgn_xcf_fail(x, err, VGN_E_INVALID, "the XCF version is not a number");
    }
    if (x->version >= 100) return vgn_xcf_fail(x, err, VGN_E_UNSUPPORTED, "CinePaint's XCF (version 100 and up) is another format");
    x->pointer_bytes = x->version >= 11 ? 8 : 4;
    if (vgn_xcf_u32(x, 14, &x->width) != 0 || vgn_xcf_u32(x, 18, &x->height) != 0 || vgn_xcf_u32(x, 22, &x->base_type) != 0)
        return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, "the header ends early");
    if (x->width == 0 || x->height == 0 || x->width > 524288 || x->height > 524288)
        return vgn_xcf_fail(x, err, VGN_E_INVALID, "the canvas size is not one GIMP allows (1 to 524,288 pixels a side)");
    if (x->base_type > 2) return vgn_xcf_fail(x, err, VGN_E_INVALID, "the colour mode is none of RGB, grey and indexed");
    pos = 26;
    if (x->version >= 4) {
        if (vgn_xcf_u32(x, pos, &precision) != 0) return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, "the header ends early");
        pos += 4;
    }
    if (vgn_xcf_precision(x, precision) != 0) {
        snprintf(msg, sizeof msg, "precision %u is not one GIMP writes", precision);
        return vgn_xcf_fail(x, err, VGN_E_UNSUPPORTED, msg);
    }
    if (vgn_xcf_props(x, &pos, vgn_xcf_image_prop, NULL) != 0)
        return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, "the image's properties are damaged or cut short");
    if (x->compression > 2) {
        snprintf(msg, sizeof msg, "compression %d is not one GIMP writes", x->compression);
        return vgn_xcf_fail(x, err, VGN_E_UNSUPPORTED, msg);
    }
    if (x->base_type == 2 && x->component_bytes != 1)
        return vgn_xcf_fail(x, err, VGN_E_INVALID, "an indexed image must be 8-bit");
    /* The layer pointers, topmost first, up to a zero. */
    for (;;) {
        if (vgn_xcf_pointer(x, pos + (uint64_t)count * x->pointer_bytes, &ptr) != 0)
            return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, "the list of layers is cut short");
        if (ptr == 0) break;
        if (++count > VGN_XCF_MAX_LAYERS) return vgn_xcf_fail(x, err, VGN_E_LIMIT, "more than 65,536 layers");
    }
    x->layers = (vgn_xcf_layer *)calloc(count > 0 ? count : 1, sizeof *x->layers);
    if (x->layers == NULL) return vgn_xcf_fail(x, err, VGN_E_NOMEM, "out of memory");
    x->layer_count = count;
    for (i = 0; i < count; i++) {
        vgn_xcf_layer *l = &x->layers[i];
        uint64_t at;
        (void)vgn_xcf_pointer(x, pos + (uint64_t)i * x->pointer_bytes, &at);
        l->opacity = 1.0f;
        l->visible = 1;
        l->apply_mask = 1;
        if (vgn_xcf_u32(x, at, &l->width) != 0 || vgn_xcf_u32(x, at + 4, &l->height) != 0 ||
            vgn_xcf_u32(x, at + 8, &l->type) != 0) {
            snprintf(msg, sizeof msg, "layer %u is past the end of the file", i + 1);
            return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, msg);
        }
        at += 12;
        if (vgn_xcf_skip_string(x, &at) != 0 || vgn_xcf_props(x, &at, vgn_xcf_layer_prop, l) != 0 ||
            vgn_xcf_pointer(x, at, &l->hierarchy) != 0 || vgn_xcf_pointer(x, at + x->pointer_bytes, &l->mask) != 0) {
            snprintf(msg, sizeof msg, "layer %u is damaged or cut short", i + 1);
            return vgn_xcf_fail(x, err, VGN_E_TRUNCATED, msg);
        }
        if (l->width == 0 || l->height == 0 || l->width > 524288 || l->height > 524288 || vgn_xcf_channels(l->type) == 0 ||
            (l->type >= 4) != (x->base_type == 2)) {
            snprintf(msg, sizeof msg, "layer %u has a size or colour mode GIMP does not write", i + 1);
            return vgn_xcf_fail(x, err, VGN_E_INVALID, msg);
        }
        if (vgn_xcf_drawn(l)) {
            int64_t x0, y0, x1, y1;
            if (vgn_xcf_clip(x, l, &x0, &y0, &x1, &y1)) work += (uint64_t)(x1 - x0) * (uint64_t)(y1 - y0);
        }
    }
    if (work > VGN_XCF_MAX_WORK)
        return vgn_xcf_fail(x, err, VGN_E_LIMIT, "the visible layers hold more than 2^31 pixels together");
    if (work > (uint64_t)size * VGN_XCF_PIXELS_PER_BYTE + VGN_XCF_FREE_WORK)
        return vgn_xcf_fail(x, err, VGN_E_LIMIT,
                            "the visible layers hold more pixels than a file this size can store: they share their pixels");
    longest = x->width > x->height ? x->width : x->height;
    x->k = target > 0 && longest / 2 / target > 1 ? longest / 2 / target : 1;
    x->base.width = (x->width + x->k - 1) / x->k;
    x->base.height = (x->height + x->k - 1) / x->k;
    x->base.extent_width = (double)x->width / x->k;
    x->base.extent_height = (double)x->height / x->k;
    x->base.working = (size_t)x->base.width * x->base.height * 8 * sizeof(float) +
                      (size_t)VGN_XCF_TILE * VGN_XCF_TILE * (5 * (size_t)x->component_bytes + 1) + 65536 * sizeof(float);
    info->width = x->width;
    info->height = x->height;
    info->components = x->base_type == 1 ? 2 : 4;
    info->bit_depth = x->component_bytes * 8;
    info->has_alpha = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &x->base;
}
