import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { safeNext, signIn } from "../../lib/session.server.ts";

/** Creates the account and signs in; the edge emails a code, so the next stop is the verification screen. */
export async function signUp(request: Request) {
  const form = await request.formData();
  const email = field(form, "email");
  const nickname = field(form, "nickname");
  const password = String(form.get("password") ?? "");
  const voucherCode = field(form, "voucherCode");
  try {
    // With a voucher the edge creates the account and redeems it at once; a code it refuses creates nothing.
    const body = { email, password, ...(nickname ? { nickname } : {}) };
    const { data: result } = voucherCode
      ? await sdkFor(null).user.POST("/users/voucher-sign-up", { body: { ...body, voucherCode } })
      : await sdkFor(null).user.POST("/users/sign-up", { body });
    if (!result) throw new Error("no answer");
    const next = safeNext(new URL(request.url).searchParams.get("next"));
    return signIn(request, result, `/verify-email?next=${encodeURIComponent(next)}`);
  } catch (error) {
    return data({ error: userMessage(error, request), email, nickname, voucherCode }, { status: 400 });
  }
}
