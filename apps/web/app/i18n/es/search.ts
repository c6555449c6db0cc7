import type { search as en } from "../search.ts";

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
export const search = es;
