/* vgn_metafile.c - Windows metafiles: WMF (with or without the Aldus placeable header) and EMF, played
 * record by record into a cairo image surface (libcairo.so.2, opened on first use; run in the isolated
 * child as "cairo"). See vgn_decoder.h.
 *
 * open reads the header alone (a WMF without a placeable header is walked up to its first
 * SetWindowExt, at most 4096 records, for its size). The first read_rows plays the records over a
 * transparent background, then rows are handed out as straight RGBA.
 *
 * One playback state serves both formats: a device context (pen, brush, font, colours, modes, window
 * and viewport, world transform, current position) with a SaveDC stack of 64, an object table of the
 * header's size, and the picture's frame fitted to the output. Every point is mapped to output
 * pixels here (clamped to +-1e6, inside cairo's fixed point) and cairo draws with an identity matrix.
 *
 * Drawn: lines, polylines, polygons and poly-polygons (16- and 32-bit), Bezier curves, rectangles,
 * rounded rectangles, ellipses, arcs, pies and chords, EMF paths, text (EMF UTF-16 and 8-bit; WMF as
 * cp1252) through cairo's toy font API with fontconfig's substitutes, DIBs (1/4/8/16/24/32-bit BI_RGB)
 * stretched into their rectangle, pattern blits. Approximated: hatched brushes are solid, pattern
 * brushes grey, every raster operation is a copy, WMF map modes other than MM_ISOTROPIC map the window
 * onto the frame. Clipped: to rectangles intersected or excluded (EMF and WMF), to a path, and to a
 * region selected in EMF (copied, intersected or taken out; a union or exclusive-or with the clip
 * is passed over), the clip saved and restored with the device context. Skipped: regions as
 * objects (WMF's SelectClipRegion, FillRgn...), palettes, EMF+ (the EMF records beside it are drawn).
 *
 * Hostile input: every record's size is checked against what remains and against its type's minimum;
 * counts are checked against the record's bytes before anything is allocated; at most 1,000,000
 * records, 4,000,000 points (16,384 a record or path; every 64 output pixels of outline, times a
 * wide pen's width, count as one more) and 200,000 glyphs are played, for at most 4 s
 * (checked between records: a self-crossing outline of many points costs cairo more than linear
 * time, so a hostile file can end early on a busy machine); pen widths and font sizes are clamped; a
 * DIB is bounded at 16 Mpixel (32767 a side). A damaged record stops the playback: what came before
 * is kept (a warning), unless nothing was drawn (an error).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgn_internal.h"

/* The few cairo declarations used (libcairo2-dev is not needed to build; the ABI is stable). */
typedef struct _cairo cairo_t;
typedef struct _cairo_surface cairo_surface_t;
typedef struct cairo_path cairo_path_t;
typedef struct {
    double xx, yx, xy, yy, x0, y0;
} cairo_matrix_t;
typedef struct {
    double x_bearing, y_bearing, width, height, x_advance, y_advance;
} cairo_text_extents_t;
typedef struct {
    double ascent, descent, height, max_x_advance, max_y_advance;
} cairo_font_extents_t;
cairo_surface_t *cairo_image_surface_create(int format, int width, int height);
unsigned char *cairo_image_surface_get_data(cairo_surface_t *surface);
int cairo_image_surface_get_stride(cairo_surface_t *surface);
int cairo_surface_status(cairo_surface_t *surface);
void cairo_surface_flush(cairo_surface_t *surface);
void cairo_surface_mark_dirty(cairo_surface_t *surface);
void cairo_surface_destroy(cairo_surface_t *surface);
cairo_t *cairo_create(cairo_surface_t *target);
void cairo_destroy(cairo_t *cr);
int cairo_status(cairo_t *cr);
void cairo_save(cairo_t *cr);
void cairo_restore(cairo_t *cr);
void cairo_new_path(cairo_t *cr);
void cairo_move_to(cairo_t *cr, double x, double y);
void cairo_line_to(cairo_t *cr, double x, double y);
void cairo_curve_to(cairo_t *cr, double x1, double y1, double x2, double y2, double x3, double y3);
void cairo_close_path(cairo_t *cr);
void cairo_rectangle(cairo_t *cr, double x, double y, double width, double height);
void cairo_set_source_rgb(cairo_t *cr, double red, double green, double blue);
void cairo_set_line_width(cairo_t *cr, double width);
void cairo_set_line_cap(cairo_t *cr, int line_cap);
void cairo_set_line_join(cairo_t *cr, int line_join);
void cairo_set_dash(cairo_t *cr, const double *dashes, int num_dashes, double offset);
void cairo_set_fill_rule(cairo_t *cr, int fill_rule);
void cairo_fill_preserve(cairo_t *cr);
void cairo_fill(cairo_t *cr);
void cairo_stroke(cairo_t *cr);
void cairo_clip(cairo_t *cr);
void cairo_reset_clip(cairo_t *cr);
void cairo_paint(cairo_t *cr);
cairo_path_t *cairo_copy_path(cairo_t *cr);
void cairo_append_path(cairo_t *cr, const cairo_path_t *path);
void cairo_path_destroy(cairo_path_t *path);
void cairo_select_font_face(cairo_t *cr, const char *family, int slant, int weight);
void cairo_set_font_size(cairo_t *cr, double size);
void cairo_text_extents(cairo_t *cr, const char *utf8, cairo_text_extents_t *extents);
void cairo_font_extents(cairo_t *cr, cairo_font_extents_t *extents);
void cairo_show_text(cairo_t *cr, const char *utf8);
void cairo_translate(cairo_t *cr, double tx, double ty);
void cairo_rotate(cairo_t *cr, double angle);
void cairo_transform(cairo_t *cr, const cairo_matrix_t *matrix);
void cairo_set_source_surface(cairo_t *cr, cairo_surface_t *surface, double x, double y);

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define cairo_image_surface_create VGN_LAZY(VGN_LIB_CAIRO, cairo_image_surface_create)
#define cairo_image_surface_get_data VGN_LAZY(VGN_LIB_CAIRO, cairo_image_surface_get_data)
#define cairo_image_surface_get_stride VGN_LAZY(VGN_LIB_CAIRO, cairo_image_surface_get_stride)
#define cairo_surface_status VGN_LAZY(VGN_LIB_CAIRO, cairo_surface_status)
#define cairo_surface_flush VGN_LAZY(VGN_LIB_CAIRO, cairo_surface_flush)
#define cairo_surface_mark_dirty VGN_LAZY(VGN_LIB_CAIRO, cairo_surface_mark_dirty)
#define cairo_surface_destroy VGN_LAZY(VGN_LIB_CAIRO, cairo_surface_destroy)
#define cairo_create VGN_LAZY(VGN_LIB_CAIRO, cairo_create)
#define cairo_destroy VGN_LAZY(VGN_LIB_CAIRO, cairo_destroy)
#define cairo_status VGN_LAZY(VGN_LIB_CAIRO, cairo_status)
#define cairo_save VGN_LAZY(VGN_LIB_CAIRO, cairo_save)
#define cairo_restore VGN_LAZY(VGN_LIB_CAIRO, cairo_restore)
#define cairo_new_path VGN_LAZY(VGN_LIB_CAIRO, cairo_new_path)
#define cairo_move_to VGN_LAZY(VGN_LIB_CAIRO, cairo_move_to)
#define cairo_line_to VGN_LAZY(VGN_LIB_CAIRO, cairo_line_to)
#define cairo_curve_to VGN_LAZY(VGN_LIB_CAIRO, cairo_curve_to)
#define cairo_close_path VGN_LAZY(VGN_LIB_CAIRO, cairo_close_path)
#define cairo_rectangle VGN_LAZY(VGN_LIB_CAIRO, cairo_rectangle)
#define cairo_set_source_rgb VGN_LAZY(VGN_LIB_CAIRO, cairo_set_source_rgb)
#define cairo_set_line_width VGN_LAZY(VGN_LIB_CAIRO, cairo_set_line_width)
#define cairo_set_line_cap VGN_LAZY(VGN_LIB_CAIRO, cairo_set_line_cap)
#define cairo_set_line_join VGN_LAZY(VGN_LIB_CAIRO, cairo_set_line_join)
#define cairo_set_dash VGN_LAZY(VGN_LIB_CAIRO, cairo_set_dash)
#define cairo_set_fill_rule VGN_LAZY(VGN_LIB_CAIRO, cairo_set_fill_rule)
#define cairo_fill_preserve VGN_LAZY(VGN_LIB_CAIRO, cairo_fill_preserve)
#define cairo_fill VGN_LAZY(VGN_LIB_CAIRO, cairo_fill)
#define cairo_stroke VGN_LAZY(VGN_LIB_CAIRO, cairo_stroke)
#define cairo_clip VGN_LAZY(VGN_LIB_CAIRO, cairo_clip)
#define cairo_reset_clip VGN_LAZY(VGN_LIB_CAIRO, cairo_reset_clip)
#define cairo_paint VGN_LAZY(VGN_LIB_CAIRO, cairo_paint)
#define cairo_copy_path VGN_LAZY(VGN_LIB_CAIRO, cairo_copy_path)
#define cairo_append_path VGN_LAZY(VGN_LIB_CAIRO, cairo_append_path)
#define cairo_path_destroy VGN_LAZY(VGN_LIB_CAIRO, cairo_path_destroy)
#define cairo_select_font_face VGN_LAZY(VGN_LIB_CAIRO, cairo_select_font_face)
#define cairo_set_font_size VGN_LAZY(VGN_LIB_CAIRO, cairo_set_font_size)
#define cairo_text_extents VGN_LAZY(VGN_LIB_CAIRO, cairo_text_extents)
#define cairo_font_extents VGN_LAZY(VGN_LIB_CAIRO, cairo_font_extents)
#define cairo_show_text VGN_LAZY(VGN_LIB_CAIRO, cairo_show_text)
#define cairo_translate VGN_LAZY(VGN_LIB_CAIRO, cairo_translate)
#define cairo_rotate VGN_LAZY(VGN_LIB_CAIRO, cairo_rotate)
#define cairo_transform VGN_LAZY(VGN_LIB_CAIRO, cairo_transform)
#define cairo_set_source_surface VGN_LAZY(VGN_LIB_CAIRO, cairo_set_source_surface)

#define VGN_CAIRO_ARGB32 0
#define VGN_CAIRO_FILL_WINDING 0
#define VGN_CAIRO_FILL_EVEN_ODD 1

#define VGN_MF_MAX_SIDE 65535      /* the natural size refused beyond */
#define VGN_MF_MAX_OUT 32767       /* cairo's image surfaces */
#define VGN_MF_MAX_RECORDS 1000000 /* records played */
#define VGN_MF_MAX_POINTS 4000000  /* points drawn */
#define VGN_MF_MAX_FIGURE 16384    /* points of one record or path (a self-crossing outline costs cairo more than linear time:
                                      65,536 random points took 31 s at 256 pixels, 16,384 1.7 s) */
#define VGN_MF_LENGTH_POINT 64.0   /* output pixels of outline that count as one point (cairo's work grows with length) */
#define VGN_MF_MAX_MS 4000         /* drawing time, checked between records */
#define VGN_MF_MAX_GLYPHS 200000   /* characters drawn */
#define VGN_MF_MAX_TEXT 4096       /* characters of one record */
#define VGN_MF_MAX_DIB (16u << 20) /* pixels of one bitmap */
#define VGN_MF_COORD 1e6           /* device coordinates clamped to +-this */
#define VGN_MF_STACK 64            /* SaveDC levels */

enum { MF_MM_TEXT = 1, MF_MM_LOMETRIC, MF_MM_HIMETRIC, MF_MM_LOENGLISH, MF_MM_HIENGLISH, MF_MM_TWIPS, MF_MM_ISOTROPIC, MF_MM_ANISOTROPIC };

typedef struct {
    double a, b, c, d, e, f; /* x' = a x + c y + e, y' = b x + d y + f (cairo's xx, yx, xy, yy, x0, y0) */
} vgn_mf_xf;

typedef struct {
    int null, style, cap, join;
    double width; /* logical units; 0 is one device pixel */
    uint32_t color;
} vgn_mf_pen;

typedef struct {
    int null;
    uint32_t color;
} vgn_mf_brush;

typedef struct {
    int32_t height, escapement, weight;
    int italic;
    char face[64]; /* UTF-8 */
} vgn_mf_font;

enum { MF_OBJ_FREE = 0, MF_OBJ_PEN, MF_OBJ_BRUSH, MF_OBJ_FONT, MF_OBJ_OTHER };

typedef struct {
    uint8_t kind;
    union {
        vgn_mf_pen pen;
        vgn_mf_brush brush;
        vgn_mf_font font;
    } u;
} vgn_mf_object;

