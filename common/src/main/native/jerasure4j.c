/*
 * jerasure4j: the JNI shim between io.shardvault.common.erasure.internal.Jerasure4j and
 * Jerasure 2 + gf-complete (Debian's libjerasure-dev, libgf-complete-dev).
 *
 * Why the checks: gf-complete's SIMD region routines call abort() when a source and a
 * destination region are not aligned alike on 16 bytes, which would kill the whole JVM.
 * Every entry point therefore validates each buffer (direct, 16-byte aligned chunk start,
 * capacity covering offset + chunkLength) and throws IllegalArgumentException before any
 * Jerasure call. Jerasure itself only ever sees lengths that are multiples of 16; a chunk
 * length with a tail of 1..15 bytes is finished by running the same routine once more over
 * 16-byte scratch copies of the tails (coding is byte-wise, so the result is identical).
 *
 * No copies of chunk bytes cross the boundary: chunks are direct ByteBuffers whose addresses
 * come from GetDirectBufferAddress. Matrices live in direct buffers owned (and cached) by the
 * Java side.
 *
 * Thread-safety: galois initialises its default fields lazily and without a lock: a second
 * thread can find the field's pointer set while the first still fills it, and jump through a
 * null region function (a SIGSEGV at pc 0 that took a test JVM down). The coding calls use two
 * fields: w = 8 for the multiplications, and w = 32, which galois_region_xor (the rows' 1
 * entries) runs on. Jerasure4j.init() (called once, from the loader) initialises both before
 * any coding call, and lazyFields() reports any left. After that every function here is reentrant. Jerasure's statistics counters
 * (jerasure_total_*_bytes) are updated racily by concurrent callers; we never read them.
 */
#include <jni.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jerasure.h>
#include <jerasure/reed_sol.h>

#define J4J_ABI_VERSION 2
#define J4J_W 8
#define J4J_MAX_N 256
#define J4J_ALIGN 16

static void throw_iae(JNIEnv *env, const char *msg) {
    jclass cls = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
    if (cls != NULL) {
        (*env)->ThrowNew(env, cls, msg);
    }
}

static void throw_iae_chunk(JNIEnv *env, const char *what, int index, long long detail) {
    char msg[160];
    snprintf(msg, sizeof msg, "jerasure4j: chunk %d %s (%lld)", index, what, detail);
    throw_iae(env, msg);
}

static int check_layout(JNIEnv *env, jint k, jint m) {
    if (k < 1 || m < 1 || k + m > J4J_MAX_N) {
        char msg[96];
        snprintf(msg, sizeof msg, "jerasure4j: bad layout k=%d m=%d (need k,m >= 1, k+m <= 256)", k, m);
        throw_iae(env, msg);
        return 0;
    }
    return 1;
}

/* Address of a direct int matrix of at least ints entries; NULL (with an exception) otherwise. */
static int *matrix_address(JNIEnv *env, jobject buf, jlong ints) {
    if (buf == NULL) {
        throw_iae(env, "jerasure4j: matrix buffer is null");
        return NULL;
    }
    int *addr = (int *) (*env)->GetDirectBufferAddress(env, buf);
    if (addr == NULL) {
        throw_iae(env, "jerasure4j: matrix buffer is not direct");
        return NULL;
    }
    if ((*env)->GetDirectBufferCapacity(env, buf) < ints * (jlong) sizeof(int)) {
        throw_iae(env, "jerasure4j: matrix buffer too small");
        return NULL;
    }
    if (((uintptr_t) addr) % sizeof(int) != 0) {
        throw_iae(env, "jerasure4j: matrix buffer not int-aligned");
        return NULL;
    }
    return addr;
}

/* needed[] values: which chunks an operation reads or writes. */
#define J4J_UNUSED 0   /* not touched; not resolved, may be anything */
#define J4J_INPUT 1    /* read; must be a valid buffer */
#define J4J_OUTPUT 2   /* written when non-null; a null one is skipped */

