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
// Properties of the global object, not class declarations: a solution that defines its own ListNode (as judge sites
// show it, \`function ListNode(val, next)\`) replaces them instead of failing to load.
vm.runInContext(`
globalThis.ListNode = function ListNode(val, next) { this.val = val === undefined ? 0 : val; this.next = next === undefined ? null : next; };
globalThis.TreeNode = function TreeNode(val, left, right) { this.val = val === undefined ? 0 : val; this.left = left === undefined ? null : left; this.right = right === undefined ? null : right; };
globalThis.__assay_list = (values) => { let head = null; for (let i = values.length - 1; i >= 0; i--) head = new ListNode(values[i], head); return head; };
globalThis.__assay_tree = (values) => {
  if (!values.length || values[0] === null) return null;
  const root = new TreeNode(values[0]); const queue = [root]; let index = 1; let position = 0;
  while (position < queue.length && index < values.length) {
    const node = queue[position++];
    for (const side of ['left', 'right']) {
      if (index < values.length && values[index] !== null) { node[side] = new TreeNode(values[index]); queue.push(node[side]); }
      index++;
    }
  }
  return root;
};
`, context);

const LIST = 'ListNode';
const TREE = 'TreeNode';

function kindOf(value) {
  const name = value && typeof value === 'object' && value.constructor ? value.constructor.name : '';
  return name === LIST || name === TREE ? name : '';
}

/** Linked lists and trees as the examples write them: arrays (a tree in level order, trailing nulls cut). */
function plain(value) {
  const kind = kindOf(value);
  if (kind === LIST) {
    const out = [];
    for (let node = value; node && out.length < 1000000; node = node.next) out.push(plain(node.val));
    return out;
  }
  if (kind === TREE) {
    const out = []; const queue = [value];
    for (let i = 0; i < queue.length; i++) {
      const node = queue[i];
      if (!node) { out.push(null); continue; }
      out.push(plain(node.val)); queue.push(node.left); queue.push(node.right);
    }
    while (out.length && out[out.length - 1] === null) out.pop();
    return out;
  }
  return value;
}

/** The JSDoc types of a function's parameters and result, as judge sites write them above it. */
function declaredTypes(source, name) {
  const at = source.search(new RegExp('(?:function\\s+' + name + '\\b|\\b' + name + '\\s*[=:(])'));
  const types = { params: {}, returns: '' };
  if (at < 0) return types;
  const before = source.slice(0, at);
  const open = before.lastIndexOf('/**');
  if (open < 0 || before.slice(before.indexOf('*/', open) + 2).trim().replace(/^(?:var|let|const|static|async)\s*$/, '') !== '') {
    return types;
  }
  const doc = before.slice(open);
  for (const m of doc.matchAll(/@param\s*\{([^}]*)\}\s*([A-Za-z_$][\w$]*)/g)) types.params[m[2]] = m[1];
  const returns = /@returns?\s*\{([^}]*)\}/.exec(doc);
  types.returns = returns ? returns[1] : '';
  return types;
}

function structureType(type) {
  return /\bTreeNode\b/.test(type || '') ? TREE : /\bListNode\b/.test(type || '') ? LIST : '';
}

function findNode(root, value) {
  const pending = [root];
  while (pending.length) {
    const node = pending.pop();
    if (!node) continue;
    if (node.val === value) return node;
    pending.push(node.left, node.right, node.next);
  }
  throw new TypeError('no node with value ' + JSON.stringify(value) + ' in the structure given');
}

/** Arrays become the lists and trees the JSDoc declares; a plain value for a node names a node of another argument. */
function structured(names, values, types) {
  const byValue = [];
  const out = values.map((value, i) => {
    const kind = structureType(types.params[names[i]]);
    if (!kind) return value;
    if (Array.isArray(value)) {
      context.__assay_arg = value;
      return run(kind === LIST ? '__assay_list(__assay_arg)' : '__assay_tree(__assay_arg)');
    }
    if (value !== null && value !== undefined) byValue.push(i);
    return value;
  });
  if (byValue.length) {
    const structure = out.find((v, i) => !byValue.includes(i) && kindOf(v));
    if (!structure) throw new TypeError('a node is named by value but no argument is a tree or list');
    for (const i of byValue) out[i] = findNode(structure, out[i]);
  }
  return { values: out, byValue: byValue.length > 0 };
}

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
  const source = fs.readFileSync('solution.js', 'utf8');
  try {
    run(source);
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
        // A constructor declared to take a tree or list (by its JSDoc) gets one.
        let types = declaredTypes(source, ops[0]);
        if (!Object.keys(types.params).length) types = declaredTypes(source, 'constructor');
        context.__assay_args = [structured(Object.keys(types.params), args[0], types).values].concat(args.slice(1));
        context.__assay_ops = ops;
        actual = toJson(Array.from(run(`(() => { const o = new ${ops[0]}(...__assay_args[0]); const r = [null];
          for (let i = 1; i < __assay_ops.length; i++) { const v = o[__assay_ops[i]](...__assay_args[i]); r.push(v === undefined ? null : v); }
          return r; })()`)).map(plain));
      } else {
        if (target === null) {
          const hasSolution = run('typeof Solution') === 'function';
          if (hasSolution) {
            const methods = run('Object.getOwnPropertyNames(Solution.prototype).filter((n) => n !== "constructor")');
            const name = methods.includes(entry) ? entry : (methods.length === 1 ? methods[0] : null);
            if (!name) throw new TypeError('cannot tell which Solution method to call: ' + methods);
            target = { call: `new Solution()[${JSON.stringify(name)}]`, fn: run(`Solution.prototype[${JSON.stringify(name)}]`),
              types: declaredTypes(source, name) };
          } else {
            if (!IDENT.test(entry) || run(`typeof ${entry}`) !== 'function') {
              throw new TypeError('no function named ' + JSON.stringify(entry));
            }
            target = { call: entry, fn: run(entry), types: declaredTypes(source, entry) };
          }
        }
        const names = parameterNames(target.fn);
        const call = structured(names, bind(names, testCase.input), target.types);
        context.__assay_values = call.values;
        const result = run(`(${target.call})(...__assay_values)`);
        const firstKind = structureType(target.types.params[names[0]]);
        if (result === undefined && /^\s*(void|undefined)?\s*$/.test(target.types.returns) && call.values.length
            && (Array.isArray(call.values[0]) || kindOf(call.values[0]) || firstKind)) {
          // Judged on the first argument after the call: the array it sorted, the tree it flattened.
          actual = call.values[0] === null && firstKind ? [] : toJson(plain(call.values[0]));
        } else if (call.byValue && kindOf(result)) {
          actual = toJson(plain(result.val));
        } else {
          actual = toJson(plain(result));
          if (actual === null && structureType(target.types.returns)) actual = [];
        }
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
