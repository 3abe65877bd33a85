/**
 * The machinery of the internal protocol: frame codec, connection handlers, request dispatch and
 * call correlation. Other modules use {@code io.shardvault.common.rpc} and never import this package.
 */
package io.shardvault.common.rpc.internal;
