import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody } from "../../lib/openapi.ts";
import { AuthResultSchema, Email, Nickname, Password, RoleSchema, TokenResultSchema, UserSchema } from "./schemas.ts";

const tags = ["Sign-up"];

// The catalogue has its own message for missing fields, so presence is checked in the handler, format by zod.
const SignUpBody = z.object({ email: Email.optional(), password: Password.optional(), nickname: Nickname.optional() });

export const signUp = createRoute({
  method: "post",
  path: "/users/sign-up",
  tags,
  summary: "Create an account; a verification code is emailed",
  request: jsonBody(SignUpBody),
  responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 403, 409, 429) },
});

export const voucherSignUp = createRoute({
  method: "post",
  path: "/users/voucher-sign-up",
  tags,
  summary: "Create an account with a voucher; the voucher is redeemed in the same transaction",
  request: jsonBody(SignUpBody.extend({ voucherCode: z.string().trim().min(1).max(64).optional() })),
  responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 403, 409, 429) },
});

export const adminSignUp = createRoute({
  method: "post",
  path: "/users/admin/sign-up",
  tags: ["Admin"],
  summary: "An admin creates an account (email marked CREATED_BY_ADMIN)",
  security: bearer,
  request: jsonBody(SignUpBody.extend({ roles: z.array(RoleSchema).max(8).optional() })),
  responses: { 201: json(UserSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const botSignUp = createRoute({
  method: "post",
  path: "/users/sign-up-bot",
  tags: ["Bots"],
  summary: "Create a bot owned by the caller; answers the bot's token",
  security: bearer,
  request: jsonBody(z.object({ nickname: Nickname })),
  responses: { 201: json(AuthResultSchema, "Created"), ...errors(400, 401, 403, 409) },
});

export const botToken = createRoute({
  method: "get",
  path: "/users/bot-token",
  tags: ["Bots"],
  summary: "A new token for one of the caller's bots; every older token of that bot stops working",
  security: bearer,
  request: { query: z.object({ botUuid: z.uuid() }) },
  responses: { 200: json(TokenResultSchema), ...errors(400, 401, 403, 404) },
});
