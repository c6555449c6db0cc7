import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { requireViewer } from "../../lib/session.server.ts";

/** The header's "Profile": the viewer's own profile page. */
export async function loader({ request }: LoaderFunctionArgs) {
  const { viewer } = await requireViewer(request);
  const lang = new URL(request.url).searchParams.get("lang");
  return redirect(`/users/${viewer.uuid}${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`);
}
