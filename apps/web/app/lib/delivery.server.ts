import type { Schema } from "@booth/sdk";
import { sdkFor } from "./sdk.server.ts";

export type MessageDelivery = Schema<"user", "MessageDelivery">;
export type Delivery = MessageDelivery["email"];

/**
 * Where this instance's codes and links go, by email and by SMS: the screens that wait for one say so when it is not
 * the person's inbox or phone. Unknown (the edge did not answer) shows nothing, as the message may well arrive.
 */
export async function messageDelivery(): Promise<MessageDelivery | null> {
  try {
    const { data } = await sdkFor(null).user.GET("/auth/delivery");
    return data ?? null;
  } catch {
    return null;
  }
}
