/* vgn_jls.c - JPEG-LS frames (ITU T.87, lossless and near-lossless) through CharLS, opened on first use,
 * for DICOM: the codestream's frame is checked against the size and samples the caller expects before
 * anything is decoded, then decoded whole into host-order samples. See vgn_internal.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <charls/charls.h>

#include "vgn_internal.h"

#include "vgn_lazy.h"

/* Opened on first use (vgn_lazy.h). */
#define charls_get_error_message VGN_LAZY(VGN_LIB_CHARLS, charls_get_error_message)
#define charls_jpegls_decoder_create VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_create)
#define charls_jpegls_decoder_decode_to_buffer VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_decode_to_buffer)
#define charls_jpegls_decoder_destroy VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_destroy)
#define charls_jpegls_decoder_get_destination_size VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_get_destination_size)
#define charls_jpegls_decoder_get_frame_info VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_get_frame_info)
#define charls_jpegls_decoder_get_interleave_mode VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_get_interleave_mode)
#define charls_jpegls_decoder_read_header VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_read_header)
#define charls_jpegls_decoder_set_source_buffer VGN_LAZY(VGN_LIB_CHARLS, charls_jpegls_decoder_set_source_buffer)

/* Fills err with CharLS's message for `status`, prefixed; returns the vgn code. */
static int vgn_jls_fail(vgn_error *err, charls_jpegls_errc status, const char *what)
{
    char msg[VGN_MSG_LEN];
    snprintf(msg, sizeof msg, "%s: %s", what, charls_get_error_message(status));
    vgn_err_fill(err, VGN_E_INVALID, msg, NULL);
    return VGN_E_INVALID;
}

int vgn_jls_decode(const uint8_t *data, size_t size, uint32_t width, uint32_t height, int components, uint8_t **out,
                   int *bytes, int *planar, vgn_error *err)
{
    charls_jpegls_decoder *decoder;
    charls_frame_info frame;
    charls_interleave_mode mode;
    charls_jpegls_errc status;
    size_t needed;
    int code;
    *out = NULL;
    code = vgn_library_load(VGN_LIB_CHARLS, err);
    if (code != 0) return code;
    decoder = charls_jpegls_decoder_create();
    if (decoder == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    status = charls_jpegls_decoder_set_source_buffer(decoder, data, size);
    if (status == 0) status = charls_jpegls_decoder_read_header(decoder);
    if (status == 0) status = charls_jpegls_decoder_get_frame_info(decoder, &frame);
    if (status == 0) status = charls_jpegls_decoder_get_interleave_mode(decoder, &mode);
    if (status != 0) {
        code = vgn_jls_fail(err, status, "the JPEG-LS header cannot be read");
        charls_jpegls_decoder_destroy(decoder);
        return code;
    }
    if (frame.width != width || frame.height != height || frame.component_count != components || frame.bits_per_sample < 2 ||
        frame.bits_per_sample > 16) {
        charls_jpegls_decoder_destroy(decoder);
        vgn_err_fill(err, VGN_E_INVALID, "the JPEG-LS frame's size or samples are not the image's", NULL);
        return VGN_E_INVALID;
    }
    *bytes = frame.bits_per_sample > 8 ? 2 : 1;
    // CharLS writes a frame coded by planes as planes, line- and sample-interleaved ones pixel by pixel.
    *planar = mode == CHARLS_INTERLEAVE_MODE_NONE && components > 1;
    status = charls_jpegls_decoder_get_destination_size(decoder, 0, &needed);
    if (status != 0 || needed != (size_t)width * height * (size_t)components * (size_t)*bytes) {
        code = status != 0 ? vgn_jls_fail(err, status, "the JPEG-LS frame cannot be decoded") : VGN_E_INVALID;
        if (status == 0) vgn_err_fill(err, VGN_E_INVALID, "the JPEG-LS frame's size or samples are not the image's", NULL);
        charls_jpegls_decoder_destroy(decoder);
        return code;
    }
    *out = (uint8_t *)malloc(needed);
    if (*out == NULL) {
        charls_jpegls_decoder_destroy(decoder);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return VGN_E_NOMEM;
    }
    status = charls_jpegls_decoder_decode_to_buffer(decoder, *out, needed, 0);
    charls_jpegls_decoder_destroy(decoder);
    if (status != 0) {
        free(*out);
        *out = NULL;
        return vgn_jls_fail(err, status, "the JPEG-LS frame cannot be decoded");
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return 0;
}
