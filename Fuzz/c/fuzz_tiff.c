/* libFuzzer harness: the TIFF decoder as ImageDecoder drives it (open, pixel cap, all rows in bands),
 * from memory (uploads) or, for every other input, through a descriptor (files: vgn_tiff_open_fd),
 * the bytes written to a memfd first. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    uint32_t target = size % 2 ? 64 : 0;
    int fd, ret;
    if (size % 4 < 2)
        return fuzz_drain(vgn_tiff_open(data, size, target, &info, &err), &info);
    fd = memfd_create("fuzz_tiff", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    if (size > 0 && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    ret = fuzz_drain(vgn_tiff_open_fd(fd, target, &info, &err), &info);
    close(fd);
    return ret;
}
