import type { lists as en } from "../lists.ts";

const es = {
  previous: "Anterior",
  next: "Siguiente",
  page: "Página {{page}} de {{pages}}",
  addToQueue: "Añadir a la cola",
  addToCrate: "Añadir a una lista",
  chooseCrate: "Elige una lista…",
  add: "Añadir",
  added: "Añadida",
  inQueue: "En tu cola",
  signInToCollect: "Inicia sesión para guardar canciones en listas",
  songs_one: "{{count}} canción",
  songs_other: "{{count}} canciones",
} satisfies typeof en;
export const lists = es;
