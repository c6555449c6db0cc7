import createClient, { type Client, type Middleware } from "openapi-fetch";
import type { ServiceComponents, ServicePaths } from "./generated/index.ts";
import { SERVICE_NAMES, type ServiceName } from "./services.ts";

export * from "./live/client.ts";
export type {
  ChatMessage,
  Dj,
  JoinResult,
  LiveSong,
  LiveState,
  NowPlaying,
  RoomUser,
  ServerMessage,
  SongRef,
  SongVotes,
  UserData,
  VoteCounts,
} from "./live/protocol.ts";
export type { ServiceComponents, ServicePaths };
export { SERVICE_NAMES, type ServiceName };
/** A named schema of a service, e.g. `Schema<"user", "Profile">`. */
export type Schema<
  S extends ServiceName,
  N extends keyof ServiceComponents[S]["schemas"],
> = ServiceComponents[S]["schemas"][N];

/** Every failed call surfaces as this one error: the HTTP status, the server's message, and the whole body. */
export class BoothApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly body: unknown,
    readonly url: string,
  ) {
    super(message);
    this.name = "BoothApiError";
  }

  /** The server's message as a person should read it: the first of a list, first letter capitalised. */
  get userMessage(): string {
    if (this.status >= 500) return "Something went wrong, please try again";
    const text = this.message;
    return text.charAt(0).toUpperCase() + text.slice(1);
  }

  /** The stable machine code every error of the edge carries (its lib/error-codes.ts: NICKNAME_TAKEN, NOT_FOUND...). */
  get code(): string | undefined {
    const code = (this.body as { code?: unknown } | null)?.code;
    return typeof code === "string" ? code : undefined;
  }
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  500: "Internal Server Error",
  502: "Bad Gateway",
  503: "Service Unavailable",
};

export async function toApiError(response: Response): Promise<BoothApiError> {
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {}
  const raw = (body as { message?: unknown } | null)?.message;
  const message =
    typeof raw === "string"
      ? raw
      : Array.isArray(raw) && typeof raw[0] === "string"
        ? raw[0]
        : (DEFAULT_MESSAGES[response.status] ?? "Generic Error");
  return new BoothApiError(response.status, message, body, response.url);
}

export interface BoothClientOptions {
  /** The edge's origin, e.g. http://127.0.0.1:8787. */
  baseUrl: string;
  /** The bearer token, or a function that returns the current one. */
  token?: string | null | (() => string | null | undefined);
  fetch?: typeof globalThis.fetch;
  /**
   * Whether an answer that is not 2xx throws BoothApiError (the default). With `false` it comes back as openapi-fetch
   * gives it, `{ error, response }` with `error` typed by the route's error schema (the edge's tests assert refusals).
   */
  throwOnError?: boolean;
}

type Clients = { [K in ServiceName]: Client<ServicePaths[K]> };

/**
 * A typed client for every service of the edge. Calls resolve to `{ data, response }`, or throw BoothApiError (unless
 * `throwOnError` is false).
 */
export function createBoothClient(options: BoothClientOptions): Clients {
  const origin = options.baseUrl.replace(/\/$/, "");
  const auth: Middleware = {
    onRequest({ request }) {
      const token = typeof options.token === "function" ? options.token() : options.token;
      if (token) request.headers.set("authorization", `Bearer ${token}`);
      return request;
    },
    async onResponse({ response }) {
      if (!response.ok && options.throwOnError !== false) throw await toApiError(response);
      return response;
    },
  };
  const clients = {} as Record<ServiceName, Client<object>>;
  for (const name of SERVICE_NAMES) {
    const client = createClient<object>({
      baseUrl: `${origin}/api/${name}-service`,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    });
    client.use(auth);
    clients[name] = client;
  }
  return clients as unknown as Clients;
}
