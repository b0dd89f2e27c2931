/* Umbrella header of the C shim: everything Swift may call. */
#include "vgn_codecs.h"
#include "vgn_jpeg_dc.h"
#include "vgn_inflate.h"
#include "vgn_text.h"
#include "vgn_process.h"
#include "vgn_decoder.h"
#include "vgn_icc.h"
#include "vgn_pdf.h"
