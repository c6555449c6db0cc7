import { documentConfig, type Router, withDocument } from "../lib/openapi.ts";
import { auditService } from "./audit/index.ts";
import { merchService } from "./merch/index.ts";
import { checkWearable } from "./merch/public.ts";
import { paymentService } from "./payment/index.ts";
import { playlistService } from "./playlist/index.ts";
import { roomService } from "./room/index.ts";
import { agoraToken, forgetPoster } from "./room/public.ts";
import { socialService } from "./social/index.ts";
import { uploadService } from "./upload/index.ts";
import { userService } from "./user/index.ts";

export interface ServiceMount {
  name: string;
  title: string;
  prefix: string;
  version: string;
  router: Router;
}

const mount = (name: string, title: string, version: string, router: Router): ServiceMount => {
  const prefix = `/api/${name}-service`;
  return { name, title, prefix, version, router: withDocument(router, { title, version, prefix }) };
};

/** The OpenAPI document a service serves at `<prefix>/openapi.json`, without a running app. */
export const openApiDocument = (service: ServiceMount) => service.router.getOpenAPIDocument(documentConfig(service));

export const SERVICES: ServiceMount[] = [
  mount("user", "User service", "1.9.0", userService({ agoraToken, checkWearable, forgetRoomPoster: forgetPoster })),
  mount("social", "Social service", "1.0.0", socialService()),
  mount("audit", "Audit service", "1.0.0", auditService()),
  mount("room", "Room service", "1.0.0", roomService()),
  mount("upload", "Upload service", "1.3.2", uploadService()),
  mount("payment", "Payment service", "2.1.1", paymentService()),
  mount("playlist", "Playlist service", "1.6.0", playlistService()),
  mount("merch", "Points, avatars and tokens service", "1.0.0", merchService()),
];
