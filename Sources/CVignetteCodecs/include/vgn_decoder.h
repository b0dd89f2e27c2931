/*
 * vgn_decoder.h - the row-streaming decoders beyond JPEG/PNG/WebP: BMP, ICO/CUR, ICNS, TGA, PCX, SGI,
 * Sun raster, PNM/PAM, PFM, QOI, Radiance HDR, FITS, DPX, DICOM, DDS, PSD, XCF, XPM/XBM, OpenEXR (OpenEXRCore), GIF (giflib), TIFF
 * (libtiff), HEIF/AVIF (libheif), JPEG XL (libjxl), JPEG 2000 (OpenJPEG), Windows metafiles (cairo); and camera RAW previews
 * (LibRaw). The conventions of vgn_codecs.h apply (vgn_error filled by every call, no global mutable
 * state, no output on stderr, input memory (or descriptor) owned by the caller and kept alive until
 * close).
 *
 * Every format opens to the same handle:
 *   open       parses the header only: info->width/height is the full picture as stored (for the
 *              caller's pixel cap), nothing proportional to the picture's area is allocated yet;
 *   size       the size of the rows read_rows gives (a reduced subfile or embedded thumbnail when
 *              the format has one covering the target; already rotated when the library applies
 *              the file's orientation itself, in which case info->orientation is 1);
 *   working    bytes the decoder may still allocate while reading (strip, frame, whole-image
 *              buffers), so the caller can hold its memory budget before the first read;
 *   read_rows  RGBA8 rows top-down in stored order (straight alpha, opaque = 255), up to max_rows
 *              rows at dst + i*stride (stride >= width*4); returns rows written, 0 at the end, a
 *              negative vgn_status on error (rows returned before stay valid);
 *   close      frees everything (NULL is fine).
 * info->orientation (EXIF numbering 1..8) is what the caller still has to apply.
 */
#ifndef VGN_DECODER_H
#define VGN_DECODER_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct vgn_decoder vgn_decoder;
struct vgn_icc; /* vgn_icc.h */

void vgn_decoder_size(const vgn_decoder *d, uint32_t *width, uint32_t *height);
/* The picture's true size in row pixels: the size, unless the rows are a box reduction whose last
 * boxes are partial (an AVIF shrunk 6 times from 3088 pixels is 515 wide, the picture 514.67). */
void vgn_decoder_extent(const vgn_decoder *d, double *width, double *height);
size_t vgn_decoder_working_bytes(const vgn_decoder *d);
/* 1 when the codec knows every pixel's alpha will be 255 (a TIFF without an alpha sample), so the
 * caller can average colour alone; 0 when it may not be, or the codec does not say. */
int vgn_decoder_opaque(const vgn_decoder *d);
int vgn_decoder_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err);
void vgn_decoder_close(vgn_decoder *d);

/* The picture's embedded ICC profile (valid until close), if the codec found one it can use;
 * returns 0 and NULL when there is none. *cmyk = 0: an RGB profile, which the caller applies to
 * the output; *cmyk = 1: a CMYK profile, whose VGN_ICC_CMYK8 transform the caller hands back with
 * vgn_decoder_set_cmyk_transform before the first read (the codec converts the samples itself;
 * without it they get the plain CMYK formula). */
int vgn_decoder_icc(const vgn_decoder *d, const uint8_t **profile, size_t *size, int *cmyk);
void vgn_decoder_set_cmyk_transform(vgn_decoder *d, const struct vgn_icc *t);

/* `target` (where taken) is the longest side the caller wants, so a format with reduced copies
 * (TIFF reduced-resolution subfiles, HEIF thumbnails, ICO entries) can pick the smallest one that
 * still covers it; 0 means the full picture. */

/* BMP ("BM"): 1/2/4/8/16/24/32 bit, RLE4/RLE8, BI_BITFIELDS/ALPHABITFIELDS, top-down, V4/V5, OS/2. */
vgn_decoder *vgn_bmp_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* A DIB as stored inside ICO/CUR (BITMAPINFOHEADER with doubled height, then the AND mask). */
vgn_decoder *vgn_dib_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* ICO/CUR directory: picks the entry to show for `target` (the smallest covering it, else the
 * largest; more colours breaking ties) and gives its byte range; *is_png says whether it is a PNG
 * (decode with vgn_png_open) or a DIB (vgn_dib_open). info gets the entry's size. */
int vgn_ico_select(const uint8_t *data, size_t size, uint32_t target, size_t *offset, size_t *length, int *is_png,
                   vgn_image_info *info, vgn_error *err);