typedef struct {
    vgn_mf_pen pen;
    vgn_mf_brush brush;
    vgn_mf_font font;
    uint32_t text_color, bk_color;
    int bk_opaque, winding, text_align, map_mode;
    double wox, woy, wex, wey, vox, voy, vex, vey;
    vgn_mf_xf world;
    double cx, cy; /* current position, logical */
} vgn_mf_dc;

typedef struct {
    vgn_decoder base;
    const uint8_t *data;
    size_t size;
    int emf;
    size_t first;      /* offset of the first record after the header(s) */
    uint32_t handles;  /* object table size */
    double ref_x, ref_y, ref_w, ref_h; /* the frame in reference-device units */
    double px_per_mm_x, px_per_mm_y;   /* reference device (EMF fixed map modes) */
    double wmf_dpi;                    /* reference units an inch (WMF fixed map modes) */
    uint8_t *rgba;     /* the played picture, premultiplied native ARGB (the cairo surface's copy) */
    size_t stride;
    int played;
    uint32_t next_row;
    vgn_warnings warnings;
} vgn_metafile;

/* Playback, alive during the first read_rows. */
typedef struct {
    vgn_metafile *m;
    cairo_t *cr;
    vgn_mf_dc dc;
    vgn_mf_dc stack[VGN_MF_STACK];
    int depth;
    vgn_mf_object *objects;
    uint32_t nobjects;
    vgn_mf_xf frame, xf; /* reference device -> output; logical -> output */
    int xf_dirty;
    int in_path;
    cairo_path_t *path;
    double path_length;  /* output pixels of the path built so far (its cost when it is drawn) */
    uint64_t path_points;
    double last_x, last_y; /* the last output point of the path built */
    uint64_t points, glyphs;
    unsigned long drawn;
    int stop_code;
    char stop[VGN_MSG_LEN];
    int emfplus;
    int64_t deadline; /* monotonic ms */
} vgn_mf_play;

static int64_t mf_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* Between records: 0 to go on, -1 past the record or time budget (the playback stops). */
static int mf_between(vgn_mf_play *pl, unsigned long index)
{
    if (index > VGN_MF_MAX_RECORDS) {
        pl->stop_code = VGN_E_LIMIT;
        snprintf(pl->stop, sizeof pl->stop, "more than %d records (record %lu and after are left out)", VGN_MF_MAX_RECORDS, index);
        return -1;
    }
    if (mf_now_ms() > pl->deadline) {
        pl->stop_code = VGN_E_LIMIT;
        snprintf(pl->stop, sizeof pl->stop, "drawing took more than %d ms (record %lu and after are left out)", VGN_MF_MAX_MS, index);
        return -1;
    }
    return 0;
}

