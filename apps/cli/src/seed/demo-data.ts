/** What `booth seed` puts in an instance besides the demo catalogue (which the edge makes itself at start). */

/** The account that owns the edge's demo catalogue (apps/edge/src/seed/demo-catalogue.ts). */
export const DEMO_CATALOGUE_EMAIL = "demo-catalogue@booth.local";
/** How many tracks the edge's demo catalogue has. */
export const DEMO_TRACKS = 20;
export const DEMO_DOMAIN = "demo.booth.local";

export interface DemoUser {
  key: string;
  nickname: string;
  firstName: string;
  color: string;
  pronoun: string;
  bio: string;
}

export const DEMO_USERS: DemoUser[] = [
  {
    key: "aurora",
    nickname: "DJ Aurora",
    firstName: "Aurora",
    color: "#8B5CF6",
    pronoun: "she/her",
    bio: "Ambient at dawn, synths at dusk.",
  },
  {
    key: "basil",
    nickname: "Basil Beats",
    firstName: "Basil",
    color: "#10B981",
    pronoun: "he/him",
    bio: "Drones, loops and long walks.",
  },
  {
    key: "cosmo",
    nickname: "Cosmo",
    firstName: "Cosmo",
    color: "#F59E0B",
    pronoun: "they/them",
    bio: "Neon harmonics only.",
  },
  {
    key: "delphine",
    nickname: "Delphine",
    firstName: "Delphine",
    color: "#EF4444",
    pronoun: "she/her",
    bio: "Chamber music for the dance floor.",
  },
  {
    key: "ezra",
    nickname: "Ezra Echo",
    firstName: "Ezra",
    color: "#3B82F6",
    pronoun: "he/him",
    bio: "Every song twice, the second time louder.",
  },
  {
    key: "fern",
    nickname: "Fern",
    firstName: "Fern",
    color: "#14B8A6",
    pronoun: "she/her",
    bio: "Slow waves and quiet rooms.",
  },
];
export const demoEmail = (user: DemoUser) => `${user.key}@${DEMO_DOMAIN}`;

export interface DemoRoom {
  slug: string;
  name: string;
  owner: string;
  description: string;
  numberOfDjs: number;
  songsPerDj: number | null;
}

export const DEMO_ROOMS: DemoRoom[] = [
  {
    slug: "demo-lounge",
    name: "Demo Lounge",
    owner: "aurora",
    description: "Where every new listener lands.",
    numberOfDjs: 3,
    songsPerDj: null,
  },
  {
    slug: "synth-garage",
    name: "Synth Garage",
    owner: "cosmo",
    description: "Oscillators welcome.",
    numberOfDjs: 2,
    songsPerDj: 2,
  },
  {
    slug: "ambient-attic",
    name: "Ambient Attic",
    owner: "fern",
    description: "Quiet music, loud hearts.",
    numberOfDjs: 4,
    songsPerDj: null,
  },
];

export const QUEUE_SONGS = 4;
export const PICKS_SONGS = 5;
export const picksCrateName = (user: DemoUser) => `${user.firstName}'s picks`;

export interface DemoAvatar {
  slug: string;
  name: string;
  /** A season award for the current season, earned with this many points. */
  seasonAwardPoints?: number;
}
export const DEMO_AVATARS: DemoAvatar[] = [
  { slug: "demo-vinyl", name: "Vinyl" },
  { slug: "demo-headphones", name: "Headphones" },
  { slug: "demo-cassette", name: "Cassette" },
  { slug: "demo-season-star", name: "Season star", seasonAwardPoints: 10 },
];

export const DEMO_SEASON_DAYS = 90;
