/* The libtiff-dev headers, for the module map: only CVignetteCodecs uses them, through its own C. */
#include <tiffio.h>
