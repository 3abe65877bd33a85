/**
 * The admin HTTP port of every service, off the data path: {@code GET /metrics} (Prometheus text
 * format), {@code GET /health/live} and {@code GET /health/ready}. It runs on the JDK's
 * {@code com.sun.net.httpserver} with a small executor of its own, so a slow scraper never takes a
 * thread from the RPC servers.
 */
package io.shardvault.common.admin;
