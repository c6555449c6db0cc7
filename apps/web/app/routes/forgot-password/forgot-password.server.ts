import { data } from "@remix-run/node";
import { userMessage } from "../../lib/errors.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";

export async function forgotPassword(request: Request) {
  const email = field(await request.formData(), "email");
  try {
    const { data: sent } = await sdkFor(null).user.POST("/users/forgot-password", { body: { email } });
    return { notice: sent?.message ?? "", error: null, email };
  } catch (error) {
    return data({ error: userMessage(error), notice: null, email }, { status: 400 });
  }
}
