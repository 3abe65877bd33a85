/**
 * Test fixtures shared by every module through common's test-jar: the Netty leak check that
 * fails any test whose buffers leak, and small helpers for loopback tests.
 */
package io.shardvault.common.testing;
