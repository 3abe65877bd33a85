package io.shardvault.s3.internal.ops;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.shardvault.s3.AccessControl;
import io.shardvault.s3.CannedAcl;
import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.internal.xml.XmlElement;
import io.shardvault.s3.internal.xml.XmlWriter;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

/**
 * ACLs (issue #17): Get/PutBucketAcl, Get/PutObjectAcl, and the canned ACL a write's headers ask for.
 *
 * <p>Only canned ACLs are kept ({@link CannedAcl}). A request may name one with {@code x-amz-acl}, or
 * spell one out with {@code x-amz-grant-*} headers or an {@code AccessControlPolicy} body: the owner's
 * grants are implied (the owner always holds FULL_CONTROL), and the group grants left must be exactly
 * those of a canned ACL. A grant to another account, by id or e-mail address, or to an unknown group
 * is refused with a 400 naming the grantee, as S3 refuses grantees it cannot resolve.
 *
 * <p>Answers follow the S3 API reference: an {@code AccessControlPolicy} in the S3 namespace whose
 * {@code Grantee}s carry {@code xsi:type} (CanonicalUser with ID and DisplayName, or Group with URI).
 * Request bodies are read by local names; the grantee's kind is told by its child (ID, URI, EmailAddress).
 */
final class AclOperations {
    static final String ALL_USERS = "http://acs.amazonaws.com/groups/global/AllUsers";
    static final String AUTHENTICATED_USERS = "http://acs.amazonaws.com/groups/global/AuthenticatedUsers";
    static final String LOG_DELIVERY = "http://acs.amazonaws.com/groups/s3/LogDelivery";
    private static final String XSI = "http://www.w3.org/2001/XMLSchema-instance";
    private static final Set<String> PERMISSIONS = Set.of("FULL_CONTROL", "WRITE", "WRITE_ACP", "READ", "READ_ACP");
    /** The grant headers and the permission each gives. */
    private static final Map<String, String> GRANT_HEADERS = Map.of("x-amz-grant-full-control", "FULL_CONTROL",
            "x-amz-grant-read", "READ", "x-amz-grant-read-acp", "READ_ACP", "x-amz-grant-write", "WRITE",
            "x-amz-grant-write-acp", "WRITE_ACP");

    /** A grant to a group. */
    private record GroupGrant(String uri, String permission) {
        @Override
        public String toString() {
            return permission + " to " + uri;
        }
    }

    /**
     * The group grants each canned ACL shows besides the owner's FULL_CONTROL. Grants read from a request
     * are the first canned ACL (in declaration order) with exactly those, so the ACLs that add nothing here
     * read back as {@code private}.
     */
    private static final Map<CannedAcl, Set<GroupGrant>> GRANTS = new EnumMap<>(CannedAcl.class);

    static {
        for (CannedAcl a : CannedAcl.values()) {
            GRANTS.put(a, Set.of());
        }
        GRANTS.put(CannedAcl.PUBLIC_READ, Set.of(new GroupGrant(ALL_USERS, "READ")));
        GRANTS.put(CannedAcl.PUBLIC_READ_WRITE, Set.of(new GroupGrant(ALL_USERS, "READ"),
                new GroupGrant(ALL_USERS, "WRITE")));
        GRANTS.put(CannedAcl.AUTHENTICATED_READ, Set.of(new GroupGrant(AUTHENTICATED_USERS, "READ")));
        GRANTS.put(CannedAcl.LOG_DELIVERY_WRITE, Set.of(new GroupGrant(LOG_DELIVERY, "WRITE"),
                new GroupGrant(LOG_DELIVERY, "READ_ACP")));
    }

    private AclOperations() {
    }

    static CompletableFuture<Void> getBucketAcl(Op op) {
        return op.store().getBucketAcl(op.caller(), op.req().bucket()).thenAccept(a -> respondPolicy(op, a));
    }

    static CompletableFuture<Void> getObjectAcl(Op op) {
        S3Request r = op.req();
        return op.store().getObjectAcl(op.caller(), r.bucket(), r.key(), r.param("versionId"))
                .thenAccept(a -> respondPolicy(op, a));
    }

