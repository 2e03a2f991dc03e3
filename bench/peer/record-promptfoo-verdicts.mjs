// Records the verdict promptfoo itself gives each assertion of a verdicts file, so that PromptfooVerdictsTest
// (assay-core) holds Assay's promptfoo checker to promptfoo's own results, one assertion at a time.
// Usage: bench/peer/install-promptfoo.sh, then
//   node bench/peer/record-promptfoo-verdicts.mjs assay-core/src/test/resources/dev/assay/check/promptfoo/promptfoo-verdicts.json
// It rewrites each case's "promptfoo" field ({pass, score, reason}) with what promptfoo's runAssertion returns.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const { assertions } = await import(path.join(here, 'node_modules/promptfoo/dist/src/index.js'));
const file = process.argv[2];
const verdicts = JSON.parse(readFileSync(file, 'utf8'));
for (const entry of verdicts.cases) {
  const result = await assertions.runAssertion({
    assertion: structuredClone(entry.assertion),
    test: { vars: verdicts.vars },
    providerResponse: { output: entry.output },
  });
  entry.promptfoo = { pass: result.pass, score: result.score, reason: result.reason };
}
writeFileSync(file, JSON.stringify(verdicts, null, 1) + '\n');
console.error(`recorded ${verdicts.cases.length} verdicts of promptfoo into ${file}`);
