import { data, redirect } from "@remix-run/node";
import { messageDelivery } from "../../lib/delivery.server.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { refreshViewer, requireViewer, safeNext } from "../../lib/session.server.ts";

export async function verifyEmailPage(request: Request) {
  const [{ viewer }, delivery] = await Promise.all([requireViewer(request), messageDelivery()]);
  return { email: viewer.email, verified: viewer.verified, delivery: delivery?.email ?? null };
}

/** Checks the emailed code (intent "verify") or sends a new one (intent "resend"). */
export async function verifyEmail(request: Request) {
  const { token, viewer } = await requireViewer(request);
  const form = await request.formData();
  const booth = sdkFor(token);
  const email = viewer.email ?? "";
  try {
    if (field(form, "intent") === "resend") {
      await booth.user.POST("/users/emails/verification-email", { body: { email } });
      return { resent: true, error: null };
    }
    await booth.user.POST("/users/emails/verify", { body: { email, code: field(form, "code") } });
    // The session's viewer learns the account is verified now.
    const cookie = await refreshViewer(request, token);
    return redirect(safeNext(new URL(request.url).searchParams.get("next")), {
      headers: cookie ? { "set-cookie": cookie } : {},
    });
  } catch (error) {
    return data({ error: userMessage(error, request), resent: false }, { status: 400 });
  }
}
