// Command s3interop drives the S3 endpoint with the AWS SDK for Go v2 and its default settings (path-style
// addressing aside): put, list, get with Last-Modified parsed by the SDK, conditional GETs (304 and 412), a
// multipart upload read back exact, HeadObject, DeleteObjects and a bucket delete. It exits non-zero on the
// first mismatch and prints "go interop passed" at the end.
//
// Environment: ENDPOINT (http://host:port), BUCKET (default go-bucket), SEED (optional), and the SDK's own
// AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_CONFIG_FILE / AWS_REGION.
package main

import (
	"bytes"
	"context"
	"crypto/md5"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
	"github.com/aws/smithy-go"
	"github.com/aws/smithy-go/middleware"
	smithyhttp "github.com/aws/smithy-go/transport/http"
)

const mib = 1 << 20

var ctx = context.Background()

func main() {
	endpoint := os.Getenv("ENDPOINT")
	if endpoint == "" {
		fail("ENDPOINT is not set")
	}
	bucket := os.Getenv("BUCKET")
	if bucket == "" {
		bucket = "go-bucket"
	}
	seed := time.Now().UnixNano()
	if s := os.Getenv("SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseInt(s, 10, 64); err != nil {
			fail("SEED: %v", err)
		}
	}
	fmt.Println("go interop seed", seed)
	rnd := rand.New(rand.NewSource(seed))
	data := func(n int) []byte {
		b := make([]byte, n)
		rnd.Read(b)
		return b
	}

	cfg, err := config.LoadDefaultConfig(ctx)
	check(err, "load the SDK's default config")
	c := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.UsePathStyle = true
	})

	_, err = c.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: &bucket})
	check(err, "CreateBucket")

	// A single PUT; its ETag is the body's MD5.
	key := "dir/single.bin"
	body := data(300_000)
	put, err := c.PutObject(ctx, &s3.PutObjectInput{Bucket: &bucket, Key: &key, Body: bytes.NewReader(body)})
	check(err, "PutObject")
	expect(aws.ToString(put.ETag) == quotedMD5(body), "PutObject ETag %s, want %s", aws.ToString(put.ETag), quotedMD5(body))

	list, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &bucket, Prefix: aws.String("dir/")})
	check(err, "ListObjectsV2")
	expect(len(list.Contents) == 1 && aws.ToString(list.Contents[0].Key) == key, "listing %v", keys(list.Contents))
	expect(aws.ToInt64(list.Contents[0].Size) == int64(len(body)), "listed size %d", aws.ToInt64(list.Contents[0].Size))
	expect(aws.ToString(list.Contents[0].ETag) == quotedMD5(body), "listed ETag %s", aws.ToString(list.Contents[0].ETag))

	// GET: the bytes, and Last-Modified as the SDK parses it agreeing with the listing's ISO 8601 date to the
	// second and with this machine's clock. The SDK also reads a one-digit day ("Wed, 3 Dec"): the raw headers
	// must be IMF-fixdates, what net/http and RFC 9110 senders use.
	got, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &key})
	check(err, "GetObject")
	expect(bytes.Equal(readAll(got.Body), body), "GetObject bytes differ")
	expect(got.LastModified != nil, "GetObject without Last-Modified")
	modified := *got.LastModified
	expect(imfFixdate(got.ResultMetadata, "Last-Modified").Equal(modified), "Last-Modified differs from the SDK's %v", modified)
	imfFixdate(got.ResultMetadata, "Date")
	expect(modified.Equal(list.Contents[0].LastModified.Truncate(time.Second)),
		"Last-Modified %v, listed %v", modified, *list.Contents[0].LastModified)
	expect(time.Since(modified).Abs() < 10*time.Minute, "Last-Modified %v is far from now %v", modified, time.Now())
	etag := aws.ToString(got.ETag)

	// Conditional GETs: 304 for If-Modified-Since / If-None-Match, 412 for If-Unmodified-Since / If-Match.
	expectStatus(http.StatusNotModified, "If-Modified-Since", getIf(c, bucket, key, func(in *s3.GetObjectInput) {
		in.IfModifiedSince = aws.Time(modified)
	}))
	expectStatus(http.StatusNotModified, "If-None-Match", getIf(c, bucket, key, func(in *s3.GetObjectInput) {
		in.IfNoneMatch = aws.String(etag)
	}))
	expectStatus(http.StatusPreconditionFailed, "If-Unmodified-Since", getIf(c, bucket, key, func(in *s3.GetObjectInput) {
		in.IfUnmodifiedSince = aws.Time(modified.Add(-time.Hour))
	}))
	expectStatus(http.StatusPreconditionFailed, "If-Match", getIf(c, bucket, key, func(in *s3.GetObjectInput) {
		in.IfMatch = aws.String(`"0123456789abcdef0123456789abcdef"`)
	}))
	expectStatus(http.StatusOK, "If-Match and If-Modified-Since in the past", getIf(c, bucket, key, func(in *s3.GetObjectInput) {
		in.IfMatch = aws.String(etag)
		in.IfModifiedSince = aws.Time(modified.Add(-time.Hour))
	}))

	// Multipart through the raw API: two 5 MiB parts and a short last one, read back exact.
	mpKey := "multipart.bin"
	parts := [][]byte{data(5 * mib), data(5 * mib), data(mib + 7)}
	up, err := c.CreateMultipartUpload(ctx, &s3.CreateMultipartUploadInput{Bucket: &bucket, Key: &mpKey})
	check(err, "CreateMultipartUpload")
	var completed []types.CompletedPart
	var whole []byte
	for i, p := range parts {
		n := aws.Int32(int32(i + 1))
		part, err := c.UploadPart(ctx, &s3.UploadPartInput{Bucket: &bucket, Key: &mpKey, UploadId: up.UploadId,
			PartNumber: n, Body: bytes.NewReader(p)})
		check(err, "UploadPart %d", i+1)
		expect(aws.ToString(part.ETag) == quotedMD5(p), "part %d ETag %s", i+1, aws.ToString(part.ETag))
		completed = append(completed, types.CompletedPart{PartNumber: n, ETag: part.ETag,
			ChecksumCRC32: part.ChecksumCRC32, ChecksumCRC32C: part.ChecksumCRC32C, ChecksumCRC64NVME: part.ChecksumCRC64NVME,
			ChecksumSHA1: part.ChecksumSHA1, ChecksumSHA256: part.ChecksumSHA256})
		whole = append(whole, p...)
	}
	done, err := c.CompleteMultipartUpload(ctx, &s3.CompleteMultipartUploadInput{Bucket: &bucket, Key: &mpKey,
		UploadId: up.UploadId, MultipartUpload: &types.CompletedMultipartUpload{Parts: completed}})
	check(err, "CompleteMultipartUpload")
	expect(strings.HasSuffix(aws.ToString(done.ETag), `-3"`), "multipart ETag %s", aws.ToString(done.ETag))
	back, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &mpKey})
	check(err, "GetObject multipart")
	expect(bytes.Equal(readAll(back.Body), whole), "multipart bytes differ")
	across, err := c.GetObject(ctx, &s3.GetObjectInput{Bucket: &bucket, Key: &mpKey,
		Range: aws.String(fmt.Sprintf("bytes=%d-%d", 5*mib-10, 5*mib+9))})
	check(err, "GetObject range across parts")
	expect(bytes.Equal(readAll(across.Body), whole[5*mib-10:5*mib+10]), "range across parts differs")

	head, err := c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: &mpKey})
	check(err, "HeadObject")
	expect(aws.ToInt64(head.ContentLength) == int64(len(whole)), "HeadObject length %d", aws.ToInt64(head.ContentLength))
	expect(aws.ToString(head.ETag) == aws.ToString(done.ETag), "HeadObject ETag %s, completed %s",
		aws.ToString(head.ETag), aws.ToString(done.ETag))
	expect(head.LastModified != nil && time.Since(*head.LastModified).Abs() < 10*time.Minute,
		"HeadObject Last-Modified %v", head.LastModified)
	expect(imfFixdate(head.ResultMetadata, "Last-Modified").Equal(*head.LastModified), "HeadObject Last-Modified")
	_, err = c.HeadObject(ctx, &s3.HeadObjectInput{Bucket: &bucket, Key: aws.String("missing")})
	var notFound *types.NotFound
	expect(errors.As(err, &notFound), "HeadObject of a missing key: %v", err)

	// DeleteObjects, a missing key included (deleted all the same, as S3 reports it), then the bucket.
	del, err := c.DeleteObjects(ctx, &s3.DeleteObjectsInput{Bucket: &bucket, Delete: &types.Delete{Objects: []types.ObjectIdentifier{
		{Key: &key}, {Key: &mpKey}, {Key: aws.String("never-there")}}}})
	check(err, "DeleteObjects")
	expect(len(del.Deleted) == 3 && len(del.Errors) == 0, "DeleteObjects deleted %d, errors %d", len(del.Deleted), len(del.Errors))
	left, err := c.ListObjectsV2(ctx, &s3.ListObjectsV2Input{Bucket: &bucket})
	check(err, "ListObjectsV2 after delete")
	expect(len(left.Contents) == 0, "left after DeleteObjects: %v", keys(left.Contents))
	_, err = c.DeleteBucket(ctx, &s3.DeleteBucketInput{Bucket: &bucket})
	check(err, "DeleteBucket")
	_, err = c.HeadBucket(ctx, &s3.HeadBucketInput{Bucket: &bucket})
	expect(errors.As(err, &notFound), "HeadBucket after DeleteBucket: %v", err)
	fmt.Println("go interop passed")
}

