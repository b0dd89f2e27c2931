/*
 * vgn_icc.h - colour management with LittleCMS 2: a transform from an embedded ICC profile to
 * sRGB, built once per profile (the caller caches it) and applied to rows or thumbnails.
 * Conventions of vgn_codecs.h apply. A transform may be used by several threads at once (it is
 * built without LittleCMS's one-pixel cache); each has its own LittleCMS context, so nothing is
 * global and nothing is printed.
 */
#ifndef VGN_ICC_H
#define VGN_ICC_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Pixel layouts a transform converts from (the output is RGBA8 for RGBA8, else RGB8). */
typedef enum vgn_icc_layout {
    VGN_ICC_RGBA8 = 0,          /* RGBA8 in and out, alpha copied (an RGB profile) */
    VGN_ICC_CMYK8 = 1,          /* CMYK8 in, RGB8 out (a CMYK profile) */
    VGN_ICC_CMYK8_INVERTED = 2  /* Adobe's inverted CMYK8 (as Photoshop JPEGs store it), RGB8 out */
} vgn_icc_layout;

typedef struct vgn_icc vgn_icc;

/* Parses `profile` and builds its transform to sRGB (perceptual intent, black point compensation).
 * Returns NULL when no work is needed (*is_srgb = 1: the profile is sRGB) or when the profile is
 * unusable for the layout (*is_srgb = 0, err says why). `description` (may be NULL) receives the
 * profile's description, NUL-terminated, cut to description_size. */
vgn_icc *vgn_icc_open(const uint8_t *profile, size_t size, int layout, int *is_srgb, char *description,
                      size_t description_size, vgn_error *err);

/* Converts `pixels` pixels from `in` to `out` (they may be the same buffer for VGN_ICC_RGBA8). */
void vgn_icc_apply(const vgn_icc *t, const uint8_t *in, uint8_t *out, size_t pixels);

void vgn_icc_close(vgn_icc *t);

/* The ICC profile embedded in a JPEG (APP2 ICC_PROFILE segments, joined), a PNG (iCCP) or a WebP
 * (ICCP chunk); 0 and *profile NULL when there is none. JPEG's is malloc'd (free with vgn_free);
 * PNG's lives as long as the handle; WebP's points into `data`. */
int vgn_jpeg_icc(vgn_jpeg *j, uint8_t **profile, size_t *size);
int vgn_png_icc(vgn_png *p, const uint8_t **profile, size_t *size);
int vgn_webp_icc(const uint8_t *data, size_t size, const uint8_t **profile, size_t *profile_size);

/* Makes a CMYK JPEG's rows go through `t` (a VGN_ICC_CMYK8 or _INVERTED transform, whichever
 * matches the file: see vgn_jpeg_cmyk_inverted) instead of the plain CMYK formula; call between
 * open and start; `t` must outlive the handle's reads. */
void vgn_jpeg_set_cmyk_transform(vgn_jpeg *j, const vgn_icc *t);

/* 1 when the JPEG's colour is CMYK/YCCK stored inverted (Adobe), 0 when plain CMYK, -1 when not CMYK. */
int vgn_jpeg_cmyk_inverted(const vgn_jpeg *j);

#ifdef __cplusplus
}
#endif

#endif /* VGN_ICC_H */
