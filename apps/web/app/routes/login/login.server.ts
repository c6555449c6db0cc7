import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { signIn } from "../../lib/session.server.ts";

export async function logIn(request: Request) {
  const form = await request.formData();
  const email = field(form, "email");
  const password = String(form.get("password") ?? "");
  try {
    const { data: result } = await sdkFor(null).user.POST("/auth/login", { body: { email, password } });
    if (!result) throw new Error("no answer");
    return signIn(request, result, new URL(request.url).searchParams.get("next"));
  } catch (error) {
    return data({ error: userMessage(error, request), email }, { status: 400 });
  }
}
