import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { closeServer, listenLocally } from "./local-server.ts";

/**
 * For tests: a local stand-in of 7digital (the part Booth calls), answering as its API 1.2 does with
 * `Accept: application/json`: `/1.2/track/search` (`{ searchResults: { searchResult: [{ type, track }] } }`) and
 * `/1.2/track/details` (`{ track }`, or a 404 with 7digital's error 2001), both refusing (401) a call without the
 * partner key; and the preview service's `/clip/{trackId}`, which plays only an address signed with the key's secret
 * (OAuth 1.0, HMAC-SHA1, RFC 5849; checked here by code of its own, not Booth's signer) whose timestamp is within five
 * minutes of `control.now()` (the edge's clock, in a test whose clock is not the machine's), served with byte ranges so
 * a player can seek. Every request is recorded with its query; `control.failWith` makes every answer that status (an
 * outage), `control.delayMs` delays every answer (a slow 7digital).
 */

export const FAKE_SEVEN_DIGITAL = { key: "7d-test-key", secret: "7d-test-secret" } as const;

/** A 7digital track as its API answers it. */
export function sevenDigitalTrack(
  id: number,
  title: string,
  options: {
    artist?: string;
    duration?: number;
    explicit?: boolean;
    isrc?: string;
    version?: string;
    album?: string;
    /** The release's artwork (7digital's CDN by default; null for none, where a browser must not reach out). */
    image?: string | null;
  } = {},
) {
  const artist = options.artist ?? "Lumen Digital";
  const slug = (s: string) => s.toLowerCase().replace(/\W+/g, "-");
  return {
    id,
    title,
    version: options.version ?? "",
    artist: { id: id + 1_000_000, name: artist, appearsAs: artist, slug: slug(artist) },
    trackNumber: 1,
    duration: options.duration ?? 214,
    explicitContent: options.explicit ?? false,
    isrc: options.isrc ?? `GBX7D${String(id).padStart(7, "0")}`,
    type: "audio",
    release: {
      id: id + 2_000_000,
      title: options.album ?? `${title} (Single)`,
      version: "",
      type: "Single",
      year: 2023,
      slug: slug(options.album ?? title),
      image:
        options.image === undefined
          ? `http://artwork-cdn.7static.com/static/img/sleeveart/00/000/000/${String(id).padStart(10, "0")}_350.jpg`
          : options.image,
    },
    url: `https://us.7digital.com/artist/${slug(artist)}/release/${slug(title)}/track/${id}`,
  };
}
export type SevenDigitalTrackJson = ReturnType<typeof sevenDigitalTrack>;

const enc = (v: string) =>
  encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** Whether a clip address carries a valid signature of `secret` (all its query but the signature is signed). */
function signatureValid(url: URL, base: string, secret: string): boolean {
  const signature = url.searchParams.get("oauth_signature") ?? "";
  const pairs = [...url.searchParams.entries()]
    .filter(([k]) => k !== "oauth_signature")
    .map(([k, v]) => `${enc(k)}=${enc(v)}`)
    .sort();
  const baseString = ["GET", enc(`${base}${url.pathname}`), enc(pairs.join("&"))].join("&");
  const expected = createHmac("sha1", `${enc(secret)}&`)
    .update(baseString)
    .digest("base64");
  return signature.length === expected.length && timingSafeEqual(Buffer.from(signature), Buffer.from(expected));
}

