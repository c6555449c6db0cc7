import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { DISCORD_COMMANDS } from "@booth/sdk/discord";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCli } from "../scripts/build.mjs";
import { runBooth } from "./testing.ts";

const TOKEN = "bot-token-of-booth";
const APPLICATION = "112233445566778899";
const GUILD = "998877665544332211";

/** A stand-in of Discord's API: it records each request, and refuses a token other than Booth's as Discord does. */
interface Recorded {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}
const requests: Recorded[] = [];
let server: Server;
let api: string;
let bin: string;

const bodyOf = async (req: IncomingMessage) => {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text ? JSON.parse(text) : null;
};

beforeAll(async () => {
  server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    requests.push({ method: req.method ?? "", path: req.url ?? "", authorization: req.headers.authorization, body });
    res.setHeader("content-type", "application/json");
    if (req.headers.authorization !== `Bot ${TOKEN}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ message: "401: Unauthorized", code: 0 }));
      return;
    }
    res.end(JSON.stringify((body as { name: string }[]).map((c, i) => ({ id: String(1000 + i), ...c }))));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  api = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v10`;
  bin = await buildCli();
}, 120_000);
afterAll(() => server.close());

const booth = (env: NodeJS.ProcessEnv, ...args: string[]) =>
  runBooth(bin, args, {
    env: {
      ...process.env,
      DISCORD_API_URL: api,
      DISCORD_BOT_TOKEN: TOKEN,
      DISCORD_APPLICATION_ID: APPLICATION,
      XDG_CONFIG_HOME: "/nonexistent",
      ...env,
    },
    timeout: 30_000,
  });

describe("booth discord register-commands", () => {
  it("puts the /booth command definitions to Discord, for every guild or for one, with the bot's token", async () => {
    const global = await booth({}, "discord", "register-commands");
    expect(global.code, global.stderr).toBe(0);
    expect(global.stdout).toBe("Registered /booth for every guild that added the bot.\n");
    expect(requests.at(-1)).toEqual({
      method: "PUT",
      path: `/api/v10/applications/${APPLICATION}/commands`,
      authorization: `Bot ${TOKEN}`,
      body: DISCORD_COMMANDS,
    });
    // Every subcommand the edge answers, announcements' channel choice included (a text or announcement channel).
    const [booth_] = (requests.at(-1)?.body ?? []) as { options: { name: string; options?: unknown[] }[] }[];
    expect(booth_?.options.map((o) => o.name)).toEqual(["rooms", "playing", "open", "announce"]);
    expect(booth_?.options.at(-1)?.options).toEqual([
      expect.objectContaining({
        name: "on",
        type: 1,
        options: [expect.objectContaining({ name: "channel", type: 7, required: true, channel_types: [0, 5] })],
      }),
      expect.objectContaining({ name: "off", type: 1 }),
    ]);

    const guild = await booth({}, "discord", "register-commands", "--guild", GUILD, "--json");
    expect(guild.code, guild.stderr).toBe(0);
    expect(JSON.parse(guild.stdout)).toEqual([expect.objectContaining({ id: "1000", name: "booth" })]);
    expect(requests.at(-1)).toMatchObject({
      method: "PUT",
      path: `/api/v10/applications/${APPLICATION}/guilds/${GUILD}/commands`,
      authorization: `Bot ${TOKEN}`,
      body: DISCORD_COMMANDS,
    });
  }, 60_000);

  it("names the missing settings before any request, and says what Discord refused", async () => {
    const before = requests.length;
    const missing = await booth({ DISCORD_BOT_TOKEN: "", DISCORD_APPLICATION_ID: "" }, "discord", "register-commands");
    expect(missing.code).toBe(1);
    expect(missing.stderr).toBe(
      "Error: booth discord register-commands needs DISCORD_BOT_TOKEN and DISCORD_APPLICATION_ID (the Developer Portal shows them)\n",
    );
    const badGuild = await booth({}, "discord", "register-commands", "--guild", "my-server");
    expect(badGuild.stderr).toBe('Error: --guild is not a Discord guild id: "my-server"\n');
    expect(requests.length).toBe(before);

    const refused = await booth({ DISCORD_BOT_TOKEN: "revoked" }, "discord", "register-commands");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe("Error: Discord refused the commands (401): 401: Unauthorized\n");
    expect(requests.at(-1)?.authorization).toBe("Bot revoked");
  }, 60_000);
});
