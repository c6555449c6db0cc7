/** The playlist service's front door: what other services, the worker and the seed may call (decision 0021). */

/** Catalogue songs written by the upload service: add one, change one, delete one (in the caller's `tx`). */
export { addSong, changeSong, deleteSong } from "./catalogue.ts";
/** A crate's songs in order, and their answer's schema. */
export { CrateSongSchema, crateSongs } from "./crates.ts";
/** The job that imports a playlist from a provider (the worker runs it). */
export { runImport } from "./playlist-imports.ts";
