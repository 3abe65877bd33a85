/**
 * Lifecycle rules (issue #24): the catalog leader's expirer applies each bucket's rules (expiration of current
 * and noncurrent versions, expired delete markers, incomplete multipart uploads) through the catalog's own
 * delete commands. docs/OPERATIONS.md, "Lifecycle rules", has what is supported and how to watch it.
 */
package io.shardvault.coordinator.lifecycle;
