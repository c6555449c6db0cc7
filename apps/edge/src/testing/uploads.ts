import type { TestApp } from "./app.ts";

const U = "/api/upload-service";

/** A user who may upload music (the uploadMusic capability). */
export async function uploaderOf(t: TestApp) {
  const user = await t.createUser();
  await t.changeUser(user.user.uuid, { capabilities: ["uploadMusic"] });
  return user;
}

/** A new upload's id and the path to PUT its file to. */
export async function uploadTicket(t: TestApp, token: string, name = "tone.mp3") {
  const res = await t.request("POST", `${U}/upload/song`, { token, body: { originalFileName: name } });
  if (res.status !== 201) throw new Error(`no upload ticket: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.id as string, path: new URL(res.body.uploadUrl).pathname };
}

/**
 * Starts an upload and sends its file as an HTTP client does: with its length (in-process requests get none of their
 * own). Answers the upload's id, the response and its body.
 */
export async function sendAudio(t: TestApp, token: string, bytes: Uint8Array, name = "tone.mp3") {
  const { id, path } = await uploadTicket(t, token, name);
  const res = await t.app.request(path, {
    method: "PUT",
    headers: { authorization: `Bearer ${token}`, "content-type": "audio/mpeg", "content-length": String(bytes.length) },
    body: bytes as Uint8Array<ArrayBuffer>,
  });
  return { id, res, body: await res.json() };
}

/** The upload once its transcoding has ended, one way or the other (polled every 100 ms, for `timeoutMs`). */
export async function settledUpload(t: TestApp, id: string, token: string, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request("GET", `${U}/songs/${id}`, { token });
    const status = res.body.transcodingStatus;
    if (status === "TRANSCODING_SUCCEED" || status === "TRANSCODING_ERROR") return res.body;
    if (Date.now() > deadline) throw new Error(`transcoding did not finish (${status})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
