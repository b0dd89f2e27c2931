/* vgn_text.c - FreeType 2 behind vgn_text.h: faces, metrics, glyph coverage, text runs. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_BITMAP_H
#include FT_FONT_FORMATS_H

#include "vgn_internal.h"
#include "vgn_text.h"

/* FreeType's own error texts (FT_Error_String needs a build option Debian does not set). */
#undef FTERRORS_H_
#define FT_ERRORDEF(e, v, s) {e, s},
#define FT_ERROR_START_LIST {
#define FT_ERROR_END_LIST {0, NULL}};
static const struct {
    int code;
    const char *text;
} vgn_ft_errors[] =
#include FT_ERRORS_H

/* Glyphs below this codepoint are kept rendered at the current size (text pages are mostly ASCII). */
#define VGN_CACHE_SIZE 256

typedef struct {
    vgn_glyph glyph;
    uint8_t *bits; /* width*height coverage bytes, NULL for a blank glyph */
} vgn_cached_glyph;

struct vgn_font {
    FT_Library library;
    FT_Face face;
    uint8_t *data;
    size_t size;
    FT_Int32 load_flags;
    int pixel_size;
    vgn_cached_glyph *cache[VGN_CACHE_SIZE];
};

static const char *ft_text(FT_Error e)
{
    size_t i;
    for (i = 0; vgn_ft_errors[i].text != NULL; i++)
        if (vgn_ft_errors[i].code == e)
            return vgn_ft_errors[i].text;
    return "unknown FreeType error";
}

