/* vgn_pdf.c - a PDF's facts, the text of its first pages and a rendering of page 1, through
 * poppler (glib for the facts and the rendering, cpp for pdftotext's text) in a child process (see
 * vgn_pdf.h).
 *
 * poppler is a large parser of hostile input, so it runs only in a child: a crash, a hang past the
 * deadline, runaway memory (RLIMIT_DATA) or what it prints on stderr stays there. It is loaded
 * with dlopen in that child, never linked: its libraries (glib, cairo, fontconfig, NSS) then cost
 * nothing to the commands and requests that never see a PDF. */
#include <dlfcn.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "vgn_internal.h"
#include "vgn_pdf.h"

/* The few poppler-glib, GLib and cairo declarations used, so that building needs none of their
 * -dev packages; the ABI is stable across Debian releases (libpoppler-glib8, libcairo2). */
typedef struct {
    uint32_t domain;
    int code;
    char *message;
} vgn_gerror;
enum { VGN_POPPLER_ERROR_ENCRYPTED = 1 };
enum { VGN_CAIRO_FORMAT_ARGB32 = 0 };

typedef struct {
    void *(*document_new_from_data)(char *, int, const char *, vgn_gerror **);
    int (*document_get_n_pages)(void *);
    void *(*document_get_page)(void *, int);
    char *(*document_get_title)(void *);
    char *(*document_get_author)(void *);
    char *(*document_get_subject)(void *);
    char *(*document_get_keywords)(void *);
    char *(*document_get_creator)(void *);
    char *(*document_get_producer)(void *);
    char *(*document_get_pdf_version_string)(void *);
    long (*document_get_creation_date)(void *);
    long (*document_get_modification_date)(void *);
    void (*page_get_size)(void *, double *, double *);
    char *(*page_get_text)(void *);
    void (*page_render)(void *, void *);
    void (*g_free)(void *);
    void (*g_error_free)(vgn_gerror *);
    void (*g_object_unref)(void *);
    void *(*cairo_image_surface_create)(int, int, int);
    void *(*cairo_create)(void *);
    void (*cairo_scale)(void *, double, double);
    void (*cairo_set_source_rgb)(void *, double, double, double);
    void (*cairo_paint)(void *);
    void (*cairo_destroy)(void *);
    void (*cairo_surface_flush)(void *);
    unsigned char *(*cairo_image_surface_get_data)(void *);
    int (*cairo_image_surface_get_stride)(void *);
    int (*cairo_surface_status)(void *);
    void (*cairo_surface_destroy)(void *);
} vgn_poppler_api;

/* poppler-cpp's page text, which is pdftotext's: the same TextOutputDev in reading order (neither
 * physical layout nor raw order), over the page *and* its annotations, so form fields' values and
 * text that poppler-glib's selection-based page text leaves out are there. poppler-cpp is C++ and
 * is called here through its exported symbols with the Itanium C++ ABI that g++ and clang use on
 * Linux: the strings are libstdc++'s (C++11 ABI) std::string and std::basic_string<unsigned short>
 * laid out below, read only; a result too large to be a class by value comes back through a hidden
 * pointer, the first argument, exactly as C returns a struct of this size. If anything is missing
 * the child falls back to poppler-glib's text. */
typedef struct {
    const char *ptr;
    size_t length;
    char local[16];
} vgn_cxx_string;
typedef struct {
    uint16_t *ptr;
    size_t length;
    uint16_t local[8];
} vgn_cxx_ustring;
enum { VGN_POPPLER_CPP_READING_ORDER = 2 }; /* poppler::page::non_raw_non_physical_layout */

typedef struct {
    void *(*load_from_raw_data)(const char *, int, const vgn_cxx_string *, const vgn_cxx_string *);
    _Bool (*is_locked)(const void *);
    void *(*create_page)(const void *, int);
    vgn_cxx_ustring (*text)(const void *, const double rect[4], int);
    void (*operator_delete)(void *);
} vgn_poppler_cpp_api;

