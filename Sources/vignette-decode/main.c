/* vignette-decode - the program vignette starts for a decoder it isolates (libheif, libjxl, OpenJPEG, OpenEXR,
 * JBIG-KIT, cairo for metafiles):
 * a fresh process holds only the decoder's memory, where a fork would also map the caller's heap.
 * Not for running by hand: vgn_isolated_open passes the input and its pipes as fds 3 to 5. */
#include "vgn_decoder.h"

int main(int argc, char **argv) { return vgn_isolate_helper_main(argc, argv); }
