/** Words the music, profile and shop screens share: paging, song actions, statuses. */
const en = {
  previous: "Previous",
  next: "Next",
  page: "Page {{page}} of {{pages}}",
  addToQueue: "Add to queue",
  addToCrate: "Add to a crate",
  chooseCrate: "Choose a crate…",
  add: "Add",
  added: "Added",
  inQueue: "In your queue",
  signInToCollect: "Sign in to keep songs in crates",
  songs_one: "{{count}} song",
  songs_other: "{{count}} songs",
};

/** English: the keys every language has, and the fallback (Spanish: es/lists.ts). */
export const lists = en;
