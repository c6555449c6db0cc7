import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { type Booth, sdkFor } from "../../lib/sdk.server.ts";
import { readSession, requireViewer } from "../../lib/session.server.ts";
import { PEOPLE_PAGE, PROFILE_TABS, type ProfileTab } from "./profile.ts";

export type Profile = Schema<"user", "Profile">;
export type Invitation = Schema<"social", "FriendInvitation">;
type Crate = Schema<"playlist", "Crate">;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (): never => {
  throw new Response("Not Found", { status: 404 });
};
const quietly = <T>(p: Promise<{ data?: T }>) => p.then((r) => r.data ?? null).catch(() => null);

/** How the viewer stands with this person: following, friends, an invitation either way. */
async function relation(booth: Booth, viewerUuid: string, uuid: string) {
  const [follows, friend, sent, received, blocked] = await Promise.all([
    quietly(booth.social.GET("/dj-fans", { params: { query: { djUuid: uuid } } })),
    booth.social
      .GET("/friends/single-friend/{id}", { params: { path: { id: uuid } } })
      .then(() => true)
      .catch((e) => (isApiError(e, 404) ? false : Promise.reject(e))),
    quietly(booth.social.GET("/friend-invitations/user-invitations-from", {})),
    quietly(booth.social.GET("/friend-invitations/user-invitations-for", {})),
    booth.social
      .GET("/blocked-users/{id}", { params: { path: { id: uuid } } })
      .then(() => true)
      .catch((e) => (isApiError(e, 404) ? false : Promise.reject(e))),
  ]);
  return {
    following: (follows ?? []).some((f) => f.djUuid === uuid && f.fanUuid === viewerUuid),
    friends: friend,
    invitationSent: (sent ?? []).find((i) => i.toUuid === uuid) ?? null,
    invitationReceived: (received ?? []).find((i) => i.fromUuid === uuid) ?? null,
    blocked,
  };
}

/** A person's page: their profile, counts, season points, how the viewer stands with them, and one tab's list. */
export async function loadProfile(request: Request, id: string | undefined) {
  if (!id || !UUID.test(id)) notFound();
  const uuid = (id as string).toLowerCase();
  const url = new URL(request.url);
  const asked = url.searchParams.get("tab") as ProfileTab;
  const tab: ProfileTab = PROFILE_TABS.includes(asked) ? asked : "followers";
  const skip = Math.max(0, Number.parseInt(url.searchParams.get("skip") ?? "0", 10) || 0);
  const { token, viewer } = await readSession(request);
  const booth = sdkFor(token);
  const own = viewer?.uuid === uuid;
  const profile = await booth.user
    .GET("/profile/{id}", { params: { path: { id: uuid } } })
    .then((r) => r.data as Profile)
    .catch((e) => (isApiError(e, 404) ? notFound() : Promise.reject(e)));
  const [counts, avatar, season, rel] = await Promise.all([
    quietly(booth.social.GET("/dj-fans/count/{id}", { params: { path: { id: uuid } } })),
    profile.avatarId
      ? quietly(booth.merch.GET("/avatars/{slug}", { params: { path: { slug: profile.avatarId } } }))
      : null,
    quietly(booth.merch.GET("/points/current-ranking-status/{userUuid}", { params: { path: { userUuid: uuid } } })),
    viewer && !own ? relation(booth, viewer.uuid, uuid) : null,
  ]);

  let people: Profile[] = [];
  let crates: Crate[] = [];
  let total = 0;
  let invitations: {
    received: (Invitation & { from: Profile | null })[];
    sent: (Invitation & { to: Profile | null })[];
  } = { received: [], sent: [] };
  let listError: string | null = null;
  try {
    const page = { skip, take: PEOPLE_PAGE };
    if (tab === "followers") {
      const r = (
        await booth.social.GET("/dj-fans/dj-fans-paginated/{id}", { params: { path: { id: uuid }, query: page } })
      ).data;
      people = r?.data ?? [];
      total = r?.total ?? 0;
    } else if (tab === "following") {
      const r = (await booth.social.GET("/dj-fans/{id}/djs-followed", { params: { path: { id: uuid }, query: page } }))
        .data;
      people = r?.data ?? [];
      total = r?.total ?? 0;
    } else if (tab === "friends" && viewer) {
      const r = (await booth.social.GET("/friends/{id}", { params: { path: { id: uuid }, query: page } })).data;
      people = r?.data ?? [];
      total = r?.total ?? 0;
      if (own) invitations = await ownInvitations(booth);
    } else if (tab === "crates" && viewer) {
      const r = (
        await booth.playlist.GET("/crate/user/{userUuid}", {
          params: { path: { userUuid: uuid }, query: { limit: 32, offset: skip } },
        })
      ).data;
      crates = r?.data ?? [];
      total = r?.total ?? 0;
    }
  } catch (e) {
    listError = userMessage(e, request);
  }
  return {
    profile,
    avatarImage: avatar?.imageUrl ?? null,
    counts: counts ?? { fans: 0, following: 0 },
    season: season?.hasCurrentRankingStatus
      ? { name: season.season.name, points: season.balance, rank: season.rank }
      : null,
    own,
    signedIn: Boolean(viewer),
    relation: rel,
    tab,
    skip,
    total,
    people,
    crates,
    invitations,
    listError,
  };
}

