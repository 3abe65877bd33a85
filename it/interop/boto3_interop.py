"""boto3 against the S3 endpoint: every operation of issue #8 with boto3's default checksum behaviour."""
import datetime
import hashlib
import io
import os
import random
import urllib.error
import urllib.request

import boto3
from boto3.s3.transfer import TransferConfig
from botocore.config import Config
from botocore.exceptions import ClientError

SEED = int(os.environ.get("SEED", random.randrange(1 << 30)))
print("boto3 interop seed", SEED)
rnd = random.Random(SEED)
s3 = boto3.client("s3", endpoint_url=os.environ["ENDPOINT"], config=Config(s3={"addressing_style": "path"}))


def data(n):
    return rnd.randbytes(n)


def error_code(fn, *args, **kwargs):
    try:
        fn(*args, **kwargs)
    except ClientError as e:
        return e.response["Error"]["Code"]
    raise AssertionError("expected an error from %s" % fn.__name__)


s3.create_bucket(Bucket="boto")
# In us-east-1 S3 answers its owner creating the bucket again with 200 (BucketAlreadyOwnedByYou elsewhere).
assert s3.create_bucket(Bucket="boto")["ResponseMetadata"]["HTTPStatusCode"] == 200
assert "boto" in [b["Name"] for b in s3.list_buckets()["Buckets"]]
s3.head_bucket(Bucket="boto")

body = data(200_000)
put = s3.put_object(Bucket="boto", Key="a/b c.bin", Body=body, ContentType="application/x-boto",
                    Metadata={"k": "v"}, CacheControl="no-store")
assert put["ETag"] == '"%s"' % hashlib.md5(body).hexdigest()
got = s3.get_object(Bucket="boto", Key="a/b c.bin", ChecksumMode="ENABLED")
assert got["Body"].read() == body
assert got["ContentType"] == "application/x-boto" and got["Metadata"] == {"k": "v"}
assert got["CacheControl"] == "no-store"
for alg in ["CRC32", "CRC32C", "SHA1", "SHA256", "CRC64NVME"]:
    p = s3.put_object(Bucket="boto", Key="alg-" + alg, Body=body, ChecksumAlgorithm=alg)
    head = s3.head_object(Bucket="boto", Key="alg-" + alg, ChecksumMode="ENABLED")
    assert head["Checksum" + alg] == p["Checksum" + alg], (alg, head, p)
    # botocore validates the returned checksum of a full GET against the bytes.
    assert s3.get_object(Bucket="boto", Key="alg-" + alg, ChecksumMode="ENABLED")["Body"].read() == body
rng = s3.get_object(Bucket="boto", Key="a/b c.bin", Range="bytes=10-19")
assert rng["Body"].read() == body[10:20] and rng["ContentRange"] == "bytes 10-19/200000"
assert error_code(s3.get_object, Bucket="boto", Key="a/b c.bin", IfMatch='"nope"') == "PreconditionFailed"
assert error_code(s3.get_object, Bucket="boto", Key="missing") == "NoSuchKey"
assert error_code(s3.put_object, Bucket="boto", Key="a/b c.bin", Body=b"x", IfNoneMatch="*") == "PreconditionFailed"

for i in range(30):
    s3.put_object(Bucket="boto", Key="list/%02d" % i, Body=b"x")
keys = []
for page in s3.get_paginator("list_objects_v2").paginate(Bucket="boto", Prefix="list/", PaginationConfig={"PageSize": 7}):
    keys += [o["Key"] for o in page.get("Contents", [])]
assert keys == ["list/%02d" % i for i in range(30)], keys
v1 = []
for page in s3.get_paginator("list_objects").paginate(Bucket="boto", Prefix="list/", PaginationConfig={"PageSize": 8}):
    v1 += [o["Key"] for o in page.get("Contents", [])]
assert v1 == keys
top = s3.list_objects_v2(Bucket="boto", Delimiter="/", EncodingType="url")
assert [p["Prefix"] for p in top["CommonPrefixes"]] == ["a/", "list/"], top

deleted = s3.delete_objects(Bucket="boto", Delete={"Objects": [{"Key": k} for k in keys]})
assert len(deleted["Deleted"]) == 30
s3.copy_object(Bucket="boto", Key="copy", CopySource={"Bucket": "boto", "Key": "a/b c.bin"},
               MetadataDirective="REPLACE", ContentType="text/copy")
assert s3.head_object(Bucket="boto", Key="copy")["ContentType"] == "text/copy"

big = data(13 << 20)
cfg = TransferConfig(multipart_threshold=5 << 20, multipart_chunksize=5 << 20, max_concurrency=4)
s3.upload_fileobj(io.BytesIO(big), "boto", "multipart.bin", Config=cfg)
head = s3.head_object(Bucket="boto", Key="multipart.bin")
assert head["ContentLength"] == len(big) and head["ETag"].endswith('-3"'), head
out = io.BytesIO()
s3.download_fileobj("boto", "multipart.bin", out, Config=cfg)
assert out.getvalue() == big

