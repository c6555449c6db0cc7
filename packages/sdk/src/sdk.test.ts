import { readFile } from "node:fs/promises";
import { openApiDocument, SERVICES } from "@booth/edge/services";
import { createTestApp, type TestApp } from "@booth/edge/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GENERATED_DIR, generateSources, readDocument } from "../scripts/codegen.ts";
import { BoothApiError, createBoothClient, SERVICE_NAMES } from "./index.ts";

describe("OpenAPI documents", () => {
  it("are the edge's documents (run `npm run sdk:generate` when this fails)", async () => {
    expect(SERVICES.map((s) => s.name)).toEqual([...SERVICE_NAMES]);
    for (const service of SERVICES) {
      const written = await readDocument(service.name).catch(() => null);
      const live = JSON.parse(JSON.stringify(openApiDocument(service)));
      expect(written, `packages/sdk/openapi/${service.name}.json is out of date`).toEqual(live);
    }
  });
});

describe("generated types", () => {
  it("match the OpenAPI documents (run `npm run sdk:generate` when this fails)", async () => {
    for (const [name, source] of await generateSources()) {
      const committed = await readFile(new URL(name, GENERATED_DIR), "utf8").catch(() => "");
      expect(committed, `packages/sdk/src/generated/${name} is out of date`).toBe(source);
    }
  });
});

describe("client", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const fetchApp = ((input: RequestInfo | URL, init?: RequestInit) =>
    t.app.fetch(new Request(input, init))) as typeof fetch;

  it("signs up, logs in and reads the session with the token", async () => {
    let token: string | null = null;
    const client = createBoothClient({ baseUrl: "http://edge.test", token: () => token, fetch: fetchApp });
    const signUp = await client.user.POST("/users/sign-up", {
      body: { email: "sdk@example.com", password: "password123" },
    });
    expect(signUp.data?.user.email).toBe("sdk@example.com");
    const login = await client.user.POST("/auth/login", {
      body: { email: "sdk@example.com", password: "password123" },
    });
    token = login.data?.accessToken ?? null;
    const session = await client.user.GET("/auth/session");
    expect(session.data?.user.uuid).toBe(signUp.data?.user.uuid);
  });

  it("throws one typed error carrying the status and the server's message", async () => {
    const client = createBoothClient({ baseUrl: "http://edge.test", fetch: fetchApp });
    const error = await client.user
      .POST("/auth/login", { body: { email: "nobody@example.com", password: "wrong password" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BoothApiError);
    expect((error as BoothApiError).status).toBe(401);
    expect((error as BoothApiError).message).toBe("Incorrect email or password.");
  });

  it("takes the first of a list of validation messages", async () => {
    const client = createBoothClient({ baseUrl: "http://edge.test", fetch: fetchApp });
    const error = (await client.user
      .POST("/auth/login", { body: { email: "not-an-email", password: "x" } })
      .catch((e: unknown) => e)) as BoothApiError;
    expect(error.status).toBe(400);
    expect(error.message).toMatch(/^email: /);
    expect(error.userMessage).toMatch(/^Email: /);
  });
});
