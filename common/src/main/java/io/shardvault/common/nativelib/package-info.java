/** Loading the JNI shims that ship in common's jar. */
package io.shardvault.common.nativelib;
