/* The liblzma-dev headers, for the module map: only CVignetteCodecs uses them, through its own C. */
#include <lzma.h>
