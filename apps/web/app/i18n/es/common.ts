import type { common as en } from "../common.ts";

const es = {
  brand: "Booth",
  tagline: "Salas de música en vivo. Toma asiento en la cabina.",
  skipToContent: "Saltar al contenido",
  nav: {
    label: "Principal",
    rooms: "Salas",
    createRoom: "Crear una sala",
    login: "Iniciar sesión",
    signup: "Registrarse",
    more: "Más",
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
  version: "Versión {{version}}",
  player: {
    volume: "Volumen",
    mute: "Silenciar",
    unmute: "Activar sonido",
    preview: "Avance",
    previewHint: "Un avance de 30 segundos: la canción entera suena para quien tiene la cuenta premium del proveedor.",
  },
  bar: {
    label: "La sala en la que estás",
    nothing: "No suena nada",
    inRoom: "En la sala",
    connecting: "Conectando…",
    reconnecting: "Reconectando…",
    closed: "Sin conexión",
    back: "Volver a la sala",
    leave: "Salir de la sala",
    unmute: "Toca para escuchar la sala",
  },
} satisfies typeof en;
export const common = es;