/* ---- little-endian reads (callers check the bounds) ------------------------------------------- */
static uint16_t rd16(const uint8_t *p) { return (uint16_t)(p[0] | p[1] << 8); }
static int16_t rds16(const uint8_t *p) { return (int16_t)rd16(p); }
static uint32_t rd32(const uint8_t *p) { return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24; }
static int32_t rds32(const uint8_t *p) { return (int32_t)rd32(p); }
static float rdf(const uint8_t *p)
{
    uint32_t u = rd32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* ---- transforms ---------------------------------------------------------------------------------- */
static vgn_mf_xf xf_mul(vgn_mf_xf p, vgn_mf_xf q) /* q after p */
{
    vgn_mf_xf r;
    r.a = q.a * p.a + q.c * p.b;
    r.b = q.b * p.a + q.d * p.b;
    r.c = q.a * p.c + q.c * p.d;
    r.d = q.b * p.c + q.d * p.d;
    r.e = q.a * p.e + q.c * p.f + q.e;
    r.f = q.b * p.e + q.d * p.f + q.f;
    return r;
}

static const vgn_mf_xf xf_identity = {1, 0, 0, 1, 0, 0};

static double clampc(double v)
{
    if (!(v > -VGN_MF_COORD)) return -VGN_MF_COORD; /* NaN too */
    if (v > VGN_MF_COORD) return VGN_MF_COORD;
    return v;
}

static void mf_update(vgn_mf_play *pl)
{
    vgn_mf_dc *dc = &pl->dc;
    vgn_mf_xf page;
    double sx = 1, sy = 1;
    vgn_metafile *m = pl->m;
    if (!pl->xf_dirty) return;
    pl->xf_dirty = 0;
    switch (dc->map_mode) {
    case MF_MM_ISOTROPIC:
    case MF_MM_ANISOTROPIC:
        sx = dc->wex != 0 ? dc->vex / dc->wex : 1;
        sy = dc->wey != 0 ? dc->vey / dc->wey : 1;
        if (dc->map_mode == MF_MM_ISOTROPIC) {
            double k = fmin(fabs(sx), fabs(sy));
            sx = sx < 0 ? -k : k;
            sy = sy < 0 ? -k : k;
        }
        break;
    case MF_MM_LOMETRIC: sx = 0.1, sy = -0.1; break;
    case MF_MM_HIMETRIC: sx = 0.01, sy = -0.01; break;
    case MF_MM_LOENGLISH: sx = 0.254, sy = -0.254; break;
    case MF_MM_HIENGLISH: sx = 0.0254, sy = -0.0254; break;
    case MF_MM_TWIPS: sx = 25.4 / 1440, sy = -25.4 / 1440; break;
    default: break;
    }
    if (dc->map_mode >= MF_MM_LOMETRIC && dc->map_mode <= MF_MM_TWIPS) { /* millimetres to reference units */
        if (m->emf) sx *= m->px_per_mm_x, sy *= m->px_per_mm_y;
        else sx *= m->wmf_dpi / 25.4, sy *= m->wmf_dpi / 25.4;
    }
    page.a = sx, page.b = 0, page.c = 0, page.d = sy;
    page.e = dc->vox - dc->wox * sx;
    page.f = dc->voy - dc->woy * sy;
    pl->xf = xf_mul(xf_mul(dc->world, page), pl->frame);
}

static void mf_pt(vgn_mf_play *pl, double x, double y, double *ox, double *oy)
{
    mf_update(pl);
    *ox = clampc(pl->xf.a * x + pl->xf.c * y + pl->xf.e);
    *oy = clampc(pl->xf.b * x + pl->xf.d * y + pl->xf.f);
}

/* Output pixels a logical unit (the geometric mean of the axes). */
static double mf_scale(vgn_mf_play *pl)
{
    double s;
    mf_update(pl);
    s = sqrt(fabs(pl->xf.a * pl->xf.d - pl->xf.b * pl->xf.c));
    return isfinite(s) ? s : 0;
}

/* ---- stopping -------------------------------------------------------------------------------- */
static void mf_stop(vgn_mf_play *pl, int code, const char *fmt, unsigned long record)
{
    if (pl->stop_code != 0) return;
    pl->stop_code = code;
    snprintf(pl->stop, sizeof pl->stop, fmt, record);
}

/* Counts n points against the budget: 0, or -1 past it (the playback stops). */
static int mf_budget(vgn_mf_play *pl, uint64_t n)
{
    if (n > VGN_MF_MAX_FIGURE && pl->stop_code == 0) {
        pl->stop_code = VGN_E_LIMIT;
        snprintf(pl->stop, sizeof pl->stop, "a record of more than %d points (it and the rest are left out)",
                 VGN_MF_MAX_FIGURE);
        return -1;
    }
    /* a path is drawn as one figure, whatever the records that built it */
    if (pl->in_path && (pl->path_points += n) > VGN_MF_MAX_FIGURE) {
        if (pl->stop_code == 0) {
            pl->stop_code = VGN_E_LIMIT;
            snprintf(pl->stop, sizeof pl->stop, "a path of more than %d points (it and the rest are left out)", VGN_MF_MAX_FIGURE);
        }
        return -1;
    }
    pl->points += n;
    if (pl->points > VGN_MF_MAX_POINTS) {
        if (pl->stop_code == 0) {
            pl->stop_code = VGN_E_LIMIT;
            snprintf(pl->stop, sizeof pl->stop, "more than %d points to draw (the rest is left out)",
                     VGN_MF_MAX_POINTS);
        }
        return -1;
    }
    return 0;
}

/* ---- drawing --------------------------------------------------------------------------------- */
static void mf_color(vgn_mf_play *pl, uint32_t c)
{
    cairo_set_source_rgb(pl->cr, (c & 255) / 255.0, (c >> 8 & 255) / 255.0, (c >> 16 & 255) / 255.0);
}

/* Path operations in logical coordinates. */
/* Adds the output length from the last point to (x, y) to the path's, and makes (x, y) the last. */
static void mf_path_to(vgn_mf_play *pl, double x, double y)
{
    if (pl->in_path) pl->path_length += fabs(x - pl->last_x) + fabs(y - pl->last_y);
    pl->last_x = x, pl->last_y = y;
}

static void mf_move(vgn_mf_play *pl, double x, double y)
{
    double dx, dy;
    mf_pt(pl, x, y, &dx, &dy);
    cairo_move_to(pl->cr, dx, dy);
    pl->last_x = dx, pl->last_y = dy;
}

static void mf_line(vgn_mf_play *pl, double x, double y)
{
    double dx, dy;
    mf_pt(pl, x, y, &dx, &dy);
    cairo_line_to(pl->cr, dx, dy);
    mf_path_to(pl, dx, dy);
}

static void mf_curve(vgn_mf_play *pl, double x1, double y1, double x2, double y2, double x3, double y3)
{
    double a, b, c, d, e, f;
    mf_pt(pl, x1, y1, &a, &b);
    mf_pt(pl, x2, y2, &c, &d);
    mf_pt(pl, x3, y3, &e, &f);
    cairo_curve_to(pl->cr, a, b, c, d, e, f);
    mf_path_to(pl, a, b), mf_path_to(pl, c, d), mf_path_to(pl, e, f);
}

/* An elliptic arc around (cx, cy) from angle a0 by `sweep` radians (in logical space, y down), in
 * Bezier pieces of at most a quarter turn; `join`: line to its start, else move. */
static void mf_arc(vgn_mf_play *pl, double cx, double cy, double rx, double ry, double a0, double sweep, int join)
{
    int n = (int)ceil(fabs(sweep) / (M_PI / 2) - 1e-9), i;
    double step, k;
    if (n < 1) n = 1;
    if (n > 4) n = 4;
    step = sweep / n;
    k = 4.0 / 3.0 * tan(step / 4);
    if (join) mf_line(pl, cx + rx * cos(a0), cy + ry * sin(a0));
    else mf_move(pl, cx + rx * cos(a0), cy + ry * sin(a0));
    for (i = 0; i < n; i++) {
        double t0 = a0 + step * i, t1 = t0 + step;
        double c0 = cos(t0), s0 = sin(t0), c1 = cos(t1), s1 = sin(t1);
        mf_curve(pl, cx + rx * (c0 - k * s0), cy + ry * (s0 + k * c0), cx + rx * (c1 + k * s1), cy + ry * (s1 - k * c1), cx + rx * c1,
                 cy + ry * s1);
    }
}

static void mf_set_pen(vgn_mf_play *pl, double length)
{
    const vgn_mf_pen *p = &pl->dc.pen;
    double w = p->width * mf_scale(pl), cap, dashes[6];
    int n = 0, style = p->style & 15;
    cap = (double)pl->m->base.width + pl->m->base.height + 2;
    if (cap > 10000) cap = 10000;
    if (p->width <= 0 || !(w >= 1)) w = 1;
    if (w > cap) w = cap;
    mf_color(pl, p->color);
    cairo_set_line_width(pl->cr, w);
    cairo_set_line_cap(pl->cr, p->cap);
    cairo_set_line_join(pl->cr, p->join);
    switch (style) {
    case 1: dashes[0] = 3 * w, dashes[1] = w, n = 2; break;
    case 2: case 8: dashes[0] = w, dashes[1] = w, n = 2; break;
    case 3: dashes[0] = 3 * w, dashes[1] = w, dashes[2] = w, dashes[3] = w, n = 4; break;
    case 4: dashes[0] = 3 * w, dashes[1] = w, dashes[2] = w, dashes[3] = w, dashes[4] = w, dashes[5] = w, n = 6; break;
    default: break;
    }
    /* a dash pattern repeated past 100,000 times would keep cairo busy: solid then */
    if (n > 0 && length / (w * 2) > 100000) n = 0;
    if (n > 0 && p->cap == 0) { /* round caps eat into the gaps: keep the dots visible */
        int i;
        for (i = 0; i < n; i += 2) dashes[i] = fmax(dashes[i] - w * 0.5, w * 0.1);
    }
    cairo_set_dash(pl->cr, dashes, n, 0);
}

/* Fills (with the brush) and/or strokes (with the pen) the current cairo path, then clears it;
 * `length` bounds the outline's device length for dashes. Inside a path bracket, nothing is done. */
static void mf_paint(vgn_mf_play *pl, int fill, int stroke, double length)
{
    double cost;
    if (pl->in_path) return;
    /* cairo's work grows with the outline's length in output pixels (a curve whose control points
     * lie a million pixels away is flattened into that many segments), and a stroke's with its
     * width: counted against the points budget, so a small file cannot keep it busy for minutes */
    cost = (length > 0 ? length : 0) / VGN_MF_LENGTH_POINT;
    if (stroke && !pl->dc.pen.null) cost *= fmax(1, pl->dc.pen.width * mf_scale(pl) / 4);
    if (!(cost < VGN_MF_MAX_POINTS) || (pl->points += (uint64_t)cost) > VGN_MF_MAX_POINTS) {
        if (pl->stop_code == 0) {
            pl->stop_code = VGN_E_LIMIT;
            snprintf(pl->stop, sizeof pl->stop, "more than %d points to draw (the rest is left out)", VGN_MF_MAX_POINTS);
        }
        cairo_new_path(pl->cr);
        return;
    }
    if (fill && !pl->dc.brush.null) {
        mf_color(pl, pl->dc.brush.color);
        cairo_set_fill_rule(pl->cr, pl->dc.winding ? VGN_CAIRO_FILL_WINDING : VGN_CAIRO_FILL_EVEN_ODD);
        cairo_fill_preserve(pl->cr);
        pl->drawn++;
    }
    if (stroke && !pl->dc.pen.null) {
        mf_set_pen(pl, length);
        cairo_stroke(pl->cr);
        pl->drawn++;
    }
    cairo_new_path(pl->cr);
}

static void mf_begin(vgn_mf_play *pl)
{
    if (!pl->in_path) cairo_new_path(pl->cr);
}

/* A bound on the device length of an outline through the box (for dash patterns). */
static double mf_box_length(vgn_mf_play *pl, double l, double t, double r, double b)
{
    double x0, y0, x1, y1;
    mf_pt(pl, l, t, &x0, &y0);
    mf_pt(pl, r, b, &x1, &y1);
    return 4 * (fabs(x1 - x0) + fabs(y1 - y0)) + 1;
}

static void mf_rectangle(vgn_mf_play *pl, double l, double t, double r, double b)
{
    if (mf_budget(pl, 4) != 0) return;
    mf_begin(pl);
    mf_move(pl, l, t);
    mf_line(pl, r, t);
    mf_line(pl, r, b);
    mf_line(pl, l, b);
    cairo_close_path(pl->cr);
    mf_paint(pl, 1, 1, mf_box_length(pl, l, t, r, b));
}

static void mf_ellipse(vgn_mf_play *pl, double l, double t, double r, double b)
{
    if (mf_budget(pl, 13) != 0) return;
    mf_begin(pl);
    mf_arc(pl, (l + r) / 2, (t + b) / 2, (r - l) / 2, (b - t) / 2, 0, 2 * M_PI, 0);
    cairo_close_path(pl->cr);
    mf_paint(pl, 1, 1, mf_box_length(pl, l, t, r, b));
}

static void mf_roundrect(vgn_mf_play *pl, double l, double t, double r, double b, double w, double h)
{
    double rx, ry, x0 = fmin(l, r), x1 = fmax(l, r), y0 = fmin(t, b), y1 = fmax(t, b);
    if (mf_budget(pl, 20) != 0) return;
    rx = fmin(fabs(w) / 2, (x1 - x0) / 2);
    ry = fmin(fabs(h) / 2, (y1 - y0) / 2);
    mf_begin(pl);
    mf_arc(pl, x1 - rx, y0 + ry, rx, ry, -M_PI / 2, M_PI / 2, 0);
    mf_arc(pl, x1 - rx, y1 - ry, rx, ry, 0, M_PI / 2, 1);
    mf_arc(pl, x0 + rx, y1 - ry, rx, ry, M_PI / 2, M_PI / 2, 1);
    mf_arc(pl, x0 + rx, y0 + ry, rx, ry, M_PI, M_PI / 2, 1);
    cairo_close_path(pl->cr);
    mf_paint(pl, 1, 1, mf_box_length(pl, l, t, r, b));
}

/* kind 0 arc, 1 pie, 2 chord, 3 arc-to (line from and to the current position). Counterclockwise
 * as seen, from the start radial to the end radial. */
static void mf_arcs(vgn_mf_play *pl, int kind, double l, double t, double r, double b, double xs, double ys, double xe, double ye)
{
    double cx = (l + r) / 2, cy = (t + b) / 2, rx = fabs(r - l) / 2, ry = fabs(b - t) / 2, a0, a1, sweep;
    if (mf_budget(pl, 16) != 0) return;
    if (rx <= 0 || ry <= 0) return;
    a0 = atan2((ys - cy) / ry, (xs - cx) / rx);
    a1 = atan2((ye - cy) / ry, (xe - cx) / rx);
    sweep = a1 - a0; /* counterclockwise on a y-down page is a decreasing angle */
    if (sweep >= 0) sweep -= 2 * M_PI;
    if (!isfinite(sweep)) return;
    mf_begin(pl);
    if (kind == 3) {
        mf_move(pl, pl->dc.cx, pl->dc.cy);
        mf_arc(pl, cx, cy, rx, ry, a0, sweep, 1);
        pl->dc.cx = cx + rx * cos(a0 + sweep), pl->dc.cy = cy + ry * sin(a0 + sweep);
        mf_paint(pl, 0, 1, mf_box_length(pl, l, t, r, b));
        return;
    }
    if (kind == 1) {
        mf_move(pl, cx, cy);
        mf_arc(pl, cx, cy, rx, ry, a0, sweep, 1);
    } else {
        mf_arc(pl, cx, cy, rx, ry, a0, sweep, 0);
    }
    if (kind != 0) cairo_close_path(pl->cr);
    mf_paint(pl, kind != 0, 1, mf_box_length(pl, l, t, r, b));
}

/* Points read from a record: `size` bytes each (4: two int16, 8: two int32). */
static void mf_pt_at(const uint8_t *p, int size, double *x, double *y)
{
    if (size == 4) *x = rds16(p), *y = rds16(p + 2);
    else *x = rds32(p), *y = rds32(p + 4);
}

/* A run of n points as a figure: `mode` 0 polyline, 1 polygon, 2 polyline-to (from the current
 * position), 3 Bezier, 4 Bezier-to. Returns the device length (for dashes). */
/* LineTo (EMF and WMF): a line from the current position to logical (x, y), drawn with the pen, or
 * added to the path being built; (x, y) becomes the current position. 0, or -1 past the budget. */
static int mf_line_to(vgn_mf_play *pl, double x, double y)
{
    if (mf_budget(pl, 2) != 0) return -1;
    if (pl->in_path) {
        mf_line(pl, x, y);
    } else {
        double x0, y0, x1, y1;
        cairo_new_path(pl->cr);
        mf_pt(pl, pl->dc.cx, pl->dc.cy, &x0, &y0);
        mf_pt(pl, x, y, &x1, &y1);
        cairo_move_to(pl->cr, x0, y0);
        cairo_line_to(pl->cr, x1, y1);
        mf_paint(pl, 0, 1, fabs(x1 - x0) + fabs(y1 - y0));
    }
    pl->dc.cx = x, pl->dc.cy = y;
    return 0;
}

static double mf_figure(vgn_mf_play *pl, const uint8_t *p, uint32_t n, int size, int mode)
{
    double x, y, px = 0, py = 0, dx, dy, length = 0;
    uint32_t i = 0;
    if (n == 0) return 0;
    if (mode == 2 || mode == 4) {
        mf_pt(pl, pl->dc.cx, pl->dc.cy, &px, &py);
        cairo_move_to(pl->cr, px, py);
    } else {
        mf_pt_at(p, size, &x, &y);
        mf_pt(pl, x, y, &px, &py);
        cairo_move_to(pl->cr, px, py);
        i = 1;
    }
    if (mode == 3 || mode == 4) {
        for (; i + 3 <= n; i += 3) {
            double c[6];
            int k;
            for (k = 0; k < 3; k++) {
                mf_pt_at(p + (size_t)(i + k) * size, size, &x, &y);
                mf_pt(pl, x, y, &c[2 * k], &c[2 * k + 1]);
                length += fabs(c[2 * k] - px) + fabs(c[2 * k + 1] - py);
                px = c[2 * k], py = c[2 * k + 1];
            }
            cairo_curve_to(pl->cr, c[0], c[1], c[2], c[3], c[4], c[5]);
            pl->dc.cx = x, pl->dc.cy = y;
        }
    } else {
        for (; i < n; i++) {
            mf_pt_at(p + (size_t)i * size, size, &x, &y);
            mf_pt(pl, x, y, &dx, &dy);
            cairo_line_to(pl->cr, dx, dy);
            length += fabs(dx - px) + fabs(dy - py);
            px = dx, py = dy;
            if (mode == 2) pl->dc.cx = x, pl->dc.cy = y;
        }
    }
    if (mode == 1) cairo_close_path(pl->cr);
    if (pl->in_path) pl->path_length += length;
    pl->last_x = px, pl->last_y = py;
    return length;
}

/* ---- text ------------------------------------------------------------------------------------ */
static size_t utf8_put(char *out, uint32_t c)
{
    if (c < 0x20 || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) c = c < 0x20 ? ' ' : 0xFFFD;
    if (c < 0x80) return out[0] = (char)c, 1;
    if (c < 0x800) return out[0] = (char)(0xC0 | c >> 6), out[1] = (char)(0x80 | (c & 63)), 2;
    if (c < 0x10000) return out[0] = (char)(0xE0 | c >> 12), out[1] = (char)(0x80 | (c >> 6 & 63)), out[2] = (char)(0x80 | (c & 63)), 3;
    out[0] = (char)(0xF0 | c >> 18), out[1] = (char)(0x80 | (c >> 12 & 63)), out[2] = (char)(0x80 | (c >> 6 & 63)), out[3] = (char)(0x80 | (c & 63));
    return 4;
}

/* cp1252's 0x80-0x9F (0: undefined, shown as U+FFFD). */
static const uint16_t cp1252_high[32] = {0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160,
                                         0x2039, 0x0152, 0, 0x017D, 0, 0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022,
                                         0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178};

/* n characters (8-bit cp1252 when wide is 0, else UTF-16LE) to UTF-8 in out (4 * n + 1 bytes);
 * a NUL ends the text. */
static void mf_text_utf8(const uint8_t *p, size_t n, int wide, char *out)
{
    size_t i, o = 0;
    for (i = 0; i < n; i++) {
        uint32_t c;
        if (wide) {
            c = rd16(p + 2 * i);
            if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && rd16(p + 2 * i + 2) >= 0xDC00 && rd16(p + 2 * i + 2) <= 0xDFFF) {
                c = 0x10000 + ((c - 0xD800) << 10) + (rd16(p + 2 * i + 2) - 0xDC00);
                i++;
            }
        } else {
            c = p[i];
            if (c >= 0x80 && c < 0xA0) c = cp1252_high[c - 0x80] ? cp1252_high[c - 0x80] : 0xFFFD;
        }
        if (c == 0) break;
        o += utf8_put(out + o, c);
    }
    out[o] = '\0';
}

/* Copies the UTF-8 string src into dst (cap bytes with the NUL), cut before a character that does
 * not fit whole: cairo refuses a face name of invalid UTF-8 by ending every later drawing. */
