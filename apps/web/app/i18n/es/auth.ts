import type { auth as en } from "../auth.ts";

const es = {
  email: "Correo electrónico",
  password: "Contraseña",
  newPassword: "Nueva contraseña",
  nickname: "Apodo",
  passwordHint: "Al menos 8 caracteres.",
  or: "o",
  login: {
    title: "Hola de nuevo",
    subtitle: "Inicia sesión para pinchar, votar y chatear.",
    submit: "Iniciar sesión",
    magic: "Envíame un enlace de acceso",
    phone: "Entrar con tu teléfono",
    forgot: "¿Olvidaste tu contraseña?",
    noAccount: "¿Eres nuevo?",
    signup: "Crea una cuenta",
    resetDone: "Tu contraseña ha cambiado. Inicia sesión con la nueva.",
    discord: "Entrar con Discord",
  },
  signup: {
    title: "Únete a Booth",
    subtitle: "Crea una cuenta para sentarte en la cabina.",
    submit: "Crear mi cuenta",
    haveAccount: "¿Ya tienes cuenta?",
    login: "Iniciar sesión",
    voucher: "Código de invitación (opcional)",
    voucherHint: "¿Tienes un código de invitación? Escríbelo: se canjea con tu nueva cuenta.",
  },
  magic: {
    title: "Entrar con un enlace",
    subtitle: "Te enviamos un enlace que inicia sesión una vez, durante 15 minutos.",
    submit: "Envíame un enlace",
    confirmTitle: "Entrar en Booth",
    confirm: "Iniciar sesión",
    confirmText: "Pulsa el botón para terminar de entrar en este dispositivo.",
  },
  forgot: {
    title: "Restablece tu contraseña",
    subtitle: "Te enviamos un enlace para elegir una nueva contraseña.",
    submit: "Enviar el enlace",
  },
  reset: {
    title: "Elige una nueva contraseña",
    submit: "Guardar la contraseña",
    missing: "Este enlace no tiene código. Pide uno nuevo.",
  },
  verify: {
    title: "Verifica tu correo",
    subtitle: "Enviamos un código de 6 cifras a {{email}}.",
    code: "Código",
    submit: "Verificar",
    resend: "Enviar un código nuevo",
    resent: "Un código nuevo va de camino.",
    done: "Tu correo está verificado.",
    skip: "Más tarde",
  },
  phone: {
    title: "Entrar con tu teléfono",
    subtitle: "Te enviamos un código por mensaje a tu móvil.",
    number: "Número de móvil",
    numberHint: "Con el prefijo del país, p. ej. +34 612 345 678",
    channel: "Enviar por",
    sms: "SMS",
    whatsapp: "WhatsApp",
    send: "Enviar el código",
    code: "Código",
    sent: "Enviamos un código a {{phone}}.",
    verify: "Entrar",
    other: "Usar otro número",
  },
  unsent: {
    emailCode: {
      log: "No hay ningún proveedor de correo configurado: el código está en el registro del servidor.",
      outbox: "No hay ningún proveedor de correo configurado: pide el código a quien administra este sitio.",
    },
    emailLink: {
      log: "No hay ningún proveedor de correo configurado: el enlace está en el registro del servidor.",
      outbox: "No hay ningún proveedor de correo configurado: pide el enlace a quien administra este sitio.",
    },
    smsCode: {
      log: "No hay ningún proveedor de SMS ni de WhatsApp configurado: el código está en el registro del servidor.",
      outbox:
        "No hay ningún proveedor de SMS ni de WhatsApp configurado: pide el código a quien administra este sitio.",
    },
  },
} satisfies typeof en;
export const auth = es;
