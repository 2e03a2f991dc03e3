// Assay's JavaScript harness. Reads its configuration (with the run's nonce) from the first line of stdin, loads
// solution.js into a fresh vm context, runs each case with a timeout and reports on fd 1, each line prefixed with
// the nonce, ending in a sentinel. The candidate's console output goes to stderr.
'use strict';
const fs = require('fs');
const vm = require('vm');
const util = require('util');

const input = fs.readFileSync(0, 'utf8');
const config = JSON.parse(input.slice(0, input.indexOf('\n') >= 0 ? input.indexOf('\n') : input.length));
const nonce = config.nonce;
const writeResult = (record) => fs.writeSync(1, nonce + ' ' + JSON.stringify(record) + '\n');
const toStderr = (...args) => { process.stderr.write(util.format(...args) + '\n'); };
const timeout = Math.max(1, Math.round(Number(config.case_timeout || 4) * 1000));
const IDENT = /^[A-Za-z_$][\w$]*$/;

const sandboxConsole = { log: toStderr, info: toStderr, warn: toStderr, error: toStderr, debug: toStderr };
const context = vm.createContext({ console: sandboxConsole });
vm.runInContext(`
class ListNode { constructor(val, next) { this.val = val === undefined ? 0 : val; this.next = next === undefined ? null : next; } }
class TreeNode { constructor(val, left, right) { this.val = val === undefined ? 0 : val; this.left = left === undefined ? null : left; this.right = right === undefined ? null : right; } }
`, context);

function describe(error) {
  return String(error && error.stack ? String(error).split('\n')[0] : error).slice(0, 2000);
}

function toJson(value) {
  return JSON.parse(JSON.stringify(value === undefined ? null : value, (key, v) => {
    if (v instanceof Set || (v && v.constructor && v.constructor.name === 'Set')) return Array.from(v);
    if (typeof v === 'bigint') return Number(v);
    if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
    return v;
  }) || 'null');
}

function parameterNames(fn) {
  const text = Function.prototype.toString.call(fn);
  const open = text.indexOf('(');
  if (open < 0) return [];
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    const c = text[end];
    if (c === '(' || c === '[' || c === '{') depth++;
    if (c === ')' || c === ']' || c === '}') { depth--; if (depth === 0) break; }
  }
  return text.slice(open + 1, end).split(',').map((p) => p.replace(/=.*$/s, '').trim()).filter((p) => p.length > 0);
}

function bind(names, args) {
  const keys = Object.keys(args);
  const positional = keys.filter((k) => k.startsWith('#')).map((k) => args[k]);
  const named = keys.filter((k) => !k.startsWith('#'));
  const values = new Map();
  names.forEach((name, i) => { if (i < positional.length) values.set(name, positional[i]); });
  const unmatched = [];
  for (const key of named) {
    if (names.includes(key) && !values.has(key)) values.set(key, args[key]); else unmatched.push(args[key]);
  }
  for (const name of names) if (!values.has(name) && unmatched.length) values.set(name, unmatched.shift());
  if (names.length === 0) return positional.concat(unmatched);
  if (unmatched.length || values.size !== names.length) {
    throw new TypeError('arguments ' + JSON.stringify(keys) + ' do not fit parameters ' + JSON.stringify(names));
  }
  return names.map((n) => values.get(n));
}

function run(code) {
  return vm.runInContext(code, context, { timeout });
}

function main() {
  try {
    run(fs.readFileSync('solution.js', 'utf8'));
  } catch (error) {
    const timedOut = error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
    writeResult({ load_error: timedOut ? 'timeout' : 'runtime_error', message: describe(error) });
    writeResult({ end: true });
    return;
  }
  const entry = config.entry_point || '';
  let target = null;
  config.cases.forEach((testCase, index) => {
    try {
      let actual;
      if (testCase.design) {
        const ops = testCase.input.operations;
        const args = testCase.input.arguments;
        if (!IDENT.test(ops[0])) throw new TypeError('bad class name ' + ops[0]);
        context.__assay_args = args;
        context.__assay_ops = ops;
        actual = toJson(run(`(() => { const o = new ${ops[0]}(...__assay_args[0]); const r = [null];
          for (let i = 1; i < __assay_ops.length; i++) { const v = o[__assay_ops[i]](...__assay_args[i]); r.push(v === undefined ? null : v); }
          return r; })()`));
      } else {
        if (target === null) {
          const hasSolution = run('typeof Solution') === 'function';
          if (hasSolution) {
            const methods = run('Object.getOwnPropertyNames(Solution.prototype).filter((n) => n !== "constructor")');
            const name = methods.includes(entry) ? entry : (methods.length === 1 ? methods[0] : null);
            if (!name) throw new TypeError('cannot tell which Solution method to call: ' + methods);
            target = { call: `new Solution()[${JSON.stringify(name)}]`, fn: run(`Solution.prototype[${JSON.stringify(name)}]`) };
          } else {
            if (!IDENT.test(entry) || run(`typeof ${entry}`) !== 'function') {
              throw new TypeError('no function named ' + JSON.stringify(entry));
            }
            target = { call: entry, fn: run(entry) };
          }
        }
        context.__assay_values = bind(parameterNames(target.fn), testCase.input);
        actual = toJson(run(`(${target.call})(...__assay_values)`));
      }
      writeResult({ i: index, status: 'ok', actual });
    } catch (error) {
      const timedOut = error && error.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT';
      writeResult({ i: index, status: timedOut ? 'timeout' : 'runtime_error', message: describe(error) });
    }
  });
  writeResult({ end: true });
}

main();
