/* The liblcms2-dev headers, for the module map: only CVignetteCodecs uses them, through its own C. */
#include <lcms2.h>
