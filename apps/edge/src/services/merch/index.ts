import { createRouter, type Router } from "../../lib/openapi.ts";
import * as avatarHandlers from "./avatars.handlers.ts";
import * as avatars from "./avatars.routes.ts";
import * as bundleHandlers from "./bundles.handlers.ts";
import * as bundles from "./bundles.routes.ts";
import * as consumableHandlers from "./consumables.handlers.ts";
import * as consumables from "./consumables.routes.ts";
import * as fileHandlers from "./files.handlers.ts";
import * as files from "./files.routes.ts";
import * as seasonHandlers from "./seasons.handlers.ts";
import * as seasons from "./seasons.routes.ts";
import * as tokenHandlers from "./tokens.handlers.ts";
import * as tokens from "./tokens.routes.ts";

// The order of registration is the order of matching: fixed paths before the parametrised ones beside them.

const registerTokens = (router: Router) =>
  router
    .openapi(tokens.openAccount, tokenHandlers.openAccount)
    .openapi(tokens.ownAccount, tokenHandlers.ownAccount)
    .openapi(tokens.getAccount, tokenHandlers.getAccount)
    .openapi(tokens.commitHold, tokenHandlers.commitHold)
    .openapi(tokens.voidHold, tokenHandlers.voidHold)
    .openapi(tokens.creditAccount, tokenHandlers.creditAccount);

const registerConsumables = (router: Router) =>
  router
    .openapi(consumables.createConsumable, consumableHandlers.createConsumable)
    .openapi(consumables.listConsumables, consumableHandlers.listConsumables)
    .openapi(consumables.countConsumables, consumableHandlers.countConsumables)
    .openapi(consumables.getConsumable, consumableHandlers.getConsumable)
    .openapi(consumables.updateConsumable, consumableHandlers.updateConsumable)
    .openapi(consumables.deleteConsumable, consumableHandlers.deleteConsumable)
    .openapi(consumables.purchaseConsumable, consumableHandlers.purchaseConsumable)
    .openapi(files.uploadFile, fileHandlers.uploadFile)
    .openapi(files.getFile, fileHandlers.getFile);

const registerBundles = (router: Router) =>
  router
    .openapi(bundles.createBundle, bundleHandlers.createBundle)
    .openapi(bundles.listBundles, bundleHandlers.listBundles)
    .openapi(bundles.countBundles, bundleHandlers.countBundles)
    .openapi(bundles.getBundle, bundleHandlers.getBundle)
    .openapi(bundles.updateBundle, bundleHandlers.updateBundle)
    .openapi(bundles.deleteBundle, bundleHandlers.deleteBundle)
    .openapi(bundles.setThumbnail, bundleHandlers.setThumbnail);

const registerSeasons = (router: Router) =>
  router
    .openapi(seasons.createSeason, seasonHandlers.createSeason)
    .openapi(seasons.updateSeason, seasonHandlers.updateSeason)
    .openapi(seasons.deleteSeason, seasonHandlers.deleteSeason)
    .openapi(seasons.adminDeleteSeason, seasonHandlers.adminDeleteSeason)
    .openapi(seasons.listSeasons, seasonHandlers.listSeasons)
    .openapi(seasons.getSeason, seasonHandlers.getSeason)
    .openapi(seasons.currentSeason, seasonHandlers.currentSeason)
    .openapi(seasons.nextSeason, seasonHandlers.nextSeason)
    .openapi(seasons.prevSeason, seasonHandlers.prevSeason)
    .openapi(seasons.awardPoints, seasonHandlers.awardPoints)
    .openapi(seasons.rankingStatuses, seasonHandlers.rankingStatuses)
    .openapi(seasons.lifetimePoints, seasonHandlers.lifetimePoints)
    .openapi(seasons.ownCurrentStatus, seasonHandlers.ownCurrentStatus)
    .openapi(seasons.userCurrentStatus, seasonHandlers.userCurrentStatus)
    .openapi(seasons.seasonRanking, seasonHandlers.seasonRanking)
    .openapi(seasons.currentSeasonRanking, seasonHandlers.currentSeasonRanking)
    .openapi(seasons.namedSeasonRanking, seasonHandlers.namedSeasonRanking)
    .openapi(seasons.allSeasonsRanking, seasonHandlers.allSeasonsRanking)
    .openapi(seasons.adminRanking, seasonHandlers.adminRanking)
    .openapi(seasons.adminUserStatuses, seasonHandlers.adminUserStatuses)
    .openapi(seasons.adminLifetimeRanking, seasonHandlers.adminLifetimeRanking)
    .openapi(seasons.adminLifetimeEntry, seasonHandlers.adminLifetimeEntry);

const registerAvatars = (router: Router) =>
  router
    .openapi(avatars.createAvatar, avatarHandlers.createAvatar)
    .openapi(avatars.wearableAvatars, avatarHandlers.wearableAvatars)
    .openapi(avatars.visibleAvatars, avatarHandlers.visibleAvatars)
    .openapi(avatars.subscriberAvatars, avatarHandlers.subscriberAvatars)
    .openapi(avatars.avatarImages, avatarHandlers.avatarImages)
    .openapi(avatars.getAvatar, avatarHandlers.getAvatar)
    .openapi(avatars.mayWear, avatarHandlers.mayWear)
    .openapi(avatars.updateAvatar, avatarHandlers.updateAvatar)
    .openapi(avatars.deleteAvatar, avatarHandlers.deleteAvatar)
    .openapi(avatars.adminDeleteAvatar, avatarHandlers.adminDeleteAvatar)
    .openapi(avatars.adminListAvatars, avatarHandlers.adminListAvatars)
    .openapi(avatars.adminGetAvatar, avatarHandlers.adminGetAvatar)
    .openapi(avatars.serviceGetAvatar, avatarHandlers.serviceGetAvatar)
    .openapi(avatars.assignAvatar, avatarHandlers.assignAvatar)
    .openapi(avatars.removeAssignment, avatarHandlers.removeAssignment)
    .openapi(avatars.handleSeasonPoints, avatarHandlers.handleSeasonPoints)
    .openapi(avatars.backfillSeasonAvatars, avatarHandlers.backfillSeasonAvatars);

export function merchService() {
  const router = createRouter();
  registerTokens(router);
  registerConsumables(router);
  registerBundles(router);
  registerSeasons(router);
  registerAvatars(router);
  return router;
}
