/* The libwebp-dev headers, for the module map: only CVignetteCodecs uses them, through its own C. */
#include <webp/decode.h>
#include <webp/demux.h>
