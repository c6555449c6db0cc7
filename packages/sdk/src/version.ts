/**
 * Booth's version: one semantic version for the whole of Booth (every package, the images, the CLI, the rooms'
 * Worker). `npm run release <version>` writes it here and in every package.json; a test holds the two together.
 */
export const BOOTH_VERSION = "0.1.0";
