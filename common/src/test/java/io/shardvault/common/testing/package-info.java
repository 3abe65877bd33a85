/**
 * Test fixtures shared by every module through common's test-jar: the Netty leak check that
 * fails any test whose buffers leak, a child JVM runner for kill -9 and real-program tests, an
 * admin endpoint scraper, and small helpers for loopback tests.
 */
package io.shardvault.common.testing;
