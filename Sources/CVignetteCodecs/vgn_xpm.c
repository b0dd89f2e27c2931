/* vgn_xpm.c - the X Window System's own image formats, which are C source: XPM (X PixMap, XPM2 and
 * XPM3) and XBM (X BitMap, X11 and X10). Rows are parsed from the text as they are read; open
 * reads the header and, for XPM, the colour table, whose size is bounded by the input's (every
 * entry takes at least a key and a colour's characters). See vgn_decoder.h.
 *
 * XPM colours: #RGB to #RRRRGGGGBBBB, "None" (transparent), the X11 colour names (the table below
 * is the X Window System's rgb.txt, MIT licence; grayN/greyN computed as it defines them), else
 * the symbolic or mono colour; a name nothing knows is black with a warning. XBM: set bits black
 * on white. */
#define _GNU_SOURCE /* memmem, qsort_r */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "vgn_internal.h"

/* Most characters a pixel takes (gdk-pixbuf allows 31; real files use 1 to 3). */
#define VGN_XPM_MAX_CPP 8

typedef struct {
    const char *name;
    uint32_t rgb;
} vgn_x11_colour;

/* rgb.txt without its grayN/greyN entries, names lower case without spaces, sorted. */
static const vgn_x11_colour vgn_x11_colours[] = {
    {"aliceblue", 0xF0F8FF}, {"antiquewhite", 0xFAEBD7}, {"antiquewhite1", 0xFFEFDB}, {"antiquewhite2", 0xEEDFCC},
    {"antiquewhite3", 0xCDC0B0}, {"antiquewhite4", 0x8B8378}, {"aquamarine", 0x7FFFD4}, {"aquamarine1", 0x7FFFD4},
    {"aquamarine2", 0x76EEC6}, {"aquamarine3", 0x66CDAA}, {"aquamarine4", 0x458B74}, {"azure", 0xF0FFFF},
    {"azure1", 0xF0FFFF}, {"azure2", 0xE0EEEE}, {"azure3", 0xC1CDCD}, {"azure4", 0x838B8B}, {"beige", 0xF5F5DC},
    {"bisque", 0xFFE4C4}, {"bisque1", 0xFFE4C4}, {"bisque2", 0xEED5B7}, {"bisque3", 0xCDB79E}, {"bisque4", 0x8B7D6B},
    {"black", 0x000000}, {"blanchedalmond", 0xFFEBCD}, {"blue", 0x0000FF}, {"blue1", 0x0000FF}, {"blue2", 0x0000EE},
    {"blue3", 0x0000CD}, {"blue4", 0x00008B}, {"blueviolet", 0x8A2BE2}, {"brown", 0xA52A2A}, {"brown1", 0xFF4040},
    {"brown2", 0xEE3B3B}, {"brown3", 0xCD3333}, {"brown4", 0x8B2323}, {"burlywood", 0xDEB887},
    {"burlywood1", 0xFFD39B}, {"burlywood2", 0xEEC591}, {"burlywood3", 0xCDAA7D}, {"burlywood4", 0x8B7355},
    {"cadetblue", 0x5F9EA0}, {"cadetblue1", 0x98F5FF}, {"cadetblue2", 0x8EE5EE}, {"cadetblue3", 0x7AC5CD},
    {"cadetblue4", 0x53868B}, {"chartreuse", 0x7FFF00}, {"chartreuse1", 0x7FFF00}, {"chartreuse2", 0x76EE00},
    {"chartreuse3", 0x66CD00}, {"chartreuse4", 0x458B00}, {"chocolate", 0xD2691E}, {"chocolate1", 0xFF7F24},
    {"chocolate2", 0xEE7621}, {"chocolate3", 0xCD661D}, {"chocolate4", 0x8B4513}, {"coral", 0xFF7F50},
    {"coral1", 0xFF7256}, {"coral2", 0xEE6A50}, {"coral3", 0xCD5B45}, {"coral4", 0x8B3E2F},
    {"cornflowerblue", 0x6495ED}, {"cornsilk", 0xFFF8DC}, {"cornsilk1", 0xFFF8DC}, {"cornsilk2", 0xEEE8CD},
    {"cornsilk3", 0xCDC8B1}, {"cornsilk4", 0x8B8878}, {"cyan", 0x00FFFF}, {"cyan1", 0x00FFFF}, {"cyan2", 0x00EEEE},
    {"cyan3", 0x00CDCD}, {"cyan4", 0x008B8B}, {"darkblue", 0x00008B}, {"darkcyan", 0x008B8B},
    {"darkgoldenrod", 0xB8860B}, {"darkgoldenrod1", 0xFFB90F}, {"darkgoldenrod2", 0xEEAD0E},
    {"darkgoldenrod3", 0xCD950C}, {"darkgoldenrod4", 0x8B6508}, {"darkgray", 0xA9A9A9}, {"darkgreen", 0x006400},
    {"darkgrey", 0xA9A9A9}, {"darkkhaki", 0xBDB76B}, {"darkmagenta", 0x8B008B}, {"darkolivegreen", 0x556B2F},
    {"darkolivegreen1", 0xCAFF70}, {"darkolivegreen2", 0xBCEE68}, {"darkolivegreen3", 0xA2CD5A},
    {"darkolivegreen4", 0x6E8B3D}, {"darkorange", 0xFF8C00}, {"darkorange1", 0xFF7F00}, {"darkorange2", 0xEE7600},
    {"darkorange3", 0xCD6600}, {"darkorange4", 0x8B4500}, {"darkorchid", 0x9932CC}, {"darkorchid1", 0xBF3EFF},
    {"darkorchid2", 0xB23AEE}, {"darkorchid3", 0x9A32CD}, {"darkorchid4", 0x68228B}, {"darkred", 0x8B0000},
    {"darksalmon", 0xE9967A}, {"darkseagreen", 0x8FBC8F}, {"darkseagreen1", 0xC1FFC1}, {"darkseagreen2", 0xB4EEB4},
    {"darkseagreen3", 0x9BCD9B}, {"darkseagreen4", 0x698B69}, {"darkslateblue", 0x483D8B},
    {"darkslategray", 0x2F4F4F}, {"darkslategray1", 0x97FFFF}, {"darkslategray2", 0x8DEEEE},
    {"darkslategray3", 0x79CDCD}, {"darkslategray4", 0x528B8B}, {"darkslategrey", 0x2F4F4F},
    {"darkturquoise", 0x00CED1}, {"darkviolet", 0x9400D3}, {"debianred", 0xD70751}, {"deeppink", 0xFF1493},
    {"deeppink1", 0xFF1493}, {"deeppink2", 0xEE1289}, {"deeppink3", 0xCD1076}, {"deeppink4", 0x8B0A50},
    {"deepskyblue", 0x00BFFF}, {"deepskyblue1", 0x00BFFF}, {"deepskyblue2", 0x00B2EE}, {"deepskyblue3", 0x009ACD},
    {"deepskyblue4", 0x00688B}, {"dimgray", 0x696969}, {"dimgrey", 0x696969}, {"dodgerblue", 0x1E90FF},
    {"dodgerblue1", 0x1E90FF}, {"dodgerblue2", 0x1C86EE}, {"dodgerblue3", 0x1874CD}, {"dodgerblue4", 0x104E8B},
    {"firebrick", 0xB22222}, {"firebrick1", 0xFF3030}, {"firebrick2", 0xEE2C2C}, {"firebrick3", 0xCD2626},
    {"firebrick4", 0x8B1A1A}, {"floralwhite", 0xFFFAF0}, {"forestgreen", 0x228B22}, {"gainsboro", 0xDCDCDC},
    {"ghostwhite", 0xF8F8FF}, {"gold", 0xFFD700}, {"gold1", 0xFFD700}, {"gold2", 0xEEC900}, {"gold3", 0xCDAD00},
    {"gold4", 0x8B7500}, {"goldenrod", 0xDAA520}, {"goldenrod1", 0xFFC125}, {"goldenrod2", 0xEEB422},
    {"goldenrod3", 0xCD9B1D}, {"goldenrod4", 0x8B6914}, {"gray", 0xBEBEBE}, {"green", 0x00FF00},
    {"green1", 0x00FF00}, {"green2", 0x00EE00}, {"green3", 0x00CD00}, {"green4", 0x008B00},
    {"greenyellow", 0xADFF2F}, {"grey", 0xBEBEBE}, {"honeydew", 0xF0FFF0}, {"honeydew1", 0xF0FFF0},
    {"honeydew2", 0xE0EEE0}, {"honeydew3", 0xC1CDC1}, {"honeydew4", 0x838B83}, {"hotpink", 0xFF69B4},
    {"hotpink1", 0xFF6EB4}, {"hotpink2", 0xEE6AA7}, {"hotpink3", 0xCD6090}, {"hotpink4", 0x8B3A62},
    {"indianred", 0xCD5C5C}, {"indianred1", 0xFF6A6A}, {"indianred2", 0xEE6363}, {"indianred3", 0xCD5555},
    {"indianred4", 0x8B3A3A}, {"ivory", 0xFFFFF0}, {"ivory1", 0xFFFFF0}, {"ivory2", 0xEEEEE0}, {"ivory3", 0xCDCDC1},
    {"ivory4", 0x8B8B83}, {"khaki", 0xF0E68C}, {"khaki1", 0xFFF68F}, {"khaki2", 0xEEE685}, {"khaki3", 0xCDC673},
    {"khaki4", 0x8B864E}, {"lavender", 0xE6E6FA}, {"lavenderblush", 0xFFF0F5}, {"lavenderblush1", 0xFFF0F5},
    {"lavenderblush2", 0xEEE0E5}, {"lavenderblush3", 0xCDC1C5}, {"lavenderblush4", 0x8B8386},
    {"lawngreen", 0x7CFC00}, {"lemonchiffon", 0xFFFACD}, {"lemonchiffon1", 0xFFFACD}, {"lemonchiffon2", 0xEEE9BF},
    {"lemonchiffon3", 0xCDC9A5}, {"lemonchiffon4", 0x8B8970}, {"lightblue", 0xADD8E6}, {"lightblue1", 0xBFEFFF},
    {"lightblue2", 0xB2DFEE}, {"lightblue3", 0x9AC0CD}, {"lightblue4", 0x68838B}, {"lightcoral", 0xF08080},
    {"lightcyan", 0xE0FFFF}, {"lightcyan1", 0xE0FFFF}, {"lightcyan2", 0xD1EEEE}, {"lightcyan3", 0xB4CDCD},
    {"lightcyan4", 0x7A8B8B}, {"lightgoldenrod", 0xEEDD82}, {"lightgoldenrod1", 0xFFEC8B},
    {"lightgoldenrod2", 0xEEDC82}, {"lightgoldenrod3", 0xCDBE70}, {"lightgoldenrod4", 0x8B814C},
    {"lightgoldenrodyellow", 0xFAFAD2}, {"lightgray", 0xD3D3D3}, {"lightgreen", 0x90EE90}, {"lightgrey", 0xD3D3D3},
    {"lightpink", 0xFFB6C1}, {"lightpink1", 0xFFAEB9}, {"lightpink2", 0xEEA2AD}, {"lightpink3", 0xCD8C95},
    {"lightpink4", 0x8B5F65}, {"lightsalmon", 0xFFA07A}, {"lightsalmon1", 0xFFA07A}, {"lightsalmon2", 0xEE9572},
    {"lightsalmon3", 0xCD8162}, {"lightsalmon4", 0x8B5742}, {"lightseagreen", 0x20B2AA}, {"lightskyblue", 0x87CEFA},
    {"lightskyblue1", 0xB0E2FF}, {"lightskyblue2", 0xA4D3EE}, {"lightskyblue3", 0x8DB6CD},
    {"lightskyblue4", 0x607B8B}, {"lightslateblue", 0x8470FF}, {"lightslategray", 0x778899},
    {"lightslategrey", 0x778899}, {"lightsteelblue", 0xB0C4DE}, {"lightsteelblue1", 0xCAE1FF},
    {"lightsteelblue2", 0xBCD2EE}, {"lightsteelblue3", 0xA2B5CD}, {"lightsteelblue4", 0x6E7B8B},
    {"lightyellow", 0xFFFFE0}, {"lightyellow1", 0xFFFFE0}, {"lightyellow2", 0xEEEED1}, {"lightyellow3", 0xCDCDB4},
    {"lightyellow4", 0x8B8B7A}, {"limegreen", 0x32CD32}, {"linen", 0xFAF0E6}, {"magenta", 0xFF00FF},
    {"magenta1", 0xFF00FF}, {"magenta2", 0xEE00EE}, {"magenta3", 0xCD00CD}, {"magenta4", 0x8B008B},
    {"maroon", 0xB03060}, {"maroon1", 0xFF34B3}, {"maroon2", 0xEE30A7}, {"maroon3", 0xCD2990}, {"maroon4", 0x8B1C62},
    {"mediumaquamarine", 0x66CDAA}, {"mediumblue", 0x0000CD}, {"mediumorchid", 0xBA55D3},
    {"mediumorchid1", 0xE066FF}, {"mediumorchid2", 0xD15FEE}, {"mediumorchid3", 0xB452CD},
    {"mediumorchid4", 0x7A378B}, {"mediumpurple", 0x9370DB}, {"mediumpurple1", 0xAB82FF},
    {"mediumpurple2", 0x9F79EE}, {"mediumpurple3", 0x8968CD}, {"mediumpurple4", 0x5D478B},
    {"mediumseagreen", 0x3CB371}, {"mediumslateblue", 0x7B68EE}, {"mediumspringgreen", 0x00FA9A},
    {"mediumturquoise", 0x48D1CC}, {"mediumvioletred", 0xC71585}, {"midnightblue", 0x191970},
    {"mintcream", 0xF5FFFA}, {"mistyrose", 0xFFE4E1}, {"mistyrose1", 0xFFE4E1}, {"mistyrose2", 0xEED5D2},
    {"mistyrose3", 0xCDB7B5}, {"mistyrose4", 0x8B7D7B}, {"moccasin", 0xFFE4B5}, {"navajowhite", 0xFFDEAD},
    {"navajowhite1", 0xFFDEAD}, {"navajowhite2", 0xEECFA1}, {"navajowhite3", 0xCDB38B}, {"navajowhite4", 0x8B795E},
    {"navy", 0x000080}, {"navyblue", 0x000080}, {"oldlace", 0xFDF5E6}, {"olivedrab", 0x6B8E23},
    {"olivedrab1", 0xC0FF3E}, {"olivedrab2", 0xB3EE3A}, {"olivedrab3", 0x9ACD32}, {"olivedrab4", 0x698B22},
    {"orange", 0xFFA500}, {"orange1", 0xFFA500}, {"orange2", 0xEE9A00}, {"orange3", 0xCD8500}, {"orange4", 0x8B5A00},
    {"orangered", 0xFF4500}, {"orangered1", 0xFF4500}, {"orangered2", 0xEE4000}, {"orangered3", 0xCD3700},
    {"orangered4", 0x8B2500}, {"orchid", 0xDA70D6}, {"orchid1", 0xFF83FA}, {"orchid2", 0xEE7AE9},
    {"orchid3", 0xCD69C9}, {"orchid4", 0x8B4789}, {"palegoldenrod", 0xEEE8AA}, {"palegreen", 0x98FB98},
    {"palegreen1", 0x9AFF9A}, {"palegreen2", 0x90EE90}, {"palegreen3", 0x7CCD7C}, {"palegreen4", 0x548B54},
    {"paleturquoise", 0xAFEEEE}, {"paleturquoise1", 0xBBFFFF}, {"paleturquoise2", 0xAEEEEE},
    {"paleturquoise3", 0x96CDCD}, {"paleturquoise4", 0x668B8B}, {"palevioletred", 0xDB7093},
    {"palevioletred1", 0xFF82AB}, {"palevioletred2", 0xEE799F}, {"palevioletred3", 0xCD6889},
    {"palevioletred4", 0x8B475D}, {"papayawhip", 0xFFEFD5}, {"peachpuff", 0xFFDAB9}, {"peachpuff1", 0xFFDAB9},
    {"peachpuff2", 0xEECBAD}, {"peachpuff3", 0xCDAF95}, {"peachpuff4", 0x8B7765}, {"peru", 0xCD853F},
    {"pink", 0xFFC0CB}, {"pink1", 0xFFB5C5}, {"pink2", 0xEEA9B8}, {"pink3", 0xCD919E}, {"pink4", 0x8B636C},
    {"plum", 0xDDA0DD}, {"plum1", 0xFFBBFF}, {"plum2", 0xEEAEEE}, {"plum3", 0xCD96CD}, {"plum4", 0x8B668B},
    {"powderblue", 0xB0E0E6}, {"purple", 0xA020F0}, {"purple1", 0x9B30FF}, {"purple2", 0x912CEE},
    {"purple3", 0x7D26CD}, {"purple4", 0x551A8B}, {"red", 0xFF0000}, {"red1", 0xFF0000}, {"red2", 0xEE0000},
    {"red3", 0xCD0000}, {"red4", 0x8B0000}, {"rosybrown", 0xBC8F8F}, {"rosybrown1", 0xFFC1C1},
    {"rosybrown2", 0xEEB4B4}, {"rosybrown3", 0xCD9B9B}, {"rosybrown4", 0x8B6969}, {"royalblue", 0x4169E1},
    {"royalblue1", 0x4876FF}, {"royalblue2", 0x436EEE}, {"royalblue3", 0x3A5FCD}, {"royalblue4", 0x27408B},
    {"saddlebrown", 0x8B4513}, {"salmon", 0xFA8072}, {"salmon1", 0xFF8C69}, {"salmon2", 0xEE8262},
    {"salmon3", 0xCD7054}, {"salmon4", 0x8B4C39}, {"sandybrown", 0xF4A460}, {"seagreen", 0x2E8B57},
    {"seagreen1", 0x54FF9F}, {"seagreen2", 0x4EEE94}, {"seagreen3", 0x43CD80}, {"seagreen4", 0x2E8B57},
    {"seashell", 0xFFF5EE}, {"seashell1", 0xFFF5EE}, {"seashell2", 0xEEE5DE}, {"seashell3", 0xCDC5BF},
    {"seashell4", 0x8B8682}, {"sienna", 0xA0522D}, {"sienna1", 0xFF8247}, {"sienna2", 0xEE7942},
    {"sienna3", 0xCD6839}, {"sienna4", 0x8B4726}, {"skyblue", 0x87CEEB}, {"skyblue1", 0x87CEFF},
    {"skyblue2", 0x7EC0EE}, {"skyblue3", 0x6CA6CD}, {"skyblue4", 0x4A708B}, {"slateblue", 0x6A5ACD},
    {"slateblue1", 0x836FFF}, {"slateblue2", 0x7A67EE}, {"slateblue3", 0x6959CD}, {"slateblue4", 0x473C8B},
    {"slategray", 0x708090}, {"slategray1", 0xC6E2FF}, {"slategray2", 0xB9D3EE}, {"slategray3", 0x9FB6CD},
    {"slategray4", 0x6C7B8B}, {"slategrey", 0x708090}, {"snow", 0xFFFAFA}, {"snow1", 0xFFFAFA}, {"snow2", 0xEEE9E9},
    {"snow3", 0xCDC9C9}, {"snow4", 0x8B8989}, {"springgreen", 0x00FF7F}, {"springgreen1", 0x00FF7F},
    {"springgreen2", 0x00EE76}, {"springgreen3", 0x00CD66}, {"springgreen4", 0x008B45}, {"steelblue", 0x4682B4},
    {"steelblue1", 0x63B8FF}, {"steelblue2", 0x5CACEE}, {"steelblue3", 0x4F94CD}, {"steelblue4", 0x36648B},
    {"tan", 0xD2B48C}, {"tan1", 0xFFA54F}, {"tan2", 0xEE9A49}, {"tan3", 0xCD853F}, {"tan4", 0x8B5A2B},
    {"thistle", 0xD8BFD8}, {"thistle1", 0xFFE1FF}, {"thistle2", 0xEED2EE}, {"thistle3", 0xCDB5CD},
    {"thistle4", 0x8B7B8B}, {"tomato", 0xFF6347}, {"tomato1", 0xFF6347}, {"tomato2", 0xEE5C42},
    {"tomato3", 0xCD4F39}, {"tomato4", 0x8B3626}, {"turquoise", 0x40E0D0}, {"turquoise1", 0x00F5FF},
    {"turquoise2", 0x00E5EE}, {"turquoise3", 0x00C5CD}, {"turquoise4", 0x00868B}, {"violet", 0xEE82EE},
    {"violetred", 0xD02090}, {"violetred1", 0xFF3E96}, {"violetred2", 0xEE3A8C}, {"violetred3", 0xCD3278},
    {"violetred4", 0x8B2252}, {"wheat", 0xF5DEB3}, {"wheat1", 0xFFE7BA}, {"wheat2", 0xEED8AE}, {"wheat3", 0xCDBA96},
    {"wheat4", 0x8B7E66}, {"white", 0xFFFFFF}, {"whitesmoke", 0xF5F5F5}, {"yellow", 0xFFFF00}, {"yellow1", 0xFFFF00},
    {"yellow2", 0xEEEE00}, {"yellow3", 0xCDCD00}, {"yellow4", 0x8B8B00}, {"yellowgreen", 0x9ACD32},
};

