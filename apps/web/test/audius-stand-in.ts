/**
 * The local stand-in of Audius's API (the edge's testing/fake-audius.ts) for a browser group file: started once per
 * file, so the file's web server allows its streams (AUDIUS_MEDIA_HOSTS) and the suite that plays Audius reaches it.
 */
import { type FakeAudius, startFakeAudius } from "@booth/edge/testing";

let started: Promise<FakeAudius> | null = null;
export const audiusStandIn = () => {
  started ??= startFakeAudius();
  return started;
};
