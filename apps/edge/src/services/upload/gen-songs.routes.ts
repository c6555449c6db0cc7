import { z } from "@hono/zod-openapi";
import { contracts, errors, Int, json, jsonBody, ok } from "../../lib/openapi.ts";
import { TOKENS_PER_MINUTE } from "./gen-songs.ts";

const { authed, route } = contracts(["Generated songs"]);

const Duration = z.number().int().min(15).max(300).openapi({ description: "seconds" });

export const cost = route("post", "/api/v1/gen-songs/cost", {
  summary: `What a generated song of a length costs (${TOKENS_PER_MINUTE} tokens a started minute)`,
  request: jsonBody(z.object({ duration: Duration })),
  responses: ok(z.object({ duration: z.number().int(), tokenCost: z.number().int() }).openapi("GenSongCost"), 400),
});

export const generate = authed("post", "/api/v1/gen-songs", {
  summary: "Generate a song for the quoted token cost: the tokens are held, and spent only when the song is made",
  request: {
    ...jsonBody(
      z.object({
        prompt: z.string().trim().min(3).max(500),
        duration: Duration,
        tokenCost: Int.min(1),
        title: z.string().trim().min(1).max(200).optional(),
      }),
    ),
    headers: z.object({ "idempotency-key": z.string().min(1).max(200).optional() }),
  },
  responses: {
    202: json(
      z
        .object({ id: z.uuid(), tokenCost: z.number().int(), holdId: z.uuid(), status: z.string() })
        .openapi("GenSongStarted"),
      "Accepted",
    ),
    ...errors(400, 401, 402, 403, 404, 409, 429),
  },
});
