import { describe, expect, it } from "vitest";
import { parsePlaylistLink } from "./playlist-links.ts";

describe("playlist links", () => {
  it("reads Audius playlist and album links, and nothing else of audius.co", () => {
    expect(parsePlaylistLink("https://audius.co/seaglass/playlist/deep-water-12")).toEqual({
      provider: "audius",
      id: "seaglass/playlist/deep-water-12",
    });
    expect(parsePlaylistLink("https://audius.co/sea.glass/album/tides/")?.id).toBe("sea.glass/album/tides");
    for (const other of [
      "https://audius.co/seaglass/deep-water",
      "https://audius.co/seaglass/playlist/",
      "https://audius.co/seaglass/playlist/a/b",
      "https://audius.co.evil.example/seaglass/playlist/x",
      "https://audius.co/sea%2Fglass/playlist/x",
    ])
      expect(parsePlaylistLink(other)).toBeNull();
  });

  it("reads Spotify, YouTube and SoundCloud playlist links in the forms people share", () => {
    expect(parsePlaylistLink("https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M?si=4f1c")).toEqual({
      provider: "spotify",
      id: "37i9dQZF1DXcBWIGoYBM5M",
    });
    expect(parsePlaylistLink("https://open.spotify.com/intl-es/playlist/37i9dQZF1DXcBWIGoYBM5M")?.id).toBe(
      "37i9dQZF1DXcBWIGoYBM5M",
    );
    expect(parsePlaylistLink("spotify:playlist:37i9dQZF1DXcBWIGoYBM5M")?.provider).toBe("spotify");
    expect(parsePlaylistLink("https://www.youtube.com/playlist?list=PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf")).toEqual({
      provider: "youtube",
      id: "PLrAXtmErZgOeiKm4sgNOknGvNjby9efdf",
    });
    expect(parsePlaylistLink("https://music.youtube.com/playlist?list=OLAK5uy_k")?.id).toBe("OLAK5uy_k");
    expect(parsePlaylistLink("https://m.youtube.com/watch?v=dQw4w9WgXcQ&list=PLabc")?.id).toBe("PLabc");
    expect(parsePlaylistLink("https://soundcloud.com/tidal-echo/sets/waves?si=x")).toEqual({
      provider: "soundcloud",
      id: "tidal-echo/sets/waves",
    });
    expect(parsePlaylistLink("https://soundcloud.com/tidal-echo/sets/waves/s-AbC12")?.id).toBe(
      "tidal-echo/sets/waves/s-AbC12",
    );
  });

  it("refuses track links, other providers and anything that is not an http(s) link", () => {
    for (const link of [
      "https://open.spotify.com/track/7ouMYWpwJ422jRcDASZB7P",
      "https://open.spotify.com/playlist/short",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://www.youtube.com/playlist?list=<script>",
      "https://soundcloud.com/tidal-echo/wave-1",
      "https://soundcloud.com.evil.example/a/sets/b",
      "https://www.deezer.com/playlist/908622995",
      "ftp://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M",
      "javascript:alert(1)",
      "",
    ])
      expect(parsePlaylistLink(link), link).toBeNull();
  });
});
