/**
 * The sizes Booth's routes take, shared by the edge (which refuses more with a 413) and the web app (whose screens
 * refuse a file over them before sending it, and say so in the person's language). One place, so the two never
 * disagree.
 */

/** A megabyte as Booth's limits count it (and its messages write "MB"): 1024 × 1024 bytes. */
export const MEGABYTE = 1024 * 1024;

/** The largest audio file an upload takes (`PUT /upload/song/{id}/file`, and the web's `POST /upload-file`): 50 MB. */
export const MAX_UPLOAD_BYTES = 50 * MEGABYTE;
