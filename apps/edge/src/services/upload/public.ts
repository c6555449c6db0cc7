/** The upload service's front door: what the app, bootstrap, the worker and the seed may call (decision 0021). */

/** How far the demo catalogue's seeding has gone (the seed writes it; `GET /demo/progress` reads it). */
export { clearDemoProgress, writeDemoProgress } from "./demo-progress.ts";
/** The job that makes a generated song (the worker runs it). */
export { produce } from "./gen-songs.ts";
/** The upload pipeline's steps: store the original, verify, publish to the catalogue, transcode; settle (a job). */
export { originalKey, publish, settle, transcode, verify } from "./pipeline.ts";
/** The largest audio file an upload takes (the app's body limit for its route). */
export { MAX_UPLOAD_BYTES } from "./uploads.ts";
