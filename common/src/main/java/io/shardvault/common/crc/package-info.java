/** CRC32C over heap arrays, NIO buffers and Netty buffers, on the JDK's intrinsic {@code java.util.zip.CRC32C}. */
package io.shardvault.common.crc;
