/*
 * vgn_media.h - an audio or video file's facts (container, duration, streams, tags) and its
 * thumbnail (a frame about 10 % in that is not black, or the embedded cover picture), read by
 * FFmpeg's libraries (loaded with dlopen) in a child process. The conventions of vgn_codecs.h apply.
 */
#ifndef VGN_MEDIA_H
#define VGN_MEDIA_H

#include <stddef.h>
#include <stdint.h>

#include "vgn_codecs.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Largest frame thumbnail asked for, in pixels a side. */
#define VGN_MEDIA_MAX_THUMBNAIL_SIDE 4096
/* Streams described at most (more are counted in `stream_count`). */
#define VGN_MEDIA_MAX_STREAMS 16
/* Tags kept at most, from the container's then the streams' metadata, first of each key. */
#define VGN_MEDIA_MAX_TAGS 32

/* What a stream carries. */
enum {
    VGN_MEDIA_OTHER = 0,
    VGN_MEDIA_VIDEO = 1,
    VGN_MEDIA_AUDIO = 2,
    VGN_MEDIA_SUBTITLE = 3,
    VGN_MEDIA_PICTURE = 4 /* a video stream that is an attached picture (cover art) */
};

/* What the thumbnail is. */
enum {
    VGN_MEDIA_THUMB_NONE = 0,    /* see `thumbnail_note` */
    VGN_MEDIA_THUMB_FRAME = 1,   /* `pixels`: a decoded video frame, RGBA */
    VGN_MEDIA_THUMB_PICTURE = 2  /* `picture`: the cover's encoded bytes (JPEG, PNG…) */
};

/* What to read, and the bounds of the child. */
typedef struct {
    const char *path;        /* the file to read; NULL: the bytes given */
    uint32_t thumbnail_side; /* longest side of the frame thumbnail; 0: no thumbnail at all */
    size_t max_picture;      /* largest cover picture returned, in bytes */
    unsigned timeout_ms;     /* the child is killed past this */
    unsigned search_ms;      /* time spent looking for a frame that is not black */
    size_t max_memory;       /* private memory the child may add to what it starts with */
} vgn_media_request;

/* One stream. Strings are UTF-8, empty when unknown; numbers 0 when unknown. */
typedef struct {
    int32_t kind;          /* VGN_MEDIA_VIDEO… */
    char codec[32];        /* FFmpeg's short name: h264, opus */
    char codec_long[128];  /* H.264 / AVC / MPEG-4 AVC / MPEG-4 part 10 */
    char profile[32];      /* High, LC */
    char pixel_format[32]; /* yuv420p */
    char channel_layout[32];
    char language[16];
    uint32_t width, height; /* as stored */
    uint32_t display_width, display_height; /* after the sample aspect ratio and rotation */
    int32_t rotation;       /* degrees clockwise the picture is turned for display: 0, 90, 180, 270 */
    double frame_rate;      /* frames a second */
    uint32_t sample_rate;
    uint32_t channels;
    int64_t bit_rate;       /* bits a second */
    double duration;        /* seconds; < 0 when unknown */
} vgn_media_stream;

/* One metadata entry, as FFmpeg names it (title, artist, ARTIST, date…). */
typedef struct {
    char key[32];
    char value[256];
} vgn_media_tag;

/* What was read. */
typedef struct {
    int32_t unknown_format; /* set on the VGN_E_UNSUPPORTED error when no demuxer recognises the data */
    char format[64];       /* FFmpeg's demuxer names: mov,mp4,m4a,3gp,3g2,mj2 */
    char format_long[128]; /* QuickTime / MOV */
    double duration;       /* seconds; < 0 when unknown */
    int64_t bit_rate;      /* bits a second; 0 when unknown */
    uint32_t stream_count; /* streams in the file */
    uint32_t streams_listed;
    vgn_media_stream streams[VGN_MEDIA_MAX_STREAMS];
    uint32_t tag_count;
    vgn_media_tag tags[VGN_MEDIA_MAX_TAGS];
    int32_t thumbnail_kind; /* VGN_MEDIA_THUMB_… */
    char thumbnail_note[256]; /* why there is no thumbnail, or a warning about the one given */
    double frame_time;        /* where the frame was taken, in seconds; < 0 when unknown */
    uint32_t frames_skipped;  /* black frames passed over */
    uint8_t *pixels;          /* width x height RGBA, opaque; free with vgn_media_facts_free */
    uint32_t width, height;
    uint8_t *picture; /* picture_size bytes; free with vgn_media_facts_free */
    size_t picture_size;
} vgn_media_facts;

/* Reads `request->path`, else `data` (size bytes), in a child process; on VGN_OK *out holds the
 * facts (free with vgn_media_facts_free). Errors: VGN_E_UNSUPPORTED when FFmpeg is missing or
 * recognises no format in the data (out->unknown_format = 1),
 * VGN_E_INVALID for what FFmpeg cannot read or a crash, VGN_E_LIMIT past the timeout,
 * VGN_E_IO when the file cannot be opened. */
int vgn_media_read_isolated(const uint8_t *data, size_t size, const vgn_media_request *request, vgn_media_facts *out,
                            vgn_error *err);
void vgn_media_facts_free(vgn_media_facts *facts);

#ifdef __cplusplus
}
#endif

#endif /* VGN_MEDIA_H */
