/**
 * For the browser tests of what a listener hears (quality.test.ts, sync.test.ts): a room whose DJ plays a demo
 * song (an upload transcoded to HLS) from the SDK's live client, as a bot would; a listener signed up on its page;
 * the HLS requests the page's player makes; where its audio element is.
 */
import { LiveRoomClient } from "@booth/sdk/live";
import type { Page } from "playwright-core";
import { expect } from "vitest";
import { emailFor, type Stack, signUpVerified } from "./harness.ts";

/**
 * A room made over REST (`room`: its name and any other field) by a new user who takes a seat with the SDK's live
 * client and plays `queue`.
 */
export async function roomWithDj(
  stack: Stack,
  nickname: string,
  room: { name: string; [field: string]: unknown },
  queue: string[] = [],
) {
  const dj = await stack.t.createUser({ nickname });
  const created = await stack.t.request("POST", "/api/room-service/rooms/infrastructure", {
    token: dj.token,
    body: { type: "PUBLIC", ...room },
  });
  expect(created.status).toBe(201);
  if (queue.length) {
    const queued = await stack.t.request("POST", "/api/playlist-service/crate/special/queue/songs", {
      token: dj.token,
      body: { songIds: queue },
    });
    expect(queued.status).toBeLessThan(300);
  }
  const client = new LiveRoomClient({ url: stack.partyUrl, roomUuid: created.body.uuid, token: dj.token });
  await client.connect();
  await client.addDj();
  return { room: created.body as { uuid: string; slug: string; [field: string]: unknown }, client };
}

/** A person signed up and verified in the browser (not yet in a room). */
export async function listener(stack: Stack, nickname: string) {
  const person = await stack.person();
  await signUpVerified(stack, person.page, { nickname, email: emailFor(nickname.toLowerCase().replace(/\W+/g, "-")) });
  return person;
}

/** Each HLS playlist the page's player loads, as it is answered: the master (`rendition: null`) or a rendition's. */
export function playlistAnswers(page: Page) {
  const answers: { rendition: string | null; status: number }[] = [];
  page.on("response", (res) => {
    const url = new URL(res.url());
    if (url.pathname.endsWith("/hls-playlist"))
      answers.push({ rendition: url.searchParams.get("rendition"), status: res.status() });
  });
  return answers;
}

/** The renditions of the segments the page's player fetched, in order (`low-seg001.ts` -> low). */
export function segmentRenditions(page: Page) {
  const seen: string[] = [];
  page.on("request", (req) => {
    const segment = /\/hls\/([a-z]+)-seg\d+\.ts$/.exec(new URL(req.url()).pathname);
    if (segment?.[1]) seen.push(segment[1]);
  });
  return seen;
}

/** The page's audio element: where it is, whether it is paused, what it plays. */
export const audioOf = (page: Page) =>
  page.$eval("[data-testid=room-audio]", (a) => {
    const audio = a as HTMLAudioElement;
    return { time: audio.currentTime, paused: audio.paused, src: audio.currentSrc };
  });
