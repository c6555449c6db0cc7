import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument, SERVICES } from "./services/index.ts";
import { createTestApp, type TestApp } from "./testing.ts";

// Whatever a client sends, no route may fail on its own (500). Every route of every OpenAPI document is called with several
// kinds of wrong input, as nobody, as an admin and as a service; each answer must be below 500.
let t: TestApp;
let tokens: Record<string, string | null>;
beforeAll(async () => {
  t = await createTestApp();
  const admin = await t.createUser({ roles: ["user", "admin", "superUser"] });
  const user = await t.createUser();
  tokens = { nobody: null, user: user.token, admin: admin.token, service: await t.serviceToken() };
});
afterAll(() => t.close());

type Operation = { parameters?: { name: string; in: string }[] };
const PATH_VALUES = ["00000000-0000-4000-8000-000000000000", "x", "%E2%9C%93'\"--%00", "9".repeat(40)];
const BODIES: unknown[] = [
  undefined,
  {},
  { id: "x", userUuid: "x", email: 1, phone: [], code: null },
  [],
  "not json",
  { a: "b".repeat(5000) },
  { name: "a\u0000b", title: "\u0000", message: "hi\u0000", description: "\u0000", nickname: "n\u0000" },
];
const QUERY_VALUES = ["", "x", "-1", "99999999999", "{]", "00000000-0000-4000-8000-000000000000", "a\u0000b"];

describe("no route answers 500", () => {
  for (const service of SERVICES) {
    const document = openApiDocument(service) as unknown as { paths?: Record<string, Record<string, Operation>> };
    for (const [path, methods] of Object.entries(document.paths ?? {})) {
      for (const [method, operation] of Object.entries(methods)) {
        it(`${method.toUpperCase()} ${service.prefix}${path}`, async () => {
          const failures: string[] = [];
          const queryNames = (operation.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
          for (const [who, token] of Object.entries(tokens)) {
            for (const [i, pathValue] of PATH_VALUES.entries()) {
              const filled = path.replace(/\{(\w+)\}/g, () => pathValue);
              const query = Object.fromEntries(
                queryNames.map((n) => [n, QUERY_VALUES[(i + n.length) % QUERY_VALUES.length] ?? ""]),
              );
              const body = BODIES[(i + who.length) % BODIES.length];
              const res = await t.request(method.toUpperCase(), `${service.prefix}${filled}`, {
                token,
                query,
                ...(method === "get" || method === "delete"
                  ? {}
                  : { body, headers: { "content-type": "application/json" } }),
              });
              // 502 (a provider failed) and 503 (a provider is not configured) are honest answers; 500 never is.
              if (res.status >= 500 && res.status !== 502 && res.status !== 503)
                failures.push(`${who} ${filled} ${JSON.stringify(body)?.slice(0, 60)} -> ${res.status}`);
            }
          }
          expect(failures).toEqual([]);
        });
      }
    }
  }
});
