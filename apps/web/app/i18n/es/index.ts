import { auth } from "./auth.ts";
import { common } from "./common.ts";
import { communities } from "./communities.ts";
import { crates } from "./crates.ts";
import { errors } from "./errors.ts";
import { lists } from "./lists.ts";
import { messages } from "./messages.ts";
import { profile } from "./profile.ts";
import { pwa } from "./pwa.ts";
import { room } from "./room.ts";
import { rooms } from "./rooms.ts";
import { search } from "./search.ts";
import { shop } from "./shop.ts";
import { upload } from "./upload.ts";

/** The Spanish texts of every screen area (the same namespaces as i18n/index.ts's English ones). */
export const ES = {
  common,
  auth,
  rooms,
  room,
  lists,
  search,
  crates,
  upload,
  profile,
  shop,
  pwa,
  communities,
  messages,
  errors,
} as const;
