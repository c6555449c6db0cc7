import { type Db, schema } from "@booth/db";
import { eq } from "drizzle-orm";
import { found, USER_NOT_FOUND } from "../../lib/errors.ts";
import { firstRow } from "../../lib/rows.ts";

export { USER_NOT_FOUND };

/** The user with this uuid, or a 404. */
export async function loadUser(db: Db, uuid: string) {
  const user = await firstRow(db, schema.users, eq(schema.users.uuid, uuid));
  return found(user, USER_NOT_FOUND);
}
