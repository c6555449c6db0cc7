const en = {
  brand: "Booth",
  tagline: "Live music rooms. Take a seat in the booth.",
  nav: { rooms: "Rooms", createRoom: "Create a room", login: "Log in", signup: "Sign up", logout: "Log out" },
  language: { en: "English", es: "Español", label: "Language" },
  guest: "Guest",
  loading: "Loading…",
  error: {
    generic: "Something went wrong, please try again",
    notFound: "This page does not exist.",
    back: "Back to the rooms",
  },
  verifyBanner: "Verify your email to chat in public rooms.",
  verifyNow: "Verify now",
  footer: "Booth is open source. Music from the demo catalogue is made by the project.",
};
const es = {
  brand: "Booth",
  tagline: "Salas de música en vivo. Toma asiento en la cabina.",
  nav: {
    rooms: "Salas",
    createRoom: "Crear una sala",
    login: "Iniciar sesión",
    signup: "Registrarse",
    logout: "Cerrar sesión",
  },
  language: { en: "English", es: "Español", label: "Idioma" },
  guest: "Invitado",
  loading: "Cargando…",
  error: {
    generic: "Algo salió mal, inténtalo de nuevo",
    notFound: "Esta página no existe.",
    back: "Volver a las salas",
  },
  verifyBanner: "Verifica tu correo para chatear en salas públicas.",
  verifyNow: "Verificar ahora",
  footer: "Booth es de código abierto. La música del catálogo de demostración la crea el proyecto.",
} satisfies typeof en;
export const common = { en, es };
