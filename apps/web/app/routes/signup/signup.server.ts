import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { safeNext, signIn } from "../../lib/session.server.ts";

/** Creates the account and signs in; the edge emails a code, so the next stop is the verification screen. */
export async function signUp(request: Request) {
  const form = await request.formData();
  const email = field(form, "email");
  const nickname = field(form, "nickname");
  const password = String(form.get("password") ?? "");
  try {
    const { data: result } = await sdkFor(null).user.POST("/users/sign-up", {
      body: { email, password, ...(nickname ? { nickname } : {}) },
    });
    if (!result) throw new Error("no answer");
    const next = safeNext(new URL(request.url).searchParams.get("next"));
    return signIn(request, result, `/verify-email?next=${encodeURIComponent(next)}`);
  } catch (error) {
    return data({ error: userMessage(error), email, nickname }, { status: 400 });
  }
}
