// What the edge's tests use: the app on a fresh database, the fakes of outside services, and the helpers that start
// a server in another process. apps/edge/src/testing.ts re-exports this, for the tests that import it.
export { expectRefusal, expectStatuses, multipart, ok, statusOf, TEST_ORIGIN, type TestApi, testApi } from "./api.ts";
export {
  createTestApp,
  type RequestOptions,
  TEST_FFMPEG,
  TEST_PEER,
  type TestApp,
  TestClock,
  type TestUser,
} from "./app.ts";
export { type DemoSongs, demoCatalogueOnce } from "./demo-catalogue-once.ts";
export { expectErrorLog } from "./error-logs.ts";
export { type AudiusTrackJson, audiusTrack, type FakeAudius, startFakeAudius } from "./fake-audius.ts";
export { FAKE_CREDENTIALS, type FakeProviders, startFakeProviders, youtubeVideo } from "./fake-providers.ts";
export {
  FAKE_SEVEN_DIGITAL,
  type FakeSevenDigital,
  type SevenDigitalTrackJson,
  sevenDigitalTrack,
  startFakeSevenDigital,
} from "./fake-seven-digital.ts";
export {
  createTestAppForParty,
  createTestAppWithRoomsDown,
  presentInTwoRooms,
  publicRoom,
  reportPresent,
} from "./live-rooms.ts";
export { serveTestApp } from "./local-server.ts";
export { testLogger } from "./logger.ts";
export { openForTests } from "./open-for-tests.ts";
export { openedForTests, openTestApp, withTestApp } from "./open-test-app.ts";
export { type ProviderApps, startProviderApps, withProviderApps } from "./provider-apps.ts";
export { expectLogsIn, login, session } from "./sessions.ts";
export { until } from "./until.ts";
export { sendAudio, settledUpload, uploaderOf, uploadTicket } from "./uploads.ts";
