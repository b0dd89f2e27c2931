/*
 * vgn_text.h - Vignette's C shim over FreeType 2: open a font, measure and render text.
 *
 * Conventions: as in vgn_codecs.h (vgn_error filled by every call that takes one; int
 * results are 0 or a count on success, a negative vgn_status on failure; no FreeType type
 * crosses this interface).
 *  - Each vgn_font owns its own FT_Library and a private copy of the font bytes, so
 *    different fonts may be used on different threads at the same time; one font must not
 *    be used by two threads at once (the Swift wrapper holds a lock).
 *  - Fonts are treated as hostile: every FreeType error is checked, pixel sizes are capped
 *    (VGN_FONT_MAX_PIXEL_SIZE), glyph bitmaps are capped (VGN_GLYPH_MAX_SIDE), and with
 *    `hinting` off (use it for untrusted fonts) the TrueType bytecode interpreter never runs.
 *  - Lengths in pixels are 26.6 fixed point (1/64 pixel) where the name ends in `_26_6`.
 */
#ifndef VGN_TEXT_H
#define VGN_TEXT_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VGN_FONT_MAX_PIXEL_SIZE 2048    /* larger requests -> VGN_E_LIMIT */
#define VGN_FONT_MAX_FILE_BYTES 268435456 /* 256 MiB: larger memory fonts -> VGN_E_LIMIT */
#define VGN_GLYPH_MAX_SIDE 4096         /* a rendered glyph wider or taller is skipped (VGN_E_LIMIT) */

typedef struct vgn_font vgn_font;

/* Names and counts of an open face. */
typedef struct {
    char family[128];   /* family name ("" when the font has none), UTF-8 as FreeType gives it */
    char style[128];    /* style name ("Regular", "Bold"...; "" when none) */
    char postscript[128]; /* PostScript name ("" when none) */
    long glyph_count;   /* glyphs in the face */
    long face_count;    /* faces in the file (collections have several) */
    int units_per_em;   /* design units per em (0 for bitmap-only fonts) */
    int scalable;       /* outline font (TrueType/CFF/Type 1) */
    int has_kerning;    /* a 'kern' table FreeType can read */
    int fixed_width;    /* every glyph has the same advance (monospace) */
    int bitmap_strikes; /* embedded bitmap sizes */
    char format[32];    /* FreeType's font format name ("TrueType", "CFF", "Type 1"...) */
} vgn_font_info;

/* Vertical metrics at the current pixel size. */
typedef struct {
    int32_t ascender_26_6;  /* baseline to top (positive) */
    int32_t descender_26_6; /* baseline to bottom (negative) */
    int32_t line_height_26_6; /* baseline to baseline */
    int32_t max_advance_26_6; /* widest advance */
} vgn_font_metrics;

/* A rendered glyph: 8-bit coverage rows (0 = none, 255 = full), `width` bytes each. */
typedef struct {
    int width, height;   /* bitmap size (0 for a blank glyph such as space) */
    int left, top;       /* offset of the bitmap's top-left from the pen position (top is up from the baseline) */
    int32_t advance_26_6; /* horizontal advance */
} vgn_glyph;

/* Opens face `face_index` of the font file at `path` (the file is read into memory); NULL on error. */
vgn_font *vgn_font_open(const char *path, long face_index, int hinting, vgn_error *err);

/* Opens face `face_index` of a font held in memory (the bytes are copied); NULL on error. */
vgn_font *vgn_font_open_memory(const uint8_t *data, size_t size, long face_index, int hinting, vgn_error *err);

/* Opens face `face_index` of a trusted font file (a system font: hinting on) without reading it
 * into memory: FreeType reads the parts it needs. NULL on error. */
vgn_font *vgn_font_open_system(const char *path, long face_index, vgn_error *err);

/*
 * The system font fontconfig picks for `codepoint` among the scalable, non-colour fonts with a
 * glyph for it (sans-serif preferred): its file written to `path` (`capacity` bytes) and its face
 * to `face_index`. Returns 1 when there is one, 0 when no such font is installed, or
 * VGN_E_UNSUPPORTED with a message when fontconfig cannot be loaded (it is opened on first use).
 */
int vgn_font_fallback_file(uint32_t codepoint, char *path, size_t capacity, int *face_index, vgn_error *err);

/* Fills `info` with the face's names and counts. */
int vgn_font_get_info(vgn_font *f, vgn_font_info *info, vgn_error *err);

/* Sets the size (1..VGN_FONT_MAX_PIXEL_SIZE pixels per em); a bitmap-only font picks its nearest strike. */
int vgn_font_set_pixel_size(vgn_font *f, int pixels, vgn_error *err);

/* Fills `m` with the vertical metrics at the current size. */
int vgn_font_get_metrics(vgn_font *f, vgn_font_metrics *m, vgn_error *err);

/* 1 when the face maps `codepoint` to a glyph other than .notdef, else 0. */
int vgn_font_has_glyph(vgn_font *f, uint32_t codepoint);

/* The first `max` codepoints the face maps (in code order, from `start`), written to out; returns how many. */
int vgn_font_codepoints(vgn_font *f, uint32_t start, uint32_t *out, int max);

/* Horizontal advance of `codepoint` at the current size (.notdef's for an unmapped one). */
int vgn_font_advance(vgn_font *f, uint32_t codepoint, int32_t *advance_26_6, vgn_error *err);

/* Kerning between two codepoints at the current size (0 without a kern table). */
int vgn_font_kerning(vgn_font *f, uint32_t left, uint32_t right, int32_t *kern_26_6, vgn_error *err);

/*
 * Renders `codepoint` at the current size. Fills `glyph`; copies coverage into `buffer` when it
 * holds width*height bytes (else only `glyph` is filled, so call once with NULL to learn the size).
 */
int vgn_font_render_glyph(vgn_font *f, uint32_t codepoint, vgn_glyph *glyph,
                          uint8_t *buffer, size_t capacity, vgn_error *err);

/*
 * Draws a run of `count` codepoints (kerning applied) into `dst` (`width` x `height` pixels of
 * `channels` bytes: 1 gray, 4 straight-alpha RGBA; `stride` bytes a row), pen starting at
 * x_26_6 on baseline y, blending `rgba` by coverage ("over"); pixels outside
 * [clip_x0, clip_x1) x [0, height) are left alone. Stops at the first glyph whose pen start
 * is at or past clip_x1. *end_x_26_6 receives the pen position after the last glyph drawn.
 * Returns the number of codepoints consumed.
 */
int vgn_font_draw_run(vgn_font *f, const uint32_t *codepoints, size_t count,
                      uint8_t *dst, int width, int height, size_t stride, int channels,
                      int32_t x_26_6, int y, const uint8_t rgba[4], int clip_x0, int clip_x1,
                      int32_t *end_x_26_6, vgn_error *err);

/* Advance of a run (kerning applied) at the current size, without drawing. */
int vgn_font_measure_run(vgn_font *f, const uint32_t *codepoints, size_t count, int32_t *width_26_6, vgn_error *err);

/* Releases the face, its library and its bytes (NULL is fine). */
void vgn_font_close(vgn_font *f);

#ifdef __cplusplus
}
#endif

#endif /* VGN_TEXT_H */
