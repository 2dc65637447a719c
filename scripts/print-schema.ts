import { writeFileSync } from "node:fs";
import { printedSchema, printedSubgraph, SCHEMA_FILE, SUBGRAPH_FILE } from "../src/schema/print.ts";

// `npm run schema:print`: rewrites the committed SDLs from the code (a test fails on drift).
writeFileSync(SCHEMA_FILE, printedSchema());
console.log(`wrote ${SCHEMA_FILE}`);
writeFileSync(SUBGRAPH_FILE, printedSubgraph());
console.log(`wrote ${SUBGRAPH_FILE}`);
