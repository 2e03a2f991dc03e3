// Runs one promptfoo `javascript` assertion inside Assay's sandbox (docs/promptfoo-assertions.md, "javascript").
// Reads input.json ({code, output, context}), runs the code as promptfoo does (src/assertions/javascript.ts: an
// expression, or a function body when it spans lines, called with output, context and process) and writes what it
// returned, or why it threw, to result.json for Assay to read.
'use strict';
const fs = require('fs');

// promptfoo's single-line rule: a leading declaration keeps its statements and returns the last expression.
function lastStatementSemicolon(code) {
  let single = false;
  let double = false;
  let template = false;
  let last = -1;
  for (let i = 0; i < code.length; i++) {
    const ch = code[i];
    let backslashes = 0;
    for (let j = i - 1; j >= 0 && code[j] === '\\'; j--) backslashes++;
    if (backslashes % 2 === 0) {
      if (ch === "'" && !double && !template) single = !single;
      else if (ch === '"' && !single && !template) double = !double;
      else if (ch === '`' && !single && !double) template = !template;
    }
    if (ch === ';' && !single && !double && !template) last = i;
  }
  return last;
}

function functionBody(code) {
  const trimmed = code.trim().replace(/;+\s*$/, '');
  if (/^(const|let|var)\s/.test(trimmed)) {
    const at = lastStatementSemicolon(trimmed);
    if (at !== -1) {
      const expression = trimmed.slice(at + 1).trim();
      if (expression) return `${trimmed.slice(0, at + 1)} return ${expression}`;
    }
    return trimmed;
  }
  return `return ${trimmed}`;
}

function isGradingResult(r) {
  return typeof r === 'object' && r !== null && typeof r.pass === 'boolean' && typeof r.score === 'number'
    && typeof r.reason === 'string';
}

(async () => {
  const input = JSON.parse(fs.readFileSync('input.json', 'utf8'));
  let result;
  try {
    const code = input.code.trimEnd();
    const body = code.includes('\n') ? code : functionBody(code);
    const value = await Promise.resolve(new Function('output', 'context', 'process', body)(
      input.output, input.context, process));
    if (typeof value === 'boolean' || typeof value === 'number' || isGradingResult(value)) {
      result = { returned: value, nan: typeof value === 'number' && Number.isNaN(value) };
    } else {
      result = { error: `Custom function must return a boolean, number, or GradingResult object. Got type ${typeof value}: ${JSON.stringify(value)}` };
    }
  } catch (err) {
    result = { error: `${err && err.message}`, stack: `${err && err.stack}` };
  }
  fs.writeFileSync('result.json', JSON.stringify(result));
})();