static void mf_copy_utf8(char *dst, size_t cap, const char *src)
{
    size_t n = strlen(src);
    if (n >= cap) {
        n = cap - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80) n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* Draws text at logical (x, y) (or the current position with TA_UPDATECP); `rect` (4 logical
 * values) is filled with the background colour first when `opaque_rect`. */
static void mf_text(vgn_mf_play *pl, double x, double y, const uint8_t *chars, size_t n, int wide, const double *rect)
{
    const vgn_mf_font *f = &pl->dc.font;
    cairo_text_extents_t te;
    cairo_font_extents_t fe;
    double ox, oy, ux, uy, size, angle, dx = 0, dy = 0, s, cap;
    char *utf8;
    int align = pl->dc.text_align;
    if (pl->in_path) return;
    if (rect != NULL) {
        mf_begin(pl);
        mf_move(pl, rect[0], rect[1]);
        mf_line(pl, rect[2], rect[1]);
        mf_line(pl, rect[2], rect[3]);
        mf_line(pl, rect[0], rect[3]);
        cairo_close_path(pl->cr);
        mf_color(pl, pl->dc.bk_color);
        cairo_fill(pl->cr);
        pl->drawn++;
    }
    if (n == 0) return;
    if (n > VGN_MF_MAX_TEXT) n = VGN_MF_MAX_TEXT;
    pl->glyphs += n;
    if (pl->glyphs > VGN_MF_MAX_GLYPHS) {
        if (pl->stop_code == 0) {
            pl->stop_code = VGN_E_LIMIT;
            snprintf(pl->stop, sizeof pl->stop, "more than %d characters to draw (the rest is left out)",
                     VGN_MF_MAX_GLYPHS);
        }
        return;
    }
    if (align & 1) x = pl->dc.cx, y = pl->dc.cy; /* TA_UPDATECP */
    utf8 = (char *)malloc(n * 4 + 1);
    if (utf8 == NULL) return;
    mf_text_utf8(chars, n, wide, utf8);
    mf_update(pl);
    /* the device sizes of a logical unit along y (the font's height) and the baseline's direction */
    s = hypot(pl->xf.c, pl->xf.d);
    size = (f->height == 0 ? 12.0 : f->height < 0 ? -(double)f->height : f->height * 0.8) * s;
    cap = fmin(4000.0, 2.0 * (pl->m->base.width + pl->m->base.height) + 16);
    if (!(size >= 0.5)) size = 0.5;
    if (size > cap) size = cap;
    angle = atan2(pl->xf.b, pl->xf.a) - f->escapement * M_PI / 1800.0;
    if (!isfinite(angle)) angle = 0;
    mf_pt(pl, x, y, &ox, &oy);
    cairo_save(pl->cr);
    cairo_new_path(pl->cr);
    cairo_translate(pl->cr, ox, oy);
    cairo_rotate(pl->cr, angle);
    cairo_select_font_face(pl->cr, f->face[0] ? f->face : "sans-serif", f->italic ? 1 : 0, f->weight >= 600 ? 1 : 0);
    cairo_set_font_size(pl->cr, size);
    cairo_text_extents(pl->cr, utf8, &te);
    cairo_font_extents(pl->cr, &fe);
    if (!isfinite(te.x_advance)) te.x_advance = 0;
    if ((align & 6) == 6) dx = -te.x_advance / 2;
    else if (align & 2) dx = -te.x_advance;
    if ((align & 24) == 24) dy = 0; /* baseline */
    else if (align & 8) dy = -fe.descent;
    else dy = fe.ascent;
    if (rect == NULL && pl->dc.bk_opaque) {
        cairo_rectangle(pl->cr, dx, dy - fe.ascent, te.x_advance, fe.ascent + fe.descent);
        mf_color(pl, pl->dc.bk_color);
        cairo_fill(pl->cr);
    }
    mf_color(pl, pl->dc.text_color);
    cairo_move_to(pl->cr, dx, dy);
    cairo_show_text(pl->cr, utf8);
    cairo_restore(pl->cr);
    pl->drawn++;
    if (align & 1) { /* the current position moves along the baseline by the advance (in logical units) */
        ux = cos(angle) * te.x_advance, uy = sin(angle) * te.x_advance;
        double det = pl->xf.a * pl->xf.d - pl->xf.b * pl->xf.c;
        if (fabs(det) > 1e-12 && isfinite(det)) {
            pl->dc.cx += (pl->xf.d * ux - pl->xf.c * uy) / det;
            pl->dc.cy += (-pl->xf.b * ux + pl->xf.a * uy) / det;
        }
    }
    free(utf8);
}

/* ---- bitmaps --------------------------------------------------------------------------------- */
/* A DIB (header `bmi` of bmi_len bytes, pixels `bits` of bits_len) as a cairo surface, or NULL when
 * it is damaged or of a kind not drawn. */
static cairo_surface_t *mf_dib(const uint8_t *bmi, size_t bmi_len, const uint8_t *bits, size_t bits_len, int32_t *width, int32_t *height)
{
    uint32_t hsize, compression = 0, used = 0, palette[256], ncolors = 0, x, y;
    int32_t w, h;
    int bpp, core, top_down = 0, entry;
    uint64_t stride, need;
    cairo_surface_t *s;
    uint8_t *px;
    int sstride;
    if (bmi_len < 12) return NULL;
    hsize = rd32(bmi);
    core = hsize == 12;
    if (core) {
        w = rd16(bmi + 4), h = rd16(bmi + 6), bpp = rd16(bmi + 10);
    } else {
        if (hsize < 40 || hsize > bmi_len) return NULL;
        w = rds32(bmi + 4), h = rds32(bmi + 8), bpp = rd16(bmi + 14);
        compression = rd32(bmi + 16), used = rd32(bmi + 32);
    }
    if (h < 0) {
        if (h == INT32_MIN) return NULL;
        h = -h, top_down = 1;
    }
    if (w <= 0 || h <= 0 || w > VGN_MF_MAX_OUT || h > VGN_MF_MAX_OUT || (uint64_t)w * (uint64_t)h > VGN_MF_MAX_DIB) return NULL;
    if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32) return NULL;
    if (compression == 3 && (bpp == 32 || bpp == 16) && hsize >= 40) {
        /* BI_BITFIELDS: the usual masks only (after a 40-byte header, or inside a larger one) */
        size_t at = hsize == 40 ? 40 : 40;
        if (bmi_len < at + 12) return NULL;
        if (bpp == 32 && !(rd32(bmi + at) == 0xFF0000 && rd32(bmi + at + 4) == 0xFF00 && rd32(bmi + at + 8) == 0xFF)) return NULL;
        if (bpp == 16 && !(rd32(bmi + at) == 0x7C00 && rd32(bmi + at + 4) == 0x3E0 && rd32(bmi + at + 8) == 0x1F)) return NULL;
        if (hsize == 40) hsize = 52;
    } else if (compression != 0) {
        return NULL;
    }
    entry = core ? 3 : 4;
    if (bpp <= 8) {
        ncolors = used != 0 && used < (1u << bpp) ? used : 1u << bpp;
        if ((uint64_t)hsize + (uint64_t)ncolors * entry > bmi_len) {
            /* a short palette: the entries there are */
            ncolors = (uint32_t)((bmi_len - hsize) / entry);
        }
        for (x = 0; x < 256; x++) palette[x] = 0xFF000000u;
        for (x = 0; x < ncolors; x++) {
            const uint8_t *q = bmi + hsize + (size_t)x * entry;
            palette[x] = 0xFF000000u | (uint32_t)q[2] << 16 | (uint32_t)q[1] << 8 | q[0];
        }
    }
    stride = ((uint64_t)w * (uint64_t)bpp + 31) / 32 * 4;
    need = stride * (uint64_t)h;
    if (bits == NULL || need > bits_len) return NULL;
    s = cairo_image_surface_create(VGN_CAIRO_ARGB32, w, h);
    if (s == NULL || cairo_surface_status(s) != 0) {
        if (s != NULL) cairo_surface_destroy(s);
        return NULL;
    }
    cairo_surface_flush(s);
    px = cairo_image_surface_get_data(s);
    sstride = cairo_image_surface_get_stride(s);
    if (px == NULL || sstride < w * 4) {
        cairo_surface_destroy(s);
        return NULL;
    }
    for (y = 0; y < (uint32_t)h; y++) {
        const uint8_t *src = bits + (size_t)(top_down ? y : (uint32_t)h - 1 - y) * (size_t)stride;
        uint32_t *dst = (uint32_t *)(void *)(px + (size_t)y * (size_t)sstride);
        for (x = 0; x < (uint32_t)w; x++) {
            uint32_t v;
            switch (bpp) {
            case 1: v = palette[src[x >> 3] >> (7 - (x & 7)) & 1]; break;
            case 4: v = palette[src[x >> 1] >> (x & 1 ? 0 : 4) & 15]; break;
            case 8: v = palette[src[x]]; break;
            case 16: {
                uint32_t c = rd16(src + 2 * x), r = c >> 10 & 31, g = c >> 5 & 31, b = c & 31;
                v = 0xFF000000u | (r << 3 | r >> 2) << 16 | (g << 3 | g >> 2) << 8 | (b << 3 | b >> 2);
                break;
            }
            case 24: v = 0xFF000000u | (uint32_t)src[3 * x + 2] << 16 | (uint32_t)src[3 * x + 1] << 8 | src[3 * x]; break;
            default: v = 0xFF000000u | (uint32_t)src[4 * x + 2] << 16 | (uint32_t)src[4 * x + 1] << 8 | src[4 * x]; break;
            }
            dst[x] = v;
        }
    }
    cairo_surface_mark_dirty(s);
    *width = w, *height = h;
    return s;
}

/* Draws the DIB's source rectangle (sx, sy, sw, sh; sy from the top when !from_bottom, else from
 * the bottom as StretchDIBits counts it) into the logical rectangle (x, y, w, h). */
static void mf_blit(vgn_mf_play *pl, const uint8_t *bmi, size_t bmi_len, const uint8_t *bits, size_t bits_len, double x, double y, double w,
                    double h, double sx, double sy, double sw, double sh, int from_bottom)
{
    int32_t iw = 0, ih = 0;
    cairo_surface_t *img;
    vgn_mf_xf place, total;
    cairo_matrix_t mat;
    double det, cx[4], cy[4];
    int k;
    if (pl->in_path || w == 0 || h == 0) return;
    if (bmi_len >= 16) {
        uint32_t hs = rd32(bmi);
        int64_t bw = hs == 12 ? rd16(bmi + 4) : rds32(bmi + 4), bh = hs == 12 ? rd16(bmi + 6) : rds32(bmi + 8);
        if (bh < 0) bh = -bh;
        /* one too large to draw is left out (mf_dib refuses it), not the rest of the picture */
        if (bw > 0 && bh > 0 && (uint64_t)bw * (uint64_t)bh > VGN_MF_MAX_DIB) return;
        if (bw > 0 && bh > 0 && bw <= VGN_MF_MAX_OUT && bh <= VGN_MF_MAX_OUT && mf_budget(pl, (uint64_t)(bw * bh + 255) / 256 / 4) != 0)
            return; /* a bitmap's drawing counts as points: 16 Mpixel as 16,384 */
    }
    img = mf_dib(bmi, bmi_len, bits, bits_len, &iw, &ih);
    if (img == NULL) return;
    if (!(sw > 0) || !(sh > 0)) sx = 0, sy = 0, sw = iw, sh = ih;
    if (from_bottom) sy = ih - sy - sh;
    mf_update(pl);
    place.a = w / sw, place.b = 0, place.c = 0, place.d = h / sh, place.e = x, place.f = y;
    total = xf_mul(place, pl->xf);
    det = total.a * total.d - total.b * total.c;
    for (k = 0; k < 4; k++) {
        double u = k & 1 ? sw : 0, v = k & 2 ? sh : 0;
        cx[k] = total.a * u + total.c * v + total.e;
        cy[k] = total.b * u + total.d * v + total.f;
    }
    for (k = 0; k < 4; k++)
        if (!(fabs(cx[k]) <= VGN_MF_COORD && fabs(cy[k]) <= VGN_MF_COORD)) det = 0;
    if (isfinite(det) && fabs(det) > 1e-9) {
        mat.xx = total.a, mat.yx = total.b, mat.xy = total.c, mat.yy = total.d, mat.x0 = total.e, mat.y0 = total.f;
        cairo_save(pl->cr);
        cairo_new_path(pl->cr);
        cairo_transform(pl->cr, &mat);
        cairo_rectangle(pl->cr, 0, 0, sw, sh);
        cairo_clip(pl->cr);
        cairo_set_source_surface(pl->cr, img, -sx, -sy);
        cairo_paint(pl->cr);
        cairo_restore(pl->cr);
        pl->drawn++;
    }
    cairo_surface_destroy(img);
}

/* A blit without a source: PATCOPY fills with the brush, BLACKNESS and WHITENESS with their colour. */
static void mf_patblt(vgn_mf_play *pl, uint32_t rop, double x, double y, double w, double h)
{
    vgn_mf_brush keep = pl->dc.brush;
    vgn_mf_pen pen = pl->dc.pen;
    if (rop == 0x00000042) pl->dc.brush.null = 0, pl->dc.brush.color = 0;
    else if (rop == 0x00FF0062) pl->dc.brush.null = 0, pl->dc.brush.color = 0xFFFFFF;
    else if (rop != 0x00F00021) return;
    pl->dc.pen.null = 1;
    mf_rectangle(pl, x, y, x + w, y + h);
    pl->dc.brush = keep;
    pl->dc.pen = pen;
}

/* ---- device context -------------------------------------------------------------------------- */
static void mf_dc_default(vgn_mf_play *pl)
{
    vgn_mf_dc *dc = &pl->dc;
    vgn_metafile *m = pl->m;
    memset(dc, 0, sizeof *dc);
    dc->pen.color = 0, dc->pen.cap = 1, dc->pen.join = 1; /* round */
    dc->brush.color = 0xFFFFFF;
    dc->text_color = 0, dc->bk_color = 0xFFFFFF, dc->bk_opaque = 1;
    dc->text_align = 0;
    dc->world = xf_identity;
    if (m->emf) {
        dc->map_mode = MF_MM_TEXT;
        dc->wex = dc->wey = dc->vex = dc->vey = 1;
    } else {
        /* the window is the frame unless the file says otherwise, and is mapped onto it */
        dc->map_mode = MF_MM_ANISOTROPIC;
        dc->wox = dc->vox = m->ref_x, dc->woy = dc->voy = m->ref_y;
        dc->wex = dc->vex = m->ref_w, dc->wey = dc->vey = m->ref_h;
    }
    pl->xf_dirty = 1;
}

