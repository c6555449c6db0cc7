import type { Schema } from "@booth/sdk";
import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { refreshViewer, requireViewer } from "../../lib/session.server.ts";

type Avatar = Schema<"merch", "Avatar">;

/** How a locked avatar is unlocked, as the screen says it. */
export type Unlock =
  | { kind: "season"; minPoints: number; seasonName: string | null; points: number | null }
  | { kind: "subscription" }
  | { kind: "given" };

const quietly = <T>(p: Promise<{ data?: T }>) => p.then((r) => r.data ?? null).catch(() => null);

/**
 * The avatars the viewer owns (public ones and those given to them: season awards, subscriptions, purchases) and
 * those they can still unlock, with what it takes: a season's points (and theirs in it), a subscription.
 */
export async function loadAvatars(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const booth = sdkFor(token);
  const [profile, wearable, visible, seasons, current] = await Promise.all([
    booth.user.GET("/users/profile", {}).then((r) => r.data),
    booth.merch.GET("/avatars", {}).then((r) => r.data ?? []),
    booth.merch.GET("/all-avatars", {}).then((r) => r.data ?? []),
    quietly(booth.merch.GET("/points/ranking-status/{userUuid}", { params: { path: { userUuid: viewer.uuid } } })),
    quietly(booth.merch.GET("/seasons/current", {})),
  ]);
  if (!profile) throw new Response("Not Found", { status: 404 });
  // Discord-only avatars are worn through a Discord sign-in, which this screen does not offer.
  const owned = wearable.filter((a) => !a.discordOnly);
  const ownedSlugs = new Set(owned.map((a) => a.slug));
  const unlock = (a: Avatar): Unlock => {
    if (a.avatarStatus === "SEASON_AWARD") {
      const mine = seasons?.find((s) => s.seasonId === a.seasonId);
      return {
        kind: "season",
        minPoints: a.minPoints ?? 1,
        seasonName: mine?.seasonName ?? (current && current.id === a.seasonId ? current.name : null),
        points: mine?.balance ?? (current && current.id === a.seasonId ? 0 : null),
      };
    }
    if (a.avatarStatus === "SUBSCRIBER_ONLY") return { kind: "subscription" };
    return { kind: "given" };
  };
  const locked = visible.filter((a) => !ownedSlugs.has(a.slug) && !a.discordOnly);
  return {
    wearing: profile.avatarId,
    nickname: profile.nickname,
    color: profile.color,
    owned,
    locked: locked.map((a) => ({ ...a, unlock: unlock(a) })),
  };
}

/** Wears one of the viewer's avatars; the edge refuses one they have not unlocked (or no longer have). */
export async function wearAvatar(request: Request) {
  const { token } = await requireViewer(request);
  const slug = field(await request.formData(), "avatarId");
  try {
    await sdkFor(token).user.POST("/users/profile", { body: { avatarId: slug } });
  } catch (e) {
    return data({ error: userMessage(e, request), slug }, { status: 400 });
  }
  const cookie = await refreshViewer(request, token).catch(() => null);
  return data({ error: null, slug }, cookie ? { headers: { "set-cookie": cookie } } : undefined);
}
