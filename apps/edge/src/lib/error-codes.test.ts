import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_OWNED_ROOMS, TOO_MANY_ROOMS } from "../services/room/room-changes.ts";
import { createTestApp, type TestApp } from "../testing.ts";
import { codeFor, ERROR_CODES, ERROR_MESSAGES, isErrorCode, STATUS_CODES } from "./error-codes.ts";

describe("the error codes registry", () => {
  it("gives each meaning one code: no message twice, codes in UPPER_SNAKE_CASE (the spec's one aside)", () => {
    const messages = Object.values(ERROR_MESSAGES);
    expect(new Set(messages).size).toBe(messages.length);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    for (const code of ERROR_CODES) if (code !== "mismatched-token-cost") expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
  });

  it("names an answer by its message, a list of bad fields VALIDATION_FAILED, anything else by its status", () => {
    for (const [code, message] of Object.entries(ERROR_MESSAGES)) expect(codeFor(409, message)).toBe(code);
    expect(codeFor(400, ["email: Invalid email address"])).toBe("VALIDATION_FAILED");
    expect(codeFor(404, "Artist not found.")).toBe("NOT_FOUND");
    expect(codeFor(418, "I'm a teapot")).toBe("ERROR");
    expect(codeFor(409, "The token cost has changed; please get a new quote.", "CONFLICT")).toBe("CONFLICT");
    for (const code of Object.values(STATUS_CODES)) expect(isErrorCode(code)).toBe(true);
    expect(TOO_MANY_ROOMS).toBe(`You can own at most ${MAX_OWNED_ROOMS} rooms.`);
  });
});

describe("every error answer carries a registered code", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("on refusals people meet: a wrong password, a taken nickname, a bad field, a missing room, no token", async () => {
    const body = { email: "coded@example.com", password: "password123", nickname: "coded" };
    await t.api().user.POST("/users/sign-up", { body });
    const taken = await t.api().user.POST("/users/sign-up", { body: { ...body, email: "coded2@example.com" } });
    expect(taken.error).toMatchObject({ message: "This nickname is already taken.", code: "NICKNAME_TAKEN" });

    const wrong = await t.api().user.POST("/auth/login", { body: { email: body.email, password: "wrong password" } });
    expect(wrong.error).toMatchObject({
      statusCode: 401,
      message: "Incorrect email or password.",
      code: "INCORRECT_LOGIN",
    });

    const invalid = await t.api().user.POST("/auth/login", { body: { email: "not an email", password: "x" } });
    expect(invalid.response.status).toBe(400);
    expect(invalid.error?.code).toBe("VALIDATION_FAILED");
    expect(Array.isArray(invalid.error?.message)).toBe(true);

    const nowhere = await t.request("GET", "/api/nope");
    expect(nowhere.body).toMatchObject({ statusCode: 404, code: "NOT_FOUND" });

    const anonymous = await t.request("GET", "/api/user-service/auth/session");
    expect(anonymous.body).toMatchObject({ statusCode: 401, code: "UNAUTHORIZED" });

    for (const answer of [taken.error, wrong.error, invalid.error, nowhere.body, anonymous.body])
      expect(isErrorCode((answer as { code?: unknown }).code)).toBe(true);
  });
});
