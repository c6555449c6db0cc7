import type { pwa as en } from "../pwa.ts";

const es = {
  offline: {
    title: "Sin conexión",
    body: "Booth no puede conectarse a internet ahora mismo. Revisa tu conexión: la página vuelve en cuanto estés en línea.",
    retry: "Reintentar",
  },
  push: {
    heading: "Notificaciones",
    explain: "Entérate en este navegador cuando un DJ que sigues empiece a pinchar, aunque Booth esté cerrado.",
    on: "Las notificaciones están activadas en este navegador.",
    off: "Las notificaciones están desactivadas en este navegador.",
    turnOn: "Activar notificaciones",
    turnOff: "Desactivar notificaciones",
    working: "Un momento…",
    denied:
      "Este navegador bloquea las notificaciones de Booth. Permítelas en la configuración del sitio para activarlas.",
    unsupported: "Este navegador no puede mostrar notificaciones de sitios web.",
    failed: "No se pudieron cambiar las notificaciones: {{reason}}",
  },
} satisfies typeof en;
export const pwa = es;
