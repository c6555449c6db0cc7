import { data } from "@remix-run/node";
import { messageDelivery } from "../../lib/delivery.server.ts";
import { userMessage } from "../../lib/errors.server.ts";
import { field } from "../../lib/forms.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { signIn } from "../../lib/session.server.ts";

/**
 * Two steps: send a code to the number (intent "send"), then sign in with it (intent "verify"). A VoIP or invalid
 * number is refused by the edge with the spec's message, shown as it is.
 */
export async function phoneSignIn(request: Request) {
  const form = await request.formData();
  const phone = field(form, "phone");
  const channel = field(form, "channel") === "whatsapp" ? "whatsapp" : "sms";
  const booth = sdkFor(null);
  try {
    if (field(form, "intent") === "verify") {
      const { data: result } = await booth.user.POST("/mobile-auth/verify-code", {
        body: { phone, code: field(form, "code") },
      });
      if (!result) throw new Error("no answer");
      return signIn(request, result, new URL(request.url).searchParams.get("next"));
    }
    const [, delivery] = await Promise.all([
      booth.user.POST("/mobile-auth/send-code", { body: { phone, channel } }),
      messageDelivery(),
    ]);
    return { step: "code" as const, phone, error: null, delivery: delivery?.sms ?? null };
  } catch (error) {
    // A wrong code keeps the person on the code step, where they still need to know where the code is.
    const step = field(form, "intent") === "verify" ? ("code" as const) : ("phone" as const);
    const delivery = step === "code" ? ((await messageDelivery())?.sms ?? null) : null;
    return data({ step, phone, error: userMessage(error, request), delivery }, { status: 400 });
  }
}
