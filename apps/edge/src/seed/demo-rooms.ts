import { schema } from "@booth/db";
import { eq, inArray } from "drizzle-orm";
import type { AppDeps } from "../deps.ts";
import { DEMO_EMAIL } from "./demo-catalogue.ts";

// Rooms a new instance opens with, so that the first visitor has somewhere to listen and take the booth. They belong
// to the demo catalogue's account; anyone signed in can DJ in them from the catalogue.
export const DEMO_ROOMS = [
  {
    slug: "booth-lounge",
    name: "Booth Lounge",
    description: "The house room: take a seat in the booth and play something from the demo catalogue.",
    design: "CLUB",
    promoted: true,
  },
  {
    slug: "ambient-corner",
    name: "Ambient Corner",
    description: "Slow waves and long drones, for the quiet hours.",
    design: "FESTIVAL",
    promoted: false,
  },
] as const;

/** Opens the demo rooms once, when the demo account exists and no room has taken their slugs; answers how many. */
export async function seedDemoRooms(deps: AppDeps) {
  const { db, clock } = deps;
  const [owner] = await db.select().from(schema.users).where(eq(schema.users.email, DEMO_EMAIL));
  if (!owner) return 0;
  const taken = new Set(
    (
      await db
        .select({ slug: schema.rooms.slug })
        .from(schema.rooms)
        .where(
          inArray(
            schema.rooms.slug,
            DEMO_ROOMS.map((r) => r.slug),
          ),
        )
    ).map((r) => r.slug),
  );
  const now = clock.now();
  const rooms = DEMO_ROOMS.filter((r) => !taken.has(r.slug)).map((r) => ({
    ...r,
    type: "PUBLIC" as const,
    ownerUuid: owner.uuid,
    pinnedMessages: [
      {
        id: crypto.randomUUID(),
        message: "Welcome! Sign up, queue songs and take a seat.",
        userUuid: owner.uuid,
        createdAt: now.toISOString(),
      },
    ],
    createdAt: now,
    updatedAt: now,
  }));
  if (!rooms.length) return 0;
  await db.insert(schema.rooms).values(rooms).onConflictDoNothing();
  return rooms.length;
}
