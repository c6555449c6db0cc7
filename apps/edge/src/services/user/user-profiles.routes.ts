import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errors, json, jsonBody, Offset, UuidParam } from "../../lib/openapi.ts";
import { BadgeSchema, MAX_PEOPLE, PublicProfileSchema } from "../../lib/profiles.ts";
import { MAX_PROFILE_BATCH, MUSIC_PROVIDERS } from "./profiles.ts";
import { CapabilitySchema, Color, Nickname, OwnProfileSchema, RoleSchema, UserSchema } from "./schemas.ts";

const tags = ["Profiles"];

const text = (max: number) => z.string().trim().max(max).nullable().optional();
const Social = z
  .string()
  .trim()
  .max(200)
  .regex(/^(|@?[\w.-]{1,100}|https:\/\/\S+)$/, "must be a handle or an https URL")
  .optional();
const Socials = { facebook: Social, instagram: Social, twitter: Social, snapchat: Social, tiktok: Social };

const ProfileUpdate = z.object({
  nickname: Nickname.optional(),
  color: Color.optional(),
  avatarId: z.string().trim().min(1).max(64).optional(),
  firstName: text(64),
  lastName: text(64),
  pronoun: text(32),
  displayPronouns: z.boolean().optional(),
  songOfTheWeek: text(200),
  zodiac: text(32),
  bio: text(1000),
  priceForGig: z.number().int().min(0).max(1_000_000).nullable().optional(),
  allowExplicitAudio: z.boolean().optional(),
  musicProviders: z.array(z.enum(MUSIC_PROVIDERS)).max(MUSIC_PROVIDERS.length).optional(),
  ...Socials,
});

export const getUser = createRoute({
  method: "get",
  path: "/users/user/{id}",
  tags: ["Users"],
  summary: "A user's account (the user themselves, or moderators and above)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const ownCapabilities = createRoute({
  method: "get",
  path: "/users/capabilities",
  tags: ["Users"],
  summary: "What the caller may do: capabilities and roles",
  security: bearer,
  responses: {
    200: json(
      z.object({ capabilities: z.array(CapabilitySchema), roles: z.array(RoleSchema) }).openapi("Capabilities"),
    ),
    ...errors(401, 403),
  },
});

export const getOwnProfile = createRoute({
  method: "get",
  path: "/users/profile",
  tags,
  summary: "The caller's own profile",
  security: bearer,
  responses: { 200: json(OwnProfileSchema), ...errors(401, 403, 404) },
});

export const updateProfile = createRoute({
  method: "post",
  path: "/users/profile",
  tags,
  summary: "Update the caller's own profile (only the fields sent change)",
  security: bearer,
  request: jsonBody(ProfileUpdate),
  responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404, 409) },
});

export const updateSocials = createRoute({
  method: "post",
  path: "/users/user-socials",
  tags,
  summary: "Set the caller's social links (an empty string clears one)",
  security: bearer,
  request: jsonBody(z.object(Socials)),
  responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404) },
});

export const updateProfileAdmin = createRoute({
  method: "post",
  path: "/users/profile-admin",
  tags: ["Admin"],
  summary: "An admin edits anyone's profile",
  security: bearer,
  request: jsonBody(ProfileUpdate.extend({ userUuid: z.uuid() })),
  responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404, 409) },
});

export const getProfile = createRoute({
  method: "get",
  path: "/profile/{id}",
  tags,
  summary: "A user's public profile (anyone)",
  request: { params: UuidParam },
  responses: { 200: json(PublicProfileSchema), ...errors(400, 404) },
});

export const searchPeople = createRoute({
  method: "get",
  path: "/users/search",
  tags,
  summary:
    "People whose nickname holds the words, those it starts with first (signed in; banned and deactivated accounts are not found)",
  security: bearer,
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(100).openapi({ description: "part of a nickname, any case" }),
      limit: z.coerce.number().int().min(1).max(MAX_PEOPLE).default(20),
    }),
  },
  responses: { 200: json(z.array(PublicProfileSchema)), ...errors(400, 401, 403, 429) },
});

export const getProfileForService = createRoute({
  method: "get",
  path: "/profile/{id}/service",
  tags: ["Service"],
  summary: "A user's full profile, for services",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(OwnProfileSchema), ...errors(400, 401, 403, 404) },
});

export const listProfiles = createRoute({
  method: "get",
  path: "/users/profiles",
  tags,
  summary: `Public profiles of many users at once (at most ${MAX_PROFILE_BATCH}); unknown ids are skipped`,
  request: {
    query: z.object({
      users: z
        .union([
          z.string().max(MAX_PROFILE_BATCH * 40),
          z.array(z.string().max(MAX_PROFILE_BATCH * 40)).max(MAX_PROFILE_BATCH),
        ])
        .openapi({ description: "user uuids: comma-separated or repeated" }),
    }),
  },
  responses: { 200: json(z.array(PublicProfileSchema)), ...errors(400) },
});

const BadgesBody = z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).min(1).max(6) });

export const addBadges = createRoute({
  method: "post",
  path: "/users/add-badges-service",
  tags: ["Service"],
  summary: "Add badges to a user (services)",
  security: bearer,
  request: jsonBody(BadgesBody),
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const removeBadges = createRoute({
  method: "post",
  path: "/users/remove-badges-service",
  tags: ["Service"],
  summary: "Remove badges from a user (services)",
  security: bearer,
  request: jsonBody(BadgesBody),
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const changeBadges = createRoute({
  method: "post",
  path: "/users/change-badges-admin",
  tags: ["Admin"],
  summary: "An admin sets a user's badges exactly",
  security: bearer,
  request: jsonBody(z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).max(6) })),
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});

export const allUserProfiles = createRoute({
  method: "get",
  path: "/users/service/all-user-profiles",
  tags: ["Service"],
  summary: "Every active user's full profile, paged (services)",
  security: bearer,
  request: {
    query: z.object({
      take: z.coerce.number().int().min(1).max(1000).default(100),
      skip: Offset,
    }),
  },
  responses: {
    200: json(z.object({ data: z.array(OwnProfileSchema), total: z.number().int() }).openapi("ProfilePage")),
    ...errors(400, 401, 403),
  },
});

export const userProfileForService = createRoute({
  method: "get",
  path: "/users/service/{id}/user-profile",
  tags: ["Service"],
  summary: "One user's account and profile (services)",
  security: bearer,
  request: { params: UuidParam },
  responses: { 200: json(UserSchema), ...errors(400, 401, 403, 404) },
});
