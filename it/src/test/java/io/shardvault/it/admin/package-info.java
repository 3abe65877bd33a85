/** The JMX console and the admin CLI against a real in-process cluster (issue #10). */
package io.shardvault.it.admin;
