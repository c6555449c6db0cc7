// The edge's test helpers live in ./testing/ (the app on a fresh database, fakes, child servers); this entry keeps
// the import path the tests use.
export * from "./testing/index.ts";
