#!/usr/bin/env node
// The `booth` command's entry: the bundle (dist/booth.mjs, scripts/build.mjs) starts here, and so does bin/booth.mjs
// from the sources.
import { main } from "./main.ts";

process.exitCode = await main(process.argv);
