import { loadScript } from "./scripts.ts";

/** The part of MusicKit JS (v3) Booth uses (times in seconds). */
export interface MusicKitInstance {
  readonly isAuthorized: boolean;
  /** The signed-in listener's token: MusicKit keeps the one of a sign-in on this browser, and takes one it is given. */
  musicUserToken: string;
  isPlaying: boolean;
  currentPlaybackTime: number;
  playbackState: number;
  volume: number;
  /** Signs the person in to Apple Music (Apple's own window) and resolves to their music user token. */
  authorize(): Promise<string>;
  /** Forgets the sign-in this browser holds. */
  unauthorize(): Promise<unknown>;
  /** `startTime` (seconds): where the song starts; MusicKit cannot seek before playback began. */
  setQueue(options: { song: string; startTime?: number; startPlaying?: boolean }): Promise<unknown>;
  play(): Promise<void>;
  pause(): void;
  stop(): void;
  seekToTime(seconds: number): Promise<void>;
}
interface MusicKitNamespace {
  configure(options: { developerToken: string; app: { name: string; build: string } }): Promise<MusicKitInstance>;
  getInstance(): MusicKitInstance | undefined;
  PlaybackStates: { ended: number; completed: number };
}
declare global {
  interface Window {
    MusicKit?: MusicKitNamespace;
  }
}

/** Loads MusicKit JS from `url` (the web's `MUSICKIT_JS_URL`, never anything else) once per page. */
export const loadMusicKit = (url: string) =>
  loadScript(url, (done) => {
    if (window.MusicKit) return done();
    document.addEventListener("musickitloaded", () => done(), { once: true });
  });

/** MusicKit loaded and configured with Booth's developer token: once per page (the room's player may have done it). */
export async function musicKitInstance(url: string, developerToken: string): Promise<MusicKitInstance> {
  await loadMusicKit(url);
  const MusicKit = window.MusicKit;
  if (!MusicKit) throw new Error("MusicKit did not load");
  return MusicKit.getInstance() ?? (await MusicKit.configure({ developerToken, app: { name: "Booth", build: "1" } }));
}
