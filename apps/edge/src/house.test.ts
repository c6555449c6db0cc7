import { describe, expect, it } from "vitest";
import { inspectHouse } from "./testing/house.ts";

// The house rules of decision 0021, measured over the source: a breach names its file and what it reached for.
describe("the edge's house", async () => {
  const house = await inspectHouse();
  const breaches = (rule: string) =>
    house.breaches.filter((breach) => breach.rule === rule).map((breach) => `${breach.file} -> ${breach.detail}`);

  it("reaches another service only through its front door (public.ts)", () => {
    expect(breaches("another service's files")).toEqual([]);
  });

  it("writes a table only from the service whose schema declares it", () => {
    expect(breaches("writes another service's table")).toEqual([]);
  });

  it("keeps lib/ free of tables, ports, services and deps.ts", () => {
    expect([...breaches("lib touches a table"), ...breaches("lib imports up")]).toEqual([]);
  });

  it("imports nothing from a higher layer, and ports no service", () => {
    expect([...breaches("import up the tree"), ...breaches("ports import a service")]).toEqual([]);
  });

  it("has no folders that import each other", () => {
    expect(house.loops).toEqual([]);
  });
});

describe("the house rules' measure", () => {
  it("sees an import of another service's files, a foreign write and a loop", async () => {
    const { findBreaches } = await import("./testing/house.ts");
    const found = await findBreaches({
      "services/room/a.ts": 'import { x } from "../playlist/crates.ts";\nawait tx.update(schema.images).set({});',
      "services/playlist/crates.ts": 'import { y } from "../room/public.ts";',
      "services/room/public.ts": "export const y = 1;",
      "lib/b.ts": 'import { schema } from "@booth/db";\nimport type { AppDeps } from "../deps.ts";\nschema.users;',
    });
    expect(found.breaches.map((breach) => `${breach.rule}: ${breach.file} -> ${breach.detail}`).sort()).toEqual([
      "another service's files: services/room/a.ts -> services/playlist/crates.ts",
      "lib imports up: lib/b.ts -> deps.ts",
      "lib touches a table: lib/b.ts -> users",
      "writes another service's table: services/room/a.ts -> images (user)",
    ]);
    expect(found.loops).toEqual([["services/playlist", "services/room"]]);
  });
});
