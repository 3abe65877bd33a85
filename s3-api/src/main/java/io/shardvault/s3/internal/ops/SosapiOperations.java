package io.shardvault.s3.internal.ops;

import io.shardvault.s3.internal.S3Error;
import io.shardvault.s3.internal.S3Request;
import io.shardvault.s3.sosapi.SosapiObjects;
import java.util.concurrent.CompletableFuture;

/**
 * The router's hook for SOSAPI's virtual objects ({@link io.shardvault.s3.sosapi}): GET and HEAD
 * answer the rendered document like any object (conditions, ranges, response overrides). DELETE
 * (DeleteObject, AbortMultipartUpload) goes to the store as for any key: the virtual object is not
 * stored, so S3's answer for a key that does not exist comes back, and whatever really is stored
 * under the key (written while SOSAPI was off) is deleted, so that the keys never keep a bucket
 * from being emptied. Every other method on those keys, and copies onto them, are
 * {@code AccessDenied}, for every caller.
 */
final class SosapiOperations {
    private SosapiOperations() {
    }

    /** The route for a request on a virtual key, or {@code null} when the request is not one. */
    static Router.Route route(S3Request r) {
        if (r.bucket() == null || r.key() == null || !SosapiObjects.isReserved(r.key())) {
            return null;
        }
        String method = r.method().name();
        if ((method.equals("GET") || method.equals("HEAD")) && !r.hasParam("uploadId")) {
            return Router.Route.read(method.equals("GET") ? "GetObject" : "HeadObject", SosapiOperations::read);
        }
        if (method.equals("DELETE")) {
            return Router.routeStored(r);
        }
        return Router.Route.write("SosapiWrite", op -> {
            if (!objects(op).enabled()) {
                // Without SOSAPI the keys are ordinary: route the request as if this hook did not exist.
                return Router.routeStored(op.req()).handler().handle(op);
            }
            throw S3Error.accessDenied("SOSAPI objects are maintained by the server and cannot be changed");
        });
    }

    private static CompletableFuture<Void> read(Op op) {
        SosapiObjects objects = objects(op);
        if (!objects.enabled()) {
            return Router.routeStored(op.req()).handler().handle(op);
        }
        S3Request r = op.req();
        String versionId = r.param("versionId");
        if (versionId != null && !versionId.equals("null")) {
            throw io.shardvault.s3.internal.ErrorMapper.fromCode(io.shardvault.common.ErrorCode.NO_SUCH_VERSION,
                    versionId);
        }
        return objects.read(op.caller(), r.bucket(), r.key())
                .thenAccept(object -> ObjectOperations.answerRead(op, object.info(), object, 0));
    }

    private static SosapiObjects objects(Op op) {
        return new SosapiObjects(op.config().sosapi(), op.store(), op.clock());
    }
}
