import type { Schema } from "@booth/sdk";
import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";

export type Profile = Schema<"user", "Profile">;
export type Message = Schema<"social", "DirectMessage">;
export type Conversation = Schema<"social", "Conversation">;

/** The messages a conversation shows at once (older ones a page further back). */
export const MESSAGES_PAGE = 50;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const notFound = (): never => {
  throw new Response("Not Found", { status: 404 });
};
const orNullOn404 = <T>(p: Promise<{ data?: T }>) =>
  p.then((r) => r.data ?? null).catch((e) => (isApiError(e, 404) ? null : Promise.reject(e)));

/** The viewer's conversations, the latest first. */
export async function loadConversations(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const { data: page } = await sdkFor(token).social.GET("/direct-messages/conversations", {
    params: { query: { take: 100 } },
  });
  return { viewerUuid: viewer.uuid, conversations: page?.data ?? [], unreadTotal: page?.unreadTotal ?? 0 };
}

/**
 * The conversation with one person: their profile, whether they are friends (only friends may write), and a page of
 * messages, oldest first. Opening the newest page marks what the viewer received read: it is on their screen.
 */
export async function loadConversation(request: Request, id: string | undefined) {
  const { token, viewer } = await requireViewer(request);
  if (!id || !UUID.test(id)) notFound();
  const uuid = (id as string).toLowerCase();
  if (uuid === viewer.uuid) throw redirect("/messages");
  const url = new URL(request.url);
  const askedBefore = url.searchParams.get("before");
  const before = askedBefore && UUID.test(askedBefore) ? askedBefore : null;
  const booth = sdkFor(token);
  const path = { params: { path: { id: uuid } } };
  const [profile, friendship, conversation] = await Promise.all([
    booth.user
      .GET("/profile/{id}", path)
      .then((r) => r.data as Profile)
      .catch((e) => (isApiError(e, 404) ? notFound() : Promise.reject(e))),
    orNullOn404(booth.social.GET("/friends/single-friend/{id}", path)),
    orNullOn404(booth.social.GET("/direct-messages/with/{id}", path)),
  ]);
  let messages: Message[] = [];
  let nextBefore: string | null = null;
  if (conversation) {
    const { data: page } = await booth.social
      .GET("/direct-messages/conversations/{id}/messages", {
        params: { path: { id: conversation.id }, query: { take: MESSAGES_PAGE, ...(before ? { before } : {}) } },
      })
      .catch((e) => {
        // A cursor from elsewhere (an old link): the newest page instead.
        if (isApiError(e, 400) && before) throw redirect(url.pathname);
        throw e;
      });
    messages = [...(page?.data ?? [])].reverse();
    nextBefore = page?.nextBefore ?? null;
    if (!before && conversation.unread > 0)
      await booth.social.POST("/direct-messages/conversations/{id}/read", {
        params: { path: { id: conversation.id } },
      });
  }
  return {
    viewer: { uuid: viewer.uuid, verified: viewer.verified },
    profile,
    friends: friendship !== null,
    conversationId: conversation?.id ?? null,
    messages,
    nextBefore,
    paged: before !== null,
  };
}

/** Sends the typed message; the edge's refusal comes back in the page's language. */
export async function sendMessage(request: Request, id: string | undefined) {
  const { token } = await requireViewer(request);
  if (!id || !UUID.test(id)) notFound();
  const form = await request.formData();
  const text = field(form, "text");
  try {
    const { data: sent } = await sdkFor(token).social.POST("/direct-messages", {
      body: { toUuid: (id as string).toLowerCase(), text },
    });
    return data({ sent: sent?.id ?? null, error: null });
  } catch (error) {
    return data({ sent: null, error: userMessage(error, request) }, { status: isApiError(error, 429) ? 429 : 400 });
  }
}