/*
 * Resolves chunks[i] + offsets[i] into ptrs[i] for every i < n that needed[i] marks as used,
 * leaving NULL elsewhere. Returns 0 with a pending IllegalArgumentException on any bad buffer.
 */
static int resolve_chunks(JNIEnv *env, jobjectArray chunks, jintArray offsets, int n, jint chunk_length,
                          const unsigned char *needed, char **ptrs) {
    jint offs[J4J_MAX_N];
    if (chunks == NULL || offsets == NULL
            || (*env)->GetArrayLength(env, chunks) != n || (*env)->GetArrayLength(env, offsets) != n) {
        throw_iae(env, "jerasure4j: chunks and offsets must both have k+m entries");
        return 0;
    }
    (*env)->GetIntArrayRegion(env, offsets, 0, n, offs);
    if ((*env)->ExceptionCheck(env)) {
        return 0;
    }
    for (int i = 0; i < n; i++) {
        ptrs[i] = NULL;
        if (needed[i] == J4J_UNUSED) {
            continue;
        }
        jobject buf = (*env)->GetObjectArrayElement(env, chunks, i);
        if (buf == NULL) {
            if (needed[i] == J4J_INPUT) {
                throw_iae_chunk(env, "is null but needed", i, 0);
                return 0;
            }
            continue;
        }
        char *base = (char *) (*env)->GetDirectBufferAddress(env, buf);
        jlong capacity = (*env)->GetDirectBufferCapacity(env, buf);
        (*env)->DeleteLocalRef(env, buf);
        if (base == NULL) {
            throw_iae_chunk(env, "is not a direct buffer", i, 0);
            return 0;
        }
        if (offs[i] < 0 || (jlong) offs[i] + chunk_length > capacity) {
            throw_iae_chunk(env, "offset + chunkLength exceeds capacity", i, (long long) capacity);
            return 0;
        }
        char *p = base + offs[i];
        if (((uintptr_t) p) % J4J_ALIGN != 0) {
            throw_iae_chunk(env, "start address is not 16-byte aligned; misalignment", i,
                            (long long) (((uintptr_t) p) % J4J_ALIGN));
            return 0;
        }
        ptrs[i] = p;
    }
    return 1;
}

/* The galois word sizes the coding calls reach: w = 8, and w = 32 under galois_region_xor. */
static const int J4J_FIELDS[] = {J4J_W, 32};
#define J4J_FIELD_COUNT ((int) (sizeof J4J_FIELDS / sizeof J4J_FIELDS[0]))

JNIEXPORT jint JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_init(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    for (int i = 0; i < J4J_FIELD_COUNT; i++) {
        if (galois_get_field_ptr(J4J_FIELDS[i]) == NULL && galois_init_default_field(J4J_FIELDS[i]) != 0) {
            return -1;
        }
    }
    return J4J_ABI_VERSION;
}

JNIEXPORT jint JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_lazyFields(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    int missing = 0;
    for (int i = 0; i < J4J_FIELD_COUNT; i++) {
        missing += galois_get_field_ptr(J4J_FIELDS[i]) == NULL;
    }
    return missing;
}

JNIEXPORT void JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_codingMatrix(JNIEnv *env, jclass cls, jint k, jint m,
                                                                   jintArray out) {
    (void) cls;
    if (!check_layout(env, k, m)) {
        return;
    }
    if (out == NULL || (*env)->GetArrayLength(env, out) != k * m) {
        throw_iae(env, "jerasure4j: out must have k*m entries");
        return;
    }
    int *matrix = reed_sol_vandermonde_coding_matrix(k, m, J4J_W);
    if (matrix == NULL) {
        throw_iae(env, "jerasure4j: reed_sol_vandermonde_coding_matrix failed");
        return;
    }
    (*env)->SetIntArrayRegion(env, out, 0, k * m, (const jint *) matrix);
    free(matrix);
}

