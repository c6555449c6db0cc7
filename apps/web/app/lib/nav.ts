/** The header's links, in order; `label` is a key of the common namespace. `signedIn` hides a link from guests. */
export const NAV_LINKS: { to: string; label: string; signedIn?: boolean }[] = [
  { to: "/", label: "nav.rooms" },
  { to: "/rooms/new", label: "nav.createRoom", signedIn: true },
  { to: "/search", label: "search:nav" },
  { to: "/crates", label: "crates:nav", signedIn: true },
  { to: "/upload", label: "upload:nav", signedIn: true },
  { to: "/communities", label: "communities:nav", signedIn: true },
  { to: "/messages", label: "messages:nav", signedIn: true },
  { to: "/events", label: "communities:eventsNav" },
  { to: "/shop", label: "shop:nav" },
  { to: "/ranking", label: "shop:rankingNav" },
  { to: "/me", label: "profile:nav", signedIn: true },
];