static int vgn_x11_compare(const void *key, const void *entry)
{
    return strcmp((const char *)key, ((const vgn_x11_colour *)entry)->name);
}

/* An X11 colour name (any case, spaces ignored) as 0xRRGGBB, or -1. */
static int64_t vgn_x11_named(const uint8_t *s, size_t n)
{
    char key[40];
    size_t k = 0, i;
    const vgn_x11_colour *hit;
    for (i = 0; i < n; i++) {
        uint8_t c = s[i];
        if (c == ' ' || c == '\t') continue;
        if (k + 1 >= sizeof key) return -1;
        key[k++] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    key[k] = '\0';
    if ((k == 5 || k == 6 || k == 7) && (memcmp(key, "gray", 4) == 0 || memcmp(key, "grey", 4) == 0)) {
        char *end;
        long level = strtol(key + 4, &end, 10);
        if (*end == '\0' && key[4] >= '0' && key[4] <= '9' && level >= 0 && level <= 100) {
            uint32_t v = (uint32_t)(level * 2.55 + 0.5);
            return (int64_t)(v << 16 | v << 8 | v);
        }
    }
    hit = (const vgn_x11_colour *)bsearch(key, vgn_x11_colours, sizeof vgn_x11_colours / sizeof *vgn_x11_colours,
                                          sizeof *vgn_x11_colours, vgn_x11_compare);
    return hit != NULL ? (int64_t)hit->rgb : -1;
}

static int vgn_hex(uint8_t c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* A colour specification as RGBA (0xRRGGBBAA), or -1 when it is not understood. */
static int64_t vgn_xpm_colour(const uint8_t *s, size_t n)
{
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t')) n--;
    if (n == 4 && (memcmp(s, "None", 4) == 0 || memcmp(s, "none", 4) == 0 || memcmp(s, "NONE", 4) == 0)) return 0;
    if (n >= 4 && s[0] == '#' && (n - 1) % 3 == 0 && n - 1 <= 12) {
        size_t digits = (n - 1) / 3, c, i;
        uint32_t rgba = 0xFF;
        for (c = 0; c < 3; c++) {
            uint32_t v = 0;
            for (i = 0; i < digits; i++) {
                int h = vgn_hex(s[1 + c * digits + i]);
                if (h < 0) return -1;
                v = v << 4 | (uint32_t)h;
            }
            /* the top byte of each component, a single digit doubled (#F80 is #FF8800) */
            v = digits == 1 ? v * 17 : v >> (4 * (digits - 2));
            rgba |= (v & 0xFF) << (24 - 8 * c);
        }
        return rgba;
    }
    {
        int64_t rgb = vgn_x11_named(s, n);
        return rgb < 0 ? -1 : (int64_t)((uint32_t)rgb << 8 | 0xFF);
    }
}

/* ---- the C source around the data ---------------------------------------------------------- */

typedef struct {
    const uint8_t *p;
    size_t size, pos;
} vgn_csrc;

/* The next string literal's contents ("…", no escapes in XPM), skipping comments and code; 0 at
 * the end of the data. XPM2 files (no C around them) are read a line at a time instead. */
static int vgn_csrc_string(vgn_csrc *c, int xpm2, const uint8_t **s, size_t *n)
{
    const uint8_t *p = c->p;
    if (xpm2) {
        size_t start;
        while (c->pos < c->size && (p[c->pos] == '\n' || p[c->pos] == '\r')) c->pos++;
        if (c->pos >= c->size) return 0;
        start = c->pos;
        while (c->pos < c->size && p[c->pos] != '\n' && p[c->pos] != '\r') c->pos++;
        *s = p + start;
        *n = c->pos - start;
        return 1;
    }
    while (c->pos < c->size) {
        uint8_t ch = p[c->pos];
        if (ch == '/' && c->pos + 1 < c->size && p[c->pos + 1] == '*') {
            const uint8_t *end = (const uint8_t *)memmem(p + c->pos + 2, c->size - c->pos - 2, "*/", 2);
            if (end == NULL) return 0;
            c->pos = (size_t)(end - p) + 2;
        } else if (ch == '/' && c->pos + 1 < c->size && p[c->pos + 1] == '/') {
            while (c->pos < c->size && p[c->pos] != '\n') c->pos++;
        } else if (ch == '"') {
            size_t start = ++c->pos;
            const uint8_t *end = (const uint8_t *)memchr(p + start, '"', c->size - start);
            if (end == NULL) return 0;
            c->pos = (size_t)(end - p) + 1;
            *s = p + start;
            *n = (size_t)(end - p) - start;
            return 1;
        } else {
            c->pos++;
        }
    }
    return 0;
}

/* Reads an unsigned decimal at *i in s[0..n) after blanks: 1, or 0 when there is none. */
static int vgn_xpm_number(const uint8_t *s, size_t n, size_t *i, uint32_t *out)
{
    uint64_t v = 0;
    size_t start;
    while (*i < n && (s[*i] == ' ' || s[*i] == '\t')) (*i)++;
    start = *i;
    while (*i < n && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (uint64_t)(s[*i] - '0');
        if (v > 0xFFFFFFFFu) v = 0xFFFFFFFFu;
        (*i)++;
    }
    *out = (uint32_t)v;
    return *i > start;
}

/* ---- XPM --------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    vgn_csrc src;
    int xpm2;
    uint32_t cpp, ncolours;
    uint8_t *keys;      /* ncolours keys of cpp characters, sorted (cpp > 2) */
    uint32_t *colours;  /* RGBA by key (sorted with keys), or by the key's value (cpp <= 2: a direct table) */
    uint8_t *known;     /* cpp <= 2: which direct entries a colour line set */
    uint32_t next_row;
    vgn_warnings warn;
} vgn_xpm;

static void vgn_xpm_close(vgn_decoder *d)
{
    vgn_xpm *x = (vgn_xpm *)d;
    if (x == NULL) return;
    free(x->keys);
    free(x->colours);
    free(x->known);
    free(x);
}

static void vgn_xpm_store(uint8_t *dst, uint32_t rgba)
{
    dst[0] = (uint8_t)(rgba >> 24), dst[1] = (uint8_t)(rgba >> 16), dst[2] = (uint8_t)(rgba >> 8), dst[3] = (uint8_t)rgba;
}

/* The colour of the pixel whose key is k (cpp characters); 1 if the table has it. */
static int vgn_xpm_lookup(const vgn_xpm *x, const uint8_t *k, uint32_t *rgba)
{
    if (x->cpp <= 2) {
        uint32_t i = x->cpp == 1 ? k[0] : (uint32_t)k[0] << 8 | k[1];
        *rgba = x->colours[i];
        return x->known[i];
    }
    {
        size_t lo = 0, hi = x->ncolours;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            int c = memcmp(x->keys + mid * x->cpp, k, x->cpp);
            if (c == 0) {
                *rgba = x->colours[mid];
                return 1;
            }
            if (c < 0) lo = mid + 1;
            else hi = mid;
        }
    }
    return 0;
}

