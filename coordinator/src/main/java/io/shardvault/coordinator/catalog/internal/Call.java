package io.shardvault.coordinator.catalog.internal;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * One catalog call as the client sends it: its op, the writer of its fields and the reader of its
 * successful reply. Each subject builds the calls of its commands next to the handlers that read the
 * same fields on the peers, so a command's wire format lives in one file; {@link RatisCatalog} only
 * sends them.
 *
 * @param <T> the reply's type
 */
record Call<T>(Op op, Consumer<Wire.Writer> fields, Function<Wire.Reader, T> reply) {
    Call {
        Objects.requireNonNull(op, "op");
        Objects.requireNonNull(fields, "fields");
        Objects.requireNonNull(reply, "reply");
    }

    /** A call whose reply carries nothing. */
    static Call<Void> of(Op op, Consumer<Wire.Writer> fields) {
        return new Call<>(op, fields, r -> null);
    }
}
