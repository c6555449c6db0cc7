import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import type { S3Options } from "../ports/storage-s3.ts";
import { freePort } from "./child-server.ts";

const CORS = `<CORSConfiguration>
  <CORSRule>
    <AllowedOrigin>*</AllowedOrigin>
    <AllowedMethod>GET</AllowedMethod>
    <AllowedHeader>*</AllowedHeader>
    <MaxAgeSeconds>3600</MaxAgeSeconds>
  </CORSRule>
</CORSConfiguration>`;

/**
 * A real S3-compatible server on a local port (s3rver: S3's REST API and XML errors, objects on disk), with one
 * bucket, its objects in a temporary folder. Its only account is S3RVER / S3RVER; it checks the access key id of a
 * SigV4 request but not the signature itself.
 */
export async function startS3(bucket = "booth-test") {
  const directory = await mkdtemp(join(tmpdir(), "booth-s3-"));
  const port = await freePort();
  const server = new S3rver({
    address: "127.0.0.1",
    port,
    silent: true,
    directory,
    // Pages on any origin may GET its objects, as docs/deploy.md has a bucket allow the web's (players fetch segments).
    configureBuckets: [{ name: bucket, configs: [CORS] }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const options: S3Options = {
    bucket,
    endpoint,
    region: "us-east-1",
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
  };
  return {
    endpoint,
    options,
    /** The same settings as an edge reads them from its environment. */
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
