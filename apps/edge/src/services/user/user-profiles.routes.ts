import { z } from "@hono/zod-openapi";
import { allForServices, callersOwn, oneItem, publicItem } from "../../lib/contract-families.ts";
import { contracts, jsonBody, ok, pageSchema } from "../../lib/openapi.ts";
import { MAX_PROFILE_BATCH, MUSIC_PROVIDERS } from "./profiles.ts";
import { BadgeSchema, MAX_PEOPLE, PublicProfileSchema } from "./public-profiles.ts";
import { CapabilitySchema, Color, Nickname, OwnProfileSchema, RoleSchema, UserSchema } from "./schemas.ts";

const { authed, route } = contracts(["Profiles"]);
const users = contracts(["Users"]).authed;
const service = contracts(["Service"]).authed;
const admin = contracts(["Admin"]).authed;

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

export const getUser = oneItem(
  users,
  "/users/user/{id}",
  "A user's account (the user themselves, or moderators and above)",
  UserSchema,
);

export const ownCapabilities = callersOwn(
  users,
  "/users/capabilities",
  "What the caller may do: capabilities and roles",
  z.object({ capabilities: z.array(CapabilitySchema), roles: z.array(RoleSchema) }).openapi("Capabilities"),
);

export const getOwnProfile = authed("get", "/users/profile", {
  summary: "The caller's own profile",
  responses: ok(OwnProfileSchema, 401, 403, 404),
});

export const updateProfile = authed("post", "/users/profile", {
  summary: "Update the caller's own profile (only the fields sent change)",
  request: jsonBody(ProfileUpdate),
  responses: ok(OwnProfileSchema, 400, 401, 403, 404, 409),
});

export const updateSocials = authed("post", "/users/user-socials", {
  summary: "Set the caller's social links (an empty string clears one)",
  request: jsonBody(z.object(Socials)),
  responses: ok(OwnProfileSchema, 400, 401, 403, 404),
});

export const updateProfileAdmin = admin("post", "/users/profile-admin", {
  summary: "An admin edits anyone's profile",
  request: jsonBody(ProfileUpdate.extend({ userUuid: z.uuid() })),
  responses: ok(OwnProfileSchema, 400, 401, 403, 404, 409),
});

export const getProfile = publicItem(route, "/profile/{id}", "A user's public profile (anyone)", PublicProfileSchema);

export const searchPeople = authed("get", "/users/search", {
  summary:
    "People whose nickname holds the words, those it starts with first (signed in; banned and deactivated accounts are not found)",
  request: {
    query: z.object({
      q: z.string().trim().min(1).max(100).openapi({ description: "part of a nickname, any case" }),
      limit: z.coerce.number().int().min(1).max(MAX_PEOPLE).default(20),
    }),
  },
  responses: ok(z.array(PublicProfileSchema), 400, 401, 403, 429),
});

export const getProfileForService = oneItem(
  service,
  "/profile/{id}/service",
  "A user's full profile, for services",
  OwnProfileSchema,
);

export const listProfiles = route("get", "/users/profiles", {
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
  responses: ok(z.array(PublicProfileSchema), 400),
});

const BadgesBody = z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).min(1).max(6) });

export const addBadges = service("post", "/users/add-badges-service", {
  summary: "Add badges to a user (services)",
  request: jsonBody(BadgesBody),
  responses: ok(UserSchema, 400, 401, 403, 404),
});

export const removeBadges = service("post", "/users/remove-badges-service", {
  summary: "Remove badges from a user (services)",
  request: jsonBody(BadgesBody),
  responses: ok(UserSchema, 400, 401, 403, 404),
});

export const changeBadges = admin("post", "/users/change-badges-admin", {
  summary: "An admin sets a user's badges exactly",
  request: jsonBody(z.object({ userUuid: z.uuid(), badges: z.array(BadgeSchema).max(6) })),
  responses: ok(UserSchema, 400, 401, 403, 404),
});

export const allUserProfiles = allForServices(
  service,
  "/users/service/all-user-profiles",
  "Every active user's full profile, paged (services)",
  pageSchema(OwnProfileSchema, "ProfilePage"),
);

export const userProfileForService = oneItem(
  service,
  "/users/service/{id}/user-profile",
  "One user's account and profile (services)",
  UserSchema,
);
