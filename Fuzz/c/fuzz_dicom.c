/* libFuzzer harness: the DICOM reader as ImageMetadata and ImageDecoder drive it: the preview's facts,
 * the header walk and frame choice (vgn_dicom_select), then the native, RLE and lossless JPEG decoder,
 * or the JPEG 2000 (OpenJPEG) or JPEG-LS (CharLS) one (in process here; in a child in production); a
 * baseline JPEG frame is left to fuzz_jpeg. */
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    size_t offset, length;
    uint8_t *joined = NULL;
    vgn_dicom_facts facts;
    int kind;
    (void)vgn_dicom_read_facts(data, size, &facts);
    if (vgn_dicom_select(data, size, &kind, &offset, &length, &joined, &info, &err) != 0) return 0;
    free(joined);
    /* The full picture on even lengths, boxes for a 64-pixel target on odd ones. */
    if (kind == VGN_DICOM_NATIVE) return fuzz_drain(vgn_dicom_open(data, size, size % 2 ? 64 : 0, &info, &err), &info);
    if (kind == VGN_DICOM_JPEG2000) return fuzz_drain(vgn_dicom_jp2_open(data, size, size % 2 ? 64 : 0, &info, &err), &info);
    if (kind == VGN_DICOM_JPEGLS) return fuzz_drain(vgn_dicom_jls_open(data, size, size % 2 ? 64 : 0, &info, &err), &info);
    return 0;
}
