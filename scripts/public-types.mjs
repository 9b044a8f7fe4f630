// Lists the public types (nested ones included; SPI, package and internal ones left out) of
// the modules an app embeds, from SwiftPM's symbol graphs, and prints how many there are.
// Usage: node scripts/public-types.mjs <symbol graph directory> <module>...   (build-docs.sh runs it)
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [directory, ...modules] = process.argv.slice(2);
const kinds = new Set(["swift.struct", "swift.enum", "swift.class", "swift.protocol", "swift.typealias", "swift.actor"]);
let total = 0;
for (const module of modules) {
  const graph = JSON.parse(readFileSync(join(directory, `${module}.symbols.json`), "utf8"));
  const types = graph.symbols
    .filter((s) => kinds.has(s.kind.identifier) && ["public", "open"].includes(s.accessLevel) && !s.spi)
    .map((s) => s.pathComponents.join("."))
    .sort();
  console.log(`public types: ${module} (${types.length}): ${types.join(", ")}`);
  total += types.length;
}
console.log(`public types: ${total} in ${modules.join(" and ")}`);
