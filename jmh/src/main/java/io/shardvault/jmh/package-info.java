/** The base every shardvault JMH benchmark extends: fixed forks, warmup and JVM flags. */
package io.shardvault.jmh;
