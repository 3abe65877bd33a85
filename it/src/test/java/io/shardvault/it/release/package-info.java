/**
 * The release tarball ({@code dist/target/shardvault-VERSION.tar.gz}) unpacked outside the checkout and run as an
 * operator runs it: {@code bin/shardvault}, the JARs in {@code lib/}, the sample confs of {@code conf/} (issue #22).
 */
package io.shardvault.it.release;
