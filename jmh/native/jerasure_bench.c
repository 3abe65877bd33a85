/*
 * Plain-C Jerasure throughput: the floor the JNI engine is measured against (jmh/run-erasure-bench.sh).
 *
 * Same work as ErasureCodecBenchmark: one thread, Jerasure 2's reed_sol_vandermonde_coding_matrix(k, m, 8),
 * encode with jerasure_matrix_encode, decode with a decoding matrix made once
 * (jerasure_make_decoding_matrix) and jerasure_matrix_dotprod per lost data chunk, exactly as the
 * jerasure4j shim does with its cached plans. Lost chunks: data 0..min(4, m)-1.
 * Chunk length = ceil(stripe / k) rounded up to 16; buffers 64-byte aligned.
 * Working set: a ring of max(2, floor(1 MiB / ((k + m) * chunk))) stripes, the same formula as the JMH
 * benchmark, rotated per operation.
 *
 * Output, one line per measurement:
 *   c <op> <k+m> <stripeBytes> <GB/s per wall second> <GB/s per CPU second> ring=<stripes> chunk=<bytes>
 * GB/s of data (k * chunk bytes per op); each figure is the best of `trials` runs of `seconds` each
 * (after one warm-up run).
 *
 * usage: jerasure_bench [seconds-per-trial] [trials]
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jerasure.h>
#include <jerasure/reed_sol.h>

#define L2_BYTES (1 << 20)

static double clock_seconds(clockid_t clock) {
    struct timespec ts;
    clock_gettime(clock, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static double now(void) {
    return clock_seconds(CLOCK_MONOTONIC);
}

/* CPU time of this thread: on a machine shared with other work, throughput per CPU-second is far
   steadier than per wall-clock second (time slices lost to other processes do not count). */
static double cpu_now(void) {
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

typedef struct {
    int k, m, chunk, ring;
    char ***data;   /* [ring][k] */
    char ***coding; /* [ring][m] */
    int *matrix;
    int *decoding; /* k*k */
    int *dm_ids;   /* k */
    int lost;
} bench_t;

static volatile uint64_t sink;

static void setup(bench_t *b, int k, int m, int stripe) {
    b->k = k;
    b->m = m;
    b->chunk = ((stripe + k - 1) / k + 15) & ~15;
    long footprint = (long) (k + m) * b->chunk;
    b->ring = (int) (L2_BYTES / footprint);
    if (b->ring < 2) b->ring = 2;
    b->data = malloc(sizeof(char **) * b->ring);
    b->coding = malloc(sizeof(char **) * b->ring);
    unsigned seed = 12345;
    for (int r = 0; r < b->ring; r++) {
        b->data[r] = malloc(sizeof(char *) * k);
        b->coding[r] = malloc(sizeof(char *) * m);
        for (int i = 0; i < k + m; i++) {
            char *p;
            if (posix_memalign((void **) &p, 64, b->chunk) != 0) abort();
            for (int j = 0; j < b->chunk; j++) {
                seed = seed * 1103515245u + 12345u;
                p[j] = (char) (seed >> 16);
            }
            if (i < k) b->data[r][i] = p; else b->coding[r][i - k] = p;
        }
    }
    b->matrix = reed_sol_vandermonde_coding_matrix(k, m, 8);
    for (int r = 0; r < b->ring; r++) {
        jerasure_matrix_encode(k, m, 8, b->matrix, b->data[r], b->coding[r], b->chunk);
    }
    b->lost = m < 4 ? m : 4;
    int *erased = calloc(k + m, sizeof(int));
    for (int i = 0; i < b->lost; i++) erased[i] = 1;
    /* Erase the parity chunks beyond the first `lost` survivors so the survivors are 4..k+lost-1 as in JMH. */
    b->decoding = malloc(sizeof(int) * k * k);
    b->dm_ids = malloc(sizeof(int) * k);
    if (jerasure_make_decoding_matrix(k, m, 8, b->matrix, erased, b->decoding, b->dm_ids) != 0) abort();
    free(erased);
}

static void op_encode(bench_t *b, int r) {
    jerasure_matrix_encode(b->k, b->m, 8, b->matrix, b->data[r], b->coding[r], b->chunk);
}

static void op_decode(bench_t *b, int r) {
    for (int i = 0; i < b->lost; i++) {
        jerasure_matrix_dotprod(b->k, 8, b->decoding + i * b->k, b->dm_ids, i, b->data[r], b->coding[r], b->chunk);
    }
}

typedef struct {
    double wall; /* GB/s per wall-clock second */
    double cpu;  /* GB/s per CPU second of this thread */
} rate_t;

static rate_t run(bench_t *b, void (*op)(bench_t *, int), double seconds) {
    long ops = 0;
    int r = 0;
    double cpu_start = cpu_now();
    double start = now(), end;
    do {
        for (int i = 0; i < 16; i++) {
            op(b, r);
            if (++r == b->ring) r = 0;
        }
        ops += 16;
        end = now();
    } while (end - start < seconds);
    double cpu_end = cpu_now();
    sink += (uint64_t) b->data[0][0][0];
    double bytes = (double) ops * b->k * b->chunk;
    rate_t rate = {bytes / (end - start) / 1e9, bytes / (cpu_end - cpu_start) / 1e9};
    return rate;
}

int main(int argc, char **argv) {
    double seconds = argc > 1 ? atof(argv[1]) : 1.0;
    int trials = argc > 2 ? atoi(argv[2]) : 5;
    int layouts[][2] = {{16, 4}, {17, 3}, {15, 5}};
    int stripes[] = {1 << 20, 1 << 18};
    galois_init_default_field(8);
    for (size_t l = 0; l < sizeof layouts / sizeof layouts[0]; l++) {
        for (size_t s = 0; s < sizeof stripes / sizeof stripes[0]; s++) {
            bench_t b;
            setup(&b, layouts[l][0], layouts[l][1], stripes[s]);
            const char *names[] = {"encode", "decode"};
            void (*ops[])(bench_t *, int) = {op_encode, op_decode};
            for (int o = 0; o < 2; o++) {
                run(&b, ops[o], seconds);
                rate_t best = {0, 0};
                for (int t = 0; t < trials; t++) {
                    rate_t rate = run(&b, ops[o], seconds);
                    if (rate.wall > best.wall) best.wall = rate.wall;
                    if (rate.cpu > best.cpu) best.cpu = rate.cpu;
                }
                printf("c %s %d+%d %d %.3f %.3f ring=%d chunk=%d\n", names[o], b.k, b.m, stripes[s], best.wall,
                       best.cpu, b.ring, b.chunk);
                fflush(stdout);
            }
        }
    }
    return 0;
}
