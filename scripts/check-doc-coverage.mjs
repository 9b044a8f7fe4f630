// Fails (exit 1) when a public symbol written in the source has no documentation comment.
// Usage: node scripts/check-doc-coverage.mjs <symbol graph directory> <module>...
// Compiler-synthesized members (no source location, like hashValue) are not counted.
import { readFileSync } from "node:fs";
import { join } from "node:path";

const [directory, ...modules] = process.argv.slice(2);
let missing = 0;
for (const module of modules) {
  const graph = JSON.parse(readFileSync(join(directory, `${module}.symbols.json`), "utf8"));
  const written = graph.symbols.filter((s) => ["public", "open"].includes(s.accessLevel) && s.location);
  const undocumented = written.filter((s) => !s.docComment || s.docComment.lines.every((l) => !l.text.trim()));
  for (const s of undocumented) {
    const where = s.location.uri.replace(/^file:\/\//, "");
    console.error(`${where}:${s.location.position.line + 1}: undocumented public ${s.kind.displayName.toLowerCase()} ${s.pathComponents.join(".")}`);
  }
  console.log(`docs: ${module}: ${written.length} public symbols, ${undocumented.length} undocumented`);
  missing += undocumented.length;
}
process.exit(missing === 0 ? 0 : 1);
