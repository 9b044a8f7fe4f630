// Prints the public, non-SPI symbols of the given modules, one per line, as their path joined
// by dots (`PageSide.Page.init(evaluate:scroll:redraw:inject:regionsChanged:)`), from SwiftPM's
// symbol graphs (`swift package dump-symbol-graph --minimum-access-level public`). The API
// check (scripts/check-api.sh) keeps only the breakages of these: package and SPI symbols are
// not the public API.
// Usage: node scripts/public-symbols.mjs <symbol graph directory> <module>...
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

const [directory, ...modules] = process.argv.slice(2);
const names = new Set();
for (const file of readdirSync(directory)) {
  const module = file.split(/[.@]/)[0];
  if (!modules.includes(module) || !file.endsWith(".symbols.json")) continue;
  const graph = JSON.parse(readFileSync(join(directory, file), "utf8"));
  for (const s of graph.symbols) {
    if (["public", "open"].includes(s.accessLevel) && !s.spi) names.add(s.pathComponents.join("."));
  }
}
console.log([...names].sort().join("\n"));
