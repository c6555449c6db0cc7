// What two benches do before they listen: sign in to an edge started for them, upload a song and wait until the edge
// (its own job runner) has transcoded it.
import { type ChildRun, waitForServer } from "../apps/edge/src/testing/child-server.ts";

const U = "/api/upload-service";

/** The access token of `account` on the edge at `edge`. */
export async function signIn(edge: string, account: { email: string; password: string }) {
  const login = await fetch(`${edge}/api/user-service/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(account),
  });
  if (!login.ok) throw new Error(`sign-in: ${login.status} ${await login.text()}`);
  return ((await login.json()) as { accessToken: string }).accessToken;
}

/** Uploads `mp3` as `token`'s song, then waits for its transcoding (a failure throws); answers the song's id. */
export async function uploadedSong(run: ChildRun, edge: string, token: string, mp3: Uint8Array) {
  const auth = { authorization: `Bearer ${token}` };
  const ticket = await fetch(`${edge}${U}/upload/song`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ originalFileName: "bench.mp3" }),
  });
  const { id, uploadUrl } = (await ticket.json()) as { id: string; uploadUrl: string };
  const sent = await fetch(uploadUrl, {
    method: "PUT",
    headers: { ...auth, "content-type": "audio/mpeg" },
    body: mp3 as Uint8Array<ArrayBuffer>,
  });
  if (!sent.ok) throw new Error(`upload: ${sent.status} ${await sent.text()}`);
  await waitForServer(run, {
    name: "the transcoding",
    timeoutMs: 300_000,
    ready: async () => {
      const res = await fetch(`${edge}${U}/songs/${id}`, { headers: auth });
      const { transcodingStatus } = (await res.json()) as { transcodingStatus: string };
      if (transcodingStatus === "TRANSCODING_ERROR") throw new Error("transcoding failed");
      return transcodingStatus === "TRANSCODING_SUCCEED";
    },
  });
  return id;
}
