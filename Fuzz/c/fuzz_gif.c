/* libFuzzer harness: the GIF decoder as ImageDecoder drives it (open, pixel cap, all rows in bands),
 * from memory (uploads) or, for every other input, through a descriptor (files: vgn_gif_open_fd),
 * the bytes written to a memfd first. */
#define _GNU_SOURCE
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_decoder.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    vgn_image_info info;
    vgn_error err;
    int fd, ret;
    if (size % 2 == 0)
        return fuzz_drain(vgn_gif_open(data, size, &info, &err), &info);
    fd = memfd_create("fuzz_gif", MFD_CLOEXEC);
    if (fd < 0)
        return 0;
    if (write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return 0;
    }
    ret = fuzz_drain(vgn_gif_open_fd(fd, &info, &err), &info);
    close(fd);
    return ret;
}
