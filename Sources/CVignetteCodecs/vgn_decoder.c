/* vgn_decoder.c - the shared entry points of the streaming decoders (see vgn_decoder.h). */
#include "vgn_internal.h"

void vgn_decoder_size(const vgn_decoder *d, uint32_t *width, uint32_t *height)
{
    if (width != NULL) *width = d != NULL ? d->width : 0;
    if (height != NULL) *height = d != NULL ? d->height : 0;
}

void vgn_decoder_extent(const vgn_decoder *d, double *width, double *height)
{
    double w = d != NULL ? d->width : 0, h = d != NULL ? d->height : 0;
    /* a partial last box is more than nothing and less than a whole one */
    if (d != NULL && d->extent_width > w - 1 && d->extent_width < w) w = d->extent_width;
    if (d != NULL && d->extent_height > h - 1 && d->extent_height < h) h = d->extent_height;
    if (width != NULL) *width = w;
    if (height != NULL) *height = h;
}

size_t vgn_decoder_working_bytes(const vgn_decoder *d)
{
    return d != NULL ? d->working : 0;
}

int vgn_decoder_opaque(const vgn_decoder *d)
{
    return d != NULL && d->opaque;
}

int vgn_decoder_read_rows(vgn_decoder *d, uint8_t *dst, size_t stride, int max_rows, vgn_error *err)
{
    if (d == NULL || dst == NULL || max_rows < 0 || stride < (size_t)d->width * 4) {
        vgn_err_fill(err, VGN_E_STATE, "bad output buffer", NULL);
        return VGN_E_STATE;
    }
    return d->read_rows(d, dst, stride, max_rows, err);
}

void vgn_decoder_close(vgn_decoder *d)
{
    if (d != NULL) d->close(d);
}

int vgn_decoder_icc(const vgn_decoder *d, const uint8_t **profile, size_t *size, int *cmyk)
{
    int usable = d != NULL && d->icc != NULL && d->icc_size > 0;
    if (profile != NULL) *profile = usable ? d->icc : NULL;
    if (size != NULL) *size = usable ? d->icc_size : 0;
    if (cmyk != NULL) *cmyk = usable && d->icc_cmyk;
    return usable;
}

void vgn_decoder_set_cmyk_transform(vgn_decoder *d, const struct vgn_icc *t)
{
    if (d != NULL && d->icc_cmyk) d->cmyk_transform = t;
}
