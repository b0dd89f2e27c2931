/* sweep_main.h - the command line both sweep encoders share (avif_sweep.c, webp_sweep.c):
     TOOL IN.rgb W H OUT QUALITY [NAME=VALUE ...]
   reads W x H RGB pixels, and writes OUT with `encode`; with REPS=N in the environment it
   prints the mean milliseconds of N encodes instead (one unrecorded first). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef int (*sweep_encoder)(const uint8_t *rgb, int w, int h, double quality, int argc, char **argv, FILE *out);

static int sweep_main(int argc, char **argv, const char *usage, sweep_encoder encode)
{
    if (argc < 6) { fprintf(stderr, "usage: %s\n", usage); return 2; }
    int w = atoi(argv[2]), h = atoi(argv[3]);
    double quality = atof(argv[5]);
    size_t size = (size_t)w * (size_t)h * 3;
    uint8_t *rgb = malloc(size);
    FILE *in = fopen(argv[1], "rb");
    if (!rgb || !in || fread(rgb, 1, size, in) != size) { fprintf(stderr, "cannot read %s\n", argv[1]); return 1; }
    fclose(in);
    const char *reps = getenv("REPS");
    if (reps) {
        int n = atoi(reps);
        if (encode(rgb, w, h, quality, argc - 6, argv + 6, NULL)) return 3;
        struct timespec a, b;
        clock_gettime(CLOCK_MONOTONIC, &a);
        for (int i = 0; i < n; i++) encode(rgb, w, h, quality, argc - 6, argv + 6, NULL);
        clock_gettime(CLOCK_MONOTONIC, &b);
        printf("%.3f\n", ((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n);
        return 0;
    }
    FILE *out = fopen(argv[4], "wb");
    if (!out) return 1;
    int status = encode(rgb, w, h, quality, argc - 6, argv + 6, out);
    fclose(out);
    return status;
}
