import { AuthChannel, Capability, UserRole, values } from "@booth/db/schema";
import { z } from "@hono/zod-openapi";
import { BadgeSchema, PublicProfileSchema } from "./public-profiles.ts";

export const Email = z.email().max(254).openapi({ example: "dj@example.com" });
export const Password = z.string().min(8).max(128).openapi({ example: "correct horse battery" });
export const Nickname = z
  .string()
  .trim()
  .min(2)
  .max(32)
  .regex(/^[\p{L}\p{N}_.\- ]+$/u, "may contain letters, digits, spaces, '_', '.' and '-'");
/** A one-time code sent by mail, SMS or voice. */
export const SixDigitCode = z
  .string()
  .trim()
  .regex(/^\d{6}$/, "must be the 6-digit code");
/** How a code reaches a phone. */
export const CodeChannel = z.enum(values(AuthChannel)).default("sms");
export const Color = z.string().regex(/^#[0-9a-fA-F]{6}$/, "must be a hex colour like #8B5CF6");
export const RoleSchema = z.enum(values(UserRole));
export const CapabilitySchema = z.enum(values(Capability));

/** The caller's own profile adds what only they (and staff) see. */
export const OwnProfileSchema = PublicProfileSchema.extend({
  allowExplicitAudio: z.boolean(),
  musicProviders: z.array(z.string()),
}).openapi("OwnProfile");

export const UserSchema = z
  .object({
    uuid: z.uuid(),
    email: z.string().nullable(),
    roles: z.array(RoleSchema),
    badges: z.array(BadgeSchema),
    capabilities: z.array(CapabilitySchema),
    isBot: z.boolean(),
    botOwnerUuid: z.uuid().nullable(),
    verifiedAt: z.string().nullable(),
    deactivatedAt: z.string().nullable(),
    lastLoginAt: z.string().nullable(),
    createdAt: z.string(),
    profile: OwnProfileSchema.nullable(),
  })
  .openapi("User");

export const AuthResultSchema = z
  .object({
    accessToken: z.string(),
    tokenType: z.literal("Bearer"),
    expiresAt: z.string(),
    user: UserSchema,
  })
  .openapi("AuthResult");

export const TokenResultSchema = z
  .object({ accessToken: z.string(), tokenType: z.literal("Bearer"), expiresAt: z.string() })
  .openapi("TokenResult");

export const MessageSchema = z.object({ message: z.string() }).openapi("Message");