static void mf_stock(vgn_mf_play *pl, uint32_t index)
{
    static const uint32_t greys[5] = {0xFFFFFF, 0xC0C0C0, 0x808080, 0x404040, 0};
    vgn_mf_dc *dc = &pl->dc;
    if (index <= 4) dc->brush.null = 0, dc->brush.color = greys[index];
    else if (index == 5) dc->brush.null = 1;
    else if (index == 6 || index == 7 || index == 8) {
        memset(&dc->pen, 0, sizeof dc->pen);
        dc->pen.cap = dc->pen.join = 1;
        dc->pen.color = index == 6 ? 0xFFFFFF : 0;
        dc->pen.null = index == 8;
    } else if ((index >= 10 && index <= 14) || index == 16 || index == 17) {
        memset(&dc->font, 0, sizeof dc->font);
        if (index == 10 || index == 11 || index == 16) strcpy(dc->font.face, "monospace");
    }
}

static void mf_select(vgn_mf_play *pl, uint32_t index)
{
    const vgn_mf_object *o;
    if (pl->m->emf && (index & 0x80000000u)) {
        mf_stock(pl, index & 0x7FFFFFFFu);
        return;
    }
    if (index >= pl->nobjects) return;
    o = &pl->objects[index];
    if (o->kind == MF_OBJ_PEN) pl->dc.pen = o->u.pen;
    else if (o->kind == MF_OBJ_BRUSH) pl->dc.brush = o->u.brush;
    else if (o->kind == MF_OBJ_FONT) pl->dc.font = o->u.font;
}

/* The slot a new object goes in: EMF's given index, WMF's lowest free one; NULL when there is none. */
static vgn_mf_object *mf_slot(vgn_mf_play *pl, uint32_t index)
{
    uint32_t i;
    if (pl->m->emf) {
        if (index == 0 || index >= pl->nobjects) return NULL;
        return &pl->objects[index];
    }
    for (i = 0; i < pl->nobjects; i++)
        if (pl->objects[i].kind == MF_OBJ_FREE) return &pl->objects[i];
    return NULL;
}

/* ---- clipping ------------------------------------------------------------------------------- */
/* Adds the rectangle's outline to cairo's path: logical units, or device units (a region's) when
 * `device`, mapped to output pixels. */
static void mf_rect_path(vgn_mf_play *pl, double l, double t, double r, double b, int device)
{
    const double xs[4] = {l, r, r, l}, ys[4] = {t, t, b, b};
    int k;
    for (k = 0; k < 4; k++) {
        double x, y;
        if (device) {
            x = clampc(pl->frame.a * xs[k] + pl->frame.c * ys[k] + pl->frame.e);
            y = clampc(pl->frame.b * xs[k] + pl->frame.d * ys[k] + pl->frame.f);
        } else {
            mf_pt(pl, xs[k], ys[k], &x, &y);
        }
        if (k == 0) cairo_move_to(pl->cr, x, y);
        else cairo_line_to(pl->cr, x, y);
    }
    cairo_close_path(pl->cr);
}

/* Narrows the clip to cairo's path (`outside`: to what lies outside it), which it consumes. */
static void mf_clip_path(vgn_mf_play *pl, int outside)
{
    if (outside) {
        cairo_rectangle(pl->cr, -VGN_MF_COORD, -VGN_MF_COORD, 2 * VGN_MF_COORD, 2 * VGN_MF_COORD);
        cairo_set_fill_rule(pl->cr, VGN_CAIRO_FILL_EVEN_ODD);
    } else {
        cairo_set_fill_rule(pl->cr, VGN_CAIRO_FILL_WINDING);
    }
    cairo_clip(pl->cr);
}

/* IntersectClipRect and ExcludeClipRect, in logical units. Not inside a path bracket, whose path
 * is cairo's current one. */
static void mf_clip_rect(vgn_mf_play *pl, double l, double t, double r, double b, int exclude)
{
    if (pl->in_path) return;
    cairo_new_path(pl->cr);
    mf_rect_path(pl, l, t, r, b, 0);
    mf_clip_path(pl, exclude);
}

/* GDI's region modes, as EMF's SelectClipPath and ExtSelectClipRgn give them. */
#define MF_RGN_AND 1
#define MF_RGN_DIFF 4
#define MF_RGN_COPY 5

/* Applies cairo's path to the clip as `mode` says; 0, or -1 for a mode a clip cannot take (a union
 * or exclusive-or: cairo's clip only narrows), when the clip is left as it was. */
static int mf_clip_mode(vgn_mf_play *pl, uint32_t mode)
{
    if (mode == MF_RGN_COPY) {
        cairo_reset_clip(pl->cr);
        mf_clip_path(pl, 0);
    } else if (mode == MF_RGN_AND || mode == MF_RGN_DIFF) {
        mf_clip_path(pl, mode == MF_RGN_DIFF);
    } else {
        cairo_new_path(pl->cr);
        return -1;
    }
    return 0;
}

static void mf_save(vgn_mf_play *pl)
{
    if (pl->depth < VGN_MF_STACK) {
        pl->stack[pl->depth] = pl->dc;
        cairo_save(pl->cr); /* the clip; the rest of cairo's state is set before each use */
    }
    pl->depth++; /* counted past the stack's size so that the restores pair up */
}

static void mf_restore(vgn_mf_play *pl, int32_t n)
{
    int32_t target;
    if (n < 0) target = pl->depth + n;
    else if (n > 0) target = n - 1;
    else return;
    if (target < 0 || target >= pl->depth) return;
    while (pl->depth > target)
        if (--pl->depth < VGN_MF_STACK) cairo_restore(pl->cr);
    if (target < VGN_MF_STACK) pl->dc = pl->stack[target];
    pl->xf_dirty = 1;
}

static void mf_pen_style(vgn_mf_pen *p, uint32_t style, double width, uint32_t color)
{
    memset(p, 0, sizeof *p);
    p->style = (int)(style & 15);
    p->null = p->style == 5;
    p->width = width < 0 ? -width : width;
    p->color = color & 0xFFFFFF;
    p->cap = (style & 0xF00) == 0x100 ? 2 : (style & 0xF00) == 0x200 ? 0 : 1; /* square, flat, round */
    p->join = (style & 0xF000) == 0x1000 ? 2 : (style & 0xF000) == 0x2000 ? 0 : 1; /* bevel, miter, round */
}

static void mf_brush_style(vgn_mf_brush *b, uint32_t style, uint32_t color)
{
    b->null = style == 1;
    b->color = style == 0 || style == 2 ? color & 0xFFFFFF : 0xC0C0C0;
}

/* ---- EMF ------------------------------------------------------------------------------------- */
static int mf_xform(const uint8_t *p, vgn_mf_xf *x)
{
    x->a = rdf(p), x->b = rdf(p + 4), x->c = rdf(p + 8), x->d = rdf(p + 12), x->e = rdf(p + 16), x->f = rdf(p + 20);
    return isfinite(x->a) && isfinite(x->b) && isfinite(x->c) && isfinite(x->d) && isfinite(x->e) && isfinite(x->f) && fabs(x->a) < 1e9 &&
           fabs(x->b) < 1e9 && fabs(x->c) < 1e9 && fabs(x->d) < 1e9 && fabs(x->e) < 1e12 && fabs(x->f) < 1e12;
}

/* The DIB of a bitmap record: offsets from the record's start, checked. */
static int mf_emf_dib(const uint8_t *r, uint32_t n, uint32_t off_bmi, uint32_t cb_bmi, uint32_t off_bits, uint32_t cb_bits, const uint8_t **bmi,
                      const uint8_t **bits, size_t *bits_len)
{
    if (cb_bmi == 0 || off_bmi > n || cb_bmi > n - off_bmi || off_bits > n || cb_bits > n - off_bits) return -1;
    *bmi = r + off_bmi;
    *bits = r + off_bits;
    *bits_len = cb_bits;
    return 0;
}

