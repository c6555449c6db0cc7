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
const es = {
  nav: "Buscar",
  title: "Buscar",
  subtitle: "Encuentra canciones por título, artista o género, y personas por su nombre.",
  placeholder: "Canciones, artistas, géneros, personas…",
  people: "Personas",
  searching: "Buscando…",
  myCrates: "Mis listas",
  resultsFor: "Resultados para «{{q}}»",
  catalogue: "El catálogo",
  nothing: "Nada coincide con «{{q}}». Prueba con menos palabras u otras.",
  emptyCatalogue: "El catálogo está vacío. Sube una canción para empezarlo.",
} satisfies typeof en;
export const search = { en, es };
