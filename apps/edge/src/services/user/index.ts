import { createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../status.ts";
import { accountDeactivationRoutes } from "./account-deactivation.routes.ts";
import { adminUserListRoutes } from "./admin-user-list.routes.ts";
import { agoraRoutes } from "./agora.routes.ts";
import { appleMusicRoutes } from "./apple-music.routes.ts";
import { authRoutes } from "./auth.routes.ts";
import { cometChatRoutes } from "./comet-chat.routes.ts";
import { discordRoutes } from "./discord.routes.ts";
import { emailAddressRoutes } from "./email-addresses.routes.ts";
import { mobileSignInRoutes } from "./mobile-sign-in.routes.ts";
import { musicProviderRoutes } from "./music-providers.routes.ts";
import { outboxRoutes } from "./outbox.routes.ts";
import { passwordRoutes } from "./password.routes.ts";
import { profileImageRoutes } from "./profile-images.routes.ts";
import { signUpRoutes } from "./sign-up.routes.ts";
import { userIdentityRoutes } from "./user-identity.routes.ts";
import { userModerationRoutes } from "./user-moderation.routes.ts";
import { userProfileRoutes } from "./user-profiles.routes.ts";
import { voucherRoutes } from "./voucher.routes.ts";

export function userService() {
  const router = createRouter();
  for (const routes of [
    authRoutes,
    signUpRoutes,
    passwordRoutes,
    emailAddressRoutes,
    mobileSignInRoutes,
    userIdentityRoutes,
    userProfileRoutes,
    profileImageRoutes,
    userModerationRoutes,
    accountDeactivationRoutes,
    voucherRoutes,
    adminUserListRoutes,
    outboxRoutes,
    discordRoutes,
    musicProviderRoutes,
    appleMusicRoutes,
    agoraRoutes,
    cometChatRoutes,
  ])
    router.route("/", routes);
  router.route("/", statusRouter("user", "1.9.0", "/info-admin/user-service-status"));
  return router;
}
