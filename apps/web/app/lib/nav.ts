/**
 * The header's links, in order; `label` is a key of the common namespace. `signedIn` hides a link from guests. `more`
 * puts a less used link in the header's "More" group, so that the header stays one row on a laptop's screen in the
 * longer languages too.
 */
export const NAV_LINKS: { to: string; label: string; signedIn?: boolean; more?: boolean }[] = [
  { to: "/", label: "nav.rooms" },
  { to: "/rooms/new", label: "nav.createRoom", signedIn: true },
  { to: "/search", label: "search:nav" },
  { to: "/crates", label: "crates:nav", signedIn: true },
  { to: "/messages", label: "messages:nav", signedIn: true },
  { to: "/me", label: "profile:nav", signedIn: true },
  { to: "/upload", label: "upload:nav", signedIn: true, more: true },
  { to: "/communities", label: "communities:nav", signedIn: true, more: true },
  { to: "/events", label: "communities:eventsNav", more: true },
  { to: "/shop", label: "shop:nav", more: true },
  { to: "/ranking", label: "shop:rankingNav", more: true },
];
