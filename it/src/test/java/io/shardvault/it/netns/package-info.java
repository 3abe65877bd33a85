/**
 * The example cluster of docs/DEPLOYMENT.md on hosts that are Linux network namespaces, run from the release
 * tarball, under network faults and rolling restarts (issue #22 item 4). Needs root and {@code ip netns}.
 */
package io.shardvault.it.netns;
