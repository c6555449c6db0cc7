import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { readSession } from "../../lib/session.server.ts";

/**
 * The browser's Web Push subscription, passed on to the social service with the session's token (which the browser
 * never holds). Plain JSON answers, read by the notifications control (components/push-opt-in.tsx):
 *
 *   GET     the VAPID public key the browser subscribes with           -> 200 {publicKey}
 *   POST    the PushSubscription's JSON: notify this browser            -> 201 {id, endpoint, createdAt}
 *   DELETE  {endpoint}: this browser no longer                          -> 204 (404 when the edge does not hold it)
 *
 * Only JSON bodies are read, so a form on another site cannot post here (nor would the session cookie, SameSite=Lax,
 * come with it).
 */
const NO_STORE = { "cache-control": "no-store" };
const MAX_BODY = 8 * 1024;

const failure = (status: number, message: string | string[]) =>
  Response.json({ message }, { status, headers: NO_STORE });

export async function loader({ request }: LoaderFunctionArgs) {
  try {
    const { data } = await sdkFor().social.GET("/web-notifications/public-key");
    return Response.json({ publicKey: data?.publicKey ?? null }, { headers: NO_STORE });
  } catch (error) {
    return failure(isApiError(error) && error.status < 500 ? error.status : 503, userMessage(error, request));
  }
}

async function jsonBody(request: Request): Promise<{ body: unknown } | Response> {
  if (!/^application\/json\b/i.test(request.headers.get("content-type") ?? ""))
    return failure(415, "Send the subscription as JSON (Content-Type: application/json).");
  const text = await request.text();
  if (text.length > MAX_BODY) return failure(413, "The subscription is too large.");
  try {
    return { body: JSON.parse(text) as unknown };
  } catch {
    return failure(400, "The subscription is not valid JSON.");
  }
}

export async function action({ request }: ActionFunctionArgs) {
  if (request.method !== "POST" && request.method !== "DELETE") return failure(405, "Method Not Allowed");
  const { token, setCookie } = await readSession(request);
  if (!token) return failure(401, "Sign in to get notifications.");
  const read = await jsonBody(request);
  if (read instanceof Response) return read;
  const headers: Record<string, string> = { ...NO_STORE, ...(setCookie ? { "set-cookie": setCookie } : {}) };
  const social = sdkFor(token).social;
  try {
    if (request.method === "POST") {
      // The edge checks every field (endpoint, keys) and answers what is wrong with them.
      const { data } = await social.POST("/web-notifications/subscription", { body: read.body as never });
      return Response.json(data, { status: 201, headers });
    }
    const endpoint = (read.body as { endpoint?: unknown } | null)?.endpoint;
    if (typeof endpoint !== "string" || !endpoint) return failure(400, "endpoint: Required");
    await social.DELETE("/web-notifications/subscription", { body: { endpoint } });
    return new Response(null, { status: 204, headers });
  } catch (error) {
    return Response.json(
      { message: userMessage(error, request) },
      { status: isApiError(error) && error.status < 500 ? error.status : 503, headers },
    );
  }
}
