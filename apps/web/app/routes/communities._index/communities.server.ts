import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { ADMIN_ROLES, hasRole, STAFF_ROLES } from "../../lib/roles.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";

export type Community = Schema<"room", "Community">;
export type AdminCommunity = Schema<"room", "AdminCommunity">;
const PAGE = 100;

/**
 * The communities the viewer belongs to or runs (`/user-communities`). The edge lists every community only to staff
 * (`GET /admin/communities`), so only staff see the others here; anyone else reaches a community by its address.
 * Creating one is for the platform's admins (`POST /admin/communities`): the form is shown to them only.
 */
export async function loadCommunities(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const booth = sdkFor(token);
  const staff = hasRole(viewer, STAFF_ROLES);
  let error: string | null = null;
  const [mine, all] = await Promise.all([
    booth.room
      .GET("/user-communities", { params: { query: { limit: PAGE, offset: 0 } } })
      .then((r) => r.data?.data ?? [])
      .catch((e) => {
        error = userMessage(e, request);
        return [] as Community[];
      }),
    staff
      ? booth.room
          .GET("/admin/communities", { params: { query: { limit: PAGE, sort: ["name,ASC"] } } })
          .then((r) => r.data?.data ?? [])
          .catch((e) => {
            error = userMessage(e, request);
            return [] as AdminCommunity[];
          })
      : Promise.resolve(null),
  ]);
  return { mine, all, error, may: { create: hasRole(viewer, ADMIN_ROLES) } };
}

/** Leaving a community from the list, or (admins) creating one; the edge decides again. */
export async function changeCommunities(request: Request) {
  const { token } = await requireViewer(request);
  const booth = sdkFor(token);
  const form = await request.formData();
  const intent = field(form, "intent");
  try {
    if (intent === "leave") {
      const id = field(form, "id");
      await booth.room.POST("/communities/{id}/leave", { params: { path: { id } } });
      return { error: null, notice: field(form, "name") ? { left: field(form, "name") } : null };
    }
    if (intent === "create") {
      const slug = field(form, "slug");
      const createdBy = field(form, "createdBy");
      const made = await booth.room.POST("/admin/communities", {
        body: {
          name: field(form, "name"),
          description: field(form, "description"),
          isPublic: form.get("isPublic") === "on",
          ...(slug ? { slug } : {}),
          ...(createdBy ? { createdBy } : {}),
        },
      });
      return redirect(`/communities/${made.data?.slug ?? made.data?.id}?created=1`);
    }
  } catch (e) {
    return data({ error: userMessage(e, request), notice: null }, { status: 400 });
  }
  return data({ error: userMessage(null, request), notice: null }, { status: 400 });
}
