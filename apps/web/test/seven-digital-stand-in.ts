/**
 * The local stand-in of 7digital's API and preview service (the edge's testing/fake-seven-digital.ts) for a browser
 * group file: started once per file, so the file's web server allows its clips (SEVENDIGITAL_PREVIEWS_URL) and the
 * suite that plays 7digital reaches it.
 */
import { type FakeSevenDigital, startFakeSevenDigital } from "@booth/edge/testing";

let started: Promise<FakeSevenDigital> | null = null;
export const sevenDigitalStandIn = () => {
  started ??= startFakeSevenDigital();
  return started;
};