/* One EMF record (type t, n bytes at r, already checked against the file): 0, or -1 to stop. */
static int mf_emf_record(vgn_mf_play *pl, uint32_t t, const uint8_t *r, uint32_t n, unsigned long index)
{
    vgn_mf_dc *dc = &pl->dc;
    static const uint8_t min_size[123] = {
        [2] = 28, [3] = 28, [4] = 28, [5] = 28, [6] = 28, [7] = 32, [8] = 32, [9] = 16, [10] = 16, [11] = 16, [12] = 16, [17] = 12,
        [18] = 12, [19] = 12, [22] = 12, [24] = 12, [25] = 12, [27] = 16, [29] = 24, [30] = 24, [31] = 24, [32] = 24, [34] = 12, [35] = 32, [36] = 36,
        [37] = 12, [38] = 28, [39] = 24, [40] = 12, [42] = 24, [43] = 24, [44] = 32, [45] = 40, [46] = 40, [47] = 40, [54] = 16,
        [55] = 40, [67] = 12, [75] = 16, [76] = 100, [77] = 108, [81] = 80, [82] = 104, [83] = 76, [84] = 76, [85] = 28, [86] = 28, [87] = 28, [88] = 28,
        [89] = 28, [90] = 32, [91] = 32, [93] = 12, [94] = 12, [95] = 52};
    if (t < sizeof min_size && n < min_size[t]) {
        mf_stop(pl, VGN_E_INVALID, "record %lu is too short for its type", index);
        return -1;
    }
    switch (t) {
    case 14: return -1; /* EOF */
    case 2: case 3: case 4: case 5: case 6: case 85: case 86: case 87: case 88: case 89: {
        int size = t >= 85 ? 4 : 8, base = t >= 85 ? (int)t - 83 : (int)t, mode;
        uint32_t count = rd32(r + 24);
        double length;
        if (count > (n - 28) / (uint32_t)size) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has more points than bytes", index);
            return -1;
        }
        if (mf_budget(pl, count) != 0) return -1;
        /* base: 2 Bezier, 3 polygon, 4 polyline, 5 Bezier-to, 6 polyline-to */
        mode = base == 2 ? 3 : base == 3 ? 1 : base == 4 ? 0 : base == 5 ? 4 : 2;
        if (!pl->in_path || mode == 2 || mode == 4) mf_begin(pl);
        if (pl->in_path && (mode == 2 || mode == 4)) {
            /* continues the path's figure: line and curve from the current point */
            uint32_t i;
            double x, y;
            for (i = 0; mode == 2 && i < count; i++) {
                mf_pt_at(r + 28 + (size_t)i * size, size, &x, &y);
                mf_line(pl, x, y);
                dc->cx = x, dc->cy = y;
            }
            for (i = 0; mode == 4 && i + 3 <= count; i += 3) {
                double x1, y1, x2, y2;
                mf_pt_at(r + 28 + (size_t)i * size, size, &x1, &y1);
                mf_pt_at(r + 28 + (size_t)(i + 1) * size, size, &x2, &y2);
                mf_pt_at(r + 28 + (size_t)(i + 2) * size, size, &x, &y);
                mf_curve(pl, x1, y1, x2, y2, x, y);
                dc->cx = x, dc->cy = y;
            }
            return 0;
        }
        length = mf_figure(pl, r + 28, count, size, mode);
        mf_paint(pl, mode == 1, 1, length);
        return 0;
    }
    case 7: case 8: case 90: case 91: {
        int size = t >= 90 ? 4 : 8, polygon = t == 8 || t == 91;
        uint32_t polys = rd32(r + 24), total = rd32(r + 28), i, at = 0;
        uint64_t sum = 0;
        double length = 0;
        if (polys > (n - 32) / 4 || total > (n - 32 - (size_t)polys * 4) / (uint32_t)size) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has more points than bytes", index);
            return -1;
        }
        for (i = 0; i < polys; i++) sum += rd32(r + 32 + (size_t)i * 4);
        if (sum > total) {
            mf_stop(pl, VGN_E_INVALID, "record %lu counts more points than it holds", index);
            return -1;
        }
        if (mf_budget(pl, total + polys) != 0) return -1;
        mf_begin(pl);
        for (i = 0; i < polys; i++) {
            uint32_t c = rd32(r + 32 + (size_t)i * 4);
            length += mf_figure(pl, r + 32 + (size_t)polys * 4 + (size_t)at * size, c, size, polygon);
            at += c;
        }
        mf_paint(pl, polygon, 1, length);
        return 0;
    }
    case 9: dc->wex = rds32(r + 8), dc->wey = rds32(r + 12), pl->xf_dirty = 1; return 0;
    case 10: dc->wox = rds32(r + 8), dc->woy = rds32(r + 12), pl->xf_dirty = 1; return 0;
    case 11: dc->vex = rds32(r + 8), dc->vey = rds32(r + 12), pl->xf_dirty = 1; return 0;
    case 12: dc->vox = rds32(r + 8), dc->voy = rds32(r + 12), pl->xf_dirty = 1; return 0;
    case 31: case 32: {
        double xn = rds32(r + 8), xd = rds32(r + 12), yn = rds32(r + 16), yd = rds32(r + 20);
        if (xd == 0 || yd == 0) return 0;
        if (t == 31) dc->vex = dc->vex * xn / xd, dc->vey = dc->vey * yn / yd;
        else dc->wex = dc->wex * xn / xd, dc->wey = dc->wey * yn / yd;
        pl->xf_dirty = 1;
        return 0;
    }
    case 17: {
        uint32_t mode = rd32(r + 8);
        if (mode >= 1 && mode <= 8) dc->map_mode = (int)mode, pl->xf_dirty = 1;
        return 0;
    }
    case 18: dc->bk_opaque = rd32(r + 8) == 2; return 0;
    case 19: dc->winding = rd32(r + 8) == 2; return 0;
    case 22: dc->text_align = (int)rd32(r + 8); return 0;
    case 24: dc->text_color = rd32(r + 8) & 0xFFFFFF; return 0;
    case 25: dc->bk_color = rd32(r + 8) & 0xFFFFFF; return 0;
    case 27: dc->cx = rds32(r + 8), dc->cy = rds32(r + 12);
        if (pl->in_path) mf_move(pl, dc->cx, dc->cy);
        return 0;
    case 54: return mf_line_to(pl, rds32(r + 8), rds32(r + 12));
    case 33: mf_save(pl); return 0;
    case 34: mf_restore(pl, rds32(r + 8)); return 0;
    case 35: {
        vgn_mf_xf x;
        if (mf_xform(r + 8, &x)) dc->world = x, pl->xf_dirty = 1;
        return 0;
    }
    case 36: {
        vgn_mf_xf x;
        uint32_t mode = rd32(r + 32);
        if (mode == 1) dc->world = xf_identity;
        else if (!mf_xform(r + 8, &x)) return 0;
        else if (mode == 2) dc->world = xf_mul(x, dc->world);
        else if (mode == 3) dc->world = xf_mul(dc->world, x);
        else if (mode == 4) dc->world = x;
        pl->xf_dirty = 1;
        return 0;
    }
    case 37: mf_select(pl, rd32(r + 8)); return 0;
    case 40: {
        uint32_t i = rd32(r + 8);
        if (i < pl->nobjects) pl->objects[i].kind = MF_OBJ_FREE;
        return 0;
    }
    case 38: {
        vgn_mf_object *o = mf_slot(pl, rd32(r + 8));
        if (o != NULL) o->kind = MF_OBJ_PEN, mf_pen_style(&o->u.pen, rd32(r + 12), rds32(r + 16), rd32(r + 24));
        return 0;
    }
    case 95: {
        vgn_mf_object *o = mf_slot(pl, rd32(r + 8));
        if (o != NULL) {
            o->kind = MF_OBJ_PEN;
            mf_pen_style(&o->u.pen, rd32(r + 28), rd32(r + 32), rd32(r + 40));
            if (rd32(r + 36) == 1) o->u.pen.null = 1; /* a null brush */
            if ((rd32(r + 28) & 0xF0000) == 0) o->u.pen.width = 0; /* cosmetic */
        }
        return 0;
    }
    case 39: {
        vgn_mf_object *o = mf_slot(pl, rd32(r + 8));
        if (o != NULL) o->kind = MF_OBJ_BRUSH, mf_brush_style(&o->u.brush, rd32(r + 12), rd32(r + 16));
        return 0;
    }
    case 93: case 94: {
        vgn_mf_object *o = mf_slot(pl, rd32(r + 8));
        if (o != NULL) o->kind = MF_OBJ_BRUSH, mf_brush_style(&o->u.brush, 3, 0);
        return 0;
    }
    case 49: {
        vgn_mf_object *o = n >= 12 ? mf_slot(pl, rd32(r + 8)) : NULL;
        if (o != NULL) o->kind = MF_OBJ_OTHER;
        return 0;
    }
    case 82: {
        vgn_mf_object *o = mf_slot(pl, rd32(r + 8));
        if (o != NULL) {
            vgn_mf_font *f = &o->u.font;
            char face[32 * 4 + 1];
            o->kind = MF_OBJ_FONT;
            memset(f, 0, sizeof *f);
            f->height = rds32(r + 12), f->escapement = rds32(r + 20), f->weight = rds32(r + 28), f->italic = r[32] != 0;
            mf_text_utf8(r + 40, 32, 1, face);
            mf_copy_utf8(f->face, sizeof f->face, face);
        }
        return 0;
    }
    case 42: case 43:
        if (t == 42) mf_ellipse(pl, rds32(r + 8), rds32(r + 12), rds32(r + 16), rds32(r + 20));
        else mf_rectangle(pl, rds32(r + 8), rds32(r + 12), rds32(r + 16), rds32(r + 20));
        return pl->stop_code != 0 ? -1 : 0;
    case 44: mf_roundrect(pl, rds32(r + 8), rds32(r + 12), rds32(r + 16), rds32(r + 20), rds32(r + 24), rds32(r + 28)); return pl->stop_code != 0 ? -1 : 0;
    case 45: case 46: case 47: case 55:
        mf_arcs(pl, t == 45 ? 0 : t == 47 ? 1 : t == 46 ? 2 : 3, rds32(r + 8), rds32(r + 12), rds32(r + 16), rds32(r + 20), rds32(r + 24), rds32(r + 28),
                rds32(r + 32), rds32(r + 36));
        return pl->stop_code != 0 ? -1 : 0;
    case 59: /* BeginPath */
        if (pl->path != NULL) cairo_path_destroy(pl->path), pl->path = NULL;
        cairo_new_path(pl->cr);
        pl->in_path = 1;
        pl->path_length = 0, pl->path_points = 0;
        mf_move(pl, dc->cx, dc->cy);
        return 0;
    case 60: /* EndPath */
        if (!pl->in_path) return 0;
        pl->in_path = 0;
        pl->path = cairo_copy_path(pl->cr);
        cairo_new_path(pl->cr);
        return 0;
    case 61: if (pl->in_path) cairo_close_path(pl->cr); return 0;
    case 62: case 63: case 64:
        if (pl->in_path) { /* ended implicitly */
            pl->in_path = 0;
            if (pl->path != NULL) cairo_path_destroy(pl->path);
            pl->path = cairo_copy_path(pl->cr);
        }
        if (pl->path == NULL) return 0;
        cairo_new_path(pl->cr);
        cairo_append_path(pl->cr, pl->path);
        cairo_path_destroy(pl->path), pl->path = NULL;
        mf_paint(pl, t != 64, t != 62, pl->path_length);
        return 0;
    case 29: case 30: /* ExcludeClipRect, IntersectClipRect */
        mf_clip_rect(pl, rds32(r + 8), rds32(r + 12), rds32(r + 16), rds32(r + 20), t == 29);
        return 0;
    case 67: case 68: /* SelectClipPath (the path made the clip), AbortPath */
        pl->in_path = 0;
        cairo_new_path(pl->cr);
        if (t == 67 && pl->path != NULL) {
            cairo_append_path(pl->cr, pl->path);
            (void)mf_clip_mode(pl, rd32(r + 8));
        }
        if (pl->path != NULL) cairo_path_destroy(pl->path), pl->path = NULL;
        return 0;
    case 75: { /* ExtSelectClipRgn: a region of device-unit rectangles, or none (the whole surface) */
        uint32_t size = rd32(r + 8), mode = rd32(r + 12), count, i;
        if (pl->in_path) return 0;
        cairo_new_path(pl->cr);
        if (size == 0) {
            if (mode == MF_RGN_COPY) cairo_reset_clip(pl->cr);
            return 0;
        }
        if (size > n - 16 || size < 32 || (count = rd32(r + 24)) > (size - 32) / 16) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has a clip region larger than itself", index);
            return -1;
        }
        if (mf_budget(pl, (uint64_t)count * 4) != 0) return -1;
        for (i = 0; i < count; i++) {
            const uint8_t *q = r + 48 + (size_t)i * 16;
            mf_rect_path(pl, rds32(q), rds32(q + 4), rds32(q + 8), rds32(q + 12), 1);
        }
        (void)mf_clip_mode(pl, mode);
        return 0;
    }
    case 70: /* comments: EMF+ among them */
        if (n >= 16 && memcmp(r + 12, "EMF+", 4) == 0) pl->emfplus = 1;
        return 0;
    case 83: case 84: {
        uint32_t chars = rd32(r + 44), off = rd32(r + 48), opts = rd32(r + 52), unit = t == 84 ? 2 : 1;
        double rect[4];
        if (off > n || chars > (n - off) / unit) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has its text outside it", index);
            return -1;
        }
        rect[0] = rds32(r + 56), rect[1] = rds32(r + 60), rect[2] = rds32(r + 64), rect[3] = rds32(r + 68);
        mf_text(pl, rds32(r + 36), rds32(r + 40), r + off, chars, t == 84, (opts & 2) ? rect : NULL);
        return pl->stop_code != 0 ? -1 : 0;
    }
    case 76: case 77: case 81: {
        const uint8_t *bmi, *bits;
        size_t bits_len;
        if (t == 81) {
            if (mf_emf_dib(r, n, rd32(r + 48), rd32(r + 52), rd32(r + 56), rd32(r + 60), &bmi, &bits, &bits_len) != 0) return 0;
            mf_blit(pl, bmi, rd32(r + 52), bits, bits_len, rds32(r + 24), rds32(r + 28), rds32(r + 72), rds32(r + 76), rds32(r + 32), rds32(r + 36),
                    rds32(r + 40), rds32(r + 44), 1);
        } else {
            double x = rds32(r + 24), y = rds32(r + 28), w = rds32(r + 32), h = rds32(r + 36);
            double sw = t == 77 ? rds32(r + 100) : w, sh = t == 77 ? rds32(r + 104) : h;
            if (rd32(r + 88) == 0) {
                mf_patblt(pl, rd32(r + 40), x, y, w, h);
                return pl->stop_code != 0 ? -1 : 0;
            }
            if (mf_emf_dib(r, n, rd32(r + 84), rd32(r + 88), rd32(r + 92), rd32(r + 96), &bmi, &bits, &bits_len) != 0) return 0;
            mf_blit(pl, bmi, rd32(r + 88), bits, bits_len, x, y, w, h, rds32(r + 44), rds32(r + 48), sw, sh, 0);
        }
        return pl->stop_code != 0 ? -1 : 0;
    }
    default: return 0;
    }
}

static void mf_emf_play(vgn_mf_play *pl)
{
    vgn_metafile *m = pl->m;
    size_t at = m->first;
    unsigned long index = 1;
    while (at < m->size && pl->stop_code == 0) {
        uint32_t t, n;
        if (m->size - at < 8) {
            mf_stop(pl, VGN_E_TRUNCATED, "record %lu is cut short", index);
            return;
        }
        t = rd32(m->data + at), n = rd32(m->data + at + 4);
        if (n < 8 || n % 4 != 0) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has an impossible size", index);
            return;
        }
        if (n > m->size - at) {
            mf_stop(pl, VGN_E_TRUNCATED, "record %lu runs past the end of the file", index);
            return;
        }
        if (mf_between(pl, index) != 0) return;
        if (mf_emf_record(pl, t, m->data + at, n, index) != 0) return;
        if (cairo_status(pl->cr) != 0) return;
        at += n;
        index++;
    }
}