    static CompletableFuture<Void> putBucketAcl(Op op) {
        return requested(op).thenCompose(acl -> op.store().putBucketAcl(op.caller(), op.req().bucket(), acl))
                .thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    static CompletableFuture<Void> putObjectAcl(Op op) {
        S3Request r = op.req();
        return requested(op).thenCompose(acl -> op.store().putObjectAcl(op.caller(), r.bucket(), r.key(),
                r.param("versionId"), acl)).thenAccept(v -> op.respond(HttpResponseStatus.OK, null));
    }

    /**
     * The canned ACL a write (CreateBucket, PutObject, CopyObject, CreateMultipartUpload) asks for with
     * {@code x-amz-acl} or {@code x-amz-grant-*}; {@link CannedAcl#PRIVATE} when it names none.
     */
    static CannedAcl fromHeaders(S3Request r, String owner) {
        CannedAcl acl = headerAcl(r, owner);
        return acl == null ? CannedAcl.PRIVATE : acl;
    }

    /** A Put*Acl's ACL: from its headers or from its body, never both. */
    private static CompletableFuture<CannedAcl> requested(Op op) {
        String owner = op.caller().owner();
        CannedAcl fromHeaders = headerAcl(op.req(), owner);
        return op.readXml(false).thenApply(xml -> {
            if (xml != null) {
                if (fromHeaders != null) {
                    throw S3Error.badRequest("UnexpectedContent", "This request does not support content "
                            + "together with x-amz-acl or x-amz-grant-* headers.");
                }
                return fromPolicy(xml, owner);
            }
            if (fromHeaders == null) {
                throw S3Error.badRequest("MissingSecurityHeader", "Your request was missing a required header: "
                        + "x-amz-acl, x-amz-grant-* or an AccessControlPolicy body.")
                        .with("MissingHeaderName", "x-amz-acl");
            }
            return fromHeaders;
        });
    }

    /** The ACL the headers name, or null when they name none. */
    private static CannedAcl headerAcl(S3Request r, String owner) {
        String canned = r.header("x-amz-acl");
        List<String> grantHeaders = new ArrayList<>();
        for (String h : GRANT_HEADERS.keySet()) {
            if (r.header(h) != null) {
                grantHeaders.add(h);
            }
        }
        if (canned != null) {
            if (!grantHeaders.isEmpty()) {
                throw S3Error.badRequest("InvalidRequest", "Specifying both Canned ACLs and Header Grants is not "
                        + "allowed");
            }
            CannedAcl acl = CannedAcl.fromHeader(canned.trim());
            if (acl == null) {
                throw S3Error.invalidArgument("Unknown canned ACL", "x-amz-acl", canned);
            }
            return acl;
        }
        if (grantHeaders.isEmpty()) {
            return null;
        }
        grantHeaders.sort(null);
        Set<GroupGrant> groups = new LinkedHashSet<>();
        for (String h : grantHeaders) {
            String permission = GRANT_HEADERS.get(h);
            for (String grantee : r.header(h).split(",")) {
                int eq = grantee.indexOf('=');
                if (eq < 0) {
                    throw S3Error.invalidArgument("Invalid grantee in " + h, h, r.header(h));
                }
                String type = grantee.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String value = unquote(grantee.substring(eq + 1).trim());
                switch (type) {
                    case "id" -> addGrant(groups, owner, value, null, null, permission);
                    case "uri" -> addGrant(groups, owner, null, value, null, permission);
                    case "emailaddress" -> addGrant(groups, owner, null, null, value, permission);
                    default -> throw S3Error.invalidArgument("Invalid grantee type " + type + " in " + h, h,
                            r.header(h));
                }
            }
        }
        return canned(groups);
    }

    private static String unquote(String s) {
        return s.length() >= 2 && s.startsWith("\"") && s.endsWith("\"") ? s.substring(1, s.length() - 1) : s;
    }

    /** The ACL an {@code AccessControlPolicy} body spells out. */
    static CannedAcl fromPolicy(XmlElement xml, String owner) {
        if (!xml.name().equals("AccessControlPolicy")) {
            throw S3Error.malformedXml();
        }
        XmlElement ownerElement = xml.first("Owner");
        String ownerId = ownerElement == null ? null : ownerElement.childText("ID");
        if (ownerId != null && !ownerId.trim().equals(owner)) {
            throw S3Error.invalidArgument("Invalid id: the bucket's owner is the only owner here", "CanonicalUser/ID",
                    ownerId.trim());
        }
        XmlElement list = xml.first("AccessControlList");
        if (list == null) {
            throw malformedAcl();
        }
        Set<GroupGrant> groups = new LinkedHashSet<>();
        for (XmlElement grant : list.all("Grant")) {
            XmlElement grantee = grant.first("Grantee");
            String permission = grant.childText("Permission");
            if (grantee == null || permission == null || !PERMISSIONS.contains(permission.trim())) {
                throw malformedAcl();
            }
            String id = grantee.childText("ID");
            String uri = grantee.childText("URI");
            String email = grantee.childText("EmailAddress");
            if (id == null && uri == null && email == null) {
                throw malformedAcl();
            }
            addGrant(groups, owner, id == null ? null : id.trim(), uri == null ? null : uri.trim(),
                    email == null ? null : email.trim(), permission.trim());
        }
        return canned(groups);
    }

    /** Adds a group grant; the owner's grants are implied, and any other grantee is refused by name. */
    private static void addGrant(Set<GroupGrant> groups, String owner, String id, String uri, String email,
                                 String permission) {
        if (id != null) {
            if (!id.equals(owner)) {
                throw S3Error.invalidArgument("Invalid id: grants to other accounts are not supported (one owner "
                        + "per bucket); only canned ACLs are kept", "CanonicalUser/ID", id);
            }
            return;
        }
        if (email != null) {
            throw S3Error.badRequest("UnresolvableGrantByEmailAddress", "The e-mail address you provided does not "
                    + "match any account on record: grants to other accounts are not supported")
                    .with("EmailAddress", email);
        }
        if (!uri.equals(ALL_USERS) && !uri.equals(AUTHENTICATED_USERS) && !uri.equals(LOG_DELIVERY)) {
            throw S3Error.invalidArgument("Invalid group uri", "Group/URI", uri);
        }
        groups.add(new GroupGrant(uri, permission));
    }

    private static CannedAcl canned(Set<GroupGrant> groups) {
        for (Map.Entry<CannedAcl, Set<GroupGrant>> e : GRANTS.entrySet()) {
            if (e.getValue().equals(groups)) {
                return e.getKey();
            }
        }
        throw S3Error.invalidArgument("Only canned ACLs are kept: the grants " + groups + " are not those of "
                + "public-read, public-read-write, authenticated-read or log-delivery-write", "Grant",
                groups.toString());
    }

    private static S3Error malformedAcl() {
        return S3Error.badRequest("MalformedACLError", "The XML you provided was not well-formed or did not "
                + "validate against our published schema");
    }

    private static void respondPolicy(Op op, AccessControl a) {
        XmlWriter xml = XmlWriter.document("AccessControlPolicy");
        xml.start("Owner").element("ID", a.owner()).element("DisplayName", a.owner()).end();
        xml.start("AccessControlList");
        xml.start("Grant").startWithAttributes("Grantee", "xmlns:xsi", XSI, "xsi:type", "CanonicalUser")
                .element("ID", a.owner()).element("DisplayName", a.owner()).end()
                .element("Permission", "FULL_CONTROL").end();
        List<GroupGrant> grants = new ArrayList<>(GRANTS.get(a.acl()));
        grants.sort((x, y) -> x.uri.equals(y.uri) ? x.permission.compareTo(y.permission) : x.uri.compareTo(y.uri));
        for (GroupGrant g : grants) {
            xml.start("Grant").startWithAttributes("Grantee", "xmlns:xsi", XSI, "xsi:type", "Group")
                    .element("URI", g.uri).end().element("Permission", g.permission).end();
        }
        xml.end();
        op.respondXml(xml, null);
    }
}
