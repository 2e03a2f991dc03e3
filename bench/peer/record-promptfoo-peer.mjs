// Runs each promptfoo config of a directory with promptfoo itself against a deterministic mock model, and records the
// verdict of every assertion, so that PromptfooPeerTest (assay-promptfoo) holds Assay's run of the same configs against
// the same mock to promptfoo's verdicts, config by config.
// Usage: bench/peer/install-promptfoo.sh, then
//   node bench/peer/record-promptfoo-peer.mjs assay-promptfoo/src/test/resources/dev/assay/promptfoo/peer
// The directory holds answers.json (the mock's rules) and one directory per config (its promptfooconfig.yaml and the
// files it names). The configs run unmodified: promptfoo's OpenAI providers reach the mock through OPENAI_BASE_URL.
// Each config's directory gets verdicts.json: per result (test, prompt, provider) its success, score and the pass and
// score of each assertion, in promptfoo's order.
import { createServer } from 'node:http';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const here = path.dirname(fileURLToPath(import.meta.url));
const promptfoo = path.join(here, 'node_modules/promptfoo/dist/src/entrypoint.js');
const version = JSON.parse(readFileSync(path.join(here, 'node_modules/promptfoo/package.json'), 'utf8')).version;
const root = path.resolve(process.argv[2]);
const answers = JSON.parse(readFileSync(path.join(root, 'answers.json'), 'utf8'));

/** The mock's answer: the first rule whose model matches (when it names one) and whose text is in the messages. */
function answer(body) {
  const text = (body.messages ?? [])
    .map((message) => (typeof message.content === 'string' ? message.content : JSON.stringify(message.content)))
    .join('\n');
  const rule = answers.rules.find(
    (candidate) => (!candidate.model || candidate.model === body.model) && text.includes(candidate.contains),
  );
  return rule ? rule.answer : answers.default;
}

const server = createServer((request, response) => {
  let raw = '';
  request.on('data', (chunk) => (raw += chunk));
  request.on('end', () => {
    if (!request.url.endsWith('/chat/completions')) {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `no ${request.url} here`, type: 'not_found' } }));
      return;
    }
    const body = JSON.parse(raw);
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: 'chatcmpl-mock',
        object: 'chat.completion',
        created: 1700000000,
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content: answer(body) }, finish_reason: 'stop' }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15, prompt_tokens_details: { cached_tokens: 4 } },
      }),
    );
  });
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

function run(args, env) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [promptfoo, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** An assertion's verdict as recorded: its type, pass and score, with a set's own assertions' verdicts. */
function verdict(component) {
  if (component.componentResults?.length) {
    return { type: 'assert-set', pass: component.pass, score: component.score, assertions: component.componentResults.map(verdict) };
  }
  return { type: component.assertion?.type ?? null, pass: component.pass, score: component.score };
}

/**
 * The verdicts of the config's assertions, in its order: promptfoo lists an assert-set's own result followed by copies
 * of its assertions' results, which are left out here, as they are inside the set's verdict.
 */
function verdicts(components) {
  const out = [];
  for (let i = 0; i < components.length; i++) {
    out.push(verdict(components[i]));
    i += components[i].componentResults?.length ?? 0;
  }
  return out;
}

let failed = false;
for (const name of readdirSync(root).sort()) {
  const dir = path.join(root, name);
  if (!statSync(dir).isDirectory()) continue;
  const scratch = mkdtempSync(path.join(tmpdir(), 'promptfoo-peer-'));
  const out = path.join(scratch, 'results.json');
  const env = {
    PATH: process.env.PATH,
    HOME: scratch,
    PROMPTFOO_CONFIG_DIR: scratch,
    PROMPTFOO_DISABLE_TELEMETRY: '1',
    PROMPTFOO_DISABLE_UPDATE: '1',
    PROMPTFOO_DISABLE_SHARING: '1',
    OPENAI_API_KEY: 'test-key',
    OPENAI_BASE_URL: baseUrl,
  };
  const args = ['eval', '-c', path.join(dir, 'promptfooconfig.yaml'), '-o', out, '--no-cache', '--no-table', '--no-progress-bar', '-j', '1'];
  const { code, output } = await run(args, env);
  let results;
  try {
    results = JSON.parse(readFileSync(out, 'utf8')).results.results;
  } catch (error) {
    console.error(`${name}: promptfoo wrote no results (exit ${code}):\n${output}`);
    failed = true;
    rmSync(scratch, { recursive: true, force: true });
    continue;
  }
  const rows = results
    .map((result) => ({
      test: result.testIdx,
      prompt: result.promptIdx,
      provider: result.provider.label || result.provider.id,
      output: result.response?.output ?? null,
      success: result.success,
      score: result.score,
      error: result.error ?? null,
      assertions: verdicts(result.gradingResult?.componentResults ?? []),
    }))
    .sort((a, b) => a.test - b.test || a.provider.localeCompare(b.provider) || a.prompt - b.prompt);
  const recorded = {
    about: `The verdict promptfoo ${version} gives each assertion of ${name}/promptfooconfig.yaml run against the mock of ../answers.json, recorded by bench/peer/record-promptfoo-peer.mjs; PromptfooPeerTest holds Assay's run to it.`,
    promptfoo_version: version,
    results: rows,
  };
  writeFileSync(path.join(dir, 'verdicts.json'), JSON.stringify(recorded, null, 1) + '\n');
  console.error(`${name}: ${rows.length} results recorded (promptfoo exit ${code})`);
  rmSync(scratch, { recursive: true, force: true });
}
server.close();
process.exit(failed ? 1 : 0);
