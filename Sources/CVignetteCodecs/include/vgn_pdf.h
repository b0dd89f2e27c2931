/*
 * vgn_pdf.h - a PDF's facts, the text of its first pages and a rendering of its first page, read
 * by poppler-glib (loaded with dlopen) in a child process. The conventions of vgn_codecs.h apply.
 */
#ifndef VGN_PDF_H
#define VGN_PDF_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest page rendering asked for, in pixels a side. */
#define VGN_PDF_MAX_RENDER_SIDE 4096

/* What to read, and the bounds of the child. */
typedef struct {
    uint32_t max_pages;   /* pages whose text is read (from the first) */
    size_t max_text;      /* bytes of text at most (UTF-8, cut anywhere) */
    uint32_t render_side; /* longest side of page 1's rendering; 0: none */
    unsigned timeout_ms;  /* the child is killed past this */
    size_t max_memory;    /* private memory the child may add to what it starts with */
} vgn_pdf_request;

/* What was read. Strings are UTF-8, empty when the PDF has none; dates are Unix times or -1. */
typedef struct {
    uint32_t pages;
    double page_width, page_height; /* page 1, in points */
    int encrypted;                  /* set on the error for a PDF that needs a password */
    char version[16];
    char title[256], author[256], subject[256], keywords[256], creator[256], producer[256];
    int64_t created, modified;
    uint32_t text_pages; /* pages whose text is in `text` */
    int text_cut;        /* the text stops at max_text bytes or max_pages pages */
    char *text;          /* text_size bytes (+ NUL), pages separated by form feeds; free with vgn_pdf_facts_free */
    size_t text_size;
    uint8_t *pixels; /* width x height RGBA, opaque; NULL without a rendering */
    uint32_t width, height;
} vgn_pdf_facts;

/* Reads `data` in a child process; on VGN_OK *out holds the facts (free with vgn_pdf_facts_free).
 * Errors: VGN_E_UNSUPPORTED for an encrypted PDF (out->encrypted = 1) or poppler missing,
 * VGN_E_INVALID for what poppler cannot read or a crash, VGN_E_LIMIT past the timeout. */
int vgn_pdf_read_isolated(const uint8_t *data, size_t size, const vgn_pdf_request *request, vgn_pdf_facts *out,
                          vgn_error *err);
void vgn_pdf_facts_free(vgn_pdf_facts *facts);

#ifdef __cplusplus
}
#endif

#endif /* VGN_PDF_H */