static int vgn_xpm_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_xpm *x = (vgn_xpm *)d;
    int n = 0;
    while (n < max_rows && x->next_row < x->base.height) {
        const uint8_t *s;
        size_t len, i;
        uint8_t *out = dst + (size_t)n * stride;
        if (!vgn_csrc_string(&x->src, x->xpm2, &s, &len)) {
            vgn_err_fill(err, VGN_E_TRUNCATED, "the pixels end before the last row", &x->warn);
            return n > 0 ? n : VGN_E_TRUNCATED;
        }
        for (i = 0; i < x->base.width; i++, out += 4) {
            uint32_t rgba = 0;
            /* a short row, or a key the table lacks: transparent, as libXpm leaves it */
            if ((size_t)(i + 1) * x->cpp > len || !vgn_xpm_lookup(x, s + (size_t)i * x->cpp, &rgba)) {
                if (x->warn.count == 0) vgn_warn_add(&x->warn, "pixels with no colour in the table are left transparent");
                rgba = 0;
            }
            vgn_xpm_store(out, rgba);
        }
        n++;
        x->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, &x->warn);
    return n;
}

/* One colour line: its key and, of its keyed colours, the colour (c), else grey (g, g4), else
 * mono (m); s (symbolic) names only. -1 when it gives none it understands. */