// getIf sends a GET of key changed by set and returns its error (nil for a 200 whose body was read).
func getIf(c *s3.Client, bucket, key string, set func(*s3.GetObjectInput)) error {
	in := &s3.GetObjectInput{Bucket: &bucket, Key: &key}
	set(in)
	out, err := c.GetObject(ctx, in)
	if err == nil {
		readAll(out.Body)
	}
	return err
}

func expectStatus(want int, what string, err error) {
	if want == http.StatusOK {
		check(err, "GetObject %s", what)
		return
	}
	var re *smithyhttp.ResponseError
	if !errors.As(err, &re) {
		fail("GetObject %s: want HTTP %d, got %v", what, want, err)
	}
	expect(re.HTTPStatusCode() == want, "GetObject %s: HTTP %d, want %d (%v)", what, re.HTTPStatusCode(), want, err)
	var api smithy.APIError
	if want == http.StatusPreconditionFailed {
		expect(errors.As(err, &api) && api.ErrorCode() == "PreconditionFailed", "GetObject %s: %v", what, err)
	}
}

// imfFixdate returns the named header of the raw response behind meta, failing unless it is an IMF-fixdate
// ("Sun, 06 Nov 1994 08:49:37 GMT", two-digit day), the one form RFC 9110 lets a sender generate.
func imfFixdate(meta middleware.Metadata, name string) time.Time {
	raw, ok := awsmiddleware.GetRawResponse(meta).(*smithyhttp.Response)
	expect(ok, "no raw response for %s", name)
	value := raw.Header.Get(name)
	t, err := time.Parse(http.TimeFormat, value)
	check(err, "%s %q is not an IMF-fixdate", name, value)
	expect(t.Format(http.TimeFormat) == value, "%s %q is not an IMF-fixdate", name, value)
	return t
}

func readAll(r io.ReadCloser) []byte {
	defer r.Close()
	b, err := io.ReadAll(r)
	check(err, "read a body")
	return b
}

func quotedMD5(b []byte) string {
	sum := md5.Sum(b)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func keys(objects []types.Object) []string {
	var out []string
	for _, o := range objects {
		out = append(out, aws.ToString(o.Key))
	}
	return out
}

func check(err error, format string, args ...any) {
	if err != nil {
		fail("%s: %v", fmt.Sprintf(format, args...), err)
	}
}

func expect(ok bool, format string, args ...any) {
	if !ok {
		fail(format, args...)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "go interop FAILED: "+format+"\n", args...)
	os.Exit(1)
}
