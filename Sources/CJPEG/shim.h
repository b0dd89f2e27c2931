/* The libjpeg62-turbo-dev headers, for the module map: only CVignetteCodecs uses them, through its own C. */
#include <stdio.h> /* jpeglib.h needs FILE and size_t */
#include <jpeglib.h>
