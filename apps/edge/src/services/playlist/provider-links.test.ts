import { describe, expect, it } from "vitest";
import { parseProviderLink } from "./provider-links.ts";

describe("provider links", () => {
  it.each([
    ["https://open.spotify.com/track/4uLU6hMCjMI75M1A2tKUQC?si=abc", "spotify", "4uLU6hMCjMI75M1A2tKUQC"],
    ["spotify:track:4uLU6hMCjMI75M1A2tKUQC", "spotify", "4uLU6hMCjMI75M1A2tKUQC"],
    ["https://music.apple.com/us/album/never-gonna/1558533900?i=1558534271", "apple", "1558534271"],
    ["https://music.apple.com/us/song/never-gonna/1558534271", "apple", "1558534271"],
    ["https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1", "youtube", "dQw4w9WgXcQ"],
    ["https://youtu.be/dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ"],
    ["https://music.youtube.com/watch?v=dQw4w9WgXcQ", "youtube", "dQw4w9WgXcQ"],
    [
      "https://soundcloud.com/rick-astley-official/never-gonna-give-you-up-4",
      "soundcloud",
      "rick-astley-official/never-gonna-give-you-up-4",
    ],
    ["https://audius.co/artist/track-name-123", "audius", "artist/track-name-123"],
    ["https://www.deezer.com/en/track/3135556", "deezer", "3135556"],
    ["https://tidal.com/browse/track/77646170", "tidal", "77646170"],
  ])("reads %s", (link, provider, id) => {
    expect(parseProviderLink(link)).toEqual({ provider, id });
  });

  it.each([
    "https://open.spotify.com/album/4uLU6hMCjMI75M1A2tKUQC",
    "https://soundcloud.com/rick-astley-official",
    "https://example.com/track/1",
    "javascript:alert(1)",
    "not a link",
  ])("refuses %s", (link) => {
    expect(parseProviderLink(link)).toBeNull();
  });
});
