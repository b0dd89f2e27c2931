/* How long a PDF read takes through the reader's child started as vignette-decode (posix_spawn, a
 * fresh program) against a fork of the caller, with the caller holding `HEAP` MB of touched heap
 * (a fork copies its page tables). Rounds interleave the two ways. Built and run by
 * bench/reader-start.sh:  reader_start FILE.pdf HELPER ROUNDS HEAP_MB */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "vgn_decoder.h"
#include "vgn_internal.h"
#include "vgn_lazy.h"
#include "vgn_pdf.h"

static double vgn_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    static uint8_t data[1 << 24];
    vgn_pdf_request request = {.max_pages = 10, .max_text = 1 << 18, .render_side = 256, .timeout_ms = 20000,
                               .max_memory = (size_t)256 << 20};
    double spent[2] = {0, 0};
    size_t size, heap;
    char *kept;
    int rounds, round, way;
    FILE *f;
    if (argc != 5 || (f = fopen(argv[1], "rb")) == NULL) {
        fprintf(stderr, "usage: reader_start FILE.pdf HELPER ROUNDS HEAP_MB\n");
        return 2;
    }
    size = fread(data, 1, sizeof data, f);
    fclose(f);
    rounds = atoi(argv[3]);
    heap = (size_t)atoi(argv[4]) << 20;
    kept = malloc(heap + 1);
    memset(kept, 1, heap + 1);
    vgn_library_settle();
    vgn_isolate_set_self_start(0); /* no helper named means a fork here, not this program started afresh */
    for (round = 0; round < rounds; round++)
        for (way = 0; way < 2; way++) {
            vgn_pdf_facts facts;
            vgn_error err;
            double start = vgn_now();
            vgn_isolate_set_helper(way == 1 ? argv[2] : NULL);
            memset(&err, 0, sizeof err);
            if (vgn_pdf_read_isolated(data, size, &request, &facts, &err) != 0) {
                fprintf(stderr, "reader_start: %s\n", err.message);
                return 1;
            }
            vgn_pdf_facts_free(&facts);
            spent[way] += vgn_now() - start;
        }
    printf("%-28s heap %4s MB  fork %6.1f ms  vignette-decode %6.1f ms  ratio %.2f\n", strrchr(argv[1], '/') + 1, argv[4],
           spent[0] * 1000 / rounds, spent[1] * 1000 / rounds, spent[1] / spent[0]);
    free(kept);
    return 0;
}
