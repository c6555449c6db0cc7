import { type AppRouteHandler, createRouter } from "../../lib/openapi.ts";
import { statusRouter } from "../../lib/service-status.ts";
import * as accountDeactivationHandlers from "./account-deactivation.handlers.ts";
import * as accountDeactivation from "./account-deactivation.routes.ts";
import * as adminUserListHandlers from "./admin-user-list.handlers.ts";
import * as adminUserList from "./admin-user-list.routes.ts";
import * as agora from "./agora.routes.ts";
import * as appleMusicHandlers from "./apple-music.handlers.ts";
import * as appleMusic from "./apple-music.routes.ts";
import * as authHandlers from "./auth.handlers.ts";
import * as auth from "./auth.routes.ts";
import * as cometChatHandlers from "./comet-chat.handlers.ts";
import * as cometChat from "./comet-chat.routes.ts";
import * as connectionsHandlers from "./connections.handlers.ts";
import * as connections from "./connections.routes.ts";
import * as discordHandlers from "./discord.handlers.ts";
import * as discord from "./discord.routes.ts";
import * as emailAddressesHandlers from "./email-addresses.handlers.ts";
import * as emailAddresses from "./email-addresses.routes.ts";
import type { ForgetRoomPoster } from "./images.ts";
import * as mobileSignInHandlers from "./mobile-sign-in.handlers.ts";
import * as mobileSignIn from "./mobile-sign-in.routes.ts";
import * as musicProvidersHandlers from "./music-providers.handlers.ts";
import * as musicProviders from "./music-providers.routes.ts";
import * as outboxHandlers from "./outbox.handlers.ts";
import * as outbox from "./outbox.routes.ts";
import * as passwordHandlers from "./password.handlers.ts";
import * as password from "./password.routes.ts";
import * as profileImagesHandlers from "./profile-images.handlers.ts";
import * as profileImages from "./profile-images.routes.ts";
import * as signUpHandlers from "./sign-up.handlers.ts";
import * as signUp from "./sign-up.routes.ts";
import * as userIdentityHandlers from "./user-identity.handlers.ts";
import * as userIdentity from "./user-identity.routes.ts";
import * as userModerationHandlers from "./user-moderation.handlers.ts";
import * as userModeration from "./user-moderation.routes.ts";
import * as userProfilesHandlers from "./user-profiles.handlers.ts";
import * as userProfiles from "./user-profiles.routes.ts";
import * as voucherHandlers from "./voucher.handlers.ts";
import * as voucher from "./voucher.routes.ts";

/**
 * The user service's routes, in the order they are matched (Hono tries them in registration order): one chain per
 * resource, resources in the order of the service's history, the status routes last.
 */
/**
 * What the user service borrows from the services above it, handed in by services/index.ts. Every other service asks
 * this one for accounts and profiles, so it imports none of them (decision 0021); the three places where a user route
 * needs another service's rule get it here.
 */
export interface UserServiceNeeds {
  /** `POST /agora/token`: a room's voice channel is the room service's to grant. */
  agoraToken: AppRouteHandler<typeof agora.agoraToken>;
  /** A profile's new avatar must be one its user may wear (merch). */
  checkWearable: userProfilesHandlers.CheckWearable;
  /** A deleted image stops being a room's poster (room). */
  forgetRoomPoster: ForgetRoomPoster;
}

