import { z } from "@hono/zod-openapi";
import { contracts, created, jsonBody, ok } from "../../lib/openapi.ts";
import { AuthResultSchema, Email, Nickname, Password, RoleSchema, TokenResultSchema, UserSchema } from "./schemas.ts";

const { authed, route } = contracts(["Sign-up"]);

// The catalogue has its own message for missing fields, so presence is checked in the handler, format by zod.
const SignUpBody = z.object({ email: Email.optional(), password: Password.optional(), nickname: Nickname.optional() });

export const signUp = route("post", "/users/sign-up", {
  summary: "Create an account; a verification code is emailed",
  request: jsonBody(SignUpBody),
  responses: created(AuthResultSchema, 400, 403, 409, 429),
});

export const voucherSignUp = route("post", "/users/voucher-sign-up", {
  summary: "Create an account with a voucher; the voucher is redeemed in the same transaction",
  request: jsonBody(SignUpBody.extend({ voucherCode: z.string().trim().min(1).max(64).optional() })),
  responses: created(AuthResultSchema, 400, 403, 409, 429),
});

export const adminSignUp = authed("post", "/users/admin/sign-up", {
  summary: "An admin creates an account (email marked CREATED_BY_ADMIN)",
  tags: ["Admin"],
  request: jsonBody(SignUpBody.extend({ roles: z.array(RoleSchema).max(8).optional() })),
  responses: created(UserSchema, 400, 401, 403, 409),
});

export const botSignUp = authed("post", "/users/sign-up-bot", {
  summary: "Create a bot owned by the caller; answers the bot's token",
  tags: ["Bots"],
  request: jsonBody(z.object({ nickname: Nickname })),
  responses: created(AuthResultSchema, 400, 401, 403, 409),
});

export const botToken = authed("get", "/users/bot-token", {
  summary: "A new token for one of the caller's bots; every older token of that bot stops working",
  tags: ["Bots"],
  request: { query: z.object({ botUuid: z.uuid() }) },
  responses: ok(TokenResultSchema, 400, 401, 403, 404),
});