/* The child's first message; the text (text_size bytes) and the RGBA pixels follow. */
typedef struct {
    int32_t code;
    char message[VGN_MSG_LEN];
    vgn_pdf_facts facts;
} vgn_pdf_reply;

static int vgn_pdf_bind(vgn_poppler_api *api, char *why, size_t why_size)
{
    /* RTLD_GLOBAL: poppler-glib's own dependencies (GLib, GObject, cairo) then resolve below. */
    void *poppler = dlopen("libpoppler-glib.so.8", RTLD_NOW | RTLD_GLOBAL);
    void *cairo = poppler ? dlopen("libcairo.so.2", RTLD_NOW | RTLD_GLOBAL) : NULL;
    void *glib = poppler ? dlopen("libglib-2.0.so.0", RTLD_NOW | RTLD_GLOBAL) : NULL;
    void *gobject = poppler ? dlopen("libgobject-2.0.so.0", RTLD_NOW | RTLD_GLOBAL) : NULL;
    if (poppler == NULL || cairo == NULL || glib == NULL || gobject == NULL) {
        snprintf(why, why_size, "poppler is not installed (Debian: libpoppler-glib8)");
        return -1;
    }
#define VGN_BIND(lib, field, name)                                                          \
    do {                                                                                    \
        *(void **)(&api->field) = dlsym(lib, name);                                         \
        if (api->field == NULL) {                                                           \
            snprintf(why, why_size, "poppler-glib has no %s (too old a libpoppler-glib8?)", name); \
            return -1;                                                                      \
        }                                                                                   \
    } while (0)
    VGN_BIND(poppler, document_new_from_data, "poppler_document_new_from_data");
    VGN_BIND(poppler, document_get_n_pages, "poppler_document_get_n_pages");
    VGN_BIND(poppler, document_get_page, "poppler_document_get_page");
    VGN_BIND(poppler, document_get_title, "poppler_document_get_title");
    VGN_BIND(poppler, document_get_author, "poppler_document_get_author");
    VGN_BIND(poppler, document_get_subject, "poppler_document_get_subject");
    VGN_BIND(poppler, document_get_keywords, "poppler_document_get_keywords");
    VGN_BIND(poppler, document_get_creator, "poppler_document_get_creator");
    VGN_BIND(poppler, document_get_producer, "poppler_document_get_producer");
    VGN_BIND(poppler, document_get_pdf_version_string, "poppler_document_get_pdf_version_string");
    VGN_BIND(poppler, document_get_creation_date, "poppler_document_get_creation_date");
    VGN_BIND(poppler, document_get_modification_date, "poppler_document_get_modification_date");
    VGN_BIND(poppler, page_get_size, "poppler_page_get_size");
    VGN_BIND(poppler, page_get_text, "poppler_page_get_text");
    VGN_BIND(poppler, page_render, "poppler_page_render");
    VGN_BIND(glib, g_free, "g_free");
    VGN_BIND(glib, g_error_free, "g_error_free");
    VGN_BIND(gobject, g_object_unref, "g_object_unref");
    VGN_BIND(cairo, cairo_image_surface_create, "cairo_image_surface_create");
    VGN_BIND(cairo, cairo_create, "cairo_create");
    VGN_BIND(cairo, cairo_scale, "cairo_scale");
    VGN_BIND(cairo, cairo_set_source_rgb, "cairo_set_source_rgb");
    VGN_BIND(cairo, cairo_paint, "cairo_paint");
    VGN_BIND(cairo, cairo_destroy, "cairo_destroy");
    VGN_BIND(cairo, cairo_surface_flush, "cairo_surface_flush");
    VGN_BIND(cairo, cairo_image_surface_get_data, "cairo_image_surface_get_data");
    VGN_BIND(cairo, cairo_image_surface_get_stride, "cairo_image_surface_get_stride");
    VGN_BIND(cairo, cairo_surface_status, "cairo_surface_status");
    VGN_BIND(cairo, cairo_surface_destroy, "cairo_surface_destroy");
#undef VGN_BIND
    return 0;
}