export function userService(needs: UserServiceNeeds) {
  const router = createRouter();
  router
    .openapi(auth.login, authHandlers.login)
    .openapi(auth.session, authHandlers.session)
    .openapi(auth.liveToken, authHandlers.liveToken)
    .openapi(auth.publicKey, authHandlers.publicKey)
    .openapi(auth.guestToken, authHandlers.guestToken)
    .openapi(auth.magicLink, authHandlers.magicLink)
    .openapi(auth.validateMagicLink, authHandlers.validateMagicLink);
  router
    .openapi(signUp.signUp, signUpHandlers.signUp)
    .openapi(signUp.voucherSignUp, signUpHandlers.voucherSignUp)
    .openapi(signUp.adminSignUp, signUpHandlers.adminSignUp)
    .openapi(signUp.botSignUp, signUpHandlers.botSignUp)
    .openapi(signUp.botToken, signUpHandlers.botToken);
  router
    .openapi(password.forgotPassword, passwordHandlers.forgotPassword)
    .openapi(password.resetPassword, passwordHandlers.resetPassword)
    .openapi(password.setPassword, passwordHandlers.setPassword)
    .openapi(password.changePasswordAdmin, passwordHandlers.changePasswordAdmin);
  router
    .openapi(emailAddresses.listEmails, emailAddressesHandlers.listEmails)
    .openapi(emailAddresses.addEmail, emailAddressesHandlers.addEmail)
    .openapi(emailAddresses.deleteEmail, emailAddressesHandlers.deleteEmail)
    .openapi(emailAddresses.verifyEmail, emailAddressesHandlers.verifyEmail)
    .openapi(emailAddresses.confirmEmail, emailAddressesHandlers.confirmEmail)
    .openapi(emailAddresses.sendVerificationCode, emailAddressesHandlers.sendVerificationCode);
  router
    .openapi(mobileSignIn.validatePhone, mobileSignInHandlers.validatePhone)
    .openapi(mobileSignIn.recentValidations, mobileSignInHandlers.recentValidations)
    .openapi(mobileSignIn.clearRecentValidations, mobileSignInHandlers.clearRecentValidations)
    .openapi(mobileSignIn.fraudConstants, mobileSignInHandlers.fraudConstants)
    .openapi(mobileSignIn.sendCode, mobileSignInHandlers.sendCode)
    .openapi(mobileSignIn.verifyCode, mobileSignInHandlers.verifyCode)
    .openapi(mobileSignIn.whitelistPhone, mobileSignInHandlers.whitelistPhone)
    .openapi(mobileSignIn.unwhitelistPhone, mobileSignInHandlers.unwhitelistPhone)
    .openapi(mobileSignIn.listPhoneNumbers, mobileSignInHandlers.listPhoneNumbers)
    .openapi(mobileSignIn.addPhoneNumber, mobileSignInHandlers.addPhoneNumber)
    .openapi(mobileSignIn.getPhoneNumber, mobileSignInHandlers.getPhoneNumber)
    .openapi(mobileSignIn.deletePhoneNumber, mobileSignInHandlers.deletePhoneNumber);
  router
    .openapi(userIdentity.requestVerification, userIdentityHandlers.requestVerification)
    .openapi(userIdentity.verifyIdentity, userIdentityHandlers.verifyIdentity)
    .openapi(userIdentity.createIdentity, userIdentityHandlers.createIdentity)
    .openapi(userIdentity.listIdentities, userIdentityHandlers.listIdentities)
    .openapi(userIdentity.deleteIdentity, userIdentityHandlers.deleteIdentity);
  router
    .openapi(userProfiles.getUser, userProfilesHandlers.getUser)
    .openapi(userProfiles.ownCapabilities, userProfilesHandlers.ownCapabilities)
    .openapi(userProfiles.getOwnProfile, userProfilesHandlers.getOwnProfile)
    .openapi(userProfiles.updateProfile, userProfilesHandlers.updateProfile(needs.checkWearable))
    .openapi(userProfiles.updateSocials, userProfilesHandlers.updateSocials(needs.checkWearable))
    .openapi(userProfiles.updateProfileAdmin, userProfilesHandlers.updateProfileAdmin)
    .openapi(userProfiles.getProfile, userProfilesHandlers.getProfile)
    .openapi(userProfiles.searchPeople, userProfilesHandlers.searchPeople)
    .openapi(userProfiles.getProfileForService, userProfilesHandlers.getProfileForService)
    .openapi(userProfiles.listProfiles, userProfilesHandlers.listProfiles)
    .openapi(userProfiles.addBadges, userProfilesHandlers.addBadges)
    .openapi(userProfiles.removeBadges, userProfilesHandlers.removeBadges)
    .openapi(userProfiles.changeBadges, userProfilesHandlers.changeBadges)
    .openapi(userProfiles.allUserProfiles, userProfilesHandlers.allUserProfiles)
    .openapi(userProfiles.userProfileForService, userProfilesHandlers.userProfileForService);
  router
    .openapi(profileImages.uploadImage, profileImagesHandlers.uploadImage)
    .openapi(profileImages.getImage, profileImagesHandlers.getImage)
    .openapi(profileImages.deleteImage, profileImagesHandlers.deleteImage(needs.forgetRoomPoster));
  router
    .openapi(userModeration.kick, userModerationHandlers.kick)
    .openapi(userModeration.ban, userModerationHandlers.ban)
    .openapi(userModeration.temporaryBan, userModerationHandlers.temporaryBan)
    .openapi(userModeration.unban, userModerationHandlers.unban)
    .openapi(userModeration.addRole, userModerationHandlers.addRole)
    .openapi(userModeration.addGlobalModeratorRole, userModerationHandlers.addGlobalModeratorRole)
    .openapi(userModeration.addCapability, userModerationHandlers.addCapability)
    .openapi(userModeration.removeCapability, userModerationHandlers.removeCapability)
    .openapi(userModeration.addComment, userModerationHandlers.addComment)
    .openapi(userModeration.listComments, userModerationHandlers.listComments);
  router
    .openapi(accountDeactivation.requestDeactivation, accountDeactivationHandlers.requestDeactivation)
    .openapi(accountDeactivation.listDeactivationRequests, accountDeactivationHandlers.listDeactivationRequests)
    .openapi(accountDeactivation.cancelDeactivation, accountDeactivationHandlers.cancelDeactivation)
    .openapi(accountDeactivation.deactivate, accountDeactivationHandlers.deactivate)
    .openapi(accountDeactivation.reactivate, accountDeactivationHandlers.reactivate);
  router
    .openapi(voucher.createVoucher, voucherHandlers.createVoucher)
    .openapi(voucher.listVouchers, voucherHandlers.listVouchers)
    .openapi(voucher.deleteVoucher, voucherHandlers.deleteVoucher)
    .openapi(voucher.redeemVoucher, voucherHandlers.redeemVoucher);
  router
    .openapi(adminUserList.listUsers, adminUserListHandlers.listUsers)
    .openapi(adminUserList.getUser, adminUserListHandlers.getUser);
  router.openapi(outbox.delivery, outboxHandlers.delivery).openapi(outbox.listOutbox, outboxHandlers.listOutbox);
  router
    .openapi(discord.discordAuth, discordHandlers.discordAuth)
    .openapi(discord.exchangeCode, discordHandlers.exchangeCode)
    .openapi(discord.linkDiscord, discordHandlers.linkDiscord);
  router
    .openapi(connections.listConnections, connectionsHandlers.listConnections)
    .openapi(connections.authorizeUrl, connectionsHandlers.authorizeUrl)
    .openapi(connections.disconnect, connectionsHandlers.disconnect);
  router
    .openapi(musicProviders.spotifyExchangeCode, musicProvidersHandlers.spotifyExchangeCode)
    .openapi(musicProviders.spotifyRefreshToken, musicProvidersHandlers.spotifyRefreshToken)
    .openapi(musicProviders.spotifyDisconnect, musicProvidersHandlers.spotifyDisconnect)
    .openapi(musicProviders.spotifyAccessToken, musicProvidersHandlers.spotifyAccessToken)
    .openapi(musicProviders.youtubeExchangeCode, musicProvidersHandlers.youtubeExchangeCode)
    .openapi(musicProviders.youtubeRefreshToken, musicProvidersHandlers.youtubeRefreshToken)
    .openapi(musicProviders.soundcloudRefreshToken, musicProvidersHandlers.soundcloudRefreshToken)
    .openapi(musicProviders.soundcloudMobileRefreshToken, musicProvidersHandlers.soundcloudMobileRefreshToken)
    .openapi(musicProviders.soundcloudPublicToken, musicProvidersHandlers.soundcloudPublicToken)
    .openapi(musicProviders.soundcloudMobilePublicToken, musicProvidersHandlers.soundcloudMobilePublicToken)
    .openapi(musicProviders.soundcloudAccessToken, musicProvidersHandlers.soundcloudAccessToken);
  router
    .openapi(appleMusic.saveUserToken, appleMusicHandlers.saveUserToken)
    .openapi(appleMusic.getUserToken, appleMusicHandlers.getUserToken);
  router.openapi(agora.agoraToken, needs.agoraToken);
  router
    .openapi(cometChat.userToken, cometChatHandlers.userToken)
    .openapi(cometChat.ghostToken, cometChatHandlers.ghostToken)
    .openapi(cometChat.createUsers, cometChatHandlers.createUsers);
  router.route("/", statusRouter("user", "1.9.0", "/info-admin/user-service-status"));
  return router;
}