/** The invitations the viewer received and sent, with the other person's profile. */
async function ownInvitations(booth: Booth) {
  const [received, sent] = await Promise.all([
    booth.social.GET("/friend-invitations/user-invitations-for", {}).then((r) => r.data ?? []),
    booth.social.GET("/friend-invitations/user-invitations-from", {}).then((r) => r.data ?? []),
  ]);
  const ids = [...new Set([...received.map((i) => i.fromUuid), ...sent.map((i) => i.toUuid)])];
  const profiles = ids.length
    ? ((await booth.user.GET("/users/profiles", { params: { query: { users: ids.join(",") } } })).data ?? [])
    : [];
  const byId = new Map(profiles.map((p) => [p.uuid, p]));
  return {
    received: received.map((i) => ({ ...i, from: byId.get(i.fromUuid) ?? null })),
    sent: sent.map((i) => ({ ...i, to: byId.get(i.toUuid) ?? null })),
  };
}

/** The invitation an answer names, refused before it reaches the edge when it is no uuid. */
function invitation(invitationId: string) {
  if (!UUID.test(invitationId)) throw { statusCode: 400, message: "Choose an invitation." };
  return invitationId;
}

/** What each intent asks of the social service about the person `uuid` (or the invitation the form names). */
const SOCIAL_INTENTS: Record<string, (booth: Booth, uuid: string, invitationId: string) => Promise<unknown>> = {
  follow: (booth, uuid) => booth.social.POST("/dj-fans", { body: { djUuid: uuid } }),
  unfollow: (booth, uuid) => booth.social.DELETE("/dj-fans/{id}", { params: { path: { id: uuid } } }),
  invite: (booth, uuid) => booth.social.POST("/friend-invitations", { body: { userUuid: uuid } }),
  unfriend: (booth, uuid) => booth.social.DELETE("/friends/{id}", { params: { path: { id: uuid } } }),
  block: (booth, uuid) => booth.social.POST("/blocked-users", { body: { userUuid: uuid } }),
  unblock: (booth, uuid) => booth.social.DELETE("/blocked-users/{id}", { params: { path: { id: uuid } } }),
  accept: (booth, _uuid, invitationId) =>
    booth.social.POST("/friend-invitations/handle-friend", {
      body: { invitationId: invitation(invitationId), status: "accepted" },
    }),
  reject: (booth, _uuid, invitationId) =>
    booth.social.POST("/friend-invitations/handle-friend", {
      body: { invitationId: invitation(invitationId), status: "rejected" },
    }),
  withdraw: (booth, _uuid, invitationId) =>
    booth.social.DELETE("/friend-invitations/{id}", { params: { path: { id: invitation(invitationId) } } }),
};

/** Follow, unfollow, invite, accept, reject, withdraw, unfriend, block, unblock. */
export async function socialAction(request: Request, id: string | undefined) {
  const { token } = await requireViewer(request);
  if (!id || !UUID.test(id)) notFound();
  const uuid = (id as string).toLowerCase();
  const form = await request.formData();
  const intent = field(form, "intent");
  const ask = Object.hasOwn(SOCIAL_INTENTS, intent) ? SOCIAL_INTENTS[intent] : undefined;
  if (!ask) return data({ intent, error: "Unknown action." }, { status: 400 });
  try {
    await ask(sdkFor(token), uuid, field(form, "invitationId"));
    return { intent, error: null };
  } catch (e) {
    return data({ intent, error: userMessage(e, request) }, { status: 400 });
  }
}
