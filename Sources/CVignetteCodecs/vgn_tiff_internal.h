/* vgn_tiff_internal.h - the TIFF decoder's handle, shared by vgn_tiff.c and vgn_tiff_scaled.c. */
#ifndef VGN_TIFF_INTERNAL_H
#define VGN_TIFF_INTERNAL_H

#include <tiffio.h>

#include "vgn_internal.h"
#include "vgn_lazy.h"

#define TIFFClientOpenExt VGN_LAZY(VGN_LIB_TIFF, TIFFClientOpenExt)
#define TIFFClose VGN_LAZY(VGN_LIB_TIFF, TIFFClose)
#define TIFFGetField VGN_LAZY(VGN_LIB_TIFF, TIFFGetField)
#define TIFFGetFieldDefaulted VGN_LAZY(VGN_LIB_TIFF, TIFFGetFieldDefaulted)
#define TIFFGetStrileByteCount VGN_LAZY(VGN_LIB_TIFF, TIFFGetStrileByteCount)
#define TIFFGetStrileOffset VGN_LAZY(VGN_LIB_TIFF, TIFFGetStrileOffset)
#define TIFFIsTiled VGN_LAZY(VGN_LIB_TIFF, TIFFIsTiled)
#define TIFFNumberOfStrips VGN_LAZY(VGN_LIB_TIFF, TIFFNumberOfStrips)
#define TIFFNumberOfTiles VGN_LAZY(VGN_LIB_TIFF, TIFFNumberOfTiles)
#define TIFFOpenOptionsAlloc VGN_LAZY(VGN_LIB_TIFF, TIFFOpenOptionsAlloc)
#define TIFFOpenOptionsFree VGN_LAZY(VGN_LIB_TIFF, TIFFOpenOptionsFree)
#define TIFFOpenOptionsSetErrorHandlerExtR VGN_LAZY(VGN_LIB_TIFF, TIFFOpenOptionsSetErrorHandlerExtR)
#define TIFFOpenOptionsSetMaxSingleMemAlloc VGN_LAZY(VGN_LIB_TIFF, TIFFOpenOptionsSetMaxSingleMemAlloc)
#define TIFFOpenOptionsSetWarningHandlerExtR VGN_LAZY(VGN_LIB_TIFF, TIFFOpenOptionsSetWarningHandlerExtR)
#define TIFFRGBAImageBegin VGN_LAZY(VGN_LIB_TIFF, TIFFRGBAImageBegin)
#define TIFFRGBAImageEnd VGN_LAZY(VGN_LIB_TIFF, TIFFRGBAImageEnd)
#define TIFFRGBAImageGet VGN_LAZY(VGN_LIB_TIFF, TIFFRGBAImageGet)
#define TIFFRGBAImageOK VGN_LAZY(VGN_LIB_TIFF, TIFFRGBAImageOK)
#define TIFFReadDirectory VGN_LAZY(VGN_LIB_TIFF, TIFFReadDirectory)
#define TIFFReadScanline VGN_LAZY(VGN_LIB_TIFF, TIFFReadScanline)
#define TIFFScanlineSize VGN_LAZY(VGN_LIB_TIFF, TIFFScanlineSize)
#define TIFFSetDirectory VGN_LAZY(VGN_LIB_TIFF, TIFFSetDirectory)
#define TIFFSetSubDirectory VGN_LAZY(VGN_LIB_TIFF, TIFFSetSubDirectory)
#define TIFFStripSize64 VGN_LAZY(VGN_LIB_TIFF, TIFFStripSize64)
#define TIFFTileSize64 VGN_LAZY(VGN_LIB_TIFF, TIFFTileSize64)
#define TIFFReadTile VGN_LAZY(VGN_LIB_TIFF, TIFFReadTile)
#define TIFFMergeFieldInfo VGN_LAZY(VGN_LIB_TIFF, TIFFMergeFieldInfo)
#define TIFFSetTagExtender VGN_LAZY(VGN_LIB_TIFF, TIFFSetTagExtender)

#define VGN_TIFF_MAX_ALLOC ((tmsize_t)1 << 30) /* 1 GiB: bound of any single libtiff allocation */
#define VGN_TIFF_MAX_REDUCED 64                /* reduced copies examined at most */

enum { VGN_TST_OPENED = 0, VGN_TST_DONE, VGN_TST_FAILED };

typedef struct {
    vgn_decoder base;
    TIFF *tif;
    const uint8_t *data; /* the caller's buffer, or NULL when reading through fd */
    int fd;              /* the caller's descriptor (-1: from memory) */
    uint64_t size;       /* bytes of data, or of the file when it was opened */
    uint64_t pos;
    vgn_warnings warn;
    char first_err[VGN_MSG_LEN]; /* first libtiff error since the last reset */
    TIFFRGBAImage img;
    int img_ok;
    int tiled;
    uint32_t band_h;   /* rows per band: strip height or tile height */
    uint32_t *band;    /* width x band_h packed ABGR (libtiff's raster) */
    uint32_t band_y0;  /* first row held in band */
    uint32_t band_n;   /* rows held (0: none) */
    uint32_t row;      /* next row to output */
    uint8_t *cmyk_rgb; /* one row of RGB from the CMYK profile's transform (width x 3) */
    int packed;        /* read by scanline and unpacked here: sample sizes TIFFRGBAImage lacks (12-bit…) */
    uint16_t p_spp, p_bps, p_photometric;
    uint8_t *scanline; /* one stored row (packed and scaled modes) */
    /* Scaled mode (vgn_tiff_scaled.c): floating-point or signed samples stretched to 8 bits. */
    int scaled;
    uint16_t s_format;     /* SAMPLEFORMAT_IEEEFP or SAMPLEFORMAT_INT */
    int s_ranged;          /* the first pass over the values has been made */
    double s_lo, s_hi;     /* the values mapped to 0 and 255 */
    int s_has_nodata;      /* GDAL's no-data value is set */
    double s_nodata;
    uint32_t s_tw, s_th;   /* tile size (tiled pages) */
    uint8_t *s_tile;       /* one stored tile */
    uint8_t *s_band;       /* one row of tiles, as rows of the page's width */
    uint32_t s_band_y0;    /* first row held in s_band (UINT32_MAX: none) */
    double *s_values;      /* one row's samples as numbers */
    int state;
    int fail_code;
    char fail_msg[VGN_MSG_LEN];
} vgn_tiff;

/* Status for a libtiff message. */
VGN_HIDDEN int vgn_tiff_classify(const char *m, int fallback);

/* Pages of floating-point or signed samples (vgn_tiff_scaled.c): 1 when the current directory is
 * one and the handle is set up to read it, 0 when it is not (nothing changed). */
VGN_HIDDEN int vgn_tiff_scaled_open(vgn_tiff *t, uint32_t w, uint32_t h, vgn_image_info *info);

/* The scaled mode's next rows, as read_rows. */
VGN_HIDDEN int vgn_tiff_scaled_rows(vgn_tiff *t, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);

/* Frees what the scaled mode holds. */
VGN_HIDDEN void vgn_tiff_scaled_free(vgn_tiff *t);

/* Registers GDAL's no-data tag with libtiff (once per process, before the first open). */
VGN_HIDDEN void vgn_tiff_register_tags(void);

#endif /* VGN_TIFF_INTERNAL_H */