up = s3.create_multipart_upload(Bucket="boto", Key="manual", ChecksumAlgorithm="SHA256")
part = s3.upload_part(Bucket="boto", Key="manual", UploadId=up["UploadId"], PartNumber=1, Body=b"tail",
                      ChecksumAlgorithm="SHA256")
assert s3.list_parts(Bucket="boto", Key="manual", UploadId=up["UploadId"])["Parts"][0]["ETag"] == part["ETag"]
assert any(u["UploadId"] == up["UploadId"] for u in s3.list_multipart_uploads(Bucket="boto")["Uploads"])
done = s3.complete_multipart_upload(Bucket="boto", Key="manual", UploadId=up["UploadId"], MultipartUpload={
    "Parts": [{"PartNumber": 1, "ETag": part["ETag"], "ChecksumSHA256": part["ChecksumSHA256"]}]})
assert done["ETag"].endswith('-1"')
up2 = s3.create_multipart_upload(Bucket="boto", Key="aborted")
s3.abort_multipart_upload(Bucket="boto", Key="aborted", UploadId=up2["UploadId"])
assert error_code(s3.list_parts, Bucket="boto", Key="aborted", UploadId=up2["UploadId"]) == "NoSuchUpload"

# The rest of issue #8's operations that boto3 exposes.
assert s3.get_bucket_location(Bucket="boto").get("LocationConstraint") in (None, "", "us-east-1")
over = s3.get_object(Bucket="boto", Key="a/b c.bin", ResponseContentType="text/over", ResponseCacheControl="max-age=1",
                     ResponseContentDisposition="attachment", ResponseContentEncoding="identity",
                     ResponseContentLanguage="en", ResponseExpires=datetime.datetime(2030, 1, 1))
assert over["ContentType"] == "text/over" and over["CacheControl"] == "max-age=1", over
assert over["ContentDisposition"] == "attachment" and over["ContentLanguage"] == "en", over
over["Body"].read()
etag = put["ETag"]
assert error_code(s3.get_object, Bucket="boto", Key="a/b c.bin", IfNoneMatch=etag) == "304"
past = datetime.datetime(2000, 1, 1, tzinfo=datetime.timezone.utc)
future = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(days=1)
assert error_code(s3.head_object, Bucket="boto", Key="a/b c.bin", IfModifiedSince=future) == "304"
assert error_code(s3.get_object, Bucket="boto", Key="a/b c.bin", IfUnmodifiedSince=past) == "PreconditionFailed"
assert s3.get_object(Bucket="boto", Key="a/b c.bin", IfMatch=etag, IfModifiedSince=past)["Body"].read() == body
cond = s3.put_object(Bucket="boto", Key="cond", Body=b"one", IfNoneMatch="*")
assert error_code(s3.put_object, Bucket="boto", Key="cond", Body=b"two", IfMatch='"0123456789abcdef0123456789abcdef"') \
    == "PreconditionFailed"
s3.put_object(Bucket="boto", Key="cond", Body=b"two", IfMatch=cond["ETag"])
assert s3.get_object(Bucket="boto", Key="cond")["Body"].read() == b"two"
s3.copy_object(Bucket="boto", Key="copy-kept", CopySource={"Bucket": "boto", "Key": "a/b c.bin"})
kept = s3.head_object(Bucket="boto", Key="copy-kept")
assert kept["Metadata"] == {"k": "v"} and kept["ContentType"] == "application/x-boto", kept
for i in range(5):
    s3.put_object(Bucket="boto", Key="more/%d" % i, Body=b"y")
after = s3.list_objects_v2(Bucket="boto", Prefix="more/", StartAfter="more/2", FetchOwner=True)
assert [o["Key"] for o in after["Contents"]] == ["more/3", "more/4"] and "Owner" in after["Contents"][0], after
zero = s3.list_objects_v2(Bucket="boto", Prefix="more/", MaxKeys=0)
assert zero["KeyCount"] == 0 and not zero["IsTruncated"] and "NextContinuationToken" not in zero, zero
v1 = s3.list_objects(Bucket="boto", Prefix="more/", Marker="more/3")
assert [o["Key"] for o in v1["Contents"]] == ["more/4"], v1
quiet = s3.delete_objects(Bucket="boto", Delete={"Objects": [{"Key": "more/%d" % i} for i in range(5)], "Quiet": True})
assert not quiet.get("Deleted") and not quiet.get("Errors"), quiet
s3.delete_object(Bucket="boto", Key="cond")
assert error_code(s3.head_object, Bucket="boto", Key="cond") == "404"
s3.delete_object(Bucket="boto", Key="never-there")

# Multipart: UploadPartCopy, a conditional completion, a part read back by number.
up3 = s3.create_multipart_upload(Bucket="boto", Key="copied-parts")
pc1 = s3.upload_part_copy(Bucket="boto", Key="copied-parts", UploadId=up3["UploadId"], PartNumber=1,
                          CopySource={"Bucket": "boto", "Key": "multipart.bin"}, CopySourceRange="bytes=0-%d" % ((5 << 20) - 1))
