// Prints a service token signed with this instance's key (JWT_PRIVATE_KEY, or in development the one kept in DATA_DIR), for the
// live rooms to call the edge: `npx tsx apps/edge/src/scripts/service-token.ts [days]`.
import { resolve } from "node:path";
import { loadKeys, serviceToken } from "../lib/tokens.ts";
import { isProduction } from "../production.ts";

const days = Number(process.argv[2] ?? 30);
if (!Number.isFinite(days) || days <= 0 || days > 366) {
  console.error("usage: service-token [days, 1 to 366]");
  process.exit(2);
}
const dataDir = resolve(process.env.INIT_CWD ?? ".", process.env.DATA_DIR ?? ".data");
const keys = await loadKeys({ privateJwk: process.env.JWT_PRIVATE_KEY, dataDir, required: isProduction(process.env) });
console.log(await serviceToken(keys, "service:rooms-party", new Date(), Math.round(days * 86400)));
