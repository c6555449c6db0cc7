const en = {
  nav: "Search",
  title: "Search",
  subtitle: "Find songs by title, artist or genre, and people by their name.",
  placeholder: "Songs, artists, genres, people…",
  people: "People",
  searching: "Searching…",
  myCrates: "My crates",
  resultsFor: "Results for “{{q}}”",
  catalogue: "The catalogue",
  nothing: "Nothing matches “{{q}}”. Try fewer or other words.",
  emptyCatalogue: "The catalogue is empty. Upload a song to start it.",
};

/** English: the keys every language has, and the fallback (Spanish: es/search.ts). */
export const search = en;