pc2 = s3.upload_part_copy(Bucket="boto", Key="copied-parts", UploadId=up3["UploadId"], PartNumber=2,
                          CopySource={"Bucket": "boto", "Key": "a/b c.bin"})
done3 = s3.complete_multipart_upload(Bucket="boto", Key="copied-parts", UploadId=up3["UploadId"], IfNoneMatch="*",
                                     MultipartUpload={"Parts": [
                                         {"PartNumber": 1, "ETag": pc1["CopyPartResult"]["ETag"]},
                                         {"PartNumber": 2, "ETag": pc2["CopyPartResult"]["ETag"]}]})
assert done3["ETag"].endswith('-2"'), done3
whole = s3.get_object(Bucket="boto", Key="copied-parts")["Body"].read()
assert whole == big[:5 << 20] + body
p2 = s3.get_object(Bucket="boto", Key="copied-parts", PartNumber=2)
assert p2["PartsCount"] == 2 and p2["ContentLength"] == len(body) and p2["Body"].read() == body, p2
h1 = s3.head_object(Bucket="boto", Key="copied-parts", PartNumber=1)
assert h1["PartsCount"] == 2 and h1["ContentLength"] == 5 << 20, h1
assert s3.head_object(Bucket="boto", Key="a/b c.bin", PartNumber=1)["ContentLength"] == len(body)
up4 = s3.create_multipart_upload(Bucket="boto", Key="copied-parts")
part4 = s3.upload_part(Bucket="boto", Key="copied-parts", UploadId=up4["UploadId"], PartNumber=1, Body=b"z")
assert error_code(s3.complete_multipart_upload, Bucket="boto", Key="copied-parts", UploadId=up4["UploadId"],
                  IfNoneMatch="*", MultipartUpload={"Parts": [{"PartNumber": 1, "ETag": part4["ETag"]}]}) \
    == "PreconditionFailed"
s3.abort_multipart_upload(Bucket="boto", Key="copied-parts", UploadId=up4["UploadId"])

# boto3 presigns with SigV2 unless told otherwise: botocore's HmacV1 signer, for URLs and (signature_version="s3")
# for headers, against the endpoint's SigV2 verifier.
v2url = s3.generate_presigned_url("get_object", Params={"Bucket": "boto", "Key": "a/b c.bin"}, ExpiresIn=60)
assert "AWSAccessKeyId=" in v2url, v2url
assert urllib.request.urlopen(v2url).read() == body
v2put = s3.generate_presigned_url("put_object", Params={"Bucket": "boto", "Key": "v2 put", "ContentType": "text/x"},
                                  ExpiresIn=60)
urllib.request.urlopen(urllib.request.Request(v2put, data=b"v2", method="PUT", headers={"Content-Type": "text/x"}))
v2 = boto3.client("s3", endpoint_url=os.environ["ENDPOINT"],
                  config=Config(signature_version="s3", s3={"addressing_style": "path"}))
v2.put_object(Bucket="boto", Key="v2 header", Body=b"hdr", Metadata={"k": "v"}, ContentType="text/y")
got = v2.get_object(Bucket="boto", Key="v2 put", ResponseContentType="text/z")
assert got["Body"].read() == b"v2" and got["ContentType"] == "text/z", got
assert v2.head_object(Bucket="boto", Key="v2 header")["Metadata"] == {"k": "v"}
assert "v2 header" in [o["Key"] for o in v2.list_objects_v2(Bucket="boto", Prefix="v2 ")["Contents"]]
v2.delete_object(Bucket="boto", Key="v2 header")
v2.delete_object(Bucket="boto", Key="v2 put")
v4 = boto3.client("s3", endpoint_url=os.environ["ENDPOINT"],
                  config=Config(signature_version="s3v4", s3={"addressing_style": "path"}))
url = v4.generate_presigned_url("get_object", Params={"Bucket": "boto", "Key": "a/b c.bin"}, ExpiresIn=60)
assert urllib.request.urlopen(url).read() == body

anon = boto3.client("s3", endpoint_url=os.environ["ENDPOINT"], aws_access_key_id="AKIDINTEROP0001",
                    aws_secret_access_key="wrong", config=Config(s3={"addressing_style": "path"}))
assert error_code(anon.list_buckets) == "SignatureDoesNotMatch"

s3.create_bucket(Bucket="boto-gone")
s3.put_object(Bucket="boto-gone", Key="k", Body=b"k")
assert error_code(s3.delete_bucket, Bucket="boto-gone") == "BucketNotEmpty"
s3.delete_object(Bucket="boto-gone", Key="k")
s3.delete_bucket(Bucket="boto-gone")
assert error_code(s3.head_bucket, Bucket="boto-gone") == "404"
assert "boto-gone" not in [b["Name"] for b in s3.list_buckets()["Buckets"]]
print("boto3 interop passed")
