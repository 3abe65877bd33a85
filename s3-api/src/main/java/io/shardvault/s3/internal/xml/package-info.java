/**
 * S3 XML: a small writer for answers and a hardened StAX reader for request bodies (no DTDs, no
 * external entities, size and depth limits).
 */
package io.shardvault.s3.internal.xml;
