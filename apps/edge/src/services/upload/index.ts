import { createRouter } from "../../lib/openapi.ts";
import { sentryTestingRouter } from "../../lib/sentry-testing.ts";
import { statusRouter } from "../../lib/service-status.ts";
import * as demoHandlers from "./demo.handlers.ts";
import * as demo from "./demo.routes.ts";
import * as genSongHandlers from "./gen-songs.handlers.ts";
import * as genSongs from "./gen-songs.routes.ts";
import * as jobHandlers from "./jobs.handlers.ts";
import * as jobs from "./jobs.routes.ts";
import * as uploadHandlers from "./upload.handlers.ts";
import * as upload from "./upload.routes.ts";

/** The routes in the order Hono matches them (fixed paths such as /songs/public and /songs/hls/key before /songs/{id}). */
export function uploadService() {
  const router = createRouter()
    .openapi(upload.startUpload, uploadHandlers.startUpload)
    .openapi(upload.sendFile, uploadHandlers.sendFile)
    .openapi(upload.ownSongs, uploadHandlers.ownSongs)
    .openapi(upload.publicSongs, uploadHandlers.publicSongs)
    .openapi(upload.search, uploadHandlers.search)
    .openapi(upload.hlsKey, uploadHandlers.hlsKey)
    .openapi(upload.getSong, uploadHandlers.getSong)
    .openapi(upload.editTags, uploadHandlers.editTags)
    .openapi(upload.deleteSong, uploadHandlers.deleteSong)
    .openapi(upload.hlsPlaylist, uploadHandlers.hlsPlaylist)
    .openapi(upload.hlsSegment, uploadHandlers.hlsSegment)
    .openapi(upload.cover, uploadHandlers.cover)
    .openapi(upload.metadata, uploadHandlers.metadata)
    .openapi(genSongs.cost, genSongHandlers.cost)
    .openapi(genSongs.generate, genSongHandlers.generate)
    .openapi(demo.demoProgress, demoHandlers.demoProgress)
    .openapi(jobs.listJobs, jobHandlers.listJobs);
  router.route("/", sentryTestingRouter("upload"));
  router.route("/", statusRouter("upload", "1.3.2", "/info-admin/upload-service-status"));
  return router;
}