JNIEXPORT jint JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_decodingMatrix(JNIEnv *env, jclass cls, jint k, jint m,
                                                                     jintArray coding, jintArray erased,
                                                                     jintArray decoding, jintArray dmIds) {
    (void) cls;
    if (!check_layout(env, k, m)) {
        return -1;
    }
    if (coding == NULL || erased == NULL || decoding == NULL || dmIds == NULL
            || (*env)->GetArrayLength(env, coding) != k * m || (*env)->GetArrayLength(env, erased) != k + m
            || (*env)->GetArrayLength(env, decoding) != k * k || (*env)->GetArrayLength(env, dmIds) != k) {
        throw_iae(env, "jerasure4j: decodingMatrix array sizes");
        return -1;
    }
    int *c = malloc(sizeof(int) * (size_t) (k * m));
    int *e = malloc(sizeof(int) * (size_t) (k + m));
    int *d = malloc(sizeof(int) * (size_t) (k * k));
    int *ids = malloc(sizeof(int) * (size_t) k);
    int rc = -1;
    if (c != NULL && e != NULL && d != NULL && ids != NULL) {
        (*env)->GetIntArrayRegion(env, coding, 0, k * m, (jint *) c);
        (*env)->GetIntArrayRegion(env, erased, 0, k + m, (jint *) e);
        rc = jerasure_make_decoding_matrix(k, m, J4J_W, c, e, d, ids);
        if (rc == 0) {
            (*env)->SetIntArrayRegion(env, decoding, 0, k * k, (const jint *) d);
            (*env)->SetIntArrayRegion(env, dmIds, 0, k, (const jint *) ids);
        }
    }
    free(c);
    free(e);
    free(d);
    free(ids);
    return rc;
}

/* Splits ptrs (k + m entries) into Jerasure's data and coding pointer arrays. */
static void split_ptrs(char **ptrs, int k, int m, char **data, char **coding) {
    for (int i = 0; i < k; i++) {
        data[i] = ptrs[i];
    }
    for (int i = 0; i < m; i++) {
        coding[i] = ptrs[k + i];
    }
}

JNIEXPORT void JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_encode(JNIEnv *env, jclass cls, jint k, jint m,
                                                             jobject matrixBuf, jobjectArray chunks,
                                                             jintArray offsets, jint chunkLength) {
    (void) cls;
    char *ptrs[J4J_MAX_N];
    char *data[J4J_MAX_N];
    char *coding[J4J_MAX_N];
    unsigned char needed[J4J_MAX_N];
    if (!check_layout(env, k, m)) {
        return;
    }
    if (chunkLength < 0) {
        throw_iae(env, "jerasure4j: chunkLength < 0");
        return;
    }
    int *matrix = matrix_address(env, matrixBuf, (jlong) k * m);
    if (matrix == NULL) {
        return;
    }
    memset(needed, J4J_INPUT, sizeof needed);
    if (!resolve_chunks(env, chunks, offsets, k + m, chunkLength, needed, ptrs)) {
        return;
    }
    int body = chunkLength & ~(J4J_ALIGN - 1);
    int tail = chunkLength - body;
    if (body > 0) {
        split_ptrs(ptrs, k, m, data, coding);
        jerasure_matrix_encode(k, m, J4J_W, matrix, data, coding, body);
    }
    if (tail > 0) {
        static __thread char scratch[J4J_MAX_N * J4J_ALIGN] __attribute__((aligned(J4J_ALIGN)));
        memset(scratch, 0, (size_t) (k + m) * J4J_ALIGN);
        for (int i = 0; i < k; i++) {
            memcpy(scratch + i * J4J_ALIGN, ptrs[i] + body, (size_t) tail);
            data[i] = scratch + i * J4J_ALIGN;
        }
        for (int i = 0; i < m; i++) {
            coding[i] = scratch + (k + i) * J4J_ALIGN;
        }
        jerasure_matrix_encode(k, m, J4J_W, matrix, data, coding, J4J_ALIGN);
        for (int i = 0; i < m; i++) {
            memcpy(ptrs[k + i] + body, coding[i], (size_t) tail);
        }
    }
}

/*
 * Computes up to rowCount output chunks: chunk destIds[r] = sum over i < k of
 * rows[r*k + i] * chunk srcIds[i] (GF(2^8)), with Jerasure's jerasure_matrix_dotprod; an output
 * whose buffer is null is skipped. Decoding passes the cached rows of the
 * inverted survivor matrix (and, for lost parity, those rows times the coding matrix).
 */
