/** The web server's settings (app/config.server.ts): old names still read, and read nowhere else. */
import { afterEach, expect, it, vi } from "vitest";
import { environmentReaders } from "../../../scripts/environment-readers.ts";
import { configOf, readWebSettings } from "../app/config.server.ts";

afterEach(() => vi.restoreAllMocks());

it("reads the old names of the addresses, each with a warning naming the new one", () => {
  const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
  const config = configOf(
    readWebSettings({
      BOOTH_API_URL: "http://edge.internal:8787/",
      BOOTH_PUBLIC_API_URL: "https://api.example.org",
      PARTY_URL: "http://rooms.internal:1999",
      PUBLIC_PARTY_URL: "https://rooms.example.org",
    }),
  );
  expect(config).toMatchObject({
    edgeUrl: "http://edge.internal:8787",
    publicEdgeUrl: "https://api.example.org",
    partyUrl: "http://rooms.internal:1999",
    publicPartyUrl: "https://rooms.example.org",
  });
  expect(warn.mock.calls.map(([line]) => line)).toEqual([
    "web: BOOTH_API_URL is an old name, read as BOOTH_EDGE_URL: rename it to BOOTH_EDGE_URL",
    "web: BOOTH_PUBLIC_API_URL is an old name, read as BOOTH_PUBLIC_EDGE_URL: rename it to BOOTH_PUBLIC_EDGE_URL",
    "web: PARTY_URL is an old name, read as BOOTH_PARTY_URL: rename it to BOOTH_PARTY_URL",
    "web: PUBLIC_PARTY_URL is an old name, read as BOOTH_PUBLIC_PARTY_URL: rename it to BOOTH_PUBLIC_PARTY_URL",
  ]);
});

it("keeps the page policy's host lists: spaces or commas between hosts, empty for none", () => {
  const { settings } = configOf(
    readWebSettings({ CSP_MEDIA_HOSTS: "https://a.example https://b.example,https://c.example", CSP_IMAGE_HOSTS: "" }),
  );
  expect(settings.CSP_MEDIA_HOSTS).toEqual(["https://a.example", "https://b.example", "https://c.example"]);
  expect(settings.CSP_IMAGE_HOSTS).toEqual([]);
  expect(settings.CSP_FRAME_HOSTS).toEqual([]);
});

it("reads the environment only in its config module and its entry", () => {
  expect(environmentReaders("apps/web")).toEqual([
    "apps/web/app/config.server.ts",
    // Build tools, not the server: the bundle report's format, and where chromium is for drawing the icons.
    "apps/web/scripts/build.mjs",
    "apps/web/scripts/make-icons.ts",
    "apps/web/server.ts",
    "apps/web/vite.config.ts",
  ]);
});
