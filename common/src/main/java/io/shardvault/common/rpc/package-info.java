/**
 * The internal protocol every shardvault service speaks: request/response RPC over TCP, many
 * requests in flight on one connection, correlated by request id.
 *
 * <h2>Frame layout (version 1, big-endian)</h2>
 * <pre>
 *  offset size  field
 *   0     4     frame length: the bytes that follow this field (16 + header + payload)
 *   4     2     magic 0x5356 ("SV")
 *   6     1     version, 1
 *   7     1     flags: bit 0 RESPONSE, bit 1 ERROR; other bits must be 0
 *   8     8     request id, chosen by the client, echoed by the server
 *  16     2     op code (unsigned); a response carries its request's op
 *  18     2     header length h (unsigned)
 *  20     h     header: small, op-specific fields (a ShardId, an offset, a CRC)
 *  20+h   rest  payload: the bulk bytes (a chunk), handed to handlers as a slice, never copied
 * </pre>
 * An error response has the ERROR flag; its header is a u16 {@link io.shardvault.common.ErrorCode}
 * wire value followed by a UTF-8 message, and its payload is empty. A frame over the configured
 * maximum, a bad magic, an unknown version or unknown flag bits close that connection with a
 * logged reason; the server keeps serving every other connection.
 *
 * <h2>Ownership of buffers</h2>
 * An {@link io.shardvault.common.rpc.RpcMessage} owns its header and payload. Whoever holds a
 * message releases it exactly once: the client releases a request once sent, the caller releases
 * the response it received, the server releases a request when the handler's future completes
 * and a response once written. A handler that needs bytes beyond its future retains them.
 */
package io.shardvault.common.rpc;
