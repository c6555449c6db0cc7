import { MAX_UPLOAD_BYTES, MEGABYTE } from "@booth/sdk/limits";

/** The largest file an upload takes: the edge's own limit (@booth/sdk/limits), never written again here. */
export { MAX_UPLOAD_BYTES };

/** The upload's status is looked at every second until the song is ready or has failed (spec 4 and 9). */
export const UPLOAD_POLL_MS = 1_000;
export const UPLOAD_PAGE = 20;
export const ACCEPTED_AUDIO = ".mp3,.flac,.wav,.ogg,.m4a,audio/*";

export interface UploadView {
  status: string;
  transcodingStatus: string;
}

/** Still moving on its own: the file is being checked, or a verified song is being transcoded. */
export const isSettling = (u: UploadView) =>
  u.status === "PENDING_UPLOAD" ||
  u.status === "VALID_FILE_TYPE" ||
  (u.status === "VERIFIED" &&
    (u.transcodingStatus === "WAITING_FOR_TRANSCODING" || u.transcodingStatus === "TRANSCODING_IN_PROGRESS"));

/** One word for where an upload is: the key of its label in the upload texts. */
export function phaseOf(u: UploadView): "ready" | "processing" | "checking" | "needsTags" | "failed" | "waiting" {
  if (u.status === "VERIFIED" && u.transcodingStatus === "TRANSCODING_SUCCEED") return "ready";
  if (u.status === "VERIFIED" && u.transcodingStatus === "TRANSCODING_ERROR") return "failed";
  if (u.status === "VERIFIED") return "processing";
  if (u.status === "MISSING_METADATA") return "needsTags";
  if (u.status === "VERIFICATION_ERROR" || u.status === "UNVERIFIED") return "failed";
  if (u.status === "PENDING_UPLOAD") return "waiting";
  return "checking";
}

/** How large a file an upload takes, as a person reads it in their language ("50 MB"). */
export function uploadLimit(lang: string) {
  const megabytes = MAX_UPLOAD_BYTES / MEGABYTE;
  try {
    return new Intl.NumberFormat(lang, { style: "unit", unit: "megabyte" }).format(megabytes);
  } catch {
    return `${megabytes} MB`;
  }
}
