/** What a process asks of the operating system beyond Java's API: a thread's own scheduling priorities. */
package io.shardvault.common.os;