JNIEXPORT void JNICALL
Java_io_shardvault_common_erasure_internal_Jerasure4j_dotprod(JNIEnv *env, jclass cls, jint k, jint m,
                                                              jobject rowsBuf, jint rowCount,
                                                              jintArray srcIdsArr, jintArray destIdsArr,
                                                              jobjectArray chunks, jintArray offsets,
                                                              jint chunkLength) {
    (void) cls;
    char *ptrs[J4J_MAX_N];
    char *data[J4J_MAX_N];
    char *coding[J4J_MAX_N];
    unsigned char needed[J4J_MAX_N];
    jint src_ids[J4J_MAX_N];
    jint dest_ids[J4J_MAX_N];
    if (!check_layout(env, k, m)) {
        return;
    }
    int n = k + m;
    if (chunkLength < 0 || rowCount < 0 || rowCount > m) {
        throw_iae(env, "jerasure4j: chunkLength < 0 or rowCount outside [0, m]");
        return;
    }
    if (srcIdsArr == NULL || destIdsArr == NULL || (*env)->GetArrayLength(env, srcIdsArr) != k
            || (*env)->GetArrayLength(env, destIdsArr) < rowCount) {
        throw_iae(env, "jerasure4j: srcIds must have k entries and destIds rowCount");
        return;
    }
    int *rows = matrix_address(env, rowsBuf, (jlong) rowCount * k);
    if (rows == NULL) {
        return;
    }
    (*env)->GetIntArrayRegion(env, srcIdsArr, 0, k, src_ids);
    (*env)->GetIntArrayRegion(env, destIdsArr, 0, rowCount, dest_ids);
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    memset(needed, J4J_UNUSED, sizeof needed);
    for (int i = 0; i < k; i++) {
        if (src_ids[i] < 0 || src_ids[i] >= n || needed[src_ids[i]]) {
            throw_iae(env, "jerasure4j: srcIds must be k distinct chunk indexes");
            return;
        }
        needed[src_ids[i]] = J4J_INPUT;
    }
    for (int r = 0; r < rowCount; r++) {
        if (dest_ids[r] < 0 || dest_ids[r] >= n || needed[dest_ids[r]]) {
            throw_iae(env, "jerasure4j: destIds must be distinct chunk indexes not among srcIds");
            return;
        }
        needed[dest_ids[r]] = J4J_OUTPUT;
    }
    if (!resolve_chunks(env, chunks, offsets, n, chunkLength, needed, ptrs)) {
        return;
    }
    int body = chunkLength & ~(J4J_ALIGN - 1);
    int tail = chunkLength - body;
    if (body > 0) {
        split_ptrs(ptrs, k, m, data, coding);
        for (int r = 0; r < rowCount; r++) {
            if (ptrs[dest_ids[r]] != NULL) {
                jerasure_matrix_dotprod(k, J4J_W, rows + r * k, (int *) src_ids, dest_ids[r], data, coding, body);
            }
        }
    }
    if (tail > 0) {
        static __thread char scratch[J4J_MAX_N * J4J_ALIGN] __attribute__((aligned(J4J_ALIGN)));
        for (int i = 0; i < n; i++) {
            char *s = scratch + i * J4J_ALIGN;
            memset(s, 0, J4J_ALIGN);
            if (needed[i] == J4J_INPUT) {
                memcpy(s, ptrs[i] + body, (size_t) tail);
            }
            if (i < k) {
                data[i] = s;
            } else {
                coding[i - k] = s;
            }
        }
        for (int r = 0; r < rowCount; r++) {
            int d = dest_ids[r];
            if (ptrs[d] != NULL) {
                jerasure_matrix_dotprod(k, J4J_W, rows + r * k, (int *) src_ids, d, data, coding, J4J_ALIGN);
                memcpy(ptrs[d] + body, scratch + d * J4J_ALIGN, (size_t) tail);
            }
        }
    }
}
