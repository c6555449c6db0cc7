/** The music, profile and shop screens' rules without a browser: import links, upload phases, stale times, prices. */
import { afterEach, describe, expect, it, vi } from "vitest";
import { forget, freshOrLoad } from "../app/components/stale-cache.ts";
import { importLines, parseImportLine } from "../app/routes/crates.$id/import-links.ts";
import { formatPrice } from "../app/routes/shop/shop.ts";
import { isSettling, phaseOf } from "../app/routes/upload/upload.ts";

describe("track import links", () => {
  it("reads the links of the providers the import supports, and Booth song links and ids", () => {
    expect(parseImportLine("https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=x")).toEqual({
      musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" },
    });
    expect(parseImportLine("spotify:track:4uLU6hMCjMI75M1A2tKUQC")).toEqual({
      musicProviders: { spotify: "4uLU6hMCjMI75M1A2tKUQC" },
    });
    expect(parseImportLine("https://music.apple.com/us/album/x/1440857781?i=1440858009")).toEqual({
      musicProviders: { apple: "1440858009" },
    });
    expect(parseImportLine("https://soundcloud.com/artist/a-track")).toEqual({
      musicProviders: { soundcloud: "artist/a-track" },
    });
    expect(parseImportLine("https://us.7digital.com/artist/x/release/y/12345")).toEqual({
      musicProviders: { sevenDigital: "12345" },
    });
    const id = "0e9b4a52-2a3f-4c1e-9d7a-6b1f2c3d4e5f";
    expect(parseImportLine(id.toUpperCase())).toEqual({ songId: id });
    expect(parseImportLine(`https://booth.example/songs/${id}`)).toEqual({ songId: id });
  });

  it("passes on other providers' links, so the edge answers its own message; refuses what is not a track link", () => {
    expect(parseImportLine("https://youtu.be/dQw4w9WgXcQ")).toEqual({ musicProviders: { youtube: "dQw4w9WgXcQ" } });
    expect(parseImportLine("https://www.deezer.com/track/3135556")).toEqual({ musicProviders: { deezer: "3135556" } });
    expect(parseImportLine("not a link")).toBeNull();
    expect(parseImportLine("https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC")).toBeNull();
    expect(parseImportLine("javascript:alert(1)")).toBeNull();
    expect(parseImportLine("https://example.com/track/1")).toBeNull();
  });

  it("takes the distinct non-empty lines, at most 100", () => {
    expect(importLines(" a \n\n b\r\na\n")).toEqual(["a", "b"]);
    expect(importLines(Array.from({ length: 150 }, (_, i) => `l${i}`).join("\n"))).toHaveLength(100);
  });
});

describe("upload phases", () => {
  const u = (status: string, transcodingStatus = "WAITING_FOR_TRANSCODING") => ({ status, transcodingStatus });
  it("names where an upload is, and polls only while it moves on its own", () => {
    expect(phaseOf(u("PENDING_UPLOAD"))).toBe("waiting");
    expect(phaseOf(u("VALID_FILE_TYPE"))).toBe("checking");
    expect(phaseOf(u("MISSING_METADATA"))).toBe("needsTags");
    expect(phaseOf(u("VERIFIED", "TRANSCODING_IN_PROGRESS"))).toBe("processing");
    expect(phaseOf(u("VERIFIED", "TRANSCODING_SUCCEED"))).toBe("ready");
    expect(phaseOf(u("VERIFIED", "TRANSCODING_ERROR"))).toBe("failed");
    expect(phaseOf(u("VERIFICATION_ERROR"))).toBe("failed");
    expect(isSettling(u("PENDING_UPLOAD"))).toBe(true);
    expect(isSettling(u("VERIFIED", "WAITING_FOR_TRANSCODING"))).toBe(true);
    expect(isSettling(u("MISSING_METADATA"))).toBe(false);
    expect(isSettling(u("VERIFIED", "TRANSCODING_SUCCEED"))).toBe(false);
  });
});

describe("stale times", () => {
  afterEach(() => {
    vi.useRealTimers();
    forget("/");
  });

  it("answers from the kept copy while it is fresh, asks again after, and forgets on demand", async () => {
    vi.useFakeTimers();
    let calls = 0;
    const load = async () => ({ n: ++calls });
    expect(await freshOrLoad("/crates/queue", 60_000, load)).toEqual({ n: 1 });
    vi.advanceTimersByTime(59_000);
    expect(await freshOrLoad("http://x/crates/queue?lang=es", 60_000, load)).toEqual({ n: 1 });
    vi.advanceTimersByTime(2_000);
    expect(await freshOrLoad("/crates/queue", 60_000, load)).toEqual({ n: 2 });
    forget("/crates");
    expect(await freshOrLoad("/crates/queue", 60_000, load)).toEqual({ n: 3 });
    expect(await freshOrLoad("/crates/queue?offset=32", 60_000, load)).toEqual({ n: 4 });
  });

  it("does not keep what a load read when a change came while it was on its way", async () => {
    let release: (value: { name: string }) => void = () => undefined;
    const slow = () => new Promise<{ name: string }>((r) => (release = r));
    const loading = freshOrLoad("/crates/race", 60_000, slow);
    // The crate is renamed while the old copy is still on its way.
    forget("/crates");
    release({ name: "before the rename" });
    expect(await loading).toEqual({ name: "before the rename" });
    expect(await freshOrLoad("/crates/race", 60_000, async () => ({ name: "after the rename" }))).toEqual({
      name: "after the rename",
    });
  });

  it("never keeps what the caller says must be asked again (an import in progress)", async () => {
    let calls = 0;
    const load = async () => ({ n: ++calls });
    await freshOrLoad("/crates/x", 60_000, load, () => false);
    expect(await freshOrLoad("/crates/x", 60_000, load, () => false)).toEqual({ n: 2 });
  });
});

describe("prices", () => {
  it("reads a price in the smallest unit in the viewer's language", () => {
    expect(formatPrice(499, "usd", "en")).toBe("$4.99");
    expect(formatPrice(1299, "eur", "es")).toMatch(/^12,99\s€$/);
    expect(formatPrice(100, "not-a-currency", "en")).toBe("1.00 NOT-A-CURRENCY");
  });
});
