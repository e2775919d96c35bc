import { redact } from "./src/redact/redact.js";

for (const t of process.argv.slice(2)) console.log(JSON.stringify(redact(t).text));
