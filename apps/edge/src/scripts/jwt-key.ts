// Prints a new private key (a JWK, one line) for JWT_PRIVATE_KEY: every edge of a production instance shares it.
// `npx tsx apps/edge/src/scripts/jwt-key.ts`
import { generateKeys } from "../lib/tokens.ts";

console.log(JSON.stringify((await generateKeys()).privateJwk));
