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
export const lists = { en, es };
