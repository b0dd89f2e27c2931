/* vgn_lazy.c - libheif, libjxl, LibRaw, libtiff, LittleCMS, libwebp, fontconfig, OpenJPEG and
 * OpenEXRCore (and cairo, for metafiles) opened on first use (see vgn_library_load, vgn_lazy.h).
 *
 * Linked normally, the first three load eleven more libraries into every process and run their
 * constructors (highway times its clock, libde265 fills tables): about 8 ms of CPU before main,
 * most of a one-file command; libtiff (with libjbig and libLerc), LittleCMS and libwebp cost
 * every process about 0.7 ms more. Opened here, only the commands that decode those formats or
 * colour profiles pay, once. The version the headers describe is opened (its soname; libtiff's,
 * LittleCMS's and libwebp's headers do not give it, so the sonames of the versions whose API we
 * use are named), else the unversioned name a -dev package installs. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include <dav1d/version.h>
#include <jxl/version.h>
#include <libheif/heif_version.h>
#include <libraw/libraw_version.h>
#include <charls/version.h>

#include "vgn_lazy.h"

#define VGN_LIB_COUNT 14

static pthread_mutex_t vgn_lazy_lock = PTHREAD_MUTEX_INITIALIZER;
static void *vgn_lazy_handles[VGN_LIB_COUNT];

/* The library's name in messages and its file names, versioned first. */
static const char *vgn_lazy_name(vgn_library library, char *versioned, size_t n, const char **plain)
{
    /* Each library's message name, unversioned file name, and soname pattern with its number. */
    const char *name, *pattern;
    int number;
    switch (library) {
    case VGN_LIB_HEIF: name = "libheif", *plain = "libheif.so", pattern = "libheif.so.%d", number = (int)(LIBHEIF_NUMERIC_VERSION >> 24); break;
    /* 0.x versions change their soname with the minor version (libjxl.so.0.7). */
    case VGN_LIB_JXL:
        name = "libjxl", *plain = "libjxl.so";
        pattern = JPEGXL_MAJOR_VERSION == 0 ? "libjxl.so.0.%d" : "libjxl.so.%d";
        number = JPEGXL_MAJOR_VERSION == 0 ? JPEGXL_MINOR_VERSION : JPEGXL_MAJOR_VERSION;
        break;
    case VGN_LIB_RAW: name = "LibRaw", *plain = "libraw_r.so", pattern = "libraw_r.so.%d", number = LIBRAW_SHLIB_CURRENT; break;
    case VGN_LIB_DAV1D: name = "dav1d", *plain = "libdav1d.so", pattern = "libdav1d.so.%d", number = DAV1D_API_VERSION_MAJOR; break;
    /* libtiff 4.x: soname 6 since 4.5 (TIFFOpenOptions), 5 before it. */
    case VGN_LIB_TIFF: name = "libtiff", *plain = "libtiff.so", pattern = "libtiff.so.%d", number = 6; break;
    case VGN_LIB_LCMS: name = "LittleCMS", *plain = "liblcms2.so", pattern = "liblcms2.so.%d", number = 2; break;
    case VGN_LIB_WEBP: name = "libwebp", *plain = "libwebp.so", pattern = "libwebp.so.%d", number = 7; break;
    case VGN_LIB_WEBPDEMUX: name = "libwebpdemux", *plain = "libwebpdemux.so", pattern = "libwebpdemux.so.%d", number = 2; break;
    case VGN_LIB_FONTCONFIG: name = "fontconfig", *plain = "libfontconfig.so", pattern = "libfontconfig.so.%d", number = 1; break;
    /* OpenJPEG 2.x: soname 7 since 2.0. */
    case VGN_LIB_OPENJP2: name = "OpenJPEG", *plain = "libopenjp2.so", pattern = "libopenjp2.so.%d", number = 7; break;
    /* OpenEXR 3.1's core library: soname 30 (its OPENEXR_LIB_VERSION_STRING "30.x"). */
    case VGN_LIB_OPENEXR: name = "OpenEXRCore", *plain = "libOpenEXRCore-3_1.so", pattern = "libOpenEXRCore-3_1.so.%d", number = 30; break;
    /* JBIG-KIT 2.x: soname 0. */
    case VGN_LIB_JBIG: name = "libjbig", *plain = "libjbig.so", pattern = "libjbig.so.%d", number = 0; break;
    /* cairo 1.x: soname 2 since 1.0. */
    case VGN_LIB_CAIRO: name = "cairo", *plain = "libcairo.so", pattern = "libcairo.so.%d", number = 2; break;
    case VGN_LIB_CHARLS: name = "CharLS", *plain = "libcharls.so", pattern = "libcharls.so.%d", number = CHARLS_VERSION_MAJOR; break;
    default: *plain = NULL; return NULL;
    }
    snprintf(versioned, n, pattern, number);
    return name;
}

/* The library's handle, opened now if need be; NULL (and the reason in `why`) if it cannot be. */
static void *vgn_lazy_open(vgn_library library, char *why, size_t n)
{
    char versioned[64];
    const char *plain, *name;
    void *handle;
    if ((unsigned)library >= VGN_LIB_COUNT) {
        snprintf(why, n, "unknown library %d", (int)library);
        return NULL;
    }
    handle = __atomic_load_n(&vgn_lazy_handles[library], __ATOMIC_ACQUIRE);
    if (handle != NULL) return handle;
    pthread_mutex_lock(&vgn_lazy_lock);
    handle = vgn_lazy_handles[library];
    if (handle == NULL) {
        name = vgn_lazy_name(library, versioned, sizeof versioned, &plain);
        /* RTLD_NOW: everything is resolved here, before any child is forked to use it. */
        handle = dlopen(versioned, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *first = dlerror();
            snprintf(why, n, "%s cannot be loaded: %s", name, first != NULL ? first : versioned);
            handle = dlopen(plain, RTLD_NOW | RTLD_LOCAL);
        }
        if (handle != NULL) __atomic_store_n(&vgn_lazy_handles[library], handle, __ATOMIC_RELEASE);
    }
    pthread_mutex_unlock(&vgn_lazy_lock);
    return handle;
}

int vgn_library_load(vgn_library library, vgn_error *err)
{
    char why[VGN_MSG_LEN] = "";
    if (vgn_lazy_open(library, why, sizeof why) == NULL) {
        vgn_err_fill(err, VGN_E_UNSUPPORTED, why, NULL);
        return VGN_E_UNSUPPORTED;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

void *vgn_lazy_symbol(vgn_library library, const char *name)
{
    char why[VGN_MSG_LEN] = "";
    void *handle = vgn_lazy_open(library, why, sizeof why);
    void *symbol = handle != NULL ? dlsym(handle, name) : NULL;
    if (symbol == NULL) {
        /* A call before vgn_library_load succeeded, or a library older than its headers. */
        fprintf(stderr, "vignette: %s: %s\n", name, handle == NULL ? why : "not in the loaded library");
        abort();
    }
    return symbol;
}

void vgn_library_settle(void)
{
    static const vgn_library in_process[] = {VGN_LIB_TIFF, VGN_LIB_LCMS, VGN_LIB_WEBP, VGN_LIB_WEBPDEMUX};
    char why[VGN_MSG_LEN];
    for (size_t i = 0; i < sizeof in_process / sizeof *in_process; i++) (void)vgn_lazy_open(in_process[i], why, sizeof why);
}