/* Binds poppler-cpp; 0 when every symbol is there. */
static int vgn_pdf_bind_cpp(vgn_poppler_cpp_api *api)
{
    void *cpp = dlopen("libpoppler-cpp.so.0", RTLD_NOW | RTLD_LOCAL);
    if (cpp == NULL) return -1;
    *(void **)(&api->load_from_raw_data) =
        dlsym(cpp, "_ZN7poppler8document18load_from_raw_dataEPKciRKNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEESA_");
    *(void **)(&api->is_locked) = dlsym(cpp, "_ZNK7poppler8document9is_lockedEv");
    *(void **)(&api->create_page) = dlsym(cpp, "_ZNK7poppler8document11create_pageEi");
    *(void **)(&api->text) = dlsym(cpp, "_ZNK7poppler4page4textERKNS_9rectangleIdEENS0_16text_layout_enumE");
    *(void **)(&api->operator_delete) = dlsym(RTLD_DEFAULT, "_ZdlPv");
    if (api->operator_delete == NULL) *(void **)(&api->operator_delete) = dlsym(cpp, "_ZdlPv");
    return api->load_from_raw_data && api->is_locked && api->create_page && api->text && api->operator_delete ? 0 : -1;
}

/* Appends UTF-16 `src` to `dst` as UTF-8, stopping (at a character boundary) where it would pass
 * `cap`; unpaired surrogates become U+FFFD. Returns the bytes written; *cut is set when it stopped. */
static size_t vgn_pdf_utf16_to_utf8(const uint16_t *src, size_t n, char *dst, size_t cap, int *cut)
{
    size_t i, out = 0;
    for (i = 0; i < n; i++) {
        uint32_t c = src[i];
        char b[4];
        size_t k;
        if (c >= 0xD800 && c <= 0xDBFF && i + 1 < n && src[i + 1] >= 0xDC00 && src[i + 1] <= 0xDFFF) {
            c = 0x10000 + ((c - 0xD800) << 10) + (src[i + 1] - 0xDC00);
            i++;
        } else if (c >= 0xD800 && c <= 0xDFFF) {
            c = 0xFFFD;
        }
        if (c < 0x80) {
            b[0] = (char)c;
            k = 1;
        } else if (c < 0x800) {
            b[0] = (char)(0xC0 | (c >> 6));
            b[1] = (char)(0x80 | (c & 0x3F));
            k = 2;
        } else if (c < 0x10000) {
            b[0] = (char)(0xE0 | (c >> 12));
            b[1] = (char)(0x80 | ((c >> 6) & 0x3F));
            b[2] = (char)(0x80 | (c & 0x3F));
            k = 3;
        } else {
            b[0] = (char)(0xF0 | (c >> 18));
            b[1] = (char)(0x80 | ((c >> 12) & 0x3F));
            b[2] = (char)(0x80 | ((c >> 6) & 0x3F));
            b[3] = (char)(0x80 | (c & 0x3F));
            k = 4;
        }
        if (k > cap - out) {
            *cut = 1;
            break;
        }
        memcpy(dst + out, b, k);
        out += k;
    }
    return out;
}

