import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { fields } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { refreshViewer, requireViewer } from "../../lib/session.server.ts";

export type Avatar = Schema<"merch", "Avatar">;

/** The viewer's own profile and the avatars they may wear (public ones and those given to them). */
export async function loadOwnProfile(request: Request) {
  const { token } = await requireViewer(request);
  const booth = sdkFor(token);
  const [profile, avatars] = await Promise.all([
    booth.user.GET("/users/profile", {}).then((r) => r.data),
    booth.merch
      .GET("/avatars", {})
      .then((r) => r.data ?? [])
      .catch(() => [] as Avatar[]),
  ]);
  if (!profile) throw new Response("Not Found", { status: 404 });
  return { profile, avatars: avatars.filter((a) => !a.discordOnly) };
}

/** Saves nickname, bio, pronouns, colour and avatar; the header's name follows (the session is refreshed). */
export async function saveProfile(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const form = await request.formData();
  const values = fields(form, "nickname", "bio", "pronoun", "color", "avatarId", "songOfTheWeek");
  try {
    await sdkFor(token).user.POST("/users/profile", {
      body: {
        nickname: values.nickname,
        bio: values.bio || null,
        pronoun: values.pronoun || null,
        displayPronouns: Boolean(values.pronoun),
        songOfTheWeek: values.songOfTheWeek || null,
        ...(values.color ? { color: values.color } : {}),
        ...(values.avatarId ? { avatarId: values.avatarId } : {}),
      },
    });
  } catch (e) {
    return data({ error: userMessage(e, request), values }, { status: 400 });
  }
  const cookie = await refreshViewer(request, token).catch(() => null);
  return redirect(`/users/${viewer.uuid}`, cookie ? { headers: { "set-cookie": cookie } } : undefined);
}
