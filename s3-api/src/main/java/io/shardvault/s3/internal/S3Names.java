package io.shardvault.s3.internal;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Bucket-name and key validation, as S3 defines them. Stateless. */
public final class S3Names {
    static final int MAX_KEY_BYTES = 1024;
    /** Compiled once: every request's bucket name is checked against it. */
    private static final Pattern IP_ADDRESS = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");

    private S3Names() {
    }

    /** Checks a bucket name against S3's general-purpose bucket rules. */
    public static void checkBucket(String name) {
        if (!isValidBucket(name)) {
            throw S3Error.badRequest("InvalidBucketName", "The specified bucket is not valid.")
                    .with("BucketName", name);
        }
    }

    static boolean isValidBucket(String name) {
        int n = name.length();
        if (n < 3 || n > 63) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
            if (!ok) {
                return false;
            }
        }
        if (!Character.isLetterOrDigit(name.charAt(0)) || !Character.isLetterOrDigit(name.charAt(n - 1))) {
            return false;
        }
        if (name.contains("..") || name.contains(".-") || name.contains("-.")) {
            return false;
        }
        if (IP_ADDRESS.matcher(name).matches()) {
            return false;
        }
        return !name.startsWith("xn--") && !name.startsWith("sthree-") && !name.endsWith("-s3alias")
                && !name.endsWith("--ol-s3");
    }

    /** Checks a key: 1..1024 UTF-8 bytes. */
    public static void checkKey(String key) {
        int bytes = key.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_KEY_BYTES) {
            throw S3Error.badRequest("KeyTooLongError", "Your key is too long")
                    .with("MaxSizeAllowed", Integer.toString(MAX_KEY_BYTES)).with("Size", Integer.toString(bytes));
        }
        if (bytes == 0) {
            throw S3Error.badRequest("InvalidArgument", "The key must not be empty");
        }
    }
}
