import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { UPLOAD_PAGE } from "./upload.ts";

export type Upload = Schema<"upload", "UploadedSong">;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The viewer's uploads (newest first) and whether they may upload at all. */
export async function loadUploads(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const url = new URL(request.url);
  const offset = Math.max(0, Number.parseInt(url.searchParams.get("offset") ?? "0", 10) || 0);
  const booth = sdkFor(token);
  const [caps, page] = await Promise.all([
    booth.user.GET("/users/capabilities", {}).catch(() => null),
    booth.upload.GET("/songs", { params: { query: { limit: UPLOAD_PAGE, offset } } }),
  ]);
  const capabilities: string[] = caps?.data?.capabilities ?? [];
  const roles: string[] = caps?.data?.roles ?? viewer.roles;
  const canUpload = capabilities.includes("uploadMusic") || roles.some((r) => r === "admin" || r === "superUser");
  return { offset, uploads: page.data?.data ?? [], total: page.data?.total ?? 0, canUpload };
}

/** Completing a song's tags (which verifies it) or deleting an upload. */
export async function changeUpload(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const intent = field(form, "intent");
  const id = field(form, "id");
  if (!UUID.test(id)) return data({ intent, id, error: "Choose an upload." }, { status: 400 });
  const booth = sdkFor(token);
  try {
    if (intent === "tags") {
      const year = Number.parseInt(field(form, "year"), 10);
      await booth.upload.PATCH("/songs/{id}", {
        params: { path: { id } },
        body: {
          title: field(form, "title") || null,
          artist: field(form, "artist") || null,
          album: field(form, "album") || null,
          genre: field(form, "genre") || null,
          ...(Number.isFinite(year) ? { year } : {}),
        },
      });
    } else if (intent === "delete") {
      await booth.upload.DELETE("/songs/{id}", { params: { path: { id } } });
    } else return data({ intent, id, error: "Unknown action." }, { status: 400 });
    return { intent, id, error: null };
  } catch (e) {
    return data({ intent, id, error: userMessage(e, request) }, { status: 400 });
  }
}
