import { z } from "@hono/zod-openapi";
import { contracts, json } from "../../lib/openapi.ts";

const { route } = contracts(["Demo"]);

export const DemoProgressSchema = z
  .object({
    loading: z.boolean().openapi({ description: "Whether the demo catalogue's songs are loading now" }),
    done: z.number().int().openapi({ description: "Songs loaded so far" }),
    total: z.number().int().openapi({ description: "Songs the demo loads (0: no loading known)" }),
  })
  .openapi("DemoProgress");

export const demoProgress = route("get", "/demo/progress", {
  summary: "How far the demo catalogue's songs have loaded on a fresh instance (anyone; the home page shows it)",
  responses: { 200: json(DemoProgressSchema) },
});
