/**
 * The engines behind {@link io.shardvault.common.erasure.ErasureCodec}: the JNI binding to the
 * jerasure4j shim and its loader, the pure-Java table-driven codec, GF(2^8) arithmetic, the
 * Vandermonde-derived coding matrix and the cached decode plans. Other modules use
 * {@code io.shardvault.common.erasure} and never import this package.
 */
package io.shardvault.common.erasure.internal;
