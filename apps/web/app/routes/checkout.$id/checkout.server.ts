import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { isApiError } from "../../lib/errors.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";
import { backToShop } from "./checkout.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The viewer's own local test checkout, or the edge's reason why it cannot be shown (not theirs, Stripe, ...). */
export async function loadCheckout(request: Request, id: string) {
  const { token } = await requireViewer(request);
  if (!UUID.test(id)) throw data({ message: "Checkout not found." }, { status: 404 });
  try {
    const { data: checkout } = await sdkFor(token).payment.GET("/api/v1/checkouts/{id}", {
      params: { path: { id } },
    });
    if (!checkout) throw new Error("the edge answered no checkout");
    return { checkout, error: null };
  } catch (e) {
    if (isApiError(e) && e.status < 500) return { checkout: null, error: userMessage(e, request) };
    throw e;
  }
}

/** Pay: completes the viewer's checkout at the edge, then back to the shop with the new balance. */
export async function payCheckout(request: Request, id: string) {
  const { token } = await requireViewer(request);
  if (!UUID.test(id)) return data({ error: "Checkout not found." }, { status: 404 });
  try {
    await sdkFor(token).payment.POST("/api/v1/checkouts/{id}/complete", { params: { path: { id } } });
  } catch (e) {
    return data({ error: userMessage(e, request) }, { status: isApiError(e) && e.status < 500 ? e.status : 502 });
  }
  return redirect(backToShop(id, "success"));
}
