import { setting } from "./settings.ts";

/**
 * Where the object storage is and where browsers fetch songs' encrypted HLS segments from: settings both the edge
 * (which writes the playlists) and the web app (whose page policy lets the player fetch them) read, by the same names.
 */
export const mediaSettings = {
  S3_BUCKET: setting
    .text()
    .optional()
    .describe("The object storage bucket of uploads and HLS (S3, R2, MinIO); unset, the folder DATA_DIR/storage."),
  S3_ENDPOINT: setting.url().optional().describe("The object storage's address, off AWS."),
  S3_REGION: setting.text().optional().describe("The object storage's region."),
  S3_FORCE_PATH_STYLE: setting
    .flag()
    .default(false)
    .describe("Whether the bucket is addressed in the path rather than the host name (MinIO, Garage)."),
  MEDIA_BASE_URL: setting
    .url()
    .optional()
    .describe(
      "A public address in front of the bucket's encrypted HLS segments (a CDN, a public bucket): playlists name MEDIA_BASE_URL/hls/SONG/SEGMENT rather than presigned bucket addresses; needs S3_BUCKET.",
    ),
};

export interface BucketAddress {
  bucket: string;
  /** Unset for AWS (its address comes from the region). */
  endpoint?: string | undefined;
  region?: string | undefined;
  /** `endpoint/bucket/key` rather than `bucket.endpoint/key`. */
  forcePathStyle?: boolean | undefined;
}

/** The address of a bucket's objects, without a trailing slash: `<this>/<key>` is an object. */
export function bucketUrl({ bucket, endpoint, region, forcePathStyle }: BucketAddress) {
  const at = new URL(endpoint || `https://s3.${region || "us-east-1"}.amazonaws.com`);
  const path = at.pathname.replace(/\/$/, "");
  return forcePathStyle
    ? `${at.origin}${path}/${encodeURIComponent(bucket)}`
    : `${at.protocol}//${bucket}.${at.host}${path}`;
}

type MediaSettings = {
  S3_BUCKET?: string | undefined;
  S3_ENDPOINT?: string | undefined;
  S3_REGION?: string | undefined;
  S3_FORCE_PATH_STYLE?: boolean | undefined;
  MEDIA_BASE_URL?: string | undefined;
};

/**
 * The origin browsers fetch segments from when it is not the edge: MEDIA_BASE_URL's, else the bucket's when there is
 * one; null with neither (the embedded storage, whose segments the edge serves).
 */
export function mediaOrigin(settings: MediaSettings): string | null {
  if (settings.MEDIA_BASE_URL) return new URL(settings.MEDIA_BASE_URL).origin;
  if (!settings.S3_BUCKET) return null;
  return new URL(
    bucketUrl({
      bucket: settings.S3_BUCKET,
      endpoint: settings.S3_ENDPOINT,
      region: settings.S3_REGION,
      forcePathStyle: settings.S3_FORCE_PATH_STYLE,
    }),
  ).origin;
}