static int64_t vgn_xpm_entry(const uint8_t *s, size_t n, uint32_t cpp, vgn_warnings *warn)
{
    /* the keys, in the order they are preferred */
    static const char *const prefer[] = {"c", "g", "g4", "m"};
    const uint8_t *value[4] = {NULL, NULL, NULL, NULL};
    size_t length[4] = {0, 0, 0, 0}, i = cpp, k;
    int current = -1;
    while (i < n) {
        size_t start, word;
        while (i < n && (s[i] == ' ' || s[i] == '\t')) i++;
        start = i;
        while (i < n && s[i] != ' ' && s[i] != '\t') i++;
        word = i - start;
        if (word == 0) break;
        {
            int key = -2;
            if (word == 1 && s[start] == 'c') key = 0;
            else if (word == 1 && s[start] == 'g') key = 1;
            else if (word == 2 && memcmp(s + start, "g4", 2) == 0) key = 2;
            else if (word == 1 && s[start] == 'm') key = 3;
            else if (word == 1 && s[start] == 's') key = -1;
            if (key != -2 && (current < 0 || length[current] > 0)) {
                current = key;
                if (current >= 0) value[current] = NULL, length[current] = 0;
                continue;
            }
        }
        /* a word of the current colour (X11 names may have spaces) */
        if (current >= 0) {
            if (value[current] == NULL) value[current] = s + start;
            length[current] = (size_t)(s + i - value[current]);
        }
    }
    for (k = 0; k < 4; k++) {
        int64_t rgba;
        if (value[k] == NULL) continue;
        rgba = vgn_xpm_colour(value[k], length[k]);
        if (rgba >= 0) return rgba;
        if (warn->count == 0) {
            char m[VGN_MSG_LEN];
            snprintf(m, sizeof m, "unknown colour \"%.*s\" (%s) shown black", (int)(length[k] > 60 ? 60 : length[k]),
                     (const char *)value[k], prefer[k]);
            vgn_warn_add(warn, m);
        }
        return 0x000000FF;
    }
    return -1;
}

