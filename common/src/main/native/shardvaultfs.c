/*
 * shardvaultfs: the JNI shim for the operating-system calls Java has no API for, loaded and its ABI
 * checked by io.shardvault.common.nativelib.OsCalls:
 *   io.shardvault.common.fs.FileSystemSync  syncfs(2) on a directory descriptor held for the life of a tome;
 *   io.shardvault.common.os.ThreadPriority  a thread's own CPU and I/O priority (setpriority(2), ioprio_set(2));
 *   io.shardvault.common.fs.CachedRead      a read that takes only what the page cache holds (preadv2(2), RWF_NOWAIT).
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
#include <sys/resource.h>
#include <sys/uio.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SVFS_ABI_VERSION 3

JNIEXPORT jint JNICALL Java_io_shardvault_common_nativelib_OsCalls_abi(JNIEnv *env, jclass cls) {
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

/* Linux's ioprio interface (linux/ioprio.h; glibc has no wrapper). */
#define SVFS_IOPRIO_WHO_PROCESS 1
#define SVFS_IOPRIO_CLASS_SHIFT 13

JNIEXPORT jint JNICALL Java_io_shardvault_common_os_ThreadPriority_currentTid0(JNIEnv *env, jclass cls) {
    (void) env;
    (void) cls;
    return (jint) syscall(SYS_gettid);
}

/* On Linux, PRIO_PROCESS with a thread id sets that one thread's nice value, not its process's. */
JNIEXPORT jint JNICALL Java_io_shardvault_common_os_ThreadPriority_setNice0(JNIEnv *env, jclass cls, jint tid,
                                                                           jint nice) {
    (void) env;
    (void) cls;
    return setpriority(PRIO_PROCESS, (id_t) tid, nice) == 0 ? 0 : -errno;
}

JNIEXPORT jint JNICALL Java_io_shardvault_common_os_ThreadPriority_setIoPriority0(JNIEnv *env, jclass cls,
                                                                                 jint tid, jint ioClass,
                                                                                 jint level) {
    (void) env;
    (void) cls;
    long prio = ((long) ioClass << SVFS_IOPRIO_CLASS_SHIFT) | level;
    return syscall(SYS_ioprio_set, SVFS_IOPRIO_WHO_PROCESS, tid, prio) == 0 ? 0 : -errno;
}

/* The thread's I/O priority as the kernel encodes it (class << 13 | level), or a negative errno. */
JNIEXPORT jint JNICALL Java_io_shardvault_common_os_ThreadPriority_ioPriority0(JNIEnv *env, jclass cls, jint tid) {
    (void) env;
    (void) cls;
    long prio = syscall(SYS_ioprio_get, SVFS_IOPRIO_WHO_PROCESS, tid);
    return prio >= 0 ? (jint) prio : -errno;
}

/*
 * The descriptor of a java.nio FileChannel: its FileDescriptor's int. JNI reads private fields
 * without the module system's leave (no --add-opens), and the names have been these from JDK 7 to
 * 25; if a JDK renames them, the lookup fails and CachedRead says so instead of reading.
 */
static jfieldID svfs_channel_fd;
static jfieldID svfs_descriptor_fd;

JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_CachedRead_init0(JNIEnv *env, jclass cls, jclass channelClass) {
    (void) cls;
    svfs_channel_fd = (*env)->GetFieldID(env, channelClass, "fd", "Ljava/io/FileDescriptor;");
    if (svfs_channel_fd == NULL) {
        (*env)->ExceptionClear(env);
        return -ENOSYS;
    }
    jclass descriptor = (*env)->FindClass(env, "java/io/FileDescriptor");
    if (descriptor == NULL) {
        (*env)->ExceptionClear(env);
        return -ENOSYS;
    }
    svfs_descriptor_fd = (*env)->GetFieldID(env, descriptor, "fd", "I");
    if (svfs_descriptor_fd == NULL) {
        (*env)->ExceptionClear(env);
        return -ENOSYS;
    }
    return 0;
}

/*
 * preadv2 with RWF_NOWAIT into [offset, offset + length) of a direct buffer: the bytes read, 0 at
 * the end of the file, or a negative errno; -EAGAIN when not even the first byte is in the page
 * cache. The caller holds the channel open across the call.
 */
JNIEXPORT jint JNICALL Java_io_shardvault_common_fs_CachedRead_read0(JNIEnv *env, jclass cls, jobject channel,
                                                                     jobject buffer, jint offset, jint length,
                                                                     jlong position) {
    (void) cls;
    char *base = (*env)->GetDirectBufferAddress(env, buffer);
    if (base == NULL) {
        return -EINVAL;
    }
    jobject descriptor = (*env)->GetObjectField(env, channel, svfs_channel_fd);
    if (descriptor == NULL) {
        return -EBADF;
    }
    int fd = (*env)->GetIntField(env, descriptor, svfs_descriptor_fd);
    if (fd < 0) {
        return -EBADF;
    }
    struct iovec iov = { .iov_base = base + offset, .iov_len = (size_t) length };
    ssize_t n = preadv2(fd, &iov, 1, (off_t) position, RWF_NOWAIT);
    return n >= 0 ? (jint) n : -errno;
}