/* ---- WMF ------------------------------------------------------------------------------------- */
/* One WMF record (function f; the parameters p of n bytes): 0, or -1 to stop. */
static int mf_wmf_record(vgn_mf_play *pl, uint16_t f, const uint8_t *p, size_t n, unsigned long index)
{
    vgn_mf_dc *dc = &pl->dc;
    size_t need = 0;
    switch (f) {
    case 0x0102: case 0x0103: case 0x0106: case 0x012E: case 0x012D: case 0x01F0: case 0x0127: need = 2; break;
    case 0x0201: case 0x0209: case 0x020B: case 0x020C: case 0x020D: case 0x020E: case 0x020F: case 0x0211: case 0x0213: case 0x0214: need = 4; break;
    case 0x0410: case 0x0412: case 0x041B: case 0x0418: case 0x0415: case 0x0416: need = 8; break;
    case 0x061C: need = 12; break;
    case 0x0817: case 0x081A: case 0x0830: need = 16; break;
    case 0x0325: case 0x0324: case 0x0538: case 0x0521: need = 2; break;
    case 0x0A32: need = 8; break;
    case 0x02FA: need = 10; break;
    case 0x02FC: need = 8; break;
    case 0x02FB: need = 18; break;
    case 0x061D: need = 12; break;
    case 0x0F43: need = 22; break;
    case 0x0B41: need = 20; break;
    case 0x0940: need = 16; break;
    default: break;
    }
    if (n < need) {
        mf_stop(pl, VGN_E_INVALID, "record %lu is too short for its function", index);
        return -1;
    }
    switch (f) {
    case 0x0000: return -1; /* EOF */
    case 0x001E: mf_save(pl); return 0;
    case 0x0127: mf_restore(pl, rds16(p)); return 0;
    case 0x0102: dc->bk_opaque = rd16(p) == 2; return 0;
    case 0x0103: /* only MM_ISOTROPIC changes how the window maps onto the frame */
        dc->map_mode = rd16(p) == MF_MM_ISOTROPIC ? MF_MM_ISOTROPIC : MF_MM_ANISOTROPIC, pl->xf_dirty = 1;
        return 0;
    case 0x0106: dc->winding = rd16(p) == 2; return 0;
    case 0x012E: dc->text_align = rd16(p); return 0;
    case 0x0201: dc->bk_color = rd32(p) & 0xFFFFFF; return 0;
    case 0x0209: dc->text_color = rd32(p) & 0xFFFFFF; return 0;
    case 0x020B: dc->woy = rds16(p), dc->wox = rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x020C: dc->wey = rds16(p), dc->wex = rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x020D: dc->voy = rds16(p), dc->vox = rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x020E: dc->vey = rds16(p), dc->vex = rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x020F: dc->woy += rds16(p), dc->wox += rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x0211: dc->voy += rds16(p), dc->vox += rds16(p + 2), pl->xf_dirty = 1; return 0;
    case 0x0410: case 0x0412: {
        double yd = rds16(p), yn = rds16(p + 2), xd = rds16(p + 4), xn = rds16(p + 6);
        if (xd == 0 || yd == 0) return 0;
        if (f == 0x0412) dc->vex = dc->vex * xn / xd, dc->vey = dc->vey * yn / yd;
        else dc->wex = dc->wex * xn / xd, dc->wey = dc->wey * yn / yd;
        pl->xf_dirty = 1;
        return 0;
    }
    case 0x0214: dc->cy = rds16(p), dc->cx = rds16(p + 2); return 0;
    case 0x0213: return mf_line_to(pl, rds16(p + 2), rds16(p));
    case 0x0325: case 0x0324: {
        uint32_t count = rd16(p);
        double length;
        if (count > (n - 2) / 4) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has more points than bytes", index);
            return -1;
        }
        if (mf_budget(pl, count) != 0) return -1;
        cairo_new_path(pl->cr);
        length = mf_figure(pl, p + 2, count, 4, f == 0x0324);
        mf_paint(pl, f == 0x0324, 1, length);
        return 0;
    }
    case 0x0538: {
        uint32_t polys = rd16(p), i, at = 0;
        uint64_t sum = 0;
        double length = 0;
        if (polys > (n - 2) / 2) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has more polygons than bytes", index);
            return -1;
        }
        for (i = 0; i < polys; i++) sum += rd16(p + 2 + 2 * (size_t)i);
        if (sum > (n - 2 - 2 * (size_t)polys) / 4) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has more points than bytes", index);
            return -1;
        }
        if (mf_budget(pl, sum + polys) != 0) return -1;
        cairo_new_path(pl->cr);
        for (i = 0; i < polys; i++) {
            uint32_t c = rd16(p + 2 + 2 * (size_t)i);
            length += mf_figure(pl, p + 2 + 2 * (size_t)polys + (size_t)at * 4, c, 4, 1);
            at += c;
        }
        mf_paint(pl, 1, 1, length);
        return 0;
    }
    case 0x041B: mf_rectangle(pl, rds16(p + 6), rds16(p + 4), rds16(p + 2), rds16(p)); return pl->stop_code != 0 ? -1 : 0;
    case 0x0415: case 0x0416: /* ExcludeClipRect, IntersectClipRect */
        mf_clip_rect(pl, rds16(p + 6), rds16(p + 4), rds16(p + 2), rds16(p), f == 0x0415);
        return 0;
    case 0x0418: mf_ellipse(pl, rds16(p + 6), rds16(p + 4), rds16(p + 2), rds16(p)); return pl->stop_code != 0 ? -1 : 0;
    case 0x061C: mf_roundrect(pl, rds16(p + 10), rds16(p + 8), rds16(p + 6), rds16(p + 4), rds16(p + 2), rds16(p)); return pl->stop_code != 0 ? -1 : 0;
    case 0x0817: case 0x081A: case 0x0830:
        mf_arcs(pl, f == 0x0817 ? 0 : f == 0x081A ? 1 : 2, rds16(p + 14), rds16(p + 12), rds16(p + 10), rds16(p + 8), rds16(p + 6), rds16(p + 4),
                rds16(p + 2), rds16(p));
        return pl->stop_code != 0 ? -1 : 0;
    case 0x0521: {
        size_t len = rd16(p), padded = len + (len & 1);
        if (padded > n - 2 || n - 2 - padded < 4) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has its text outside it", index);
            return -1;
        }
        mf_text(pl, rds16(p + 2 + padded + 2), rds16(p + 2 + padded), p + 2, len, 0, NULL);
        return pl->stop_code != 0 ? -1 : 0;
    }
    case 0x0A32: {
        size_t len = rd16(p + 4), at = 8;
        uint16_t opts = rd16(p + 6);
        double rect[4];
        if (opts & 6) {
            if (n < 16) {
                mf_stop(pl, VGN_E_INVALID, "record %lu is too short for its function", index);
                return -1;
            }
            rect[0] = rds16(p + 8), rect[1] = rds16(p + 10), rect[2] = rds16(p + 12), rect[3] = rds16(p + 14);
            at = 16;
        }
        if (len > n - at) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has its text outside it", index);
            return -1;
        }
        mf_text(pl, rds16(p + 2), rds16(p), p + at, len, 0, (opts & 2) ? rect : NULL);
        return pl->stop_code != 0 ? -1 : 0;
    }
    case 0x02FA: {
        vgn_mf_object *o = mf_slot(pl, 0);
        if (o != NULL) o->kind = MF_OBJ_PEN, mf_pen_style(&o->u.pen, rd16(p), rds16(p + 2), rd32(p + 6));
        return 0;
    }
    case 0x02FC: {
        vgn_mf_object *o = mf_slot(pl, 0);
        if (o != NULL) o->kind = MF_OBJ_BRUSH, mf_brush_style(&o->u.brush, rd16(p), rd32(p + 2));
        return 0;
    }
    case 0x02FB: {
        vgn_mf_object *o = mf_slot(pl, 0);
        if (o != NULL) {
            vgn_mf_font *ft = &o->u.font;
            char face[33 * 4 + 1];
            size_t k = n - 18 < 32 ? n - 18 : 32;
            o->kind = MF_OBJ_FONT;
            memset(ft, 0, sizeof *ft);
            ft->height = rds16(p), ft->escapement = rds16(p + 4), ft->weight = rds16(p + 8), ft->italic = p[10] != 0;
            mf_text_utf8(p + 18, k, 0, face);
            mf_copy_utf8(ft->face, sizeof ft->face, face);
        }
        return 0;
    }
    case 0x00F7: case 0x01F9: case 0x0142: case 0x06FF: { /* palettes, pattern brushes, regions: their slots */
        vgn_mf_object *o = mf_slot(pl, 0);
        if (o != NULL) {
            if (f == 0x01F9 || f == 0x0142) o->kind = MF_OBJ_BRUSH, mf_brush_style(&o->u.brush, 3, 0);
            else o->kind = MF_OBJ_OTHER;
        }
        return 0;
    }
    case 0x012D: mf_select(pl, rd16(p)); return 0;
    case 0x01F0: {
        uint32_t i = rd16(p);
        if (i < pl->nobjects) pl->objects[i].kind = MF_OBJ_FREE;
        return 0;
    }
    case 0x061D: mf_patblt(pl, rd32(p), rds16(p + 10), rds16(p + 8), rds16(p + 6), rds16(p + 4)); return pl->stop_code != 0 ? -1 : 0;
    case 0x0B41: case 0x0940: {
        /* without a bitmap (a reserved word before the coordinates): a pattern blit; with one, the
         * caller draws it (mf_wmf_blit) */
        const uint8_t *q = p + 6;
        if (n != (f == 0x0B41 ? 22u : 18u)) return 0;
        if (f == 0x0B41) mf_patblt(pl, rd32(p), rds16(q + 14), rds16(q + 12), rds16(q + 10), rds16(q + 8));
        else mf_patblt(pl, rd32(p), rds16(q + 10), rds16(q + 8), rds16(q + 6), rds16(q + 4));
        return pl->stop_code != 0 ? -1 : 0;
    }
    default: return 0;
    }
}

/* The byte offset of a packed DIB's pixels: after its header and colour table (or masks). */
static size_t mf_dib_bits_offset(const uint8_t *bmi, size_t len)
{
    uint32_t hsize, bpp, used, comp;
    uint64_t off;
    if (len < 12) return len;
    hsize = rd32(bmi);
    if (hsize == 12) {
        bpp = rd16(bmi + 10);
        off = 12 + (bpp <= 8 ? (uint64_t)3 << bpp : 0);
    } else {
        if (hsize < 40 || len < 40) return len;
        bpp = rd16(bmi + 14), comp = rd32(bmi + 16), used = rd32(bmi + 32);
        off = hsize;
        if (comp == 3 && hsize == 40) off += 12;
        if (bpp <= 8) off += 4 * (uint64_t)(used != 0 && used < (1u << bpp) ? used : 1u << bpp);
        else if (used <= 65536) off += 4 * (uint64_t)used;
    }
    return off > len ? len : (size_t)off;
}

/* The WMF bitmap records with a packed DIB (StretchDIB: rop, usage, srcH, srcW, ySrc, xSrc, destH,
 * destW, yDst, xDst, DIB; DIBStretchBlt: rop, srcH, srcW, ySrc, xSrc, destH, destW, yDst, xDst, DIB;
 * DIBBitBlt: rop, ySrc, xSrc, H, W, yDst, xDst, DIB): 0, or -1 to stop. */
static int mf_wmf_blit(vgn_mf_play *pl, uint16_t f, const uint8_t *p, size_t n)
{
    size_t fixed = f == 0x0F43 ? 22 : f == 0x0B41 ? 20 : 16, off;
    double x, y, w, h, sx, sy, sw, sh;
    if ((f != 0x0F43 && f != 0x0B41 && f != 0x0940) || n <= fixed + 2) return 0;
    off = mf_dib_bits_offset(p + fixed, n - fixed);
    if (f == 0x0F43)
        sh = rds16(p + 6), sw = rds16(p + 8), sy = rds16(p + 10), sx = rds16(p + 12), h = rds16(p + 14), w = rds16(p + 16), y = rds16(p + 18),
        x = rds16(p + 20);
    else if (f == 0x0B41)
        sh = rds16(p + 4), sw = rds16(p + 6), sy = rds16(p + 8), sx = rds16(p + 10), h = rds16(p + 12), w = rds16(p + 14), y = rds16(p + 16),
        x = rds16(p + 18);
    else
        sy = rds16(p + 4), sx = rds16(p + 6), h = rds16(p + 8), w = rds16(p + 10), y = rds16(p + 12), x = rds16(p + 14), sw = w, sh = h;
    mf_blit(pl, p + fixed, n - fixed, p + fixed + off, n - fixed - off, x, y, w, h, sx, sy, sw, sh, f == 0x0F43);
    return pl->stop_code != 0 ? -1 : 0;
}

static void mf_wmf_play(vgn_mf_play *pl)
{
    vgn_metafile *m = pl->m;
    size_t at = m->first;
    unsigned long index = 1;
    while (at < m->size && pl->stop_code == 0) {
        uint64_t words;
        uint16_t f;
        size_t n;
        const uint8_t *p;
        if (m->size - at < 6) {
            /* a file padded after its EOF record is fine; a cut record is not */
            if (index > 1) mf_stop(pl, VGN_E_TRUNCATED, "record %lu is cut short (no end record)", index);
            return;
        }
        words = rd32(m->data + at), f = rd16(m->data + at + 4);
        if (words < 3) {
            mf_stop(pl, VGN_E_INVALID, "record %lu has an impossible size", index);
            return;
        }
        if (words > (m->size - at) / 2) {
            mf_stop(pl, VGN_E_TRUNCATED, "record %lu runs past the end of the file", index);
            return;
        }
        if (mf_between(pl, index) != 0) return;
        p = m->data + at + 6;
        n = (size_t)words * 2 - 6;
        if (mf_wmf_blit(pl, f, p, n) != 0) return;
        if (mf_wmf_record(pl, f, p, n, index) != 0) return;
        if (cairo_status(pl->cr) != 0) return;
        at += (size_t)words * 2;
        index++;
    }
}

/* ---- the handle ------------------------------------------------------------------------------ */
static void vgn_metafile_close(vgn_decoder *d)
{
    vgn_metafile *m = (vgn_metafile *)d;
    if (m == NULL) return;
    free(m->rgba);
    free(m);
}

