import { describe, expect, it } from "vitest";
import { progress } from "./progress.ts";

function sink(isTTY: boolean) {
  let text = "";
  const write = (s: string) => {
    text += s;
    return true;
  };
  const stream = { isTTY, columns: 80, write } as unknown as NodeJS.WriteStream;
  return { stream, text: () => text };
}

describe("progress", () => {
  it("redraws one bar in place on a terminal", () => {
    const out = sink(true);
    const bar = progress({ title: "seed", total: 4, stream: out.stream, width: 8 });
    bar.tick("users: one");
    bar.tick("users: two", 2);
    bar.done("done");
    const text = out.text();
    expect(text).toContain("\r\x1b[2Kseed [##......] 1/4 users: one");
    expect(text).toContain("\r\x1b[2Kseed [######..] 3/4 users: two");
    expect(text.endsWith("seed [######..] 3/4\ndone\n")).toBe(true);
    expect(text.split("\n")).toHaveLength(3);
  });

  it("writes plain lines elsewhere", () => {
    const out = sink(false);
    const bar = progress({ title: "seed", total: 2, stream: out.stream });
    bar.tick("a");
    bar.note("waiting");
    bar.grow(1);
    bar.tick("b");
    bar.done();
    expect(out.text()).toBe("seed 1/2 a\nwaiting\nseed 2/3 b\n");
    expect(out.text()).not.toContain("\x1b");
  });
});
