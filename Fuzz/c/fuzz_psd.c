/* libFuzzer harness: the PSD/PSB decoder as ImageDecoder drives it (the image-resource scan for a
 * stand-in thumbnail, then open, pixel cap, rows in bands of 16, close), from memory; an odd-sized
 * input is also read through a descriptor (a memfd), the way files are. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>
#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    int real = 1;
    uint64_t offset = 0, length = 0;
    /* The thumbnail's range must lie inside the data (the caller slices it without checking). */
    vgn_psd_merged_info(data, size, -1, &real, &offset, &length, &err);
    if (length > 0 && (offset > size || length > size - offset)) abort();
    fuzz_drain(vgn_psd_open(data, size, &info, &err), &info);
    if (size % 2 == 1) {
        int fd = memfd_create("psd", 0);
        if (fd >= 0) {
            if (write(fd, data, size) == (ssize_t)size) fuzz_drain(vgn_psd_open_fd(fd, &info, &err), &info);
            close(fd);
        }
    }
    return 0;
}
