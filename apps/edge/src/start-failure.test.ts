import { SettingsError } from "@booth/sdk/settings";
import { describe, expect, it } from "vitest";
import { StartStepError, startFailureLine, startStep } from "./start-failure.ts";

const failing = (err: unknown) => () => Promise.reject(err);

describe("a start's failure, in one line", () => {
  it("names the step and the cause, with a database error's SQLSTATE", async () => {
    const deadlock = Object.assign(new Error("deadlock detected"), { code: "40P01" });
    const err = await startStep("migrating the database", failing(deadlock)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StartStepError);
    expect(startFailureLine(err)).toBe("migrating the database: deadlock detected (40P01)");
  });

  it("says which service does not answer, wherever its connection's error is among the causes", async () => {
    const refused = Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), {
      code: "ECONNREFUSED",
      address: "127.0.0.1",
      port: 1,
    });
    const err = await startStep("connecting to the cache", failing(new Error("wrapped", { cause: refused }))).catch(
      (e: unknown) => e,
    );
    expect(startFailureLine(err)).toBe(
      "connecting to the cache: 127.0.0.1:1 does not answer (ECONNREFUSED); check DATABASE_URL and REDIS_URL",
    );
  });

  it("keeps a password out, and a message of several lines on one", () => {
    const line = startFailureLine(new Error("cannot reach postgres://booth:s3cret@db.internal:5432/booth\n  retrying"));
    expect(line).toBe("cannot reach postgres://booth:***@db.internal:5432/booth retrying");
    expect(line).not.toContain("s3cret");
  });

  it("leaves a production instance's list of missing settings as it is", async () => {
    const missing = new SettingsError("Booth edge", ["Booth is in production mode ..."]);
    await expect(startStep("starting", failing(missing))).rejects.toBe(missing);
  });
});
