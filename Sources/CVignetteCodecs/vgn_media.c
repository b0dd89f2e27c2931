/* vgn_media.c - an audio or video file's facts and thumbnail, through FFmpeg's libraries in a
 * child process (see vgn_media.h).
 *
 * libavformat and libavcodec parse and decode hostile input with a great deal of code, so they run
 * only in a child: a crash, a hang past the deadline, runaway memory (RLIMIT_DATA) or what they
 * log stays there. They are loaded with dlopen in that child, never linked: libavcodec alone pulls
 * in some eighty libraries (x264, x265, dav1d, libvpx…), which would otherwise slow down the start
 * of every command and request that never sees a media file. The -dev headers give the struct
 * layouts; every function is called through a pointer bound with dlsym, from the libraries whose
 * major versions the headers name (so the layouts match). */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libavcodec/avcodec.h>
#include <libavformat/avformat.h>
#include <libavutil/channel_layout.h>
#include <libavutil/display.h>
#include <libavutil/pixdesc.h>
#include <libswscale/swscale.h>

#include "vgn_internal.h"
#include "vgn_media.h"

#define VGN_STR2(x) #x
#define VGN_STR(x) VGN_STR2(x)
#define VGN_SONAME(lib, major) "lib" lib ".so." VGN_STR(major)

/* A frame darker than this (mean luma, 0-255) is passed over as black. */
#define VGN_MEDIA_BLACK 20
/* Frames and packets looked at, at most, for one that is not black. */
#define VGN_MEDIA_MAX_FRAMES 300
#define VGN_MEDIA_MAX_PACKETS 6000

#define VGN_FN(name) __typeof__(&name) name
typedef struct {
    VGN_FN(avformat_alloc_context);
    VGN_FN(avformat_open_input);
    VGN_FN(avformat_find_stream_info);
    VGN_FN(av_probe_input_buffer2);
    VGN_FN(avformat_close_input);
    VGN_FN(av_read_frame);
    VGN_FN(av_seek_frame);
    VGN_FN(avio_alloc_context);
    VGN_FN(av_stream_get_side_data);
    VGN_FN(avcodec_find_decoder);
    VGN_FN(avcodec_alloc_context3);
    VGN_FN(avcodec_parameters_to_context);
    VGN_FN(avcodec_open2);
    VGN_FN(avcodec_send_packet);
    VGN_FN(avcodec_receive_frame);
    VGN_FN(avcodec_free_context);
    VGN_FN(avcodec_get_name);
    VGN_FN(avcodec_descriptor_get);
    VGN_FN(avcodec_profile_name);
    VGN_FN(av_packet_alloc);
    VGN_FN(av_packet_unref);
    VGN_FN(av_malloc);
    VGN_FN(av_dict_get);
    VGN_FN(av_frame_alloc);
    VGN_FN(av_frame_unref);
    VGN_FN(av_log_set_callback);
    VGN_FN(av_log_set_level);
    VGN_FN(av_get_pix_fmt_name);
    VGN_FN(av_channel_layout_describe);
    VGN_FN(av_display_rotation_get);
    VGN_FN(av_strerror);
    VGN_FN(sws_getContext);
    VGN_FN(sws_scale);
    VGN_FN(sws_freeContext);
} vgn_ffmpeg_api;
#undef VGN_FN

/* The child's first message; the frame's RGBA pixels and the cover picture's bytes follow. */
typedef struct {
    int32_t code;
    char message[VGN_MSG_LEN];
    vgn_media_facts facts;
} vgn_media_reply;

/* Where the child reads from: a file descriptor, or the bytes the parent had (inherited). */
typedef struct {
    int fd;
    const uint8_t *data;
    int64_t size, pos;
} vgn_media_source;

/* The child's state: the API, FFmpeg's last error message, the reply being filled. */
static vgn_ffmpeg_api vgn_av;
static char vgn_media_log[VGN_MSG_LEN];