/* Apple icon files (.icns): picks the entry to show for `target` (the smallest covering it, else the
 * largest; a PNG or JPEG 2000 one over an old bitmap of the same size) and gives its data's byte
 * range and *kind: VGN_ICNS_PNG (decode with vgn_png_open), VGN_ICNS_JPEG2000 (vgn_jp2_open) or
 * VGN_ICNS_BITMAP (vgn_icns_bitmap_open: RGB run-length coded with its mask entry, or ARGB). info
 * gets the entry's size. */
enum { VGN_ICNS_PNG = 0, VGN_ICNS_JPEG2000 = 1, VGN_ICNS_BITMAP = 2 };
int vgn_icns_select(const uint8_t *data, size_t size, uint32_t target, size_t *offset, size_t *length, int *kind,
                    vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_icns_bitmap_open(const uint8_t *data, size_t size, size_t offset, size_t length, vgn_image_info *info,
                                  vgn_error *err);

/* XPM (X PixMap: XPM3 in C, XPM2) and XBM (X BitMap, X11 and X10): read from their C source. */
vgn_decoder *vgn_xpm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_xbm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* QOI ("Quite OK Image"): RGB or RGBA, decoded operation by operation as rows are read. */
vgn_decoder *vgn_qoi_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* PFM (Portable FloatMap, "PF" colour or "Pf" grey, either byte order): values within 0-1 as they
 * are, else stretched over the range found; NaN and infinities black. */
vgn_decoder *vgn_pfm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* DDS (DirectDraw Surface textures): of the first surface, the smallest mipmap level whose longest
 * side covers `target` (the first level when target is 0 or the file has no chain); BC1-BC5 (DXT1-5,
 * ATI1/2), uncompressed by channel masks, the DX10 header's DXGI formats of those kinds; BC6H and
 * BC7 refused by name. */
vgn_decoder *vgn_dds_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* OpenEXR (OpenEXRCore, opened on first use; run it through vgn_isolated_open: 3.1.5 crashes on
 * damaged chunks): the first part, scanline or tiled (at the smallest mipmap or ripmap level covering
 * `target`), R/G/B/A or Y, shown as linear light clamped to
 * 0-1 through the sRGB curve; deep images refused. */
vgn_decoder *vgn_exr_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* Radiance HDR (RGBE; .hdr, .pic): the header's text lines, then scanlines flat or run-length coded
 * (new-style, per component; old-style repeat pixels read too); -Y H +X W and the other seven
 * orientations; 32-bit_rle_rgbe (XYZE refused by name); shown as linear light clamped to 0-1 through
 * the sRGB curve, as OpenEXR is (values as stored: EXPOSURE records what was already applied). */
vgn_decoder *vgn_hdr_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* FITS (astronomy's Flexible Image Transport System): the primary image or the first IMAGE extension,
 * BITPIX 8/16/32/64/-32/-64 with BZERO/BSCALE, the first row stored at the bottom, a cube of three
 * planes as RGB (else the first plane); 8-bit data as stored, other data over its range, stretched as
 * PixInsight's automatic screen stretch when its median is in the lowest quarter (a sky background);
 * tile-compressed (fpack) images refused by name. */
vgn_decoder *vgn_fits_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* DPX (SMPTE 268M: film scans, effects plates), either byte order: the first image element, luma
 * (or one component) as grey, RGB, RGBA or ABGR, 8/16-bit samples, 10-bit three to a filled word and
 * 12-bit one to a half-word (packing 1 or 2); orientations 0-3 as EXIF; printing-density and log
 * data through the Cineon convention to sRGB, other transfers as stored. Subsampled and user-defined
 * layouts, run-length coding, packing 0 and transposed orientations are refused by name. */
vgn_decoder *vgn_dpx_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* DICOM (PS3.10 files: medical images), the first frame. vgn_dicom_select reads the header and says
 * how the frame is coded (*kind): VGN_DICOM_NATIVE (uncompressed, RLE or lossless JPEG: open the file
 * with vgn_dicom_open), VGN_DICOM_JPEG2000 (open the file with vgn_dicom_jp2_open, an OpenJPEG decoder
 * to isolate like vgn_jp2_open, which shows grey as vgn_dicom_open does), VGN_DICOM_JPEGLS (open the
 * file with vgn_dicom_jls_open, vgn_dicom_open with CharLS: isolate it too) or VGN_DICOM_JPEG, whose
 * codestream is data[*offset, *offset + *length) or, when the frame spans several fragments, *joined
 * (malloc'd, *length bytes: release it with vgn_free); info gets the header's size. 12-bit JPEG,
 * video and deflated data sets are refused by name. vgn_dicom_open reads native, RLE and lossless JPEG
 * frames: grey through the rescale and the first window (else over the frame's range; MONOCHROME1
 * inverted), RGB, YBR_FULL(_422), palette colour, 1-bit; its rows are boxes of k x k pixels averaged,
 * k the largest whole factor leaving the longest side at least twice `target` (1 when target is 0). */
enum { VGN_DICOM_NATIVE = 0, VGN_DICOM_JPEG = 1, VGN_DICOM_JPEG2000 = 2, VGN_DICOM_JPEGLS = 3 };

/* What a preview says of a DICOM file, from its header: text values as stored (their first value, in
 * the file's character set, `charset`), empty when absent. Never the patient's name, identifiers or
 * dates of birth. */
typedef struct {
    char syntax[72];       /* the transfer syntax's UID ("" when the meta group names none) */
    char photometric[20];
    char charset[65];      /* Specific Character Set (0008,0005) */
    char modality[17];     /* CT, MR, CR, US... */
    char body_part[65];
    char study[65];        /* Study Description */
    char series[65];       /* Series Description */
    char study_date[9];    /* YYYYMMDD */
    char manufacturer[65];
    char model[65];
    uint32_t width, height; /* 0 when absent */
    int samples, bits_stored, frames; /* 0 when absent */
    int has_pixels;
} vgn_dicom_facts;

/* Reads the facts of the file's header, up to its pixel data or any damage (what came before it is
 * kept): 0, or -1 when it is not a DICOM file (no "DICM" after the preamble). */
int vgn_dicom_read_facts(const uint8_t *data, size_t size, vgn_dicom_facts *facts);
int vgn_dicom_select(const uint8_t *data, size_t size, int *kind, size_t *offset, size_t *length, uint8_t **joined,
                     vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_dicom_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_dicom_jls_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_dicom_jp2_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* XCF (GIMP's own format, versions 0 to 12 and up, every precision): the visible top-level layers
 * (a group by the projection GIMP stores) composited bottom first with their masks, opacity and
 * modes (the separable ones; HSV/LCH and the erase family as Normal, with a warning) on a canvas
 * reduced k times, k the largest whole factor leaving the longest side at least 2 x `target` (1 when
 * target is 0); RLE, zlib or flat tiles; a damaged tile is left transparent with a warning. */
vgn_decoder *vgn_xcf_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* JBIG1 (JBIG-KIT's libjbig, opened on first use; run it through vgn_isolated_open: libjbig aborts
 * when an allocation fails): one bit plane, 1 black; of a progressive file, the smallest resolution
 * layer whose longest side covers 4 x `target` (lower layers are black and white too: shrunk less,
 * they stay jagged), all of them when target is 0. Grey (several planes),
 * continuation files and heights left open are refused. */
vgn_decoder *vgn_jbig_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* Windows metafiles: WMF (placeable or not) and EMF (EMF+ records skipped, the EMF fallback drawn),
 * played through cairo (opened on first use; run it through vgn_isolated_open as "cairo") at the size
 * whose longest side is `target` (the frame's size at 96 dpi when target is 0 or larger). */
vgn_decoder *vgn_metafile_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* TGA: colour-mapped, true-colour, grey; raw or RLE; any origin. */
vgn_decoder *vgn_tga_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* ZSoft PCX, raw or run-length coded: 8-bit with the 256-colour palette at the end (grey without it),
 * RGB and RGBA in 3 and 4 planes, 1-bit black and white, EGA (1 bit in 4 planes) and 2- or 4-bit pixels
 * with the header's 16 colours; other layouts are VGN_E_UNSUPPORTED. One scanline is allocated at open. */
vgn_decoder *vgn_pcx_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* SGI image (.sgi, .rgb, .bw), verbatim or run-length coded: grey, grey+alpha, RGB, RGBA (the first four
 * channels of more), 8 or 16 bits a sample (the top byte kept). Rows are decoded where they are stored,
 * nothing is allocated; the file must hold the row tables (or the verbatim planes) its header gives. */
vgn_decoder *vgn_sgi_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* Sun raster (.ras, .sun), raw or run-length coded: 1-bit (black for 1 without a colour map), 8-bit with
 * its colour map or grey, 24-bit BGR and 32-bit XBGR (RGB and XRGB in type-3 files; X read as
 * alpha unless it is 0 in every pixel, as ImageMagick writes alpha there).
 * Run-length coded files take one row buffer at the first read (base.working). */
vgn_decoder *vgn_sun_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* Photoshop PSD and PSB: the merged image (vgn_psd.c), from memory or read from a descriptor. */
vgn_decoder *vgn_psd_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);
vgn_decoder *vgn_psd_open_fd(int fd, vgn_image_info *info, vgn_error *err);
/* From a PSD's image resources (`data` of `size` bytes, or the file open as `fd` when data is NULL):
 * *real_merged 0 when Version Info (1057) says the merged image is not real ("Maximize
 * compatibility" off: Photoshop writes white), else 1; the JPEG thumbnail's bytes (1036) at
 * *thumb_offset, *thumb_length (0 when there is none). What cannot be read is left as "real". */
int vgn_psd_merged_info(const uint8_t *data, size_t size, int fd, int *real_merged, uint64_t *thumb_offset,
                        uint64_t *thumb_length, vgn_error *err);

/* PNM/PAM: P1-P6 (ASCII and binary), P7 (GRAYSCALE, RGB, *_ALPHA, BLACKANDWHITE); 16-bit maxval scaled. */
vgn_decoder *vgn_pnm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);

/* GIF (giflib): the first frame composed on the logical screen (transparent elsewhere), interlaced
 * or not; the rest of the file is never read. info->width/height is the logical screen. */
vgn_decoder *vgn_gif_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);
/* The same over a regular file read through `fd` (pread into a 64 KiB buffer, up to the file's size
 * at open; the caller keeps fd open until close); VGN_E_IO when fd is not a regular file. */
vgn_decoder *vgn_gif_open_fd(int fd, vgn_image_info *info, vgn_error *err);

/* TIFF (libtiff): the first page, or a reduced-resolution copy of it covering `target`. */
vgn_decoder *vgn_tiff_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);
/* The same over a regular file read through `fd` (pread: nothing mapped, the file never held
 * whole; its size is taken at open). The caller keeps fd open until close. A file that shrinks
 * meanwhile reads short: VGN_E_TRUNCATED or VGN_E_INVALID, never a crash; VGN_E_IO when fd is not
 * a readable regular file. */
vgn_decoder *vgn_tiff_open_fd(int fd, uint32_t target, vgn_image_info *info, vgn_error *err);

/* The libraries opened on first use instead of at start-up: libheif (which brings four video
 * codecs), libjxl (highway) and LibRaw (OpenMP) cost every process milliseconds of loading and
 * constructors, used or not. vgn_heif_open, vgn_jxl_open, vgn_avif_encode, vgn_raw_open and
 * vgn_raw_extract_isolated load theirs; call this before forking a child that will use one
 * (vgn_isolated_open), so that the child does not load it. */
typedef enum vgn_library {
    VGN_LIB_HEIF = 0,
    VGN_LIB_JXL  = 1,
    VGN_LIB_RAW  = 2,
    VGN_LIB_DAV1D = 3, /* optional: libheif's AV1 pictures go through it when it loads (vgn_av1.c) */
    /* Loaded by the first TIFF, colour profile or WebP; long-running commands load them at start
     * (before any worker forks a child). */
    VGN_LIB_TIFF = 4,
    VGN_LIB_LCMS = 5,
    VGN_LIB_WEBP = 6,
    VGN_LIB_WEBPDEMUX = 7,
    /* Loaded when a text page needs a glyph the DejaVu fonts lack (vgn_font_fallback_file). */
    VGN_LIB_FONTCONFIG = 8,
    /* OpenJPEG, by the JPEG 2000 decoder (in its child). */
    VGN_LIB_OPENJP2 = 9,
    /* OpenEXRCore, by the OpenEXR decoder (in its child). */
    VGN_LIB_OPENEXR = 10,
    /* JBIG-KIT's libjbig, by the JBIG decoder (in its child). */
    VGN_LIB_JBIG = 11,
    /* cairo, by the Windows metafile renderer (in its child). */
    VGN_LIB_CAIRO = 12,
    /* CharLS, by the DICOM reader for JPEG-LS frames (in its child). */
    VGN_LIB_CHARLS = 13
} vgn_library;

/* Loads `library` once (any thread, any number of calls): 0, or VGN_E_UNSUPPORTED with a message
 * naming the library when it cannot be loaded. */
int vgn_library_load(vgn_library library, vgn_error *err);

/* HEIF/HEIC/AVIF (libheif): the primary image, or its embedded thumbnail when that covers
 * `target`; libheif applies irot/imir/clap (info->orientation is 1). */
vgn_decoder *vgn_heif_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* JPEG XL (libjxl): the first frame, oriented by libjxl (info->orientation is 1). */
vgn_decoder *vgn_jxl_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* JPEG 2000, a JP2 file or a bare codestream (OpenJPEG): the picture at the smallest wavelet
 * resolution whose longest side covers `target`; a JP2's ICC profile is handed to the caller.
 * Pictures with more than 65,536 tiles x components, or 256 components, are refused before
 * OpenJPEG reads them (it allocates per tile and component while reading the header). */
vgn_decoder *vgn_jp2_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err);

/* Any of the openers above run in a forked child: the child sends the header (info, row size,
 * working bytes, ICC profile) and decodes only when the first rows are asked for, one request per
 * read; a crash, a hang past timeout_ms (from open), or what the libraries print on stderr stays
 * in the child, whose end is reported as an error naming `library`. close kills it. */
typedef vgn_decoder *(*vgn_isolated_opener)(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info,
                                            vgn_error *err);
vgn_decoder *vgn_isolated_open(vgn_isolated_opener opener, const char *library, const uint8_t *data, size_t size,
                               uint32_t target, unsigned timeout_ms, vgn_image_info *info, vgn_error *err);

/* Makes the children of vgn_isolated_open and of the PDF, media and camera RAW readers start as
 * the program at `path` (vignette-decode: a main calling vgn_isolate_helper_main) with the input
 * in a memfd, instead of a fork of the caller, whose heap every fork maps and whose locks held by
 * other threads every fork inherits. NULL: they start as the caller's own executable
 * (/proc/self/exe, answered before main by a constructor in this library), unless
 * vgn_isolate_set_self_start(0); a program that cannot be started forks. Call it once, before
 * the first open. */
void vgn_isolate_set_helper(const char *path);

/* Whether children start as the caller's own executable when no helper is named (1, the
 * default) or as forks (0: tests, and fuzz harnesses, which want the fork's speed). */
void vgn_isolate_set_self_start(int on);

/* 1 when vgn_isolated_open(opener, ...) will start a fresh program (the helper or the caller's
 * executable), which loads the opener's library itself: the caller then need not load it (a fork
 * needs it loaded beforehand). */
int vgn_isolate_uses_helper(vgn_isolated_opener opener);

/* How many children the helper program, and the caller's own executable, have been started for
 * in this process (for tests). */
unsigned long vgn_isolate_helper_starts(void);
unsigned long vgn_isolate_self_starts(void);

/* The helper program's main: argv is {name, "libheif"|"libjxl"|"OpenJPEG"|"OpenEXR"|"cairo", target, size}, the input is in fd
 * 3, requests come on fd 4 and answers go to fd 5, as for a forked child. */
int vgn_isolate_helper_main(int argc, char **argv);

/* Camera RAW (LibRaw): never develops the raw data. Finds the embedded preview: on VGN_OK either
 * *jpeg and *jpeg_size point at a JPEG inside `data`'s copy held by the handle (decode with the JPEG
 * path), or *decoder is a vgn_decoder over a bitmap preview (close it before the raw handle).
 * info->width/height is the preview's size, info->orientation the RAW's orientation (EXIF
 * numbering) to apply to it. */
typedef struct vgn_raw vgn_raw;
vgn_raw *vgn_raw_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err);
int vgn_raw_preview(vgn_raw *r, const uint8_t **jpeg, size_t *jpeg_size, vgn_decoder **decoder, vgn_image_info *info,
                    vgn_error *err);
void vgn_raw_close(vgn_raw *r);

/* The embedded preview of a camera RAW, found by LibRaw in a forked child (LibRaw 0.20 has crashed
 * on hostile files): the preview's bytes come back through a pipe, a crash or a hang past
 * timeout_ms becomes an error. On VGN_OK, bytes (malloc'd: free with vgn_free) is a JPEG when
 * is_jpeg, else width x height pixels of `colors` (1 or 3) bytes; orientation is the RAW's (EXIF
 * numbering) and width/height the preview's. */
typedef struct {
    uint8_t *bytes;
    size_t size;
    int is_jpeg;
    uint32_t width, height;
    int colors;
    int orientation;
} vgn_raw_extract;
int vgn_raw_extract_isolated(const uint8_t *data, size_t size, unsigned timeout_ms, vgn_raw_extract *out, vgn_error *err);

/* A decoder streaming `pixels` (width x height, 1 or 3 bytes each, owned by the caller) as RGBA rows. */
vgn_decoder *vgn_bitmap_open(const uint8_t *pixels, uint32_t width, uint32_t height, int colors);

#ifdef __cplusplus
}
#endif

#endif /* VGN_DECODER_H */
