/* vgn_icc.c - embedded ICC profiles to sRGB through LittleCMS 2. See vgn_icc.h. */
#include <ctype.h>
#include <lcms2.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_icc.h"
#include "vgn_internal.h"
#include "vgn_lazy.h"

#define cmsCloseProfile VGN_LAZY(VGN_LIB_LCMS, cmsCloseProfile)
#define cmsCreateContext VGN_LAZY(VGN_LIB_LCMS, cmsCreateContext)
#define cmsCreateTransformTHR VGN_LAZY(VGN_LIB_LCMS, cmsCreateTransformTHR)
#define cmsCreate_sRGBProfileTHR VGN_LAZY(VGN_LIB_LCMS, cmsCreate_sRGBProfileTHR)
#define cmsDeleteContext VGN_LAZY(VGN_LIB_LCMS, cmsDeleteContext)
#define cmsDeleteTransform VGN_LAZY(VGN_LIB_LCMS, cmsDeleteTransform)
#define cmsDoTransform VGN_LAZY(VGN_LIB_LCMS, cmsDoTransform)
#define cmsGetColorSpace VGN_LAZY(VGN_LIB_LCMS, cmsGetColorSpace)
#define cmsGetProfileInfoASCII VGN_LAZY(VGN_LIB_LCMS, cmsGetProfileInfoASCII)
#define cmsGetTransformInputFormat VGN_LAZY(VGN_LIB_LCMS, cmsGetTransformInputFormat)
#define cmsGetTransformOutputFormat VGN_LAZY(VGN_LIB_LCMS, cmsGetTransformOutputFormat)
#define cmsOpenProfileFromMemTHR VGN_LAZY(VGN_LIB_LCMS, cmsOpenProfileFromMemTHR)
#define cmsSetLogErrorHandlerTHR VGN_LAZY(VGN_LIB_LCMS, cmsSetLogErrorHandlerTHR)

struct vgn_icc {
    cmsContext context;
    cmsHTRANSFORM transform;
};

/* LittleCMS reports through its context's handler: ours drops the text (the caller's error
   names the failing step instead), so nothing reaches stderr. */
static void vgn_icc_quiet(cmsContext context, cmsUInt32Number code, const char *text)
{
    (void)context;
    (void)code;
    (void)text;
}

static int vgn_icc_is_srgb(const char *description)
{
    /* "sRGB IEC61966-2.1", "sRGB built-in", "sRGB v4 ICC preference": the profile describes the
       space we write, so converting would only cost time. */
    return strncmp(description, "sRGB", 4) == 0 || strstr(description, "IEC 61966-2-1") != NULL ||
           strstr(description, "IEC61966-2-1") != NULL;
}

vgn_icc *vgn_icc_open(const uint8_t *profile, size_t size, int layout, int *is_srgb, char *description,
                      size_t description_size, vgn_error *err)
{
    vgn_icc *t;
    cmsHPROFILE in, out;
    cmsColorSpaceSignature space;
    cmsUInt32Number in_format, out_format;
    char text[VGN_MSG_LEN] = "";
    if (is_srgb != NULL) *is_srgb = 0;
    if (description != NULL && description_size > 0) description[0] = '\0';
    if (profile == NULL || size < 132 || size > 64u << 20) {
        vgn_err_fill(err, VGN_E_INVALID, "the ICC profile is too short or too long", NULL);
        return NULL;
    }
    if (vgn_library_load(VGN_LIB_LCMS, err) != VGN_OK) return NULL;
    t = calloc(1, sizeof *t);
    if (t == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    t->context = cmsCreateContext(NULL, NULL);
    if (t->context == NULL) {
        free(t);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    cmsSetLogErrorHandlerTHR(t->context, vgn_icc_quiet);
    in = cmsOpenProfileFromMemTHR(t->context, profile, (cmsUInt32Number)size);
    if (in == NULL) {
        vgn_icc_close(t);
        vgn_err_fill(err, VGN_E_INVALID, "the ICC profile cannot be parsed", NULL);
        return NULL;
    }
    cmsGetProfileInfoASCII(in, cmsInfoDescription, "en", "US", text, sizeof text);
    if (description != NULL && description_size > 0) {
        strncpy(description, text, description_size - 1);
        description[description_size - 1] = '\0';
    }
    space = cmsGetColorSpace(in);
    if (layout == VGN_ICC_RGBA8) {
        if (space != cmsSigRgbData) {
            cmsCloseProfile(in);
            vgn_icc_close(t);
            vgn_err_fill(err, VGN_E_UNSUPPORTED, "the ICC profile is not for RGB", NULL);
            return NULL;
        }
        if (vgn_icc_is_srgb(text)) {
            cmsCloseProfile(in);
            vgn_icc_close(t);
            if (is_srgb != NULL) *is_srgb = 1;
            vgn_err_fill(err, VGN_OK, NULL, NULL);
            return NULL;
        }
        in_format = TYPE_RGBA_8;
        out_format = TYPE_RGBA_8;
    } else {
        if (space != cmsSigCmykData) {
            cmsCloseProfile(in);
            vgn_icc_close(t);
            vgn_err_fill(err, VGN_E_UNSUPPORTED, "the ICC profile is not for CMYK", NULL);
            return NULL;
        }
        in_format = layout == VGN_ICC_CMYK8_INVERTED ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
        out_format = TYPE_RGB_8;
    }
    out = cmsCreate_sRGBProfileTHR(t->context);
    if (out == NULL) {
        cmsCloseProfile(in);
        vgn_icc_close(t);
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    t->transform = cmsCreateTransformTHR(t->context, in, in_format, out, out_format, INTENT_PERCEPTUAL,
                                         cmsFLAGS_NOCACHE | cmsFLAGS_BLACKPOINTCOMPENSATION |
                                             (layout == VGN_ICC_RGBA8 ? cmsFLAGS_COPY_ALPHA : 0));
    cmsCloseProfile(in);
    cmsCloseProfile(out);
    if (t->transform == NULL) {
        vgn_icc_close(t);
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "the ICC profile gives no transform to sRGB", NULL);
        return NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return t;
}

void vgn_icc_apply(const vgn_icc *t, const uint8_t *in, uint8_t *out, size_t pixels)
{
    /* cmsDoTransform counts pixels in 32 bits. */
    while (t != NULL && pixels > 0) {
        cmsUInt32Number n = pixels > 0x10000000u ? 0x10000000u : (cmsUInt32Number)pixels;
        size_t in_bytes = T_BYTES(cmsGetTransformInputFormat(t->transform)) *
                          (T_CHANNELS(cmsGetTransformInputFormat(t->transform)) +
                           T_EXTRA(cmsGetTransformInputFormat(t->transform)));
        size_t out_bytes = T_BYTES(cmsGetTransformOutputFormat(t->transform)) *
                           (T_CHANNELS(cmsGetTransformOutputFormat(t->transform)) +
                            T_EXTRA(cmsGetTransformOutputFormat(t->transform)));
        cmsDoTransform(t->transform, in, out, n);
        in += n * in_bytes;
        out += n * out_bytes;
        pixels -= n;
    }
}

void vgn_icc_close(vgn_icc *t)
{
    if (t == NULL) return;
    if (t->transform != NULL) cmsDeleteTransform(t->transform);
    if (t->context != NULL) cmsDeleteContext(t->context);
    free(t);
}
