/* vgn_lazy.h - calls into libraries opened on first use (vgn_library_load, vgn_lazy.c).
 *
 * A codec file includes its library's header, then this one, then defines each function it calls
 * as VGN_LAZY(library, function): the call goes through a pointer looked up once with dlsym, and
 * the program no longer links the library. The declared type of the function is kept, so every
 * call is still checked by the compiler. Callers load the library with vgn_library_load (which
 * can fail) before the first call; a call without it is a bug and aborts with a message. */
#ifndef VGN_LAZY_H
#define VGN_LAZY_H

#include "vgn_internal.h"

/* The address of `name` in `library`, loading the library if need be; aborts when either is missing. */
VGN_HIDDEN void *vgn_lazy_symbol(vgn_library library, const char *name);

/* Loads now the libraries that decoders in this process open on first use (libtiff, LittleCMS,
 * libwebp): called before a fork, so that no other thread of ours is inside dlopen for one of
 * them when the child is cloned (it would inherit the loader's state half-changed). Costs the
 * first forking command about a millisecond; missing libraries are left to their decoders. */
VGN_HIDDEN void vgn_library_settle(void);

/* `fn` of `library`, looked up on the first call through this expansion and kept. */
#define VGN_LAZY(library, fn)                                                                                      \
    (*({                                                                                                           \
        static __typeof__(&fn) vgn_lazy_p_;                                                                        \
        __typeof__(&fn) vgn_lazy_f_ = __atomic_load_n(&vgn_lazy_p_, __ATOMIC_ACQUIRE);                             \
        if (vgn_lazy_f_ == NULL) {                                                                                 \
            vgn_lazy_f_ = (__typeof__(&fn))vgn_lazy_symbol(library, #fn);                                         \
            __atomic_store_n(&vgn_lazy_p_, vgn_lazy_f_, __ATOMIC_RELEASE);                                        \
        }                                                                                                          \
        vgn_lazy_f_;                                                                                               \
    }))

#endif /* VGN_LAZY_H */
