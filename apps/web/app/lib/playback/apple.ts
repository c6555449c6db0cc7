import type { ProviderToken } from "./accounts.ts";
import { loadMusicKit, type MusicKitInstance } from "./musickit.ts";
import { type PlayerContext, PROVIDER_ANSWER_MS, type SongPlayer, within } from "./song-player.ts";

/**
 * An Apple Music song in full through MusicKit JS, for a listener who connected Apple Music: the edge keeps their music
 * user token (`account`, with Booth's developer token). MusicKit is configured once per page; when it holds no sign-in
 * of this browser's it is handed the listener's token. Still not authorized (MusicKit would play its preview): the
 * player gives up and the room's player plays the next source (the preview, labelled).
 */
export function applePlayer(songId: string, account: () => Promise<ProviderToken>, context: PlayerContext): SongPlayer {
  let music: MusicKitInstance | null = null;
  let destroyed = false;
  const ready = within(
    loadMusicKit(context.scripts.musicKit).then(async () => {
      const MusicKit = window.MusicKit;
      if (!MusicKit) throw new Error("MusicKit did not load");
      const { developerToken, accessToken: userToken } = await account();
      if (!developerToken) throw new Error("Apple Music is not configured");
      const made =
        MusicKit.getInstance() ?? (await MusicKit.configure({ developerToken, app: { name: "Booth", build: "1" } }));
      if (!made.isAuthorized && userToken) {
        try {
          made.musicUserToken = userToken;
        } catch {
          // A MusicKit that does not take a token: the listener signs in on this browser to hear whole songs.
        }
      }
      if (!made.isAuthorized) throw new Error("Apple Music is not signed in on this browser");
      if (destroyed) return;
      music = made;
      made.volume = context.muted ? 0 : context.level;
      // MusicKit seeks only once a song plays: the queue starts it where the room is instead.
      await made.setQueue({ song: songId, startTime: context.at(), startPlaying: false });
      if (destroyed) return;
      await made.play();
    }),
    PROVIDER_ANSWER_MS,
    "MusicKit did not answer",
  );
  const states = () => window.MusicKit?.PlaybackStates;
  return {
    ready,
    play: async () => music?.play(),
    pause: () => music?.pause(),
    seek: (seconds) => void music?.seekToTime(seconds).catch(() => undefined),
    position: () => (music ? music.currentPlaybackTime : null),
    playing: () => music?.isPlaying === true,
    ended: () =>
      music !== null && (music.playbackState === states()?.ended || music.playbackState === states()?.completed),
    volume: (level, muted) => {
      if (music) music.volume = muted ? 0 : level;
    },
    destroy: () => {
      destroyed = true;
      music?.stop();
      music = null;
    },
  };
}