static int vgn_xpm_key_compare(const void *a, const void *b, void *cpp)
{
    return memcmp(a, b, *(const uint32_t *)cpp);
}

/* Sorts the keys (and their colours alongside) for binary search: an index sort, then a gather. */
static int vgn_xpm_sort(vgn_xpm *x)
{
    uint32_t n = x->ncolours, i, cpp = x->cpp;
    uint8_t *packed = (uint8_t *)malloc((size_t)n * (cpp + 4));
    uint8_t *keys;
    uint32_t *colours;
    if (packed == NULL) return -1;
    for (i = 0; i < n; i++) {
        memcpy(packed + (size_t)i * (cpp + 4), x->keys + (size_t)i * cpp, cpp);
        memcpy(packed + (size_t)i * (cpp + 4) + cpp, &x->colours[i], 4);
    }
    qsort_r(packed, n, cpp + 4, vgn_xpm_key_compare, &cpp);
    keys = x->keys, colours = x->colours;
    for (i = 0; i < n; i++) {
        memcpy(keys + (size_t)i * cpp, packed + (size_t)i * (cpp + 4), cpp);
        memcpy(&colours[i], packed + (size_t)i * (cpp + 4) + cpp, 4);
    }
    free(packed);
    return 0;
}

vgn_decoder *vgn_xpm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_xpm *x;
    const uint8_t *s;
    size_t n, i = 0;
    uint32_t w, h, c;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    x = (vgn_xpm *)calloc(1, sizeof *x);
    if (x == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    x->base.read_rows = vgn_xpm_read_rows;
    x->base.close = vgn_xpm_close;
    x->src.p = data;
    x->src.size = size;
    x->xpm2 = size >= 9 && memcmp(data, "! XPM2", 6) == 0;
    if (x->xpm2) {
        /* past the "! XPM2" line */
        while (x->src.pos < size && data[x->src.pos] != '\n') x->src.pos++;
    }
    if (!vgn_csrc_string(&x->src, x->xpm2, &s, &n) || !vgn_xpm_number(s, n, &i, &w) || !vgn_xpm_number(s, n, &i, &h) ||
        !vgn_xpm_number(s, n, &i, &x->ncolours) || !vgn_xpm_number(s, n, &i, &x->cpp)) {
        vgn_err_fill(err, VGN_E_INVALID, "no \"width height colours characters-per-pixel\" line", NULL);
        vgn_xpm_close(&x->base);
        return NULL;
    }
    if (w == 0 || h == 0 || x->ncolours == 0 || x->cpp == 0 || x->cpp > VGN_XPM_MAX_CPP) {
        char m[VGN_MSG_LEN];
        snprintf(m, sizeof m, "the header says %u x %u pixels, %u colours, %u characters a pixel (1 to %d)", w, h,
                 x->ncolours, x->cpp, VGN_XPM_MAX_CPP);
        vgn_err_fill(err, VGN_E_INVALID, m, NULL);
        vgn_xpm_close(&x->base);
        return NULL;
    }
    /* each colour line is at least its key, a blank, a key letter, a blank and a colour character;
     * each row its width's keys: what the header promises must be in the file */
    /* (the pixels' term divided out, so that no product can wrap) */
    if ((uint64_t)x->ncolours * (x->cpp + 4) > size || (uint64_t)w * h > (size - (uint64_t)x->ncolours * (x->cpp + 4)) / x->cpp) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is too short for the colours and pixels its header gives", NULL);
        vgn_xpm_close(&x->base);
        return NULL;
    }
    info->width = x->base.width = w;
    info->height = x->base.height = h;
    info->components = 4;
    info->bit_depth = 8;
    info->orientation = 1;
    if (x->cpp <= 2) {
        size_t entries = (size_t)1 << (8 * x->cpp);
        x->colours = (uint32_t *)calloc(entries, sizeof(uint32_t));
        x->known = (uint8_t *)calloc(entries, 1);
    } else {
        x->colours = (uint32_t *)calloc(x->ncolours, sizeof(uint32_t));
        x->keys = (uint8_t *)calloc(x->ncolours, x->cpp);
    }
    if (x->colours == NULL || (x->cpp <= 2 ? x->known == NULL : x->keys == NULL)) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        vgn_xpm_close(&x->base);
        return NULL;
    }
    for (c = 0; c < x->ncolours; c++) {
        int64_t rgba;
        if (!vgn_csrc_string(&x->src, x->xpm2, &s, &n) || n < x->cpp) {
            vgn_err_fill(err, VGN_E_TRUNCATED, "the colour table ends early", NULL);
            vgn_xpm_close(&x->base);
            return NULL;
        }
        rgba = vgn_xpm_entry(s, n, x->cpp, &x->warn);
        if (rgba < 0) {
            char m[VGN_MSG_LEN];
            snprintf(m, sizeof m, "colour %u gives no colour (\"%.*s\")", c + 1, (int)(n > 60 ? 60 : n), (const char *)s);
            vgn_err_fill(err, VGN_E_INVALID, m, NULL);
            vgn_xpm_close(&x->base);
            return NULL;
        }
        if (x->cpp <= 2) {
            uint32_t k = x->cpp == 1 ? s[0] : (uint32_t)s[0] << 8 | s[1];
            x->colours[k] = (uint32_t)rgba;
            x->known[k] = 1;
        } else {
            memcpy(x->keys + (size_t)c * x->cpp, s, x->cpp);
            x->colours[c] = (uint32_t)rgba;
        }
        if (((uint32_t)rgba & 0xFF) != 0xFF) info->has_alpha = 1;
    }
    if (x->cpp > 2 && vgn_xpm_sort(x) != 0) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        vgn_xpm_close(&x->base);
        return NULL;
    }
    vgn_err_fill(err, VGN_OK, NULL, &x->warn);
    return &x->base;
}

