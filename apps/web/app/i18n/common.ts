const en = {
  brand: "Booth",
  tagline: "Live music rooms. Take a seat in the booth.",
  skipToContent: "Skip to content",
  nav: {
    label: "Main",
    rooms: "Rooms",
    createRoom: "Create a room",
    login: "Log in",
    signup: "Sign up",
    more: "More",
    logout: "Log out",
  },
  language: { en: "English", es: "Español", label: "Language" },
  guest: "Guest",
  loading: "Loading…",
  error: {
    generic: "Something went wrong, please try again",
    notFound: "This page does not exist.",
    back: "Back to the rooms",
  },
  verifyBanner: "Verify your email to chat in public rooms.",
  verifyNow: "Verify now",
  footer: "Booth is open source. Music from the demo catalogue is made by the project.",
  version: "Version {{version}}",
  player: {
    volume: "Volume",
    mute: "Mute",
    unmute: "Sound on",
    preview: "Preview",
    previewHint: "A 30-second preview: the whole song plays for listeners with the provider's premium account.",
  },
  bar: {
    label: "The room you are in",
    nothing: "Nothing is playing",
    inRoom: "In the room",
    connecting: "Connecting…",
    reconnecting: "Reconnecting…",
    closed: "Not connected",
    back: "Back to the room",
    leave: "Leave the room",
    unmute: "Tap to hear the room",
  },
};

/** English: the keys every language has, and the fallback (Spanish: es/common.ts). */
export const common = en;
