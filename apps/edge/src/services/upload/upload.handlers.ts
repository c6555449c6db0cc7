import { ADMINS, hasAnyRole, rateLimit, requireUser } from "../../lib/auth.ts";
import { forbidden } from "../../lib/errors.ts";
import type { AppRouteHandler } from "../../lib/openapi.ts";
import { keyGrant, requireKeyGrant, requireListener } from "./hearing.ts";
import { coverKey, hlsKey as hlsFile, keyUrl, SEGMENT_CACHE } from "./pipeline.ts";
import type * as routes from "./upload.routes.ts";
import * as uploads from "./uploads.ts";

export const startUpload: AppRouteHandler<typeof routes.startUpload> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  if (!user.capabilities.includes("uploadMusic") && !hasAnyRole(user.roles, ADMINS))
    throw forbidden("Uploading music needs the uploadMusic capability.");
  await rateLimit(c, `upload:${user.uuid}`, 50, 3600);
  return c.json(await uploads.startUpload(c.var.deps, user.uuid, c.req.valid("json").originalFileName), 201);
};

export const sendFile: AppRouteHandler<typeof routes.sendFile> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const upload = await uploads.loadUpload(c.var.deps.db, c.req.valid("param").id);
  if (upload.ownerUuid !== user.uuid) throw forbidden();
  uploads.refuseHasFile(upload);
  const length = c.req.header("content-length");
  const received = await uploads.receiveFile(c.var.deps, upload, c.req.raw.body, length ? Number(length) : null);
  return c.json(uploads.uploadView(received), 200);
};

export const ownSongs: AppRouteHandler<typeof routes.ownSongs> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  return c.json(await uploads.ownUploads(c.var.deps.db, user.uuid, c.req.valid("query")), 200);
};

export const publicSongs: AppRouteHandler<typeof routes.publicSongs> = async (c) => {
  const { limit, offset } = c.req.valid("query");
  return c.json(await uploads.publicUploads(c.var.deps.db, limit, offset), 200);
};

export const search: AppRouteHandler<typeof routes.search> = async (c) => {
  const { term, limit, offset } = c.req.valid("query");
  return c.json(await uploads.searchUploads(c.var.deps.db, term, limit, offset), 200);
};

export const hlsKey: AppRouteHandler<typeof routes.hlsKey> = async (c) => {
  const { songId, grant } = c.req.valid("query");
  await requireKeyGrant(c, songId, grant);
  const key = await uploads.storedFile(c.var.deps, hlsFile(songId, "key"), uploads.SONG_NOT_FOUND);
  return c.body(key.data as Uint8Array<ArrayBuffer>, 200, {
    "content-type": "application/octet-stream",
    "cache-control": "private, no-store",
  });
};

export const getSong: AppRouteHandler<typeof routes.getSong> = async (c) => {
  const upload = await uploads.visibleUpload(c.var.deps.db, c.req.valid("param").id, c.var.auth?.sub);
  return c.json(uploads.uploadView(upload), 200);
};

export const editTags: AppRouteHandler<typeof routes.editTags> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const upload = await uploads.loadUpload(c.var.deps.db, c.req.valid("param").id);
  if (upload.ownerUuid !== user.uuid) throw forbidden(uploads.NOT_YOURS);
  return c.json(uploads.uploadView(await uploads.editTags(c.var.deps, upload, c.req.valid("json"))), 200);
};

export const deleteSong: AppRouteHandler<typeof routes.deleteSong> = async (c) => {
  const { user } = await requireUser(c, { types: ["user", "bot"] });
  const upload = await uploads.loadUpload(c.var.deps.db, c.req.valid("param").id);
  if (upload.ownerUuid !== user.uuid && !hasAnyRole(user.roles, ADMINS)) throw forbidden();
  await uploads.deleteUpload(c.var.deps, upload);
  return c.body(null, 204);
};

export const hlsPlaylist: AppRouteHandler<typeof routes.hlsPlaylist> = async (c) => {
  const upload = await uploads.loadUpload(c.var.deps.db, c.req.valid("param").id);
  uploads.refuseUnstreamable(upload);
  const listener = await requireListener(c, upload);
  const text = await uploads.hlsPlaylist(
    c.var.deps,
    upload,
    c.req.valid("query").rendition,
    async () => `${keyUrl(upload.id)}&grant=${await keyGrant(c, listener, upload.id)}`,
  );
  // Each answer holds one listener's grant: no shared cache may keep it.
  return c.body(text, 200, {
    "content-type": "application/vnd.apple.mpegurl",
    "cache-control": "private, no-store",
  });
};

export const hlsSegment: AppRouteHandler<typeof routes.hlsSegment> = async (c) => {
  const { id, segment } = c.req.valid("param");
  const data = await uploads.storedFile(c.var.deps, hlsFile(id, segment), "Segment not found.");
  return c.body(data.data as Uint8Array<ArrayBuffer>, 200, {
    "content-type": "video/mp2t",
    "cache-control": SEGMENT_CACHE,
  });
};

export const cover: AppRouteHandler<typeof routes.cover> = async (c) => {
  const file = await uploads.storedFile(c.var.deps, coverKey(c.req.valid("param").id), "This song has no cover.");
  return c.body(file.data as Uint8Array<ArrayBuffer>, 200, {
    "content-type": file.contentType,
    "cache-control": "public, max-age=86400",
  });
};

export const metadata: AppRouteHandler<typeof routes.metadata> = async (c) => {
  await requireUser(c, { types: ["user", "bot"] });
  return c.json(await uploads.readMetadata(new Uint8Array(await c.req.arrayBuffer())), 200);
};
