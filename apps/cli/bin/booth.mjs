#!/usr/bin/env node
// The installed `booth` command: registers tsx so the TypeScript sources run as they are, then starts the CLI.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../src/main.ts");
process.exitCode = await main(process.argv);
