package io.shardvault.pod.internal;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;

/**
 * The durable record that a tome failed ({@link Tome#markFailed}): a text file
 * {@code failed-tome-<index>} in the instance's state directory, written by the {@link Flusher}
 * when it fails the tome and read at every start, which brings the tome up failed again. Only an
 * operator clears it, by deleting the file while the pod is stopped (docs/OPERATIONS.md, "A failed
 * tome"); nothing in the pod deletes it.
 *
 * <pre>
 * file "failed-tome-&lt;index&gt;", replaced atomically ({@link StateFiles#replace}), UTF-8 lines:
 *   shardvault failed tome v1
 *   pod=&lt;pod name&gt;
 *   tome=&lt;index&gt;                 (with pod=, the tome's stamp: see TomeStamp)
 *   directory=&lt;absolute path&gt;
 *   failedAt=&lt;ISO-8601 instant&gt;
 *   reason=&lt;one line&gt;
 * </pre>
 * Version 1: the first. The file's presence is what fails the tome; its lines are for the operator
 * and the logs. A file this version cannot parse still fails the tome (a damaged record must not
 * bring a bad disk back), with its raw first line as the reason.
 *
 * <p>Stateless. Durability: the record is durable when {@link #write} returns.
 */
final class FailedTomeMarker {
    static final String PREFIX = "failed-tome-";
    static final String FIRST_LINE = "shardvault failed tome v1";

    private FailedTomeMarker() {
    }

    /** The marker's file name for tome {@code index}. */
    static String name(int index) {
        return PREFIX + index;
    }

    static void write(Path stateDir, String podName, Tome tome, String reason, Instant failedAt) throws IOException {
        String text = FIRST_LINE + "\n"
                + "pod=" + podName + "\n"
                + "tome=" + tome.index() + "\n"
                + "directory=" + tome.directory() + "\n"
                + "failedAt=" + failedAt + "\n"
                + "reason=" + reason.replace('\n', ' ').replace('\r', ' ') + "\n";
        StateFiles.replace(stateDir, name(tome.index()), ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
    }

    /**
     * What the record of tome {@code index} says: why and when it failed.
     *
     * @param reason one line; for a record this version cannot parse, a reason naming its raw first line
     * @param failedAt when it failed, {@link Instant#EPOCH} when the record does not say
     */
    record Entry(String reason, Instant failedAt) {
    }

    /** The record of tome {@code index}, or empty when it is not recorded failed. */
    static Optional<Entry> read(Path stateDir, int index) throws IOException {
        Path path = stateDir.resolve(name(index));
        String text;
        try {
            text = new String(Files.readAllBytes(path), StandardCharsets.UTF_8); // lenient: damage must not stop a start
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        String reason = null;
        Instant failedAt = Instant.EPOCH;
        String[] lines = text.split("\n");
        if (lines[0].equals(FIRST_LINE)) {
            for (String line : lines) {
                if (line.startsWith("reason=")) {
                    reason = line.substring("reason=".length());
                } else if (line.startsWith("failedAt=")) {
                    failedAt = parseInstant(line.substring("failedAt=".length()));
                }
            }
        }
        if (reason == null) {
            reason = "unreadable failure record, first line '" + lines[0].strip() + "'";
        }
        return Optional.of(new Entry(reason, failedAt));
    }

    private static Instant parseInstant(String text) {
        try {
            return Instant.parse(text);
        } catch (DateTimeParseException e) {
            return Instant.EPOCH;
        }
    }
}
