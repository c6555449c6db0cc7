import { data } from "@remix-run/node";
import { messageDelivery } from "../../lib/delivery.server.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";

export async function forgotPassword(request: Request) {
  const email = field(await request.formData(), "email");
  try {
    const [{ data: sent }, delivery] = await Promise.all([
      sdkFor(null).user.POST("/users/forgot-password", { body: { email } }),
      messageDelivery(),
    ]);
    return { notice: sent?.message ?? "", error: null, email, delivery: delivery?.email ?? null };
  } catch (error) {
    return data({ error: userMessage(error, request), notice: null, email, delivery: null }, { status: 400 });
  }
}