static int vgn_media_bind(char *why, size_t why_size)
{
    void *avutil = dlopen(VGN_SONAME("avutil", LIBAVUTIL_VERSION_MAJOR), RTLD_NOW | RTLD_GLOBAL);
    void *avcodec = avutil ? dlopen(VGN_SONAME("avcodec", LIBAVCODEC_VERSION_MAJOR), RTLD_NOW | RTLD_GLOBAL) : NULL;
    void *avformat = avcodec ? dlopen(VGN_SONAME("avformat", LIBAVFORMAT_VERSION_MAJOR), RTLD_NOW | RTLD_GLOBAL) : NULL;
    void *swscale = avformat ? dlopen(VGN_SONAME("swscale", LIBSWSCALE_VERSION_MAJOR), RTLD_NOW | RTLD_GLOBAL) : NULL;
    if (swscale == NULL) {
        snprintf(why, why_size,
                 "FFmpeg's libraries are not installed (Debian: libavformat" VGN_STR(LIBAVFORMAT_VERSION_MAJOR)
                 " libavcodec" VGN_STR(LIBAVCODEC_VERSION_MAJOR) " libswscale" VGN_STR(LIBSWSCALE_VERSION_MAJOR) ")");
        return -1;
    }
#define VGN_BIND(lib, name)                                                          \
    do {                                                                             \
        *(void **)(&vgn_av.name) = dlsym(lib, #name);                                \
        if (vgn_av.name == NULL) {                                                   \
            snprintf(why, why_size, "FFmpeg's " #lib " has no " #name " (another version?)"); \
            return -1;                                                               \
        }                                                                            \
    } while (0)
    VGN_BIND(avformat, avformat_alloc_context);
    VGN_BIND(avformat, avformat_open_input);
    VGN_BIND(avformat, avformat_find_stream_info);
    VGN_BIND(avformat, av_probe_input_buffer2);
    VGN_BIND(avformat, avformat_close_input);
    VGN_BIND(avformat, av_read_frame);
    VGN_BIND(avformat, av_seek_frame);
    VGN_BIND(avformat, avio_alloc_context);
    VGN_BIND(avformat, av_stream_get_side_data);
    VGN_BIND(avcodec, avcodec_find_decoder);
    VGN_BIND(avcodec, avcodec_alloc_context3);
    VGN_BIND(avcodec, avcodec_parameters_to_context);
    VGN_BIND(avcodec, avcodec_open2);
    VGN_BIND(avcodec, avcodec_send_packet);
    VGN_BIND(avcodec, avcodec_receive_frame);
    VGN_BIND(avcodec, avcodec_free_context);
    VGN_BIND(avcodec, avcodec_get_name);
    VGN_BIND(avcodec, avcodec_descriptor_get);
    VGN_BIND(avcodec, avcodec_profile_name);
    VGN_BIND(avcodec, av_packet_alloc);
    VGN_BIND(avcodec, av_packet_unref);
    VGN_BIND(avutil, av_malloc);
    VGN_BIND(avutil, av_dict_get);
    VGN_BIND(avutil, av_frame_alloc);
    VGN_BIND(avutil, av_frame_unref);
    VGN_BIND(avutil, av_log_set_callback);
    VGN_BIND(avutil, av_log_set_level);
    VGN_BIND(avutil, av_get_pix_fmt_name);
    VGN_BIND(avutil, av_channel_layout_describe);
    VGN_BIND(avutil, av_display_rotation_get);
    VGN_BIND(avutil, av_strerror);
    VGN_BIND(swscale, sws_getContext);
    VGN_BIND(swscale, sws_scale);
    VGN_BIND(swscale, sws_freeContext);
#undef VGN_BIND
    return 0;
}

/* Keeps FFmpeg's last error message (the reason a file cannot be read, "moov atom not found"). */
static void vgn_media_log_callback(void *ptr, int level, const char *fmt, va_list args)
{
    char line[VGN_MSG_LEN];
    (void)ptr;
    if (level > AV_LOG_ERROR) return;
    vsnprintf(line, sizeof line, fmt, args);
    if (line[0] != 0) vgn_copy_message(vgn_media_log, line);
}

/* Copies a string into a fixed field, cut at a character boundary. */
static void vgn_media_copy(char *field, size_t field_size, const char *text)
{
    size_t n;
    if (text == NULL) return;
    n = strlen(text);
    if (n >= field_size) {
        n = field_size - 1;
        while (n > 0 && ((unsigned char)text[n] & 0xC0) == 0x80) n--;
    }
    memcpy(field, text, n);
    field[n] = 0;
}

static int vgn_media_read_packet(void *opaque, uint8_t *buf, int n)
{
    vgn_media_source *s = (vgn_media_source *)opaque;
    ssize_t got;
    if (s->pos >= s->size) return AVERROR_EOF;
    if ((int64_t)n > s->size - s->pos) n = (int)(s->size - s->pos);
    if (s->fd >= 0) {
        do got = pread(s->fd, buf, (size_t)n, (off_t)s->pos);
        while (got < 0 && errno == EINTR);
        if (got <= 0) return got == 0 ? AVERROR_EOF : AVERROR(EIO);
    } else {
        memcpy(buf, s->data + s->pos, (size_t)n);
        got = n;
    }
    s->pos += got;
    return (int)got;
}

static int64_t vgn_media_seek(void *opaque, int64_t offset, int whence)
{
    vgn_media_source *s = (vgn_media_source *)opaque;
    int64_t to;
    if (whence & AVSEEK_SIZE) return s->size;
    switch (whence & ~AVSEEK_FORCE) {
    case SEEK_SET: to = offset; break;
    case SEEK_CUR: to = s->pos + offset; break;
    case SEEK_END: to = s->size + offset; break;
    default: return AVERROR(EINVAL);
    }
    if (to < 0 || to > s->size) return AVERROR(EINVAL);
    s->pos = to;
    return to;
}

/* Playlists and references (HLS, DASH, concat, a QuickTime reference movie) open other files or
 * URLs through this: nothing but the file given is ever read. */
static int vgn_media_refuse_open(AVFormatContext *s, AVIOContext **pb, const char *url, int flags, AVDictionary **options)
{
    (void)s, (void)pb, (void)url, (void)flags, (void)options;
    return AVERROR(EPERM);
}

VGN_NORETURN static void vgn_media_fail(int fd, vgn_media_reply *reply, int code, const char *message)
{
    reply->code = code;
    snprintf(reply->message, sizeof reply->message, "%s", message);
    (void)vgn_fd_write_all(fd, reply, sizeof *reply);
    _exit(0);
}

static double vgn_media_seconds(int64_t t, AVRational base)
{
    if (t == AV_NOPTS_VALUE || base.den == 0) return -1;
    return (double)t * base.num / base.den;
}

/* Degrees clockwise the stream's display matrix turns its pictures: 0, 90, 180 or 270. */
static int vgn_media_rotation(const AVStream *st)
{
    size_t size = 0;
    const uint8_t *matrix = vgn_av.av_stream_get_side_data(st, AV_PKT_DATA_DISPLAYMATRIX, &size);
    double theta;
    int quarter;
    if (matrix == NULL || size < 9 * sizeof(int32_t)) return 0;
    theta = -vgn_av.av_display_rotation_get((const int32_t *)(const void *)matrix);
    if (!isfinite(theta)) return 0;
    quarter = (int)lround(theta / 90.0) % 4;
    return (quarter < 0 ? quarter + 4 : quarter) * 90;
}

static void vgn_media_describe(const AVStream *st, vgn_media_stream *out)
{
    const AVCodecParameters *par = st->codecpar;
    const AVCodecDescriptor *desc = vgn_av.avcodec_descriptor_get(par->codec_id);
    const char *profile = vgn_av.avcodec_profile_name(par->codec_id, par->profile);
    const AVDictionaryEntry *lang = vgn_av.av_dict_get(st->metadata, "language", NULL, 0);
    AVRational rate = st->avg_frame_rate.num > 0 && st->avg_frame_rate.den > 0 ? st->avg_frame_rate : st->r_frame_rate;
    memset(out, 0, sizeof *out);
    switch (par->codec_type) {
    case AVMEDIA_TYPE_VIDEO: out->kind = st->disposition & AV_DISPOSITION_ATTACHED_PIC ? VGN_MEDIA_PICTURE : VGN_MEDIA_VIDEO; break;
    case AVMEDIA_TYPE_AUDIO: out->kind = VGN_MEDIA_AUDIO; break;
    case AVMEDIA_TYPE_SUBTITLE: out->kind = VGN_MEDIA_SUBTITLE; break;
    default: out->kind = VGN_MEDIA_OTHER; break;
    }
    vgn_media_copy(out->codec, sizeof out->codec, vgn_av.avcodec_get_name(par->codec_id));
    if (desc != NULL) vgn_media_copy(out->codec_long, sizeof out->codec_long, desc->long_name);
    vgn_media_copy(out->profile, sizeof out->profile, profile);
    if (lang != NULL && strcmp(lang->value, "und") != 0) vgn_media_copy(out->language, sizeof out->language, lang->value);
    out->bit_rate = par->bit_rate > 0 ? par->bit_rate : 0;
    out->duration = vgn_media_seconds(st->duration, st->time_base);
    if (par->codec_type == AVMEDIA_TYPE_VIDEO) {
        AVRational sar = st->sample_aspect_ratio.num > 0 ? st->sample_aspect_ratio : par->sample_aspect_ratio;
        double w = par->width;
        out->width = par->width > 0 ? (uint32_t)par->width : 0;
        out->height = par->height > 0 ? (uint32_t)par->height : 0;
        if (sar.num > 0 && sar.den > 0) w = w * sar.num / sar.den;
        out->rotation = vgn_media_rotation(st);
        out->display_width = (uint32_t)lround(out->rotation % 180 ? out->height : w);
        out->display_height = (uint32_t)lround(out->rotation % 180 ? w : out->height);
        if (par->format >= 0) vgn_media_copy(out->pixel_format, sizeof out->pixel_format, vgn_av.av_get_pix_fmt_name(par->format));
        if (out->kind == VGN_MEDIA_VIDEO && rate.num > 0 && rate.den > 0) out->frame_rate = (double)rate.num / rate.den;
    } else if (par->codec_type == AVMEDIA_TYPE_AUDIO) {
        out->sample_rate = par->sample_rate > 0 ? (uint32_t)par->sample_rate : 0;
        out->channels = par->ch_layout.nb_channels > 0 ? (uint32_t)par->ch_layout.nb_channels : 0;
        if (out->channels > 0)
            (void)vgn_av.av_channel_layout_describe(&par->ch_layout, out->channel_layout, sizeof out->channel_layout);
    }
}

/* The container's tags, then each stream's (Ogg keeps its Vorbis comments there), first of a key. */
static void vgn_media_tags(const AVFormatContext *fmt, vgn_media_facts *facts)
{
    unsigned i;
    for (i = 0; i <= fmt->nb_streams && facts->tag_count < VGN_MEDIA_MAX_TAGS; i++) {
        const AVDictionary *dict = i == 0 ? fmt->metadata : fmt->streams[i - 1]->metadata;
        const AVDictionaryEntry *e = NULL;
        /* A cover's own metadata says what kind of picture it is ("Cover (front)"), not the work's. */
        if (i > 0 && fmt->streams[i - 1]->disposition & AV_DISPOSITION_ATTACHED_PIC) continue;
        while ((e = vgn_av.av_dict_get(dict, "", e, AV_DICT_IGNORE_SUFFIX)) != NULL && facts->tag_count < VGN_MEDIA_MAX_TAGS) {
            uint32_t k;
            int seen = 0;
            if (strlen(e->key) >= sizeof facts->tags[0].key || e->value == NULL || e->value[0] == 0) continue;
            for (k = 0; k < facts->tag_count && !seen; k++) seen = strcasecmp(facts->tags[k].key, e->key) == 0;
            if (seen) continue;
            vgn_media_copy(facts->tags[facts->tag_count].key, sizeof facts->tags[0].key, e->key);
            vgn_media_copy(facts->tags[facts->tag_count].value, sizeof facts->tags[0].value, e->value);
            facts->tag_count++;
        }
    }
}

/* The mean luma (0-255) of a frame, from a 32 × 32 grey copy. */
static int vgn_media_luma(struct SwsContext **check, int shape[3], const AVFrame *frame)
{
    uint8_t grey[32 * 32];
    uint8_t *dst[4] = {grey, NULL, NULL, NULL};
    int stride[4] = {32, 0, 0, 0}, i;
    unsigned long sum = 0;
    if (*check != NULL && (shape[0] != frame->width || shape[1] != frame->height || shape[2] != frame->format)) {
        vgn_av.sws_freeContext(*check);
        *check = NULL;
    }
    shape[0] = frame->width, shape[1] = frame->height, shape[2] = frame->format;
    if (*check == NULL)
        *check = vgn_av.sws_getContext(frame->width, frame->height, frame->format, 32, 32, AV_PIX_FMT_GRAY8, SWS_AREA, NULL,
                                       NULL, NULL);
    if (*check == NULL) return -1;
    vgn_av.sws_scale(*check, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, dst, stride);
    for (i = 0; i < 32 * 32; i++) sum += grey[i];
    return (int)(sum / (32 * 32));
}

/* The frame scaled to w × h RGBA, then turned `rotation` degrees clockwise; NULL on failure. */
static uint8_t *vgn_media_picture(const AVFrame *frame, int w, int h, int rotation)
{
    struct SwsContext *sws = vgn_av.sws_getContext(frame->width, frame->height, frame->format, w, h, AV_PIX_FMT_RGBA,
                                                   SWS_AREA | SWS_ACCURATE_RND, NULL, NULL, NULL);
    int stride = (w * 4 + 63) & ~63, x, y;
    uint8_t *scaled, *out;
    uint8_t *dst[4];
    int dst_stride[4] = {stride, 0, 0, 0};
    if (sws == NULL) return NULL;
    scaled = (uint8_t *)vgn_av.av_malloc((size_t)stride * (size_t)h + 64);
    out = (uint8_t *)malloc((size_t)w * (size_t)h * 4);
    if (scaled == NULL || out == NULL) {
        vgn_av.sws_freeContext(sws);
        return NULL;
    }
    dst[0] = scaled, dst[1] = dst[2] = dst[3] = NULL;
    vgn_av.sws_scale(sws, (const uint8_t *const *)frame->data, frame->linesize, 0, frame->height, dst, dst_stride);
    vgn_av.sws_freeContext(sws);
    for (y = 0; y < h; y++)
        for (x = 0; x < w; x++) {
            /* Where (x, y) of the scaled picture lands once turned; the turned one is h wide at 90/270. */
            int ox = x, oy = y, ow = w;
            if (rotation == 90) ox = h - 1 - y, oy = x, ow = h;
            else if (rotation == 180) ox = w - 1 - x, oy = h - 1 - y;
            else if (rotation == 270) ox = y, oy = w - 1 - x, ow = h;
            memcpy(out + ((size_t)oy * (size_t)ow + (size_t)ox) * 4, scaled + (size_t)y * (size_t)stride + (size_t)x * 4, 4);
        }
    return out;
}

/* Decodes the video stream `index` from about 10 % in, passing over black frames, and leaves the
 * first bright one (else the brightest seen) in reply->facts; `why` says what went wrong. */
static uint8_t *vgn_media_frame(AVFormatContext *fmt, int index, const vgn_media_request *request, vgn_media_facts *facts,
                                char *why, size_t why_size)
{
    AVStream *st = fmt->streams[index];
    const AVCodec *codec = vgn_av.avcodec_find_decoder(st->codecpar->codec_id);
    AVCodecContext *ctx;
    AVPacket *packet = vgn_av.av_packet_alloc();
    AVFrame *frame = vgn_av.av_frame_alloc();
    struct SwsContext *check = NULL;
    int shape[3] = {0, 0, 0};
    uint8_t *best = NULL;
    int best_luma = -1, frames = 0, packets = 0, draining = 0, rc, w = 0, h = 0, rotation = 0;
    int64_t until = vgn_monotonic_ms() + request->search_ms;
    rotation = vgn_media_rotation(st);
    if (codec == NULL) {
        snprintf(why, why_size, "FFmpeg has no decoder for %s video", vgn_av.avcodec_get_name(st->codecpar->codec_id));
        return NULL;
    }
    ctx = vgn_av.avcodec_alloc_context3(codec);
    if (ctx == NULL || packet == NULL || frame == NULL || vgn_av.avcodec_parameters_to_context(ctx, st->codecpar) < 0) {
        snprintf(why, why_size, "no memory for the video decoder");
        return NULL;
    }
    ctx->thread_count = 1; /* one thread: the child's memory cap and timing stay predictable */
    if (vgn_av.avcodec_open2(ctx, codec, NULL) < 0) {
        snprintf(why, why_size, "FFmpeg cannot open its %s decoder: %s", codec->name, vgn_media_log[0] ? vgn_media_log : "no reason given");
        return NULL;
    }
    if (fmt->duration > 0 && fmt->duration != AV_NOPTS_VALUE) {
        int64_t start = fmt->start_time != AV_NOPTS_VALUE ? fmt->start_time : 0;
        (void)vgn_av.av_seek_frame(fmt, -1, start + fmt->duration / 10, AVSEEK_FLAG_BACKWARD);
    }
    while (frames < VGN_MEDIA_MAX_FRAMES && packets < VGN_MEDIA_MAX_PACKETS && vgn_monotonic_ms() < until) {
        if (!draining) {
            rc = vgn_av.av_read_frame(fmt, packet);
            if (rc < 0) {
                draining = 1;
                (void)vgn_av.avcodec_send_packet(ctx, NULL);
            } else {
                packets++;
                if (packet->stream_index == index) (void)vgn_av.avcodec_send_packet(ctx, packet);
                vgn_av.av_packet_unref(packet);
            }
        }
        while ((rc = vgn_av.avcodec_receive_frame(ctx, frame)) == 0) {
            int luma = vgn_media_luma(&check, shape, frame);
            frames++;
            if (luma > best_luma) {
                double display_w = frame->width;
                double scale;
                AVRational sar = frame->sample_aspect_ratio.num > 0 ? frame->sample_aspect_ratio : st->sample_aspect_ratio;
                if (sar.num > 0 && sar.den > 0) display_w = display_w * sar.num / sar.den;
                scale = (double)request->thumbnail_side / (display_w > frame->height ? display_w : frame->height);
                if (scale > 1) scale = 1;
                w = (int)lround(display_w * scale);
                h = (int)lround(frame->height * scale);
                if (w < 1) w = 1;
                if (h < 1) h = 1;
                if (w > (int)request->thumbnail_side) w = (int)request->thumbnail_side;
                if (h > (int)request->thumbnail_side) h = (int)request->thumbnail_side;
                free(best);
                best = vgn_media_picture(frame, w, h, rotation);
                best_luma = luma;
                facts->frame_time = vgn_media_seconds(frame->best_effort_timestamp, st->time_base);
                facts->width = (uint32_t)(rotation % 180 ? h : w);
                facts->height = (uint32_t)(rotation % 180 ? w : h);
            }
            vgn_av.av_frame_unref(frame);
            if (luma >= VGN_MEDIA_BLACK) break;
            facts->frames_skipped++;
        }
        /* Once drained, the decoder has given every frame it had. */
        if (best_luma >= VGN_MEDIA_BLACK || draining) break;
    }
    if (best != NULL && best_luma < VGN_MEDIA_BLACK) {
        facts->frames_skipped--;
        snprintf(why, why_size, "every frame looked at (%d) is black", frames);
    } else if (best == NULL) {
        snprintf(why, why_size, "no video frame could be decoded%s%s", vgn_media_log[0] ? ": " : "", vgn_media_log);
    }
    vgn_av.avcodec_free_context(&ctx);
    if (check != NULL) vgn_av.sws_freeContext(check);
    return best;
}

static void vgn_media_child(int fd, const uint8_t *data, size_t size, const void *arg)
{
    const vgn_media_request *request = (const vgn_media_request *)arg;
    static vgn_media_reply reply;
    vgn_media_source source;
    AVFormatContext *fmt;
    AVIOContext *io;
    const AVInputFormat *format = NULL;
    unsigned char *buffer;
    char why[VGN_MSG_LEN];
    uint8_t *pixels = NULL;
    const AVPacket *cover = NULL;
    int video = -1, rc;
    unsigned i;
    memset(&reply, 0, sizeof reply);
    reply.facts.frame_time = -1;
    if (vgn_media_bind(why, sizeof why) != 0) vgn_media_fail(fd, &reply, VGN_E_UNSUPPORTED, why);
    vgn_av.av_log_set_level(AV_LOG_ERROR);
    vgn_av.av_log_set_callback(vgn_media_log_callback);

    source.fd = -1, source.data = data, source.size = (int64_t)size, source.pos = 0;
    if (request->path != NULL) {
        struct stat st;
        source.fd = open(request->path, O_RDONLY | O_CLOEXEC);
        if (source.fd < 0 || fstat(source.fd, &st) != 0) {
            snprintf(why, sizeof why, "cannot open the file: %s", strerror(errno));
            vgn_media_fail(fd, &reply, VGN_E_IO, why);
        }
        source.size = (int64_t)st.st_size;
    }
    fmt = vgn_av.avformat_alloc_context();
    buffer = (unsigned char *)vgn_av.av_malloc(1 << 16);
    io = fmt && buffer ? vgn_av.avio_alloc_context(buffer, 1 << 16, 0, &source, vgn_media_read_packet, NULL, vgn_media_seek) : NULL;
    if (io == NULL) vgn_media_fail(fd, &reply, VGN_E_NOMEM, "no memory for FFmpeg's reader");
    fmt->pb = io;
    fmt->flags |= AVFMT_FLAG_CUSTOM_IO;
    fmt->io_open = vgn_media_refuse_open;
    fmt->probesize = 10 << 20;
    fmt->max_analyze_duration = 10 * (int64_t)AV_TIME_BASE;
    fmt->max_streams = 64;
    /* Probed apart from opening: a format FFmpeg does not know (MIDI, say) is no damage. */
    if (vgn_av.av_probe_input_buffer2(io, &format, "", NULL, 0, 0) < 0 || format == NULL) {
        reply.facts.unknown_format = 1;
        vgn_media_fail(fd, &reply, VGN_E_UNSUPPORTED, "FFmpeg does not recognise the format");
    }
    rc = vgn_av.avformat_open_input(&fmt, "", format, NULL);
    if (rc < 0) {
        char reason[128];
        if (vgn_av.av_strerror(rc, reason, sizeof reason) < 0) snprintf(reason, sizeof reason, "error %d", rc);
        if (vgn_media_log[0] != 0 && strcmp(vgn_media_log, reason) != 0)
            snprintf(why, sizeof why, "%s (%s)", vgn_media_log, reason);
        else
            snprintf(why, sizeof why, "%s", reason);
        vgn_media_fail(fd, &reply, VGN_E_INVALID, why);
    }
    (void)vgn_av.avformat_find_stream_info(fmt, NULL);
    vgn_media_copy(reply.facts.format, sizeof reply.facts.format, fmt->iformat->name);
    vgn_media_copy(reply.facts.format_long, sizeof reply.facts.format_long, fmt->iformat->long_name);
    reply.facts.duration = fmt->duration > 0 && fmt->duration != AV_NOPTS_VALUE ? (double)fmt->duration / AV_TIME_BASE : -1;
    reply.facts.bit_rate = fmt->bit_rate > 0 ? fmt->bit_rate : 0;
    reply.facts.stream_count = fmt->nb_streams;
    for (i = 0; i < fmt->nb_streams; i++) {
        AVStream *st = fmt->streams[i];
        if (reply.facts.streams_listed < VGN_MEDIA_MAX_STREAMS) vgn_media_describe(st, &reply.facts.streams[reply.facts.streams_listed++]);
        if (st->codecpar->codec_type != AVMEDIA_TYPE_VIDEO) continue;
        if (st->disposition & AV_DISPOSITION_ATTACHED_PIC) {
            if (cover == NULL && st->attached_pic.size > 0) cover = &st->attached_pic;
        } else if (video < 0 && st->codecpar->width > 0 && st->codecpar->height > 0) {
            video = (int)i;
        }
    }
    vgn_media_tags(fmt, &reply.facts);

    if (request->thumbnail_side > 0) {
        why[0] = 0;
        if (video >= 0) {
            vgn_media_log[0] = 0;
            pixels = vgn_media_frame(fmt, video, request, &reply.facts, why, sizeof why);
            vgn_media_copy(reply.facts.thumbnail_note, sizeof reply.facts.thumbnail_note, why);
        }
        if (pixels != NULL) {
            reply.facts.thumbnail_kind = VGN_MEDIA_THUMB_FRAME;
        } else if (cover != NULL && (size_t)cover->size <= request->max_picture) {
            reply.facts.thumbnail_kind = VGN_MEDIA_THUMB_PICTURE;
            reply.facts.picture_size = (size_t)cover->size;
            reply.facts.width = reply.facts.height = 0;
        } else if (cover != NULL) {
            snprintf(reply.facts.thumbnail_note, sizeof reply.facts.thumbnail_note, "the cover picture is over %zu MB",
                     request->max_picture >> 20);
        } else if (video < 0) {
            snprintf(reply.facts.thumbnail_note, sizeof reply.facts.thumbnail_note, "no video and no cover picture in the file");
        }
    }
    reply.code = VGN_OK;
    if (vgn_fd_write_all(fd, &reply, sizeof reply) != 0) _exit(0);
    if (reply.facts.thumbnail_kind == VGN_MEDIA_THUMB_FRAME)
        (void)vgn_fd_write_all(fd, pixels, (size_t)reply.facts.width * reply.facts.height * 4);
    else if (reply.facts.thumbnail_kind == VGN_MEDIA_THUMB_PICTURE)
        (void)vgn_fd_write_all(fd, cover->data, reply.facts.picture_size);
    _exit(0);
}

/* Ends every fixed string of the reply, whatever the child wrote. */
static void vgn_media_terminate(vgn_media_facts *f)
{
    uint32_t i;
    f->format[sizeof f->format - 1] = 0;
    f->format_long[sizeof f->format_long - 1] = 0;
    f->thumbnail_note[sizeof f->thumbnail_note - 1] = 0;
    for (i = 0; i < VGN_MEDIA_MAX_STREAMS; i++) {
        vgn_media_stream *s = &f->streams[i];
        s->codec[sizeof s->codec - 1] = s->codec_long[sizeof s->codec_long - 1] = s->profile[sizeof s->profile - 1] = 0;
        s->pixel_format[sizeof s->pixel_format - 1] = s->channel_layout[sizeof s->channel_layout - 1] = 0;
        s->language[sizeof s->language - 1] = 0;
    }
    for (i = 0; i < VGN_MEDIA_MAX_TAGS; i++) {
        f->tags[i].key[sizeof f->tags[i].key - 1] = 0;
        f->tags[i].value[sizeof f->tags[i].value - 1] = 0;
    }
}

const vgn_child_reader vgn_media_reader = {"FFmpeg", vgn_media_child, sizeof(vgn_media_request),
                                            offsetof(vgn_media_request, path)};

int vgn_media_read_isolated(const uint8_t *data, size_t size, const vgn_media_request *request, vgn_media_facts *out,
                            vgn_error *err)
{
    int status, rc, code;
    vgn_child child;
    vgn_media_reply *reply;
    size_t pixel_bytes = 0;
    if (out == NULL || request == NULL || (request->path == NULL && (data == NULL || size == 0))) {
        vgn_err_fill(err, VGN_E_STATE, "no data", NULL);
        return VGN_E_STATE;
    }
    memset(out, 0, sizeof *out);
    if (request->thumbnail_side > VGN_MEDIA_MAX_THUMBNAIL_SIDE) {
        vgn_err_fill(err, VGN_E_LIMIT, "the thumbnail asked for is too large", NULL);
        return VGN_E_LIMIT;
    }
    reply = (vgn_media_reply *)malloc(sizeof *reply);
    if (reply == NULL) {
        vgn_err_fill(err, VGN_E_NOMEM, "no memory for the media reader's answer", NULL);
        return VGN_E_NOMEM;
    }
    memset(reply, 0, sizeof *reply);
    if ((code = vgn_child_start(&child, &vgn_media_reader, data, size, request, request->path, request->timeout_ms, request->max_memory,
                                "the media reader", err)) != VGN_OK) {
        free(reply);
        return code;
    }
    rc = vgn_child_read(&child, reply, sizeof *reply);
    if (rc == 0 && reply->code == VGN_OK) {
        vgn_media_facts *f = &reply->facts;
        f->pixels = NULL;
        f->picture = NULL;
        vgn_media_terminate(f);
        if (f->thumbnail_kind == VGN_MEDIA_THUMB_FRAME) pixel_bytes = (size_t)f->width * f->height * 4;
        if (f->streams_listed > VGN_MEDIA_MAX_STREAMS || f->tag_count > VGN_MEDIA_MAX_TAGS ||
            f->width > request->thumbnail_side || f->height > request->thumbnail_side || f->picture_size > request->max_picture)
            rc = -3;
        if (rc == 0 && pixel_bytes > 0) {
            f->pixels = (uint8_t *)malloc(pixel_bytes);
            rc = f->pixels == NULL ? -3 : vgn_child_read(&child, f->pixels, pixel_bytes);
        }
        if (rc == 0 && f->thumbnail_kind == VGN_MEDIA_THUMB_PICTURE && f->picture_size > 0) {
            f->picture = (uint8_t *)malloc(f->picture_size);
            rc = f->picture == NULL ? -3 : vgn_child_read(&child, f->picture, f->picture_size);
        }
    }
    status = vgn_child_end(&child, rc);
    if (rc == 0 && reply->code != VGN_OK) {
        out->unknown_format = reply->facts.unknown_format;
        reply->message[sizeof reply->message - 1] = 0;
        code = reply->code;
        vgn_err_fill(err, code, reply->message, NULL);
        free(reply);
        return code;
    }
    if (rc != 0) {
        free(reply->facts.pixels);
        free(reply->facts.picture);
        free(reply);
        return vgn_child_failure(err, "FFmpeg", rc, status, request->timeout_ms, request->max_memory);
    }
    *out = reply->facts;
    free(reply);
    vgn_err_fill(err, VGN_OK, NULL, NULL);
    return VGN_OK;
}

void vgn_media_facts_free(vgn_media_facts *facts)
{
    if (facts == NULL) return;
    free(facts->pixels);
    free(facts->picture);
    facts->pixels = NULL;
    facts->picture = NULL;
}
