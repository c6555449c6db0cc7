/**
 * The languages the web speaks, apart from their texts: the Vite config (which cannot load the texts, they import
 * the SDK's TypeScript) reads them here, as does everything through ./index.ts.
 */
export const LANGUAGES = ["en", "es"] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = "en";
