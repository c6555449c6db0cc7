import type { LoaderFunctionArgs } from "@remix-run/node";
import { webConfig } from "../../config.server.ts";
import { offersAccount } from "../../lib/brand.ts";
import { isOAuthProvider, startOAuth } from "../../lib/oauth.server.ts";

/**
 * Starts connecting a provider (or signing in with Discord: ?purpose=signin) at its consent page. A link, not a
 * form: the page's CSP (form-action) does not let a form's answer redirect to another origin. Starting is harmless
 * to anyone who follows a link here: it only sends them to the provider, and the state it makes is theirs.
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  // A provider this brand does not play from (BOOTH_BRAND) is not offered: no page links here for it.
  if (!isOAuthProvider(params.provider) || !offersAccount(webConfig().brand, params.provider))
    throw new Response("Not Found", { status: 404 });
  const purpose = new URL(request.url).searchParams.get("purpose") === "signin" ? "signin" : "connect";
  return startOAuth(request, params.provider, purpose);
}
