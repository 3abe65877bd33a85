/** The internal protocol across real processes: a server in a child JVM, killed and restarted. */
package io.shardvault.it.rpc;
