import { readFileSync } from "node:fs";
import { expect, it } from "vitest";
import { configurationPage, PAGE } from "./configuration.ts";

it("docs/configuration.md is what the apps' settings schemas say (run `npm run docs:config` when this fails)", async () => {
  expect(readFileSync(PAGE, "utf8"), "docs/configuration.md is out of date: run `npm run docs:config`").toBe(
    await configurationPage(),
  );
});
