/* vgn_av1.h - the AV1 decoder plugin vgn_heif.c registers on its libheif contexts (vgn_av1.c). */
#ifndef VGN_AV1_H
#define VGN_AV1_H

#include <stdint.h>

#include "vgn_internal.h"

struct heif_decoder_plugin;

/* What the plugin does with the frames of one heif_decode_image call on this thread. */
typedef struct {
    uint32_t k;                /* box reduction factor of frames of the size below (1: none) */
    uint32_t width, height;    /* the coded size (ispe) a frame must have to be shrunk */
    int filters;               /* in-loop filters (deblocking, CDEF, restoration) on */
    int apply_grain;           /* film grain on */
    unsigned frame_size_limit; /* dav1d refuses larger frames (pixels; 0: none) */
    int frames, shrunk, unshrunk; /* counted by the plugin */
} vgn_av1_request;

/* The plugin (dav1d must be loaded: vgn_library_load(VGN_LIB_DAV1D)). */
VGN_HIDDEN const struct heif_decoder_plugin *vgn_av1_heif_plugin(void);

/* Around heif_decode_image: the request applies to the frames decoded on this thread until end. */
VGN_HIDDEN void vgn_av1_begin(vgn_av1_request *r);
VGN_HIDDEN void vgn_av1_end(void);

#endif /* VGN_AV1_H */
