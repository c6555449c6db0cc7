import { createRouter } from "../../lib/openapi.ts";
import { sentryTestingRouter } from "../../lib/sentry-testing.ts";
import { statusHandler, statusRoute } from "../../lib/service-status.ts";
import * as aboutHandlers from "./about.handlers.ts";
import * as about from "./about.routes.ts";
import { AUDIT_SERVICE } from "./about.ts";
import * as eventHandlers from "./events.handlers.ts";
import * as events from "./events.routes.ts";
import * as geolocateHandlers from "./geolocate.handlers.ts";
import * as geolocate from "./geolocate.routes.ts";
import * as moderationActionHandlers from "./moderation-actions.handlers.ts";
import * as moderationActions from "./moderation-actions.routes.ts";
import * as userActionHandlers from "./user-actions.handlers.ts";
import * as userActions from "./user-actions.routes.ts";

/** The audit service's routes, in the order Hono matches them. */
export function auditService() {
  return createRouter()
    .openapi(about.about, aboutHandlers.about)
    .openapi(geolocate.geolocateCaller, geolocateHandlers.geolocateCaller)
    .openapi(geolocate.geolocateAddress, geolocateHandlers.geolocateAddress)
    .openapi(events.recordEvent, eventHandlers.recordEvent)
    .openapi(events.socketEventNames, eventHandlers.socketEventNames)
    .openapi(events.userEventNames, eventHandlers.userEventNames)
    .openapi(events.lastEvent, eventHandlers.lastEvent)
    .openapi(userActions.userActions, userActionHandlers.userActions)
    .openapi(moderationActions.listActions, moderationActionHandlers.listActions)
    .openapi(moderationActions.getAction, moderationActionHandlers.getAction)
    .openapi(moderationActions.recordAction, moderationActionHandlers.recordAction)
    .openapi(moderationActions.recordActions, moderationActionHandlers.recordActions)
    .openapi(moderationActions.patchAction, moderationActionHandlers.patchAction)
    .openapi(moderationActions.replaceAction, moderationActionHandlers.replaceAction)
    .openapi(moderationActions.eraseAction, moderationActionHandlers.eraseAction)
    .route("/", sentryTestingRouter("audit"))
    .openapi(statusRoute("audit", "/info-admin/audit-service-status"), statusHandler("audit", AUDIT_SERVICE.version));
}
