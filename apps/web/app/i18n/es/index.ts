/**
 * The Spanish texts of every screen area: this module's exports are the same namespaces as i18n/index.ts's English
 * ones (its `Catalogue` type checks that none is missing where they are loaded).
 */
export { auth } from "./auth.ts";
export { common } from "./common.ts";
export { communities } from "./communities.ts";
export { crates } from "./crates.ts";
export { errors } from "./errors.ts";
export { lists } from "./lists.ts";
export { messages } from "./messages.ts";
export { profile } from "./profile.ts";
export { pwa } from "./pwa.ts";
export { room } from "./room.ts";
export { rooms } from "./rooms.ts";
export { search } from "./search.ts";
export { shop } from "./shop.ts";
export { upload } from "./upload.ts";
