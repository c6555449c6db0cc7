/** The one place edge errors become words: the code's text in the person's language, else the edge's message. */
import { BoothApiError } from "@booth/sdk";
import { ERROR_MESSAGES, isErrorCode } from "@booth/sdk/error-codes";
import { describe, expect, it, vi } from "vitest";
import { errors as en } from "../app/i18n/errors.ts";
import { errors as es } from "../app/i18n/es/errors.ts";
import { userMessage } from "../app/lib/errors.server.ts";
import { errorText, GENERIC_ERROR } from "../app/lib/errors.ts";

const refusal = (status: number, message: string | string[], code?: string) =>
  new BoothApiError(
    status,
    Array.isArray(message) ? (message[0] ?? "") : message,
    { statusCode: status, message, error: "x", ...(code ? { code } : {}) },
    "http://edge/x",
  );

describe("errorText", () => {
  it("shows a code's text in the person's language", () => {
    const wrong = refusal(401, "Incorrect email or password.", "INCORRECT_LOGIN");
    expect(errorText(wrong, "en")).toBe("Incorrect email or password.");
    expect(errorText(wrong, "es")).toBe("El correo o la contraseña no son correctos.");
    expect(errorText(refusal(409, "This nickname is already taken.", "NICKNAME_TAKEN"), "es")).toBe(
      "Este apodo ya está en uso.",
    );
  });

  it("shows the edge's message, capitalised, for a code the web has no text for (or no code)", () => {
    expect(errorText(refusal(404, "artist not found.", "NOT_FOUND"), "es")).toBe("Artist not found.");
    expect(errorText(refusal(403, "Forbidden"), "es")).toBe("Forbidden");
    expect(errorText({ statusCode: 400, message: "Choose an invitation." }, "es")).toBe("Choose an invitation.");
    expect(errorText(refusal(404, "x", "constructor"), "es")).toBe("X");
  });

  it("names the first bad field of a validation refusal inside the translation", () => {
    const invalid = refusal(400, ["email: Invalid email address", "password: Too small"], "VALIDATION_FAILED");
    expect(errorText(invalid, "en")).toBe("Email: Invalid email address");
    expect(errorText(invalid, "es")).toBe("Revisa los datos: Email: Invalid email address");
  });

  it("gives the generic text for a 5xx and for what is not an answer of the edge", () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(errorText(refusal(503, "Spotify is not configured.", "UNAVAILABLE"), "en")).toBe(GENERIC_ERROR);
    expect(errorText(refusal(500, "Internal Server Error", "INTERNAL_ERROR"), "es")).toBe(es.generic);
    expect(errorText(new TypeError("fetch failed"), "es")).toBe(es.generic);
    expect(logged).toHaveBeenCalledTimes(1);
    logged.mockRestore();
  });

  it("reads the language of the request that asked: ?lang=, the cookie, Accept-Language", () => {
    const taken = refusal(409, "This nickname is already taken.", "NICKNAME_TAKEN");
    expect(userMessage(taken, new Request("http://web/signup?lang=es"))).toBe(es.NICKNAME_TAKEN);
    expect(userMessage(taken, new Request("http://web/signup", { headers: { cookie: "booth_lang=es" } }))).toBe(
      es.NICKNAME_TAKEN,
    );
    const spanish = new Request("http://web/signup", { headers: { "accept-language": "es-MX,es;q=0.9" } });
    expect(userMessage(taken, spanish)).toBe(es.NICKNAME_TAKEN);
    expect(userMessage(taken, new Request("http://web/signup"))).toBe("This nickname is already taken.");
  });

  it("keys every text on a code of the edge, the English ones the edge's messages byte for byte", () => {
    for (const [code, text] of Object.entries(en)) {
      if (code === "generic") continue;
      expect(isErrorCode(code), code).toBe(true);
      if (code !== "VALIDATION_FAILED") expect(text, code).toBe(ERROR_MESSAGES[code as keyof typeof ERROR_MESSAGES]);
    }
  });
});
