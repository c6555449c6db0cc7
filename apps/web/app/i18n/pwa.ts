const en = {
  offline: {
    title: "You're offline",
    body: "Booth can't reach the internet right now. Check your connection: the page comes back as soon as you're online.",
    retry: "Try again",
  },
  push: {
    heading: "Notifications",
    explain: "Hear from this browser when a DJ you follow starts playing, even with Booth closed.",
    on: "Notifications are on in this browser.",
    off: "Notifications are off in this browser.",
    turnOn: "Turn on notifications",
    turnOff: "Turn off notifications",
    working: "Just a moment…",
    denied: "This browser blocks notifications from Booth. Allow them in the site settings to turn them on.",
    unsupported: "This browser cannot show notifications from websites.",
    failed: "Notifications could not be changed: {{reason}}",
  },
};

/** English: the keys every language has, and the fallback (Spanish: es/pwa.ts). */
export const pwa = en;
