import type { ActionFunctionArgs } from "@remix-run/node";
import { upload as es } from "../../i18n/es/upload.ts";
import type { Language } from "../../i18n/index.ts";
import { languageOf } from "../../i18n/language.server.ts";
import { upload as en } from "../../i18n/upload.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { MAX_UPLOAD_BYTES, uploadLimit } from "../upload/upload.ts";

/** The upload screen's texts of each language. */
const TEXTS: Record<Language, typeof en> = { en, es };

/** The refusal of a file larger than an upload takes, in the request's language, as the upload screen says it. */
function tooLarge(request: Request) {
  const { lang } = languageOf(request);
  return TEXTS[lang].tooLarge.replace("{{limit}}", uploadLimit(lang));
}

/**
 * The browser's upload, passed on to the upload service with the session's token (which the browser never holds):
 * `POST /upload-file?name=<file name>` with the file as the body. Starts the upload (`POST /upload/song`), sends the
 * file (`PUT /upload/song/{id}/file`, as audio/mpeg) and answers the uploaded song. A file the service refuses
 * leaves no empty upload behind. Answers are plain JSON responses: the browser reads them, not Remix.
 */
export async function action({ request }: ActionFunctionArgs) {
  const { token } = await requireViewer(request);
  if (request.method !== "POST") return Response.json({ error: "Method Not Allowed" }, { status: 405 });
  const name = (new URL(request.url).searchParams.get("name") ?? "").trim().slice(0, 255);
  if (!name) return Response.json({ error: "The file needs a name." }, { status: 400 });
  const length = request.headers.get("content-length");
  const declared = Number(length ?? 0);
  if (length === null || !Number.isSafeInteger(declared))
    return Response.json({ error: "Send the file with its length (a Content-Length header)." }, { status: 411 });
  // Refused before the body is read, and before the edge is asked: the server closes lingeringly (server.ts), so the
  // browser still sending the file reads this answer.
  if (declared > MAX_UPLOAD_BYTES) return Response.json({ error: tooLarge(request) }, { status: 413 });
  if (declared === 0 || !request.body) return Response.json({ error: "The file is empty." }, { status: 400 });
  const booth = sdkFor(token);
  let id: string | undefined;
  try {
    const ticket = await booth.upload.POST("/upload/song", { body: { originalFileName: name } });
    id = ticket.data?.id;
    if (!id) throw new Error("the upload service answered no id");
    // The file streams through to the edge (which streams it to storage): no server holds it whole.
    const sent = await booth.upload.PUT("/upload/song/{id}/file", {
      params: { path: { id } },
      body: request.body as never,
      bodySerializer: (body: unknown) => body as BodyInit,
      headers: { "content-type": "audio/mpeg", "content-length": String(declared) },
      duplex: "half",
    } as never);
    return Response.json({ upload: sent.data ?? null, error: null });
  } catch (e) {
    if (id) await booth.upload.DELETE("/songs/{id}", { params: { path: { id } } }).catch(() => undefined);
    const status = (e as { status?: number }).status;
    return Response.json(
      { upload: null, error: userMessage(e, request) },
      { status: status && status < 500 ? status : 400 },
    );
  }
}