/* Maps a FreeType error to a status: memory and limits apart, everything else is bad data. */
static int ft_fail(vgn_error *err, FT_Error e, const char *what)
{
    char msg[VGN_MSG_LEN];
    int code = VGN_E_INVALID;
    if (e == FT_Err_Out_Of_Memory)
        code = VGN_E_NOMEM;
    else if (e == FT_Err_Unknown_File_Format)
        code = VGN_E_UNSUPPORTED;
    else if (e == FT_Err_Invalid_Argument || e == FT_Err_Invalid_Handle || e == FT_Err_Invalid_Face_Handle)
        code = VGN_E_STATE;
    snprintf(msg, sizeof msg, "%s: %s", what, ft_text(e));
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static int fail(vgn_error *err, int code, const char *msg)
{
    vgn_err_fill(err, code, msg, NULL);
    return code;
}

static void cache_clear(vgn_font *f)
{
    int i;
    for (i = 0; i < VGN_CACHE_SIZE; i++) {
        if (f->cache[i] != NULL) {
            free(f->cache[i]->bits);
            free(f->cache[i]);
            f->cache[i] = NULL;
        }
    }
}

void vgn_font_close(vgn_font *f)
{
    if (f == NULL)
        return;
    cache_clear(f);
    if (f->face != NULL)
        FT_Done_Face(f->face);
    if (f->library != NULL)
        FT_Done_FreeType(f->library);
    free(f->data);
    free(f);
}

/* Takes ownership of `data` (malloc'd), also on failure; with no data, FreeType reads the
 * file at `path` as it needs it (trusted system fonts only). */
static vgn_font *open_face(uint8_t *data, size_t size, const char *path, long face_index, int hinting, vgn_error *err)
{
    FT_Error e;
    vgn_font *f = (vgn_font *)calloc(1, sizeof *f);
    if (f == NULL) {
        free(data);
        fail(err, VGN_E_NOMEM, "out of memory");
        return NULL;
    }
    f->data = data;
    f->size = size;
    if (face_index < 0 || face_index > 0xFFFF) {
        vgn_font_close(f);
        fail(err, VGN_E_STATE, "face index out of range");
        return NULL;
    }
    if (size == 0 && path == NULL) {
        vgn_font_close(f);
        fail(err, VGN_E_INVALID, "the file is empty");
        return NULL;
    }
    e = FT_Init_FreeType(&f->library);
    if (e != 0) {
        f->library = NULL;
        vgn_font_close(f);
        ft_fail(err, e, "cannot start FreeType");
        return NULL;
    }
    if (path != NULL)
        e = FT_New_Face(f->library, path, face_index, &f->face);
    else
        e = FT_New_Memory_Face(f->library, f->data, (FT_Long)size, face_index, &f->face);
    if (e != 0) {
        f->face = NULL;
        vgn_font_close(f);
        ft_fail(err, e, "cannot open font");
        return NULL;
    }
    if (f->face->charmap == NULL && f->face->num_charmaps > 0 && f->face->charmaps != NULL)
        FT_Set_Charmap(f->face, f->face->charmaps[0]); /* symbol fonts: their only cmap */
    /* Without hinting the TrueType bytecode interpreter never runs: the safe choice for untrusted fonts. */
    f->load_flags = hinting ? (FT_LOAD_TARGET_LIGHT) : (FT_LOAD_NO_HINTING);
    if (vgn_font_set_pixel_size(f, 16, err) != 0) {
        vgn_font_close(f);
        return NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return f;
}

vgn_font *vgn_font_open_memory(const uint8_t *data, size_t size, long face_index, int hinting, vgn_error *err)
{
    uint8_t *copy;
    if (data == NULL && size != 0) {
        fail(err, VGN_E_STATE, "no font data");
        return NULL;
    }
    if (size > VGN_FONT_MAX_FILE_BYTES) {
        fail(err, VGN_E_LIMIT, "font file over 256 MiB");
        return NULL;
    }
    copy = (uint8_t *)malloc(size ? size : 1);
    if (copy == NULL) {
        fail(err, VGN_E_NOMEM, "out of memory");
        return NULL;
    }
    if (size)
        memcpy(copy, data, size);
    return open_face(copy, size, NULL, face_index, hinting, err);
}

vgn_font *vgn_font_open(const char *path, long face_index, int hinting, vgn_error *err)
{
    FILE *fp;
    vgn_buf buf = {NULL, 0, 0};
    uint8_t chunk[65536];
    size_t n;
    char msg[VGN_MSG_LEN];

    if (path == NULL) {
        fail(err, VGN_E_STATE, "no font path");
        return NULL;
    }
    fp = fopen(path, "rb");
    if (fp == NULL) {
        snprintf(msg, sizeof msg, "cannot open font file: %s", strerror(errno));
        fail(err, VGN_E_IO, msg);
        return NULL;
    }
    while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0) {
        if (buf.size + n > VGN_FONT_MAX_FILE_BYTES) {
            fclose(fp);
            free(buf.data);
            fail(err, VGN_E_LIMIT, "font file over 256 MiB");
            return NULL;
        }
        if (vgn_buf_append(&buf, chunk, n) != 0) {
            fclose(fp);
            free(buf.data);
            fail(err, VGN_E_NOMEM, "out of memory");
            return NULL;
        }
    }
    if (ferror(fp)) {
        fclose(fp);
        free(buf.data);
        fail(err, VGN_E_IO, "cannot read font file");
        return NULL;
    }
    fclose(fp);
    if (buf.data == NULL) {
        buf.data = (uint8_t *)malloc(1);
        if (buf.data == NULL) {
            fail(err, VGN_E_NOMEM, "out of memory");
            return NULL;
        }
    }
    return open_face(buf.data, buf.size, NULL, face_index, hinting, err);
}

vgn_font *vgn_font_open_system(const char *path, long face_index, vgn_error *err)
{
    if (path == NULL) {
        fail(err, VGN_E_STATE, "no font path");
        return NULL;
    }
    return open_face(NULL, 0, path, face_index, 1, err);
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n > cap - 1)
        n = cap - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

int vgn_font_get_info(vgn_font *f, vgn_font_info *info, vgn_error *err)
{
    const char *ps;
    if (f == NULL || info == NULL)
        return fail(err, VGN_E_STATE, "no font");
    memset(info, 0, sizeof *info);
    copy_name(info->family, sizeof info->family, f->face->family_name);
    copy_name(info->style, sizeof info->style, f->face->style_name);
    ps = FT_Get_Postscript_Name(f->face);
    copy_name(info->postscript, sizeof info->postscript, ps);
    copy_name(info->format, sizeof info->format, FT_Get_Font_Format(f->face));
    info->glyph_count = f->face->num_glyphs;
    info->face_count = f->face->num_faces;
    info->units_per_em = FT_IS_SCALABLE(f->face) ? f->face->units_per_EM : 0;
    info->scalable = FT_IS_SCALABLE(f->face) ? 1 : 0;
    info->has_kerning = FT_HAS_KERNING(f->face) ? 1 : 0;
    info->fixed_width = FT_IS_FIXED_WIDTH(f->face) ? 1 : 0;
    info->bitmap_strikes = f->face->num_fixed_sizes;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

int vgn_font_set_pixel_size(vgn_font *f, int pixels, vgn_error *err)
{
    FT_Error e;
    if (f == NULL)
        return fail(err, VGN_E_STATE, "no font");
    if (pixels < 1 || pixels > VGN_FONT_MAX_PIXEL_SIZE)
        return fail(err, VGN_E_LIMIT, "pixel size out of range (1 to 2048)");
    if (pixels == f->pixel_size) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return 0;
    }
    cache_clear(f);
    f->pixel_size = 0;
    if (FT_IS_SCALABLE(f->face)) {
        e = FT_Set_Pixel_Sizes(f->face, 0, (FT_UInt)pixels);
    } else if (f->face->num_fixed_sizes > 0 && f->face->available_sizes != NULL) {
        int i, best = 0, bestDiff = 0x7fffffff;
        for (i = 0; i < f->face->num_fixed_sizes; i++) {
            int h = f->face->available_sizes[i].height;
            int d = h > pixels ? h - pixels : pixels - h;
            if (d < bestDiff) {
                bestDiff = d;
                best = i;
            }
        }
        e = FT_Select_Size(f->face, best);
    } else {
        return fail(err, VGN_E_INVALID, "font has neither outlines nor bitmap sizes");
    }
    if (e != 0)
        return ft_fail(err, e, "cannot set the font size");
    f->pixel_size = pixels;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

int vgn_font_get_metrics(vgn_font *f, vgn_font_metrics *m, vgn_error *err)
{
    FT_Size_Metrics *sm;
    long asc, desc, height, fallback;
    if (f == NULL || m == NULL || f->face->size == NULL)
        return fail(err, VGN_E_STATE, "no font size");
    sm = &f->face->size->metrics;
    fallback = (long)f->pixel_size * 64;
    asc = sm->ascender;
    desc = sm->descender;
    /* Broken fonts give zero or absurd metrics: keep them within a few ems of the size. */
    if (asc <= 0 || asc > fallback * 4)
        asc = fallback * 4 / 5;
    if (desc > 0 || desc < -fallback * 4)
        desc = -fallback / 5;
    height = sm->height;
    if (height < asc - desc || height > fallback * 8)
        height = asc - desc;
    m->ascender_26_6 = (int32_t)asc;
    m->descender_26_6 = (int32_t)desc;
    m->line_height_26_6 = (int32_t)height;
    m->max_advance_26_6 = (int32_t)((sm->max_advance > 0 && sm->max_advance < fallback * 16) ? sm->max_advance : fallback);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

int vgn_font_has_glyph(vgn_font *f, uint32_t codepoint)
{
    if (f == NULL || f->face->charmap == NULL)
        return 0;
    return FT_Get_Char_Index(f->face, codepoint) != 0 ? 1 : 0;
}

int vgn_font_codepoints(vgn_font *f, uint32_t start, uint32_t *out, int max)
{
    FT_ULong c;
    FT_UInt gi = 0;
    int n = 0;
    if (f == NULL || out == NULL || max <= 0 || f->face->charmap == NULL)
        return 0;
    c = start == 0 ? FT_Get_First_Char(f->face, &gi) : FT_Get_Next_Char(f->face, (FT_ULong)start - 1, &gi);
    while (gi != 0 && n < max) {
        out[n++] = (uint32_t)c;
        c = FT_Get_Next_Char(f->face, c, &gi);
    }
    return n;
}

/* Loads and renders `codepoint` into a malloc'd coverage glyph. */
static int load_glyph(vgn_font *f, uint32_t codepoint, vgn_cached_glyph *out, vgn_error *err)
{
    FT_Error e;
    FT_GlyphSlot slot;
    FT_Bitmap converted, *bm;
    FT_UInt gi;
    int x, y, pitch, scale = 1;

    memset(out, 0, sizeof *out);
    if (f->pixel_size == 0)
        return fail(err, VGN_E_STATE, "no font size");
    gi = f->face->charmap != NULL ? FT_Get_Char_Index(f->face, codepoint) : 0;
    e = FT_Load_Glyph(f->face, gi, f->load_flags);
    if (e != 0)
        return ft_fail(err, e, "cannot load glyph");
    slot = f->face->glyph;
    if (slot->format != FT_GLYPH_FORMAT_BITMAP) {
        e = FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL);
        if (e != 0)
            return ft_fail(err, e, "cannot render glyph");
    }
    out->glyph.advance_26_6 = (int32_t)(slot->advance.x > -(1L << 24) && slot->advance.x < (1L << 24) ? slot->advance.x : 0);
    bm = &slot->bitmap;
    if (bm->width == 0 || bm->rows == 0 || bm->buffer == NULL) {
        vgn_err_fill(err, VGN_OK, NULL, NULL);
        return 0;
    }
    if (bm->width > VGN_GLYPH_MAX_SIDE || bm->rows > VGN_GLYPH_MAX_SIDE)
        return fail(err, VGN_E_LIMIT, "glyph larger than 4096 pixels");
    FT_Bitmap_Init(&converted);
    if (bm->pixel_mode != FT_PIXEL_MODE_GRAY || bm->num_grays != 256) {
        e = FT_Bitmap_Convert(f->library, bm, &converted, 1);
        if (e != 0) {
            FT_Bitmap_Done(f->library, &converted);
            return ft_fail(err, e, "cannot convert glyph bitmap");
        }
        if (converted.num_grays > 1 && converted.num_grays < 256)
            scale = 255 / (converted.num_grays - 1);
        bm = &converted;
    }
    out->bits = (uint8_t *)malloc((size_t)bm->width * bm->rows);
    if (out->bits == NULL) {
        FT_Bitmap_Done(f->library, &converted);
        return fail(err, VGN_E_NOMEM, "out of memory");
    }
    pitch = bm->pitch;
    for (y = 0; y < (int)bm->rows; y++) {
        const uint8_t *src = pitch >= 0 ? bm->buffer + (size_t)y * (size_t)pitch
                                        : bm->buffer + (size_t)((int)bm->rows - 1 - y) * (size_t)(-pitch);
        uint8_t *dst = out->bits + (size_t)y * bm->width;
        for (x = 0; x < (int)bm->width; x++) {
            int v = src[x] * scale;
            dst[x] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
    out->glyph.width = (int)bm->width;
    out->glyph.height = (int)bm->rows;
    out->glyph.left = slot->bitmap_left;
    out->glyph.top = slot->bitmap_top;
    FT_Bitmap_Done(f->library, &converted);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

/* The glyph for `codepoint`: from the cache, or rendered into `scratch` (caller frees scratch->bits). */
static const vgn_cached_glyph *glyph_for(vgn_font *f, uint32_t codepoint, vgn_cached_glyph *scratch, vgn_error *err)
{
    vgn_cached_glyph *g;
    if (codepoint < VGN_CACHE_SIZE && f->cache[codepoint] != NULL)
        return f->cache[codepoint];
    if (load_glyph(f, codepoint, scratch, err) != 0)
        return NULL;
    if (codepoint >= VGN_CACHE_SIZE)
        return scratch;
    g = (vgn_cached_glyph *)malloc(sizeof *g);
    if (g == NULL)
        return scratch;
    *g = *scratch;
    scratch->bits = NULL;
    f->cache[codepoint] = g;
    return g;
}

int vgn_font_advance(vgn_font *f, uint32_t codepoint, int32_t *advance_26_6, vgn_error *err)
{
    vgn_cached_glyph scratch = {{0, 0, 0, 0, 0}, NULL};
    const vgn_cached_glyph *g;
    if (f == NULL || advance_26_6 == NULL)
        return fail(err, VGN_E_STATE, "no font");
    g = glyph_for(f, codepoint, &scratch, err);
    if (g == NULL)
        return err ? err->code : VGN_E_INVALID;
    *advance_26_6 = g->glyph.advance_26_6;
    free(scratch.bits);
    return 0;
}

int vgn_font_kerning(vgn_font *f, uint32_t left, uint32_t right, int32_t *kern_26_6, vgn_error *err)
{
    FT_Vector k = {0, 0};
    FT_Error e;
    if (f == NULL || kern_26_6 == NULL)
        return fail(err, VGN_E_STATE, "no font");
    *kern_26_6 = 0;
    if (FT_HAS_KERNING(f->face) && f->face->charmap != NULL) {
        FT_UInt a = FT_Get_Char_Index(f->face, left), b = FT_Get_Char_Index(f->face, right);
        if (a != 0 && b != 0) {
            e = FT_Get_Kerning(f->face, a, b, FT_KERNING_DEFAULT, &k);
            if (e != 0)
                return ft_fail(err, e, "cannot read kerning");
            /* A hostile kern table may claim anything: no more than an em either way. */
            if (k.x > -(FT_Pos)f->pixel_size * 64 && k.x < (FT_Pos)f->pixel_size * 64)
                *kern_26_6 = (int32_t)k.x;
        }
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

int vgn_font_render_glyph(vgn_font *f, uint32_t codepoint, vgn_glyph *glyph,
                          uint8_t *buffer, size_t capacity, vgn_error *err)
{
    vgn_cached_glyph scratch = {{0, 0, 0, 0, 0}, NULL};
    const vgn_cached_glyph *g;
    size_t need;
    if (f == NULL || glyph == NULL)
        return fail(err, VGN_E_STATE, "no font");
    g = glyph_for(f, codepoint, &scratch, err);
    if (g == NULL)
        return err ? err->code : VGN_E_INVALID;
    *glyph = g->glyph;
    need = (size_t)g->glyph.width * (size_t)g->glyph.height;
    if (buffer != NULL && capacity >= need && need > 0 && g->bits != NULL)
        memcpy(buffer, g->bits, need);
    free(scratch.bits);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}

/* Blends one coverage glyph into the destination at pixel (ox, oy) = bitmap's top-left. */
static void blend(const vgn_cached_glyph *g, uint8_t *dst, int width, int height, size_t stride, int channels,
                  int ox, int oy, const uint8_t rgba[4], int clip_x0, int clip_x1)
{
    int x0 = ox < clip_x0 ? clip_x0 - ox : 0;
    int x1 = g->glyph.width;
    int y0 = oy < 0 ? -oy : 0;
    int y1 = g->glyph.height;
    int x, y;
    if (clip_x1 > width)
        clip_x1 = width;
    if (ox + x1 > clip_x1)
        x1 = clip_x1 - ox;
    if (oy + y1 > height)
        y1 = height - oy;
    for (y = y0; y < y1; y++) {
        const uint8_t *src = g->bits + (size_t)y * (size_t)g->glyph.width;
        uint8_t *row = dst + (size_t)(oy + y) * stride;
        for (x = x0; x < x1; x++) {
            unsigned a = (unsigned)src[x] * rgba[3] / 255;
            uint8_t *p;
            if (a == 0)
                continue;
            p = row + (size_t)(ox + x) * (size_t)channels;
            if (channels == 1) {
                p[0] = (uint8_t)((p[0] * (255 - a) + rgba[0] * a + 127) / 255);
            } else if (p[3] == 255) {
                p[0] = (uint8_t)((p[0] * (255 - a) + rgba[0] * a + 127) / 255);
                p[1] = (uint8_t)((p[1] * (255 - a) + rgba[1] * a + 127) / 255);
                p[2] = (uint8_t)((p[2] * (255 - a) + rgba[2] * a + 127) / 255);
            } else {
                /* Straight alpha "over": colours weighted by their alphas, then divided back out. */
                unsigned da = p[3] * (255 - a) / 255;
                unsigned oa = a + da;
                if (oa == 0)
                    continue;
                p[0] = (uint8_t)((rgba[0] * a + p[0] * da + oa / 2) / oa);
                p[1] = (uint8_t)((rgba[1] * a + p[1] * da + oa / 2) / oa);
                p[2] = (uint8_t)((rgba[2] * a + p[2] * da + oa / 2) / oa);
                p[3] = (uint8_t)oa;
            }
        }
    }
}

int vgn_font_draw_run(vgn_font *f, const uint32_t *codepoints, size_t count,
                      uint8_t *dst, int width, int height, size_t stride, int channels,
                      int32_t x_26_6, int y, const uint8_t rgba[4], int clip_x0, int clip_x1,
                      int32_t *end_x_26_6, vgn_error *err)
{
    int64_t pen = x_26_6;
    size_t i;
    int32_t kern;
    if (f == NULL || (codepoints == NULL && count > 0) || dst == NULL || rgba == NULL || width <= 0 || height <= 0)
        return fail(err, VGN_E_STATE, "bad text run arguments");
    if (channels != 1 && channels != 4)
        return fail(err, VGN_E_STATE, "channels must be 1 or 4");
    if (stride < (size_t)width * (size_t)channels)
        return fail(err, VGN_E_STATE, "stride too small");
    if (clip_x0 < 0)
        clip_x0 = 0;
    if (clip_x1 > width)
        clip_x1 = width;
    for (i = 0; i < count; i++) {
        vgn_cached_glyph scratch = {{0, 0, 0, 0, 0}, NULL};
        const vgn_cached_glyph *g;
        if (i > 0 && vgn_font_kerning(f, codepoints[i - 1], codepoints[i], &kern, NULL) == 0)
            pen += kern;
        if ((pen >> 6) >= clip_x1)
            break;
        g = glyph_for(f, codepoints[i], &scratch, err);
        if (g == NULL) {
            if (end_x_26_6)
                *end_x_26_6 = (int32_t)pen;
            return err ? err->code : VGN_E_INVALID;
        }
        if (g->bits != NULL) {
            int64_t ox = ((pen + 32) >> 6) + g->glyph.left;
            int64_t oy = (int64_t)y - g->glyph.top;
            if (ox < clip_x1 && ox + g->glyph.width > clip_x0 && oy < height && oy + g->glyph.height > 0)
                blend(g, dst, width, height, stride, channels, (int)ox, (int)oy, rgba, clip_x0, clip_x1);
        }
        pen += g->glyph.advance_26_6;
        free(scratch.bits);
        /* Hostile advances cannot push the pen anywhere int32 cannot hold. */
        if (pen > (1LL << 30) || pen < -(1LL << 30))
            pen = pen > 0 ? (1LL << 30) : -(1LL << 30);
    }
    if (end_x_26_6)
        *end_x_26_6 = (int32_t)pen;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return (int)(i > 0x7fffffff ? 0x7fffffff : i);
}

int vgn_font_measure_run(vgn_font *f, const uint32_t *codepoints, size_t count, int32_t *width_26_6, vgn_error *err)
{
    int64_t pen = 0;
    size_t i;
    int32_t adv, kern;
    if (f == NULL || width_26_6 == NULL || (codepoints == NULL && count > 0))
        return fail(err, VGN_E_STATE, "bad text run arguments");
    for (i = 0; i < count; i++) {
        if (i > 0 && vgn_font_kerning(f, codepoints[i - 1], codepoints[i], &kern, NULL) == 0)
            pen += kern;
        if (vgn_font_advance(f, codepoints[i], &adv, err) != 0)
            return err ? err->code : VGN_E_INVALID;
        pen += adv;
        if (pen > (1LL << 30) || pen < -(1LL << 30))
            pen = pen > 0 ? (1LL << 30) : -(1LL << 30);
    }
    *width_26_6 = (int32_t)pen;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}
