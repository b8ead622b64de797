// The bundle budget of issue #19: the built JavaScript, gzipped, at most 250 kB.
// Run after `npm run build`: `npm run size` (exits 1 over budget).
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

const BUDGET = 250 * 1000;
const dir = new URL("../dist/assets/", import.meta.url).pathname;
let total = 0;
for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
  const size = gzipSync(readFileSync(join(dir, name)), { level: 9 }).length;
  total += size;
  console.log(`${name}: ${(size / 1000).toFixed(1)} kB gzipped`);
}
console.log(`JavaScript: ${(total / 1000).toFixed(1)} kB gzipped (budget ${BUDGET / 1000} kB)`);
if (total === 0 || total > BUDGET) process.exit(1);
