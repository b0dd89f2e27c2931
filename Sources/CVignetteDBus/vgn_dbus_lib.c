/* vgn_dbus_lib.c - opens libdbus-1 for the shim on first use (see vgn_dbus_lib.h). */
#define VGN_DBUS_LIB_LOADER
#include "vgn_dbus_lib.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* Its soname: libdbus-1 has kept ABI 3 since 2006. */
#define VGN_DBUS_SONAME "libdbus-1.so.3"

struct vgn_dbus_lib vgn_dbus_lib;

static pthread_once_t vgn_dbus_lib_once = PTHREAD_ONCE_INIT;
static int vgn_dbus_lib_loaded;
static char vgn_dbus_lib_why[256];

static void vgn_dbus_lib_open(void) {
    /* RTLD_NOW: a missing symbol of its own dependencies fails here, not in a later call. */
    void *handle = dlopen(VGN_DBUS_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (handle == NULL) {
        const char *why = dlerror();
        snprintf(vgn_dbus_lib_why, sizeof vgn_dbus_lib_why, "libdbus-1 cannot be loaded: %s", why != NULL ? why : VGN_DBUS_SONAME);
        return;
    }
#define VGN_DBUS_LOOKUP(fn)                                                                                        \
    if ((vgn_dbus_lib.fn = (__typeof__(vgn_dbus_lib.fn))dlsym(handle, #fn)) == NULL) {                           \
        snprintf(vgn_dbus_lib_why, sizeof vgn_dbus_lib_why, "libdbus-1 cannot be used: %s has no %s (too old?)", \
                 VGN_DBUS_SONAME, #fn);                                                                           \
        memset(&vgn_dbus_lib, 0, sizeof vgn_dbus_lib);                                                             \
        dlclose(handle);                                                                                           \
        return;                                                                                                    \
    }
    VGN_DBUS_FUNCTIONS(VGN_DBUS_LOOKUP)
#undef VGN_DBUS_LOOKUP
    vgn_dbus_lib_loaded = 1;
}

int vgn_dbus_lib_load(char *err, size_t errlen) {
    pthread_once(&vgn_dbus_lib_once, vgn_dbus_lib_open);
    if (vgn_dbus_lib_loaded) return 1;
    if (err != NULL && errlen > 0) snprintf(err, errlen, "%s", vgn_dbus_lib_why);
    return 0;
}
