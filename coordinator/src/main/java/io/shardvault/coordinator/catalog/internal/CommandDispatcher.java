package io.shardvault.coordinator.catalog.internal;

import io.shardvault.common.ErrorCode;
import io.shardvault.coordinator.catalog.CatalogException;

/**
 * Runs one command or query through the handler its {@link Op} names and encodes the outcome.
 *
 * <pre>
 *  result := u8 0 | payload            (success; payload per op)
 *          | u8 1 | u16 code | str msg (a typed answer: an ErrorCode wire value)
 * </pre>
 */
final class CommandDispatcher {
    private CommandDispatcher() {
    }

    static byte[] error(ErrorCode code, String message) {
        return new Wire.Writer().u8(1).u16(code.wire()).str(message).toByteArray();
    }

    /** Applies one write; a typed answer is returned encoded, with the transaction's writes discarded. */
    static byte[] applyWrite(Op op, Wire.Reader in, Entry e) {
        Wire.Writer out = new Wire.Writer().u8(0);
        try {
            op.apply(e, in, out);
            in.expectEnd();
            return out.toByteArray();
        } catch (CatalogException ex) {
            e.txn().discard();
            return error(ex.code(), ex.getMessage());
        } catch (IllegalArgumentException ex) {
            // A malformed command or a record that fails validation: the same on every peer.
            e.txn().discard();
            return error(ErrorCode.INVALID_ARGUMENT, String.valueOf(ex.getMessage()));
        }
    }

    /** Runs one read against a consistent view. */
    static byte[] read(Op op, Wire.Reader in, RocksCatalogStore.View r) {
        Wire.Writer out = new Wire.Writer().u8(0);
        try {
            op.answer(r, in, out);
            in.expectEnd();
            return out.toByteArray();
        } catch (CatalogException ex) {
            return error(ex.code(), ex.getMessage());
        } catch (IllegalArgumentException ex) {
            return error(ErrorCode.INVALID_ARGUMENT, String.valueOf(ex.getMessage()));
        }
    }

    /** STATE_CHECKSUM (diagnostics): nothing → {@code i64 applied index | i64 checksum over every table}. */
    static void answerStateChecksum(RocksCatalogStore.View r, Wire.Reader in, Wire.Writer out) {
        byte[] la = r.get(Table.COUNTERS, Keys.utf8("lastApplied"));
        long index = la == null ? -1 : new Wire.Reader(la, 8, 8).i64();
        out.i64(index).i64(RocksCatalogStore.checksum(r));
    }
}