/* ---- XBM --------------------------------------------------------------------------------- */

typedef struct {
    vgn_decoder base;
    const uint8_t *p;
    size_t size, pos;
    int x10;            /* 16-bit values (X10's "short" arrays) */
    uint32_t next_row;
    uint8_t value[2];   /* the undelivered bytes of the last 16-bit value */
} vgn_xbm;

static void vgn_xbm_close(vgn_decoder *d) { free(d); }

/* The value of the #define whose name ends in `suffix` ("_width"), or 0. */
static uint32_t vgn_xbm_define(const uint8_t *p, size_t size, const char *suffix)
{
    size_t at = 0, n = strlen(suffix);
    while (at < size) {
        const uint8_t *d = (const uint8_t *)memmem(p + at, size - at, "#define", 7);
        size_t i, name;
        uint32_t v = 0;
        if (d == NULL) return 0;
        i = (size_t)(d - p) + 7;
        while (i < size && (p[i] == ' ' || p[i] == '\t')) i++;
        name = i;
        while (i < size && p[i] != ' ' && p[i] != '\t' && p[i] != '\n') i++;
        if (i - name >= n && memcmp(p + i - n, suffix, n) == 0 && vgn_xpm_number(p, size, &i, &v)) return v;
        at = i;
    }
    return 0;
}

