/**
 * Security of a real cluster as an operator runs it (issue #21): what its logs and its processes'
 * command lines give away.
 */
package io.shardvault.it.security;
