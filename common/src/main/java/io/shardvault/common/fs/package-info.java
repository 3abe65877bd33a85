/** File-system operations the JDK lacks, through a JNI shim. */
package io.shardvault.common.fs;