/* Copies a GLib string into a fixed field (cut at a character boundary) and frees it. */
static void vgn_pdf_take(const vgn_poppler_api *api, char *text, char *field, size_t field_size)
{
    size_t n;
    if (text == NULL) return;
    n = strlen(text);
    if (n >= field_size) {
        n = field_size - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    memcpy(field, text, n);
    field[n] = 0;
    api->g_free(text);
}

static void vgn_pdf_fail(int fd, vgn_pdf_reply *reply, int code, const char *message)
{
    reply->code = code;
    snprintf(reply->message, sizeof reply->message, "%s", message);
    (void)vgn_fd_write_all(fd, reply, sizeof *reply);
    _exit(0);
}

static void vgn_pdf_child(int fd, const uint8_t *data, size_t size, const void *arg)
{
    const vgn_pdf_request *request = (const vgn_pdf_request *)arg;
    vgn_poppler_api api;
    vgn_pdf_reply reply;
    vgn_gerror *error = NULL;
    void *doc, *first;
    char why[VGN_MSG_LEN];
    char *text = NULL;
    size_t text_size = 0;
    uint8_t *pixels = NULL;
    int pages, i;
    memset(&reply, 0, sizeof reply);
    memset(&api, 0, sizeof api);
    if (vgn_pdf_bind(&api, why, sizeof why) != 0) vgn_pdf_fail(fd, &reply, VGN_E_UNSUPPORTED, why);
    if (size > 0x7FFFFFFF) vgn_pdf_fail(fd, &reply, VGN_E_LIMIT, "poppler reads PDFs of at most 2 GiB");
    doc = api.document_new_from_data((char *)data, (int)size, NULL, &error);
    if (doc == NULL) {
        int encrypted = error != NULL && error->code == VGN_POPPLER_ERROR_ENCRYPTED;
        snprintf(why, sizeof why, "%s",
                 encrypted ? "the PDF is encrypted and needs a password"
                 : error != NULL && error->message != NULL ? error->message
                                                            : "poppler cannot read this PDF");
        if (error != NULL) api.g_error_free(error);
        reply.facts.encrypted = encrypted;
        vgn_pdf_fail(fd, &reply, encrypted ? VGN_E_UNSUPPORTED : VGN_E_INVALID, why);
    }
    pages = api.document_get_n_pages(doc);
    reply.facts.pages = pages > 0 ? (uint32_t)pages : 0;
    vgn_pdf_take(&api, api.document_get_title(doc), reply.facts.title, sizeof reply.facts.title);
    vgn_pdf_take(&api, api.document_get_author(doc), reply.facts.author, sizeof reply.facts.author);
    vgn_pdf_take(&api, api.document_get_subject(doc), reply.facts.subject, sizeof reply.facts.subject);
    vgn_pdf_take(&api, api.document_get_keywords(doc), reply.facts.keywords, sizeof reply.facts.keywords);
    vgn_pdf_take(&api, api.document_get_creator(doc), reply.facts.creator, sizeof reply.facts.creator);
    vgn_pdf_take(&api, api.document_get_producer(doc), reply.facts.producer, sizeof reply.facts.producer);
    vgn_pdf_take(&api, api.document_get_pdf_version_string(doc), reply.facts.version, sizeof reply.facts.version);
    reply.facts.created = (int64_t)api.document_get_creation_date(doc);
    reply.facts.modified = (int64_t)api.document_get_modification_date(doc);
    first = pages > 0 ? api.document_get_page(doc, 0) : NULL;
    if (first != NULL) api.page_get_size(first, &reply.facts.page_width, &reply.facts.page_height);

    /* Text of the first pages, form feed between pages, cut at max_text bytes. */
    if (request->max_text > 0) {
        vgn_poppler_cpp_api cpp;
        void *cpp_doc = NULL;
        memset(&cpp, 0, sizeof cpp);
        if (vgn_pdf_bind_cpp(&cpp) == 0) {
            vgn_cxx_string none;
            memset(&none, 0, sizeof none);
            none.ptr = none.local;
            cpp_doc = cpp.load_from_raw_data((const char *)data, (int)size, &none, &none);
            if (cpp_doc != NULL && cpp.is_locked(cpp_doc)) cpp_doc = NULL;
        }
        text = (char *)malloc(request->max_text);
        if (text == NULL) vgn_pdf_fail(fd, &reply, VGN_E_NOMEM, "no memory for the text");
        for (i = 0; i < pages && (uint32_t)i < request->max_pages && text_size < request->max_text; i++) {
            void *cpp_page = cpp_doc != NULL ? cpp.create_page(cpp_doc, i) : NULL;
            if (i > 0) text[text_size++] = '\f';
            if (cpp_page != NULL) {
                /* An empty rectangle is the whole page. The document and pages are left to the
                 * child's exit. */
                static const double whole_page[4] = {0, 0, 0, 0};
                vgn_cxx_ustring page_text = cpp.text(cpp_page, whole_page, VGN_POPPLER_CPP_READING_ORDER);
                size_t n = page_text.length;
                /* TextOutputDev ends each page with a form feed; ours go between pages. */
                while (n > 0 && page_text.ptr[n - 1] == '\f') n--;
                if (page_text.ptr != NULL)
                    text_size += vgn_pdf_utf16_to_utf8(page_text.ptr, n, text + text_size, request->max_text - text_size,
                                                       &reply.facts.text_cut);
                if (page_text.ptr != NULL && page_text.ptr != page_text.local) cpp.operator_delete(page_text.ptr);
            } else {
                void *page = i == 0 ? first : api.document_get_page(doc, i);
                char *page_text;
                size_t n;
                if (page == NULL) break;
                page_text = api.page_get_text(page);
                n = page_text != NULL ? strlen(page_text) : 0;
                if (n > request->max_text - text_size) {
                    n = request->max_text - text_size;
                    reply.facts.text_cut = 1;
                }
                if (n > 0) memcpy(text + text_size, page_text, n);
                text_size += n;
                if (page_text != NULL) api.g_free(page_text);
                if (page != first) api.g_object_unref(page);
            }
            reply.facts.text_pages = (uint32_t)i + 1;
        }
        if (reply.facts.text_pages < reply.facts.pages && reply.facts.text_pages >= request->max_pages) reply.facts.text_cut = 1;
    }
    reply.facts.text_size = text_size;

    /* Page 1 on white, its longest side `render_side` pixels. */
    if (request->render_side > 0 && first != NULL && reply.facts.page_width > 0 && reply.facts.page_height > 0 &&
        isfinite(reply.facts.page_width) && isfinite(reply.facts.page_height)) {
        double longest = reply.facts.page_width > reply.facts.page_height ? reply.facts.page_width : reply.facts.page_height;
        double scale = request->render_side / longest;
        int w = (int)lround(reply.facts.page_width * scale), h = (int)lround(reply.facts.page_height * scale);
        void *surface, *cr;
        if (w < 1) w = 1;
        if (h < 1) h = 1;
        if ((uint32_t)w > request->render_side) w = (int)request->render_side;
        if ((uint32_t)h > request->render_side) h = (int)request->render_side;
        surface = api.cairo_image_surface_create(VGN_CAIRO_FORMAT_ARGB32, w, h);
        if (surface == NULL || api.cairo_surface_status(surface) != 0)
            vgn_pdf_fail(fd, &reply, VGN_E_NOMEM, "no memory for the page rendering");
        cr = api.cairo_create(surface);
        api.cairo_set_source_rgb(cr, 1, 1, 1);
        api.cairo_paint(cr);
        api.cairo_scale(cr, scale, scale);
        api.page_render(first, cr);
        api.cairo_destroy(cr);
        api.cairo_surface_flush(surface);
        pixels = (uint8_t *)malloc((size_t)w * (size_t)h * 4);
        if (pixels == NULL) vgn_pdf_fail(fd, &reply, VGN_E_NOMEM, "no memory for the page rendering");
        {
            const unsigned char *src = api.cairo_image_surface_get_data(surface);
            int stride = api.cairo_image_surface_get_stride(surface), x, y;
            for (y = 0; y < h; y++) {
                const uint32_t *row = (const uint32_t *)(const void *)(src + (size_t)y * (size_t)stride);
                uint8_t *out = pixels + (size_t)y * (size_t)w * 4;
                for (x = 0; x < w; x++) {
                    /* Painted on opaque white first: every pixel is opaque, so premultiplied = straight. */
                    uint32_t p = row[x];
                    out[x * 4] = (uint8_t)(p >> 16);
                    out[x * 4 + 1] = (uint8_t)(p >> 8);
                    out[x * 4 + 2] = (uint8_t)p;
                    out[x * 4 + 3] = 255;
                }
            }
        }
        api.cairo_surface_destroy(surface);
        reply.facts.width = (uint32_t)w;
        reply.facts.height = (uint32_t)h;
    }
    reply.code = VGN_OK;
    if (vgn_fd_write_all(fd, &reply, sizeof reply) != 0) _exit(0);
    if (text_size > 0 && vgn_fd_write_all(fd, text, text_size) != 0) _exit(0);
    if (pixels != NULL) (void)vgn_fd_write_all(fd, pixels, (size_t)reply.facts.width * reply.facts.height * 4);
    _exit(0);
}

const vgn_child_reader vgn_pdf_reader = {"poppler", vgn_pdf_child, sizeof(vgn_pdf_request), VGN_CHILD_NO_PATH};

int vgn_pdf_read_isolated(const uint8_t *data, size_t size, const vgn_pdf_request *request, vgn_pdf_facts *out,
                          vgn_error *err)
{
    int status, rc, code;
    vgn_child child;
    vgn_pdf_reply reply;
    size_t pixel_bytes = 0;
    if (out == NULL || request == NULL || data == NULL || size == 0) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(out, 0, sizeof *out);
    if (request->render_side > VGN_PDF_MAX_RENDER_SIDE) {
        vgn_err_fill(err, VGN_E_LIMIT, "the page rendering asked for is too large", NULL);
        return VGN_E_LIMIT;
    }
    if ((code = vgn_child_start(&child, &vgn_pdf_reader, data, size, request, NULL, request->timeout_ms, request->max_memory,
                                "the PDF reader", err)) != VGN_OK)
        return code;
    memset(&reply, 0, sizeof reply);
    rc = vgn_child_read(&child, &reply, sizeof reply);
    if (rc == 0 && reply.code == VGN_OK) {
        reply.facts.text = NULL;
        reply.facts.pixels = NULL;
        pixel_bytes = (size_t)reply.facts.width * reply.facts.height * 4;
        if (reply.facts.text_size > request->max_text || reply.facts.width > request->render_side ||
            reply.facts.height > request->render_side)
            rc = -3;
        if (rc == 0 && reply.facts.text_size > 0) {
            reply.facts.text = (char *)malloc(reply.facts.text_size + 1);
            rc = reply.facts.text == NULL ? -3 : vgn_child_read(&child, reply.facts.text, reply.facts.text_size);
            if (rc == 0) reply.facts.text[reply.facts.text_size] = 0;
        }
        if (rc == 0 && pixel_bytes > 0) {
            reply.facts.pixels = (uint8_t *)malloc(pixel_bytes);
            rc = reply.facts.pixels == NULL ? -3 : vgn_child_read(&child, reply.facts.pixels, pixel_bytes);
        }
    }
    status = vgn_child_end(&child, rc);
    if (rc == 0 && reply.code != VGN_OK) {
        out->encrypted = reply.facts.encrypted;
        reply.message[sizeof reply.message - 1] = 0;
        vgn_err_fill(err, reply.code, reply.message, NULL);
        return reply.code;
    }
    if (rc != 0) {
        free(reply.facts.text);
        free(reply.facts.pixels);
        return vgn_child_failure(err, "poppler", rc, status, request->timeout_ms, request->max_memory);
    }
    *out = reply.facts;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

void vgn_pdf_facts_free(vgn_pdf_facts *facts)
{
    if (facts == NULL) return;
    free(facts->text);
    free(facts->pixels);
    facts->text = NULL;
    facts->pixels = NULL;
}
