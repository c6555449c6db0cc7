import { data } from "@remix-run/node";
import { messageDelivery } from "../../lib/delivery.server.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { signIn } from "../../lib/session.server.ts";

/** Either asks for a link (intent "send") or trades the link's token for a session (intent "validate"). */
export async function magicLink(request: Request) {
  const form = await request.formData();
  const booth = sdkFor(null);
  try {
    if (field(form, "intent") === "validate") {
      const { data: result } = await booth.user.POST("/auth/validate-magic-link", {
        body: { token: field(form, "token") },
      });
      if (!result) throw new Error("no answer");
      return signIn(request, result, new URL(request.url).searchParams.get("next"));
    }
    const email = field(form, "email");
    const [{ data: sent }, delivery] = await Promise.all([
      booth.user.GET("/auth/magic-link", { params: { query: { email } } }),
      messageDelivery(),
    ]);
    return { notice: sent?.message ?? "", error: null, email, delivery: delivery?.email ?? null };
  } catch (error) {
    return data(
      { error: userMessage(error, request), notice: null, email: field(form, "email"), delivery: null },
      { status: 400 },
    );
  }
}
