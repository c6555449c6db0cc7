import type { ActionFunctionArgs } from "@remix-run/node";
import { changeQueue } from "../rooms.$slug/room.server.ts";

/**
 * The DJ panel's changes to the viewer's queue, as JSON (room.server.ts `changeQueue`): the room's panel sends them
 * with a plain `fetch`, one after another in the order they were clicked, and shows the queue each answers. Not a
 * fetcher: a fetcher's submission revalidates the whole room page (six calls to the edge) and keeps its form busy
 * until that settles, which kept "+ Add" disabled for up to a minute for a DJ adding songs in a row (#35).
 */
export const action = ({ request }: ActionFunctionArgs) => changeQueue(request);
