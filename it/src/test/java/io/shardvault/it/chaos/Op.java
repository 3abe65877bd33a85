package io.shardvault.it.chaos;

import java.util.List;
import java.util.stream.Collectors;

/**
 * One operation of a chaos run as the history file holds it, one JSON object a line. Times are {@link
 * System#nanoTime()} less the history's start: monotonic, comparable across clients of one JVM.
 *
 * @param client  the client that ran it (-1: the checks after healing)
 * @param coordinator the coordinator it was sent to (its index in the cluster)
 * @param op      put, cput (If-None-Match: *), mpu (a multipart upload; its times are the Complete call's),
 *                get, delete, list (ListObjectsV2), versions (ListObjectVersions)
 * @param digest  SHA-256 (hex) of the body written or read; null when none (a delete, a get of no object)
 * @param outcome ok, fail (definitely without effect, or a definite answer such as 412), unknown (may or may
 *                not have taken effect: a timeout, a reset connection, a 5xx)
 * @param status  the HTTP status, 0 when none came back
 * @param keys    what a listing returned ({@code key} or {@code key@versionId}); empty for other ops
 */
public record Op(int client, int coordinator, String op, String bucket, String key, String digest,
                 String versionId, long invoke, long complete, String outcome, int status, List<String> keys,
                 String error) {
    public static final String OK = "ok";
    public static final String FAIL = "fail";
    public static final String UNKNOWN = "unknown";

    public boolean ok() {
        return OK.equals(outcome);
    }

    public boolean unknown() {
        return UNKNOWN.equals(outcome);
    }

    /** A put, conditional put or multipart upload: an op that may write {@link #digest()}. */
    public boolean writes() {
        return "put".equals(op) || "cput".equals(op) || "mpu".equals(op);
    }

    /** A write or delete that may have changed the key's object (it did not definitely fail). */
    public boolean mayHaveChanged() {
        return (writes() || "delete".equals(op)) && !FAIL.equals(outcome);
    }

    public String toJson() {
        return "{\"client\":" + client + ",\"coordinator\":" + coordinator + ",\"op\":" + quote(op)
                + ",\"bucket\":" + quote(bucket) + ",\"key\":" + quote(key) + ",\"digest\":" + quote(digest)
                + ",\"versionId\":" + quote(versionId) + ",\"invoke\":" + invoke + ",\"complete\":" + complete
                + ",\"outcome\":" + quote(outcome) + ",\"status\":" + status
                + ",\"keys\":[" + keys.stream().map(Op::quote).collect(Collectors.joining(",")) + "],\"error\":"
                + quote(error) + "}";
    }

    private static String quote(String s) {
        if (s == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }
}
