import { createRouter, type Router } from "../../lib/openapi.ts";
import { statusRouter } from "../../lib/service-status.ts";
import * as catalogueHandlers from "./catalogue.handlers.ts";
import * as catalogue from "./catalogue.routes.ts";
import * as crateHandlers from "./crate.handlers.ts";
import * as crate from "./crate.routes.ts";
import * as exportHandlers from "./exports.handlers.ts";
import * as exports from "./exports.routes.ts";
import * as importHandlers from "./import.handlers.ts";
import * as imports from "./import.routes.ts";
import * as playlistImportHandlers from "./playlist-import.handlers.ts";
import * as playlistImports from "./playlist-import.routes.ts";
import * as queueHandlers from "./queue-service.handlers.ts";
import * as queue from "./queue-service.routes.ts";

/** The routes in the order Hono matches them; each resource's own order is the order of its routes file. */
export function playlistService() {
  const router = createRouter();
  registerQueueService(router);
  registerCrates(router);
  registerCatalogue(router);
  registerImport(router);
  registerExports(router);
  router.route("/", statusRouter("playlists", "1.6.0", "/info-admin/playlists-service-status"));
  return router;
}

function registerQueueService(router: Router) {
  router
    .openapi(queue.upcoming, queueHandlers.upcoming)
    .openapi(queue.advance, queueHandlers.advance)
    .openapi(queue.playableSong, queueHandlers.playableSong)
    .openapi(queue.likeSong, queueHandlers.likeSong)
    .openapi(queue.grabSong, queueHandlers.grabSong);
}

/** The song routes every crate has (one set per crate path): read, songs, add, current position, remove, move, shuffle. */
function registerCrateSongs(router: Router, routes: crate.CrateSongRoutes, handlers: typeof crateHandlers.byId) {
  router
    .openapi(routes.get, handlers.get)
    .openapi(routes.songs, handlers.songs)
    .openapi(routes.addSongs, handlers.addSongs)
    .openapi(routes.currentPosition, handlers.currentPosition)
    .openapi(routes.removeSong, handlers.removeSong)
    .openapi(routes.moveSong, handlers.moveSong)
    .openapi(routes.shuffle, handlers.shuffle);
}

function registerCrates(router: Router) {
  // Special paths first, so "/crate/special/queue" never reads as a crate id.
  registerCrateSongs(router, crate.queue, crateHandlers.queue);
  router.openapi(crate.emptyQueue, crateHandlers.emptyQueue);
  registerCrateSongs(router, crate.likes, crateHandlers.likes);
  router
    .openapi(crate.emptyLikes, crateHandlers.emptyLikes)
    .openapi(crate.createCrate, crateHandlers.createCrate)
    .openapi(crate.ownCrates, crateHandlers.ownCrates)
    .openapi(crate.userCratesForService, crateHandlers.userCratesForService)
    .openapi(crate.userCrates, crateHandlers.userCrates)
    .openapi(crate.allCrates, crateHandlers.allCrates)
    .openapi(crate.songsByShortId, crateHandlers.songsByShortId);
  registerCrateSongs(router, crate.byId, crateHandlers.byId);
  router
    .openapi(crate.updateCrate, crateHandlers.updateCrate)
    .openapi(crate.deleteCrate, crateHandlers.deleteCrate)
    .openapi(crate.copyCrate, crateHandlers.copyCrate);
}

function registerCatalogue(router: Router) {
  router
    .openapi(catalogue.songs, catalogueHandlers.songs)
    .openapi(catalogue.song, catalogueHandlers.song)
    .openapi(catalogue.genres, catalogueHandlers.genres)
    .openapi(catalogue.search, catalogueHandlers.search)
    .openapi(catalogue.searchPage, catalogueHandlers.searchPage)
    .openapi(catalogue.providers, catalogueHandlers.providers)
    .openapi(catalogue.brand, catalogueHandlers.brand)
    .openapi(catalogue.songsForService, catalogueHandlers.songsForService)
    .openapi(catalogue.streamUrls, catalogueHandlers.streamUrls)
    .openapi(catalogue.previewUrls, catalogueHandlers.previewUrls)
    .openapi(catalogue.sevenDigitalClip, catalogueHandlers.sevenDigitalClip)
    .openapi(catalogue.byProviderId, catalogueHandlers.byProviderId)
    .openapi(catalogue.byProviderLink, catalogueHandlers.byProviderLink)
    .openapi(catalogue.allAlbums, catalogueHandlers.allAlbums)
    .openapi(catalogue.allSongs, catalogueHandlers.allSongs)
    .openapi(catalogue.albumSongs, catalogueHandlers.albumSongs)
    .openapi(catalogue.songByShortId, catalogueHandlers.songByShortId)
    .openapi(catalogue.allArtists, catalogueHandlers.allArtists)
    .openapi(catalogue.albumsByArtists, catalogueHandlers.albumsByArtists)
    .openapi(catalogue.artistAlbums, catalogueHandlers.artistAlbums);
}

function registerImport(router: Router) {
  router
    .openapi(imports.trackImport, importHandlers.trackImport)
    .openapi(imports.addTrack, importHandlers.addTrack)
    .openapi(playlistImports.startImport, playlistImportHandlers.startImport)
    .openapi(playlistImports.getImport, playlistImportHandlers.getImport);
}

function registerExports(router: Router) {
  router
    .openapi(exports.spotify, exportHandlers.spotify)
    .openapi(exports.apple, exportHandlers.apple)
    .openapi(exports.cyaniteWebhook, exportHandlers.cyaniteWebhook)
    .openapi(exports.migrateLinks, exportHandlers.migrateLinks);
}
