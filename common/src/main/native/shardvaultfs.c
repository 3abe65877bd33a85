/*
 * shardvaultfs: the JNI shim behind io.shardvault.common.fs.FileSystemSync: syncfs(2) on a
 * directory descriptor held for the life of a tome.
 *
 * Why a descriptor held open: since Linux 5.8 syncfs reports a writeback error of the file system
 * if one happened since this descriptor was opened or last synced (the super block's errseq). A
 * descriptor opened per call would sample the error anew and could miss one that background
 * writeback hit between two calls, the case where the kernel has already dropped the pages.
 *
 * Every function returns 0 or a negative errno; the Java side turns that into an IOException.
 */
#define _GNU_SOURCE
#include <jni.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#define SVFS_ABI_VERSION 1

JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_FileSystemSync_abi(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    return SVFS_ABI_VERSION;
}

JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_FileSystemSync_open0(JNIEnv *env, jclass cls, jstring path) {
    (void) cls;
    const char *p = (*env)->GetStringUTFChars(env, path, NULL);
    if (p == NULL) {
        return -ENOMEM; /* OutOfMemoryError is pending */
    }
    int fd = open(p, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    int err = errno;
    (*env)->ReleaseStringUTFChars(env, path, p);
    return fd >= 0 ? fd : -err;
}

JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_FileSystemSync_syncfs0(JNIEnv *env, jclass cls, jint fd) {
    (void) env;
    (void) cls;
    return syncfs(fd) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_FileSystemSync_close0(JNIEnv *env, jclass cls, jint fd) {
    (void) env;
    (void) cls;
    return close(fd) == 0 ? 0 : -errno;
}
