import { z } from "@hono/zod-openapi";
import { pageSchema, pathKey, Timestamps, uuidParams } from "../../../lib/openapi.ts";
import { ImageUrlInput, plainText, SlugInput } from "../slugs.ts";

// The bodies and answers of the community routes (communities.routes.ts, admin.routes.ts).

const CommunityFields = {
  id: z.uuid(),
  slug: z.string(),
  name: z.string(),
  description: z.string(),
  imageUrl: z.string().nullable(),
  isPublic: z.boolean(),
  createdBy: z.uuid().nullable().openapi({ description: "The community's admin (with staff)" }),
  memberCount: z.number().int(),
  roomCount: z.number().int(),
  ...Timestamps,
};
export const CommunitySchema = z
  .object({ ...CommunityFields, joined: z.boolean().openapi({ description: "Whether the caller is a member" }) })
  .openapi("Community");
export const CommunityPage = pageSchema(CommunitySchema, "CommunityPage");
export const AdminCommunitySchema = z.object(CommunityFields).partial().openapi("AdminCommunity");

export const CommunityKeyParam = z.object({ id: pathKey("id", "The community's id or slug") });
export const roomKey = pathKey("roomId", "The room's uuid or slug");
export const CommunityRoomParams = CommunityKeyParam.extend({ roomId: roomKey });
export const CommunityUserParams = CommunityKeyParam.extend(uuidParams("userId").shape);

export const MembershipSchema = z
  .object({ communityId: z.uuid(), userUuid: z.uuid(), joinedAt: z.string() })
  .openapi("CommunityMembership");
export const CommunityRoomSchema = z
  .object({ communityId: z.uuid(), roomUuid: z.uuid(), addedAt: z.string() })
  .openapi("CommunityRoom");

export const CommunityInput = z
  .object({
    name: plainText(2, 80),
    slug: SlugInput.optional().openapi({ description: "Made from the name when not given" }),
    description: plainText(0, 2000).optional(),
    imageUrl: ImageUrlInput.optional(),
    isPublic: z.boolean().optional(),
    createdBy: z.uuid().nullable().optional().openapi({ description: "The user who runs it (its community admin)" }),
  })
  .strict()
  .openapi("CommunityInput");
export const CommunityPatch = CommunityInput.partial().openapi("CommunityPatch");

export const MemberSchema = z
  .object({
    userUuid: z.uuid(),
    nickname: z.string().nullable(),
    avatarId: z.string().nullable(),
    profilePicture: z.string().nullable(),
    joinedAt: z.string(),
  })
  .openapi("CommunityMember");

export const ChangeBody = z
  .object({
    roomUuids: z.array(z.uuid()).max(100).optional(),
    userUuids: z.array(z.uuid()).max(100).optional(),
  })
  .strict()
  .openapi("CommunityChange");
