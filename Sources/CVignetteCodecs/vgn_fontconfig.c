/* vgn_fontconfig.c - the system font with a glyph DejaVu lacks, through fontconfig (opened on first use). */
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include <fontconfig/fontconfig.h>

#include "vgn_lazy.h"
#include "vgn_text.h"

#define FcCharSetAddChar VGN_LAZY(VGN_LIB_FONTCONFIG, FcCharSetAddChar)
#define FcCharSetCreate VGN_LAZY(VGN_LIB_FONTCONFIG, FcCharSetCreate)
#define FcCharSetDestroy VGN_LAZY(VGN_LIB_FONTCONFIG, FcCharSetDestroy)
#define FcCharSetHasChar VGN_LAZY(VGN_LIB_FONTCONFIG, FcCharSetHasChar)
#define FcConfigSubstitute VGN_LAZY(VGN_LIB_FONTCONFIG, FcConfigSubstitute)
#define FcDefaultSubstitute VGN_LAZY(VGN_LIB_FONTCONFIG, FcDefaultSubstitute)
#define FcFontMatch VGN_LAZY(VGN_LIB_FONTCONFIG, FcFontMatch)
#define FcInitLoadConfigAndFonts VGN_LAZY(VGN_LIB_FONTCONFIG, FcInitLoadConfigAndFonts)
#define FcPatternAddBool VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternAddBool)
#define FcPatternAddCharSet VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternAddCharSet)
#define FcPatternAddString VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternAddString)
#define FcPatternCreate VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternCreate)
#define FcPatternDestroy VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternDestroy)
#define FcPatternGetBool VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternGetBool)
#define FcPatternGetCharSet VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternGetCharSet)
#define FcPatternGetInteger VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternGetInteger)
#define FcPatternGetString VGN_LAZY(VGN_LIB_FONTCONFIG, FcPatternGetString)

/* One configuration for the process, loaded by the first lookup; fontconfig's matching is not
 * documented as safe to run on one configuration from several threads, so lookups take turns. */
static pthread_mutex_t vgn_fc_lock = PTHREAD_MUTEX_INITIALIZER;
static FcConfig *vgn_fc_config;
static int vgn_fc_failed;

/* The match for `codepoint`, or NULL; called with the lock held and the configuration loaded. */
static FcPattern *vgn_fc_match(uint32_t codepoint)
{
    FcResult result;
    FcPattern *match = NULL;
    FcPattern *pattern = FcPatternCreate();
    FcCharSet *wanted = FcCharSetCreate();
    if (pattern != NULL && wanted != NULL && FcCharSetAddChar(wanted, codepoint)
        && FcPatternAddString(pattern, FC_FAMILY, (const FcChar8 *)"sans-serif")
        && FcPatternAddCharSet(pattern, FC_CHARSET, wanted) && FcPatternAddBool(pattern, FC_SCALABLE, FcTrue)
        && FcConfigSubstitute(vgn_fc_config, pattern, FcMatchPattern)) {
        FcDefaultSubstitute(pattern);
        match = FcFontMatch(vgn_fc_config, pattern, &result);
    }
    if (wanted != NULL)
        FcCharSetDestroy(wanted);
    if (pattern != NULL)
        FcPatternDestroy(pattern);
    return match;
}

int vgn_font_fallback_file(uint32_t codepoint, char *path, size_t capacity, int *face_index, vgn_error *err)
{
    FcPattern *match;
    FcCharSet *has = NULL;
    FcChar8 *file = NULL;
    FcBool color = FcFalse, scalable = FcFalse;
    int index = 0, found = 0, status;

    if (path == NULL || capacity == 0 || face_index == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no room for the font's path", NULL);
        return VGN_E_STATE;
    }
    path[0] = '\0';
    *face_index = 0;
    pthread_mutex_lock(&vgn_fc_lock);
    if (vgn_fc_config == NULL && !vgn_fc_failed) {
        status = vgn_library_load(VGN_LIB_FONTCONFIG, err);
        if (status == VGN_OK)
            vgn_fc_config = FcInitLoadConfigAndFonts();
        if (vgn_fc_config == NULL)
            vgn_fc_failed = 1;
    }
    if (vgn_fc_config == NULL) {
        pthread_mutex_unlock(&vgn_fc_lock);
        vgn_err_fill(err, VGN_E_UNSUPPORTED, "fontconfig cannot be loaded or configured", NULL);
        return VGN_E_UNSUPPORTED;
    }
    match = vgn_fc_match(codepoint);
    /* The best match is returned even when no font has the glyph: check that this one does. */
    if (match != NULL && FcPatternGetCharSet(match, FC_CHARSET, 0, &has) == FcResultMatch && has != NULL
        && FcCharSetHasChar(has, codepoint) && FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch
        && file != NULL && strlen((const char *)file) < capacity) {
        (void)FcPatternGetInteger(match, FC_INDEX, 0, &index);
        (void)FcPatternGetBool(match, FC_SCALABLE, 0, &scalable);
        /* Colour fonts (emoji) hold bitmaps in colour tables that coverage drawing cannot show. */
        (void)FcPatternGetBool(match, FC_COLOR, 0, &color);
        if (scalable && !color && index >= 0) {
            memcpy(path, file, strlen((const char *)file) + 1);
            /* A variable font's named instances carry their number above the face's: the default instance is enough. */
            *face_index = index & 0xFFFF;
            found = 1;
        }
    }
    if (match != NULL)
        FcPatternDestroy(match);
    pthread_mutex_unlock(&vgn_fc_lock);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return found;
}