/* Plays the records into m->rgba: VGN_OK, or the error when nothing could be drawn. */
static int vgn_metafile_play(vgn_metafile *m, vgn_error *err)
{
    vgn_mf_play *pl;
    cairo_surface_t *surface;
    int code = VGN_OK, status;
    pl = (vgn_mf_play *)calloc(1, sizeof *pl);
    if (pl == NULL) goto nomem;
    pl->m = m;
    pl->nobjects = m->handles;
    pl->objects = (vgn_mf_object *)calloc(m->handles > 0 ? m->handles : 1, sizeof *pl->objects);
    if (pl->objects == NULL) {
        free(pl);
        goto nomem;
    }
    surface = cairo_image_surface_create(VGN_CAIRO_ARGB32, (int)m->base.width, (int)m->base.height);
    if (surface == NULL || cairo_surface_status(surface) != 0) {
        if (surface != NULL) cairo_surface_destroy(surface);
        free(pl->objects);
        free(pl);
        goto nomem;
    }
    pl->cr = cairo_create(surface);
    /* the frame (reference units) onto the output */
    pl->frame.a = m->base.width / m->ref_w, pl->frame.b = 0, pl->frame.c = 0, pl->frame.d = m->base.height / m->ref_h;
    pl->frame.e = -m->ref_x * pl->frame.a, pl->frame.f = -m->ref_y * pl->frame.d;
    mf_dc_default(pl);
    pl->deadline = mf_now_ms() + VGN_MF_MAX_MS;
    if (cairo_status(pl->cr) == 0) {
        if (m->emf) mf_emf_play(pl);
        else mf_wmf_play(pl);
    }
    if (pl->path != NULL) cairo_path_destroy(pl->path);
    status = cairo_status(pl->cr);
    cairo_destroy(pl->cr);
    cairo_surface_flush(surface);
    if (pl->drawn == 0 && pl->stop_code != 0) {
        code = pl->stop_code;
        vgn_err_fill(err, code, pl->stop, &m->warnings);
    } else if (pl->drawn == 0 && pl->emfplus) {
        code = VGN_E_UNSUPPORTED;
        vgn_err_fill(err, code, "EMF+ records only (no EMF drawing beside them)", &m->warnings);
    } else {
        const uint8_t *src = cairo_image_surface_get_data(surface);
        int sstride = cairo_image_surface_get_stride(surface);
        if (pl->stop_code == VGN_E_TRUNCATED || pl->stop_code == VGN_E_INVALID) {
            char w[VGN_MSG_LEN];
            snprintf(w, sizeof w, "%s: %s (the records before it are drawn)", pl->stop_code == VGN_E_TRUNCATED ? "cut short" : "damaged",
                     pl->stop);
            vgn_warn_add(&m->warnings, w);
        } else if (pl->stop_code != 0) {
            vgn_warn_add(&m->warnings, pl->stop);
        }
        else if (status != 0) vgn_warn_add(&m->warnings, "cairo stopped drawing part-way");
        m->stride = (size_t)m->base.width * 4;
        m->rgba = (uint8_t *)malloc(m->stride * m->base.height);
        if (m->rgba == NULL || src == NULL || sstride < (int)m->stride) {
            code = VGN_E_NOMEM;
            vgn_err_fill(err, code, "out of memory", &m->warnings);
        } else {
            uint32_t y;
            for (y = 0; y < m->base.height; y++) memcpy(m->rgba + (size_t)y * m->stride, src + (size_t)y * (size_t)sstride, m->stride);
        }
    }
    cairo_surface_destroy(surface);
    free(pl->objects);
    free(pl);
    return code;
nomem:
    vgn_err_fill(err, VGN_E_NOMEM, "out of memory", &m->warnings);
    return VGN_E_NOMEM;
}

static int vgn_metafile_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_metafile *m = (vgn_metafile *)d;
    int n = 0;
    if (!m->played) {
        int rc;
        m->played = 1;
        rc = vgn_metafile_play(m, err);
        if (rc != VGN_OK) return rc;
    }
    if (m->rgba == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "the metafile could not be drawn", &m->warnings);
        return VGN_E_STATE;
    }
    while (n < max_rows && m->next_row < m->base.height) {
        const uint32_t *src = (const uint32_t *)(const void *)(m->rgba + (size_t)m->next_row * m->stride);
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t x;
        for (x = 0; x < m->base.width; x++, out += 4) {
            uint32_t v = src[x], a = v >> 24;
            if (a == 0) {
                out[0] = out[1] = out[2] = out[3] = 0;
            } else {
                uint32_t r = v >> 16 & 255, g = v >> 8 & 255, b = v & 255;
                out[0] = (uint8_t)((r * 255 + a / 2) / a);
                out[1] = (uint8_t)((g * 255 + a / 2) / a);
                out[2] = (uint8_t)((b * 255 + a / 2) / a);
                out[3] = (uint8_t)a;
            }
        }
        n++;
        m->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &m->warnings);
    return n;
}

/* A non-placeable WMF's frame: its first SetWindowOrg/SetWindowExt (within 4096 records). */
static int mf_wmf_window(const uint8_t *data, size_t size, size_t at, double *x, double *y, double *w, double *h)
{
    int found = 0, i;
    *x = *y = 0;
    for (i = 0; i < 4096 && size - at >= 6; i++) {
        uint64_t words = rd32(data + at);
        uint16_t f = rd16(data + at + 4);
        if (words < 3 || words > (size - at) / 2 || f == 0) break;
        if (f == 0x020B && words >= 5) *y = rds16(data + at + 6), *x = rds16(data + at + 8);
        if (f == 0x020C && words >= 5) {
            *h = rds16(data + at + 6), *w = rds16(data + at + 8);
            found = 1;
            break;
        }
        at += (size_t)words * 2;
    }
    if (found) { /* the window's remaining origin record, if it comes next */
        size_t next = at + (size_t)rd32(data + at) * 2;
        if (size - next >= 10 && next < size && rd32(data + next) >= 5 && rd16(data + next + 4) == 0x020B)
            *y = rds16(data + next + 6), *x = rds16(data + next + 8);
    }
    return found;
}

vgn_decoder *vgn_metafile_open(const uint8_t *data, size_t size, uint32_t target, vgn_image_info *info, vgn_error *err)
{
    vgn_metafile *m;
    double w_px, h_px, longest, scale;
    uint64_t ow, oh;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    m = (vgn_metafile *)calloc(1, sizeof *m);
    if (m == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    m->base.read_rows = vgn_metafile_read_rows;
    m->base.close = vgn_metafile_close;
    m->data = data;
    m->size = size;
    if (size >= 44 && rd32(data) == 1 && memcmp(data + 40, " EMF", 4) == 0) {
        uint32_t hsize = rd32(data + 4);
        int32_t bl = rds32(data + 8), bt = rds32(data + 12), br = rds32(data + 16), bb = rds32(data + 20);
        int32_t fl = rds32(data + 24), ft = rds32(data + 28), fr = rds32(data + 32), fb = rds32(data + 36);
        double devw = 0, devh = 0, mmw = 0, mmh = 0;
        m->emf = 1;
        if (size < 88) {
            vgn_err_fill(err, VGN_E_TRUNCATED, "the header is cut short", NULL);
            goto fail;
        }
        if (hsize < 88 || hsize % 4 != 0 || hsize > size) {
            vgn_err_fill(err, hsize > size ? VGN_E_TRUNCATED : VGN_E_INVALID,
                         hsize > size ? "the header runs past the end of the file" : "the header's size is impossible", NULL);
            goto fail;
        }
        m->handles = rd16(data + 56);
        devw = rds32(data + 72), devh = rds32(data + 76), mmw = rds32(data + 80), mmh = rds32(data + 84);
        m->first = hsize;
        if (devw > 0 && devh > 0 && mmw > 0 && mmh > 0) {
            m->px_per_mm_x = devw / mmw, m->px_per_mm_y = devh / mmh;
        } else {
            m->px_per_mm_x = m->px_per_mm_y = 96 / 25.4;
        }
        if ((int64_t)fr - fl > 0 && (int64_t)fb - ft > 0) {
            w_px = ((double)fr - fl) * 96 / 2540, h_px = ((double)fb - ft) * 96 / 2540;
            /* the frame in reference pixels */
            m->ref_x = fl / 100.0 * m->px_per_mm_x, m->ref_y = ft / 100.0 * m->px_per_mm_y;
            m->ref_w = ((double)fr - fl) / 100.0 * m->px_per_mm_x, m->ref_h = ((double)fb - ft) / 100.0 * m->px_per_mm_y;
        } else if ((int64_t)br - bl >= 0 && (int64_t)bb - bt >= 0) {
            w_px = (double)br - bl + 1, h_px = (double)bb - bt + 1;
            m->ref_x = bl, m->ref_y = bt, m->ref_w = w_px, m->ref_h = h_px;
        } else {
            vgn_err_fill(err, VGN_E_INVALID, "neither the frame nor the bounds is a rectangle", NULL);
            goto fail;
        }
    } else {
        size_t at = 0;
        if (size >= 4 && rd32(data) == 0x9AC6CDD7u) {
            int16_t l, t, r, b;
            uint16_t inch;
            if (size < 22 + 18) {
                vgn_err_fill(err, VGN_E_TRUNCATED, "the header is cut short", NULL);
                goto fail;
            }
            l = rds16(data + 6), t = rds16(data + 8), r = rds16(data + 10), b = rds16(data + 12), inch = rd16(data + 14);
            if (inch == 0) {
                vgn_err_fill(err, VGN_E_INVALID, "the placeable header gives 0 units an inch", NULL);
                goto fail;
            }
            m->ref_x = l < r ? l : r, m->ref_y = t < b ? t : b;
            m->ref_w = fabs((double)r - l), m->ref_h = fabs((double)b - t);
            m->wmf_dpi = inch;
            w_px = m->ref_w * 96 / inch, h_px = m->ref_h * 96 / inch;
            at = 22;
        } else {
            w_px = h_px = 0;
            m->wmf_dpi = 96;
        }
        if (size - at < 18) {
            vgn_err_fill(err, VGN_E_TRUNCATED, "the header is cut short", NULL);
            goto fail;
        }
        if ((rd16(data + at) != 1 && rd16(data + at) != 2) || rd16(data + at + 2) != 9 || (rd16(data + at + 4) != 0x0100 && rd16(data + at + 4) != 0x0300)) {
            vgn_err_fill(err, VGN_E_INVALID, at ? "no metafile header after the placeable header" : "not a WMF or EMF file", NULL);
            goto fail;
        }
        m->handles = rd16(data + at + 10);
        m->first = at + 18;
        if (at == 0) {
            double x, y, w, h;
            if (!mf_wmf_window(data, size, m->first, &x, &y, &w, &h)) {
                vgn_err_fill(err, VGN_E_UNSUPPORTED, "no placeable header and no window extent to size it by", NULL);
                goto fail;
            }
            m->ref_x = w < 0 ? x + w : x, m->ref_y = h < 0 ? y + h : y;
            m->ref_w = fabs(w), m->ref_h = fabs(h);
            w_px = m->ref_w, h_px = m->ref_h;
        }
    }
    if (!(w_px >= 0.5) || !(h_px >= 0.5)) {
        vgn_err_fill(err, VGN_E_INVALID, "the picture is empty (0 pixels a side)", NULL);
        goto fail;
    }
    if (w_px > VGN_MF_MAX_SIDE + 0.5 || h_px > VGN_MF_MAX_SIDE + 0.5) {
        char msg[VGN_MSG_LEN];
        snprintf(msg, sizeof msg, "a picture of %.0f x %.0f pixels (at most 65535 a side)", w_px, h_px);
        vgn_err_fill(err, VGN_E_LIMIT, msg, NULL);
        goto fail;
    }
    info->width = (uint32_t)(w_px + 0.5), info->height = (uint32_t)(h_px + 0.5);
    if (info->width == 0) info->width = 1;
    if (info->height == 0) info->height = 1;
    if (vgn_library_load(VGN_LIB_CAIRO, err) != VGN_OK) goto fail;
    longest = info->width > info->height ? info->width : info->height;
    scale = 1;
    if (target > 0 && target < longest) scale = target / longest;
    if (longest * scale > VGN_MF_MAX_OUT) scale = VGN_MF_MAX_OUT / longest;
    ow = (uint64_t)(info->width * scale + 0.5), oh = (uint64_t)(info->height * scale + 0.5);
    m->base.width = ow > 0 ? (uint32_t)ow : 1;
    m->base.height = oh > 0 ? (uint32_t)oh : 1;
    /* the surface and its copy, the object table, a bitmap at its largest, fonts */
    m->base.working = (size_t)((uint64_t)m->base.width * m->base.height * 8 + (uint64_t)m->handles * sizeof(vgn_mf_object) +
                               (uint64_t)VGN_MF_MAX_DIB * 4 + ((uint64_t)8 << 20));
    info->components = 4;
    info->bit_depth = 8;
    info->has_alpha = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &m->base;
fail:
    free(m);
    return NULL;
}