/* The next number of the bits array (0x.. or decimal), or -1 at its end. */
static int32_t vgn_xbm_next(vgn_xbm *x)
{
    while (x->pos < x->size) {
        uint8_t c = x->p[x->pos];
        if (c == '}') return -1;
        if (c >= '0' && c <= '9') {
            uint32_t v = 0;
            if (c == '0' && x->pos + 1 < x->size && (x->p[x->pos + 1] == 'x' || x->p[x->pos + 1] == 'X')) {
                int h;
                x->pos += 2;
                while (x->pos < x->size && (h = vgn_hex(x->p[x->pos])) >= 0) v = (v << 4 | (uint32_t)h) & 0xFFFF, x->pos++;
            } else {
                while (x->pos < x->size && x->p[x->pos] >= '0' && x->p[x->pos] <= '9')
                    v = (v * 10 + (uint32_t)(x->p[x->pos] - '0')) & 0xFFFF, x->pos++;
            }
            return (int32_t)v;
        }
        x->pos++;
    }
    return -1;
}

static int vgn_xbm_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    vgn_xbm *x = (vgn_xbm *)d;
    int n = 0;
    uint32_t units = x->x10 ? (x->base.width + 15) / 16 : (x->base.width + 7) / 8;
    while (n < max_rows && x->next_row < x->base.height) {
        uint8_t *out = dst + (size_t)n * stride;
        uint32_t u, b, col = 0;
        for (u = 0; u < units; u++) {
            int32_t v = vgn_xbm_next(x);
            if (v < 0) {
                vgn_err_fill(err, VGN_E_TRUNCATED, "the bits end before the last row", NULL);
                return n > 0 ? n : VGN_E_TRUNCATED;
            }
            /* least significant bit first: the leftmost pixel */
            for (b = 0; b < (x->x10 ? 16u : 8u) && col < x->base.width; b++, col++, out += 4) {
                uint8_t grey = (v >> b) & 1 ? 0 : 255;
                out[0] = out[1] = out[2] = grey;
                out[3] = 255;
            }
        }
        n++;
        x->next_row++;
    }
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return n;
}

