/** Prints the edge's house rules' breaches and folder loops (decision 0021): `npm run house -w @booth/edge`. */
import { inspectHouse } from "../src/testing/house.ts";

const house = await inspectHouse();
const counts = new Map<string, number>();
for (const breach of house.breaches) counts.set(breach.rule, (counts.get(breach.rule) ?? 0) + 1);
for (const breach of house.breaches)
  console.log(`${breach.rule.padEnd(32)} ${breach.file.padEnd(48)} ${breach.detail}`);
console.log(house.breaches.length === 0 ? "no breaches" : "");
for (const [rule, count] of counts) console.log(`${String(count).padStart(4)}  ${rule}`);
console.log(
  `folder loops: ${house.loops.length === 0 ? "none" : house.loops.map((loop) => loop.join(" <-> ")).join("; ")}`,
);
process.exitCode = house.breaches.length + house.loops.length === 0 ? 0 : 1;
