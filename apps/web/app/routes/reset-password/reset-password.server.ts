import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";

/** Every session ends with a reset, so the person logs in again with the new password. */
export async function resetPassword(request: Request) {
  const form = await request.formData();
  try {
    await sdkFor(null).user.POST("/users/reset-password", {
      body: { token: field(form, "token"), password: String(form.get("password") ?? "") },
    });
    return redirect("/login?reset=done");
  } catch (error) {
    return data({ error: userMessage(error, request) }, { status: 400 });
  }
}