vgn_decoder *vgn_xbm_open(const uint8_t *data, size_t size, vgn_image_info *info, vgn_error *err)
{
    vgn_xbm *x;
    const uint8_t *brace, *bits;
    uint32_t w, h;
    if (data == NULL || info == NULL) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return NULL;
    }
    memset(info, 0, sizeof *info);
    w = vgn_xbm_define(data, size, "_width");
    h = vgn_xbm_define(data, size, "_height");
    bits = (const uint8_t *)memmem(data, size, "_bits", 5);
    brace = bits != NULL ? (const uint8_t *)memchr(bits, '{', size - (size_t)(bits - data)) : NULL;
    if (w == 0 || h == 0 || brace == NULL) {
        vgn_err_fill(err, VGN_E_INVALID, "no _width and _height #defines and _bits array", NULL);
        return NULL;
    }
    /* every 8 pixels take at least two characters ("0,"): a longer picture cannot be in the file */
    if ((uint64_t)((w + 7) / 8) * h * 2 > size) {
        vgn_err_fill(err, VGN_E_TRUNCATED, "the file is too short for the size its #defines give", NULL);
        return NULL;
    }
    x = (vgn_xbm *)calloc(1, sizeof *x);
    if (x == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "out of memory", NULL);
        return NULL;
    }
    x->base.read_rows = vgn_xbm_read_rows;
    x->base.close = vgn_xbm_close;
    x->base.width = info->width = w;
    x->base.height = info->height = h;
    x->base.opaque = 1;
    x->p = data;
    x->size = size;
    x->pos = (size_t)(brace - data) + 1;
    x->x10 = memmem(data, (size_t)(bits - data), "short", 5) != NULL;
    info->components = 1;
    info->bit_depth = 1;
    info->orientation = 1;
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return &x->base;
}