export async function startFakeSevenDigital(options: { mp3?: Uint8Array } = {}) {
  /** The audio every clip answers (can be set after the start). */
  const audio: { mp3: Uint8Array | null } = { mp3: options.mp3 ?? null };
  const tracks = new Map<string, SevenDigitalTrackJson>();
  const requests: { path: string; query: Record<string, string>; accept: string | null; range: string | null }[] = [];
  const control: { failWith: number | null; delayMs: number; now: () => number } = {
    failWith: null,
    delayMs: 0,
    now: () => Date.now(),
  };

  const send = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };
  const error = (res: ServerResponse, status: number, code: number, errorMessage: string) =>
    send(res, status, { status: "error", version: "1.2", error: { code, errorMessage } });

  let base = "";
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? "/", "http://fake");
    const path = url.pathname;
    requests.push({
      path,
      query: Object.fromEntries(url.searchParams),
      accept: req.headers.accept ?? null,
      range: req.headers.range ?? null,
    });
    if (control.delayMs) await new Promise((r) => setTimeout(r, control.delayMs));
    if (control.failWith) return error(res, control.failWith, 9001, "Unexpected internal server error");
    const clip = /^\/clip\/(\d+)$/.exec(path)?.[1];
    if (clip) {
      const timestamp = Number(url.searchParams.get("oauth_timestamp"));
      if (
        url.searchParams.get("oauth_consumer_key") !== FAKE_SEVEN_DIGITAL.key ||
        url.searchParams.get("oauth_signature_method") !== "HMAC-SHA1" ||
        !url.searchParams.get("oauth_nonce") ||
        !(Math.abs(control.now() / 1000 - timestamp) < 300) ||
        !signatureValid(url, base, FAKE_SEVEN_DIGITAL.secret)
      )
        return error(res, 401, 2002, "OAuth signature invalid or expired");
      const mp3 = audio.mp3;
      if (!mp3 || !tracks.has(clip)) return error(res, 404, 2001, "Clip not found");
      const headers = { "accept-ranges": "bytes", "content-type": "audio/mpeg" };
      const range = /^bytes=(\d*)-(\d*)$/.exec(req.headers.range ?? "");
      if (!range) return res.writeHead(200, { ...headers, "content-length": mp3.length }).end(mp3);
      const start = range[1] ? Number(range[1]) : Math.max(0, mp3.length - Number(range[2]));
      const end = range[1] && range[2] ? Math.min(Number(range[2]), mp3.length - 1) : mp3.length - 1;
      if (start >= mp3.length) return res.writeHead(416, { "content-range": `bytes */${mp3.length}` }).end();
      return res
        .writeHead(206, {
          ...headers,
          "content-length": end - start + 1,
          "content-range": `bytes ${start}-${end}/${mp3.length}`,
        })
        .end(mp3.subarray(start, end + 1));
    }
    if (path.startsWith("/1.2/") && url.searchParams.get("oauth_consumer_key") !== FAKE_SEVEN_DIGITAL.key)
      return error(res, 401, 2002, "Invalid or missing oauth_consumer_key");
    if (path === "/1.2/track/search") {
      const words = (url.searchParams.get("q") ?? "").toLowerCase().split(/\s+/).filter(Boolean);
      if (!words.length) return error(res, 400, 1001, "Missing parameter q");
      const pageSize = Number(url.searchParams.get("pageSize") ?? 10);
      const found = [...tracks.values()].filter((t) =>
        words.every((w) => `${t.title} ${t.artist.name}`.toLowerCase().includes(w)),
      );
      return send(res, 200, {
        status: "ok",
        version: "1.2",
        searchResults: {
          page: 1,
          pageSize,
          totalItems: found.length,
          searchResult: found.slice(0, pageSize).map((track) => ({ type: "track", score: 1, track })),
        },
      });
    }
    if (path === "/1.2/track/details") {
      const id = url.searchParams.get("trackId") ?? url.searchParams.get("trackid") ?? "";
      if (!/^\d+$/.test(id)) return error(res, 400, 1002, "Invalid parameter value trackId");
      const track = tracks.get(id);
      return track ? send(res, 200, { status: "ok", version: "1.2", track }) : error(res, 404, 2001, "Track not found");
    }
    error(res, 404, 2001, "Resource not found");
  });
  base = await listenLocally(server);
  return {
    base,
    /** The settings' values for this stand-in: SEVENDIGITAL_API_URL and SEVENDIGITAL_PREVIEWS_URL. */
    apiUrl: `${base}/1.2`,
    previewsUrl: base,
    tracks,
    requests,
    control,
    audio,
    /** A track the fake has, added (its JSON as 7digital answers it). */
    add(track: SevenDigitalTrackJson) {
      tracks.set(String(track.id), track);
      return track;
    },
    close: () => closeServer(server),
  };
}
export type FakeSevenDigital = Awaited<ReturnType<typeof startFakeSevenDigital>>;
