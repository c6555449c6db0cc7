import { data, redirect } from "@remix-run/node";
import { userMessage } from "../../lib/errors.server.ts";
import { fields } from "../../lib/forms.ts";
import { DJ_TYPES, ROOM_DESIGNS } from "../../lib/room-designs.ts";
import { sdkFor } from "../../lib/sdk.server.ts";
import { requireViewer } from "../../lib/session.server.ts";

export async function createRoom(request: Request) {
  const { token } = await requireViewer(request);
  const form = await request.formData();
  const values = fields(form, "name", "description", "design", "type", "numberOfDjs", "djType");
  const design = ROOM_DESIGNS.find((d) => d === values.design) ?? "CLUB";
  const djType = DJ_TYPES.find((d) => d === values.djType) ?? "EVERYONE";
  try {
    const { data: room } = await sdkFor(token).room.POST("/rooms/infrastructure", {
      body: {
        name: values.name,
        ...(values.description ? { description: values.description } : {}),
        design,
        type: values.type === "PRIVATE" ? "PRIVATE" : "PUBLIC",
        numberOfDjs: Number(values.numberOfDjs) || 5,
        djType,
      },
    });
    if (!room) throw new Error("no answer");
    return redirect(`/rooms/${room.slug}`);
  } catch (error) {
    return data({ error: userMessage(error, request), values }, { status: 400 });
  }
}
