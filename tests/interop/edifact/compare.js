// A second opinion on edihub's EDIFACT message definitions: the message
// structures shipped by the npm package `edifact` (tools/bench's pinned
// copy), compared position by position with schema/definitions on segment
// order, mandatory/conditional and maximum repeats, for DESADV, INVOIC and
// ORDERS. Usage: node compare.js EDIFACT_PACKAGE_DIR DEFINITIONS_DIR DIRECTORY
// Prints each difference (message, path, what differs) and exits 1 when there
// is one.
'use strict';
const fs = require('fs');
const path = require('path');

const [pkg, defs, directory] = process.argv.slice(2);

// Our message: a tree of {tag, loop, mandatory, max, children}, from the .def line format.
function ours(type) {
  const text = fs.readFileSync(path.join(defs, 'edifact', directory, `${type}.def`), 'utf8');
  const root = { children: [] };
  const stack = [root];
  let inMessage = false;
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*$/, '');
    if (!line.trim()) continue;
    const t = line.trim().split(/\s+/);
    if (!/^\s/.test(line)) { inMessage = t[0] === 'message' && t[1] === type; continue; }
    if (!inMessage) continue;
    if (t[0] === 'end') { stack.pop(); continue; }
    const loop = t[0] === 'loop';
    const [tag, usage, max] = loop ? t.slice(1, 4) : t.slice(0, 3);
    const node = { tag, loop, mandatory: usage === 'M', max: max === '>1' ? Infinity : Number(max), children: [] };
    stack[stack.length - 1].children.push(node);
    if (loop) stack.push(node);
  }
  return root.children;
}

// The package's message: arrays are groups whose first entry is the trigger.
function theirs(type) {
  const convert = (entries) => entries.map((e) => {
    if (Array.isArray(e.content)) {
      const children = convert(e.content);
      return { tag: children[0].tag, loop: true, mandatory: e.mandatory, max: e.repetition, children };
    }
    return { tag: e.content, loop: false, mandatory: e.mandatory, max: e.repetition, children: [] };
  });
  return convert(JSON.parse(fs.readFileSync(path.join(pkg, 'messages', `${type}.json`), 'utf8')));
}

const differences = [];
function compare(type, at, a, b) {
  const n = Math.max(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i], y = b[i];
    const where = `${type} ${at}${i + 1}`;
    if (!x || !y || x.tag !== y.tag || x.loop !== y.loop) {
      differences.push(`${where}: ours ${x ? (x.loop ? 'loop ' : '') + x.tag : 'nothing'}, edifact's ${y ? (y.loop ? 'group ' : '') + y.tag : 'nothing'}`);
      return;  // the rest of this level is out of step
    }
    if (x.mandatory !== y.mandatory) differences.push(`${where} ${x.tag}: ours ${x.mandatory ? 'M' : 'C'}, edifact's ${y.mandatory ? 'M' : 'C'}`);
    if (x.max !== y.max) differences.push(`${where} ${x.tag}: ours max ${x.max}, edifact's ${y.max}`);
    if (x.loop) compare(type, `${at}${i + 1}/`, x.children, y.children);
  }
}

for (const type of ['DESADV', 'INVOIC', 'ORDERS']) compare(type, '', ours(type), theirs(type));
for (const d of differences) console.log(d);
console.log(`${differences.length} difference(s) against edifact's structures, directory ${directory}`);
process.exit(differences.length ? 1 : 0);
