import type { LoaderFunctionArgs } from "@remix-run/node";
import { finishOAuth, isOAuthProvider } from "../../lib/oauth.server.ts";

/** Where a provider sends the person back with ?code=&state= (see lib/oauth.server.ts). */
export function loader({ request, params }: LoaderFunctionArgs) {
  if (!isOAuthProvider(params.provider)) throw new Response("Not Found", { status: 404 });
  return finishOAuth(request, params.provider);
}
