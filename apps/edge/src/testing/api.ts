import { createBoothClient } from "@booth/sdk";
import { expect } from "vitest";
import type { App } from "../app.ts";

/** The origin test requests are addressed to (never on the network: the app answers them in-process). */
export const TEST_ORIGIN = "http://edge.test";

/** One typed openapi-fetch client per service (`api.merch`, `api.social`...), as `TestApp.api(token)` gives them. */
export type TestApi = ReturnType<typeof createBoothClient>;

/**
 * The SDK's typed clients, answered in-process by `app`, signed with `token` when given. Refusals do not throw:
 * `const { data, error, response } = await api.merch.GET("/api/v1/token-accounts/self")` has `data` typed by the
 * route's 2xx schema and `error` by its error schema, and `response.status` is the status.
 */
export function testApi(app: App, token?: string | null): TestApi {
  const fetch = ((input: RequestInfo | URL, init?: RequestInit) => app.request(input, init)) as typeof globalThis.fetch;
  return createBoothClient({ baseUrl: TEST_ORIGIN, token: token ?? null, fetch, throwOnError: false });
}

/** What a typed call answers (openapi-fetch's result), as far as `ok()` reads it. */
type Answer<T> = { data?: T; error?: unknown; response: Response };

/**
 * The data of a successful answer; otherwise throws (failing the test) with the status and the server's answer. For
 * the steps a test takes on its way to what it checks: `const account = ok(await api.merch.POST("/api/v1/token-accounts"))`.
 */
export function ok<T>(answer: Answer<T>): T {
  if (!answer.response.ok || answer.data === undefined) {
    throw new Error(`the edge answered ${answer.response.status}: ${JSON.stringify(answer.error ?? null)}`);
  }
  return answer.data;
}

/** The status a typed call was answered with: `expect(await statusOf(api.room.DELETE(...))).toBe(403)`. */
export async function statusOf(call: Promise<{ response: Response }>): Promise<number> {
  return (await call).response.status;
}

/**
 * Makes `call` once per case, in order (a later call sees what an earlier one changed), and expects each to be answered
 * with its case's status: the same route tried by each caller, or with each input.
 *
 *   const leave = (token?: string) => t.api(token).room.POST("/communities/{id}/leave", { params: { path: { id } } });
 *   await expectStatuses(leave, [[undefined, 401], [member.token, 204], [member.token, 204]]);
 */
export async function expectStatuses<A>(
  call: (arg: A) => Promise<{ response: Response }>,
  cases: readonly (readonly [arg: A, status: number])[],
): Promise<void> {
  for (const [i, [arg, status]] of cases.entries()) {
    expect((await call(arg)).response.status, `case ${i} of ${cases.length}`).toBe(status);
  }
}

/** The reason phrase the edge's error envelope gives each status (its `error`), as the tests see them. */
const REASON_PHRASES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  409: "Conflict",
  415: "Unsupported Media Type",
  429: "Too Many Requests",
  503: "Service Unavailable",
};

/** An answer a refusal comes in: a typed call's (`response`, `error`) or `t.request`'s (`status`, `body`). */
type Refusal = { response: Response; error?: unknown } | { status: number; body: unknown };

/**
 * Expects `answer` to be refused with `status` and `message`; given `code` too, expects the whole error envelope the
 * edge answers: that status, its reason phrase, `code` and `message`.
 * `expectRefusal(await login(t, email), 403, "This account is banned.", "ACCOUNT_BANNED")`
 */
export function expectRefusal(answer: Refusal, status: number, message: unknown, code?: string): void {
  const [actual, body] = "response" in answer ? [answer.response.status, answer.error] : [answer.status, answer.body];
  expect(actual).toBe(status);
  if (code === undefined) expect((body as { message?: unknown } | undefined)?.message).toEqual(message);
  else expect(body).toEqual({ statusCode: status, message, error: REASON_PHRASES[status], code });
}

/**
 * The options that send `form` as the multipart body of a typed call: `api.merch.POST("/files", multipart(form))`.
 * The body's type is left to the route (`never`): the OpenAPI schema types a file as a string, which a form cannot be.
 */
export function multipart(form: FormData) {
  return { body: {} as never, bodySerializer: () => form };
}
