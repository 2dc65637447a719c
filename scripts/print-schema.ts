import { writeFileSync } from "node:fs";
import { printedSchema, SCHEMA_FILE } from "../src/schema/print.ts";

// `npm run schema:print`: rewrites the committed SDL from the code (a test fails on drift).
writeFileSync(SCHEMA_FILE, printedSchema());
console.log(`wrote ${SCHEMA_FILE}`);
