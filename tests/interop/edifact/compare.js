'use strict';
// A second opinion on edihub's EDIFACT message definitions: the message
// structures (segment tables) shipped by the npm package `edifact`, pinned
// in package.json beside this file, compared with our definitions in
// schema/definitions/edifact/<directory>/ on segment order, mandatory or
// conditional, and maximum use (a segment's repeats, a group's repetitions),
// for DESADV, INVOIC and ORDERS.
//
//   node compare.js [--definitions DIR] [--directory D01B] [--list]
//
// Each level (the message, then each group) is aligned on its segment and
// group tags (a longest common subsequence, so one position more or less
// does not put the rest out of step), and every aligned pair is compared.
// Every difference found must be one of KNOWN below, each explained; any
// other one, and any KNOWN difference no longer found, fails: exit 1, one
// line each naming the message, the position and what differs. --list
// prints every difference found, known or not, and exits 0.
const fs = require('fs');
const path = require('path');

const args = process.argv.slice(2);
const opt = (name, def) => {
  const i = args.indexOf(name);
  return i >= 0 && i + 1 < args.length ? args[i + 1] : def;
};
const repo = path.resolve(__dirname, '..', '..', '..');
const definitions = opt('--definitions', path.join(repo, 'schema', 'definitions'));
const directory = opt('--directory', 'D01B');
const list = args.includes('--list');
const MESSAGES = ['DESADV', 'INVOIC', 'ORDERS'];

// The package says no directory version. Its tables are of a later
// directory than the latest edihub ships, D.01B (the nearest, and what they
// are compared with), and not of one directory: nearest D.11B-D.18A for DESADV
// (the EFI groups), D.13A-D.18A for INVOIC, D.02B-D.05B for ORDERS (GEI for
// GIS, PYT for PAT). Each difference against D.01B is listed here with the
// UN/EDIFACT directory that made it (checked against the published
// directories D.01B to D.18A, D.15A not read), or, where none of them has
// the package's value, as the package's own.
// `path` names a position by its tags from the message's top, a group by
// its first segment (ours: `SG26 LIN`); `what` is what differs.
const k = (message, path, what, why) => ({ message, path, what, why });
const KNOWN = [
  // DESADV. Raised from D.02A on: the header RFF group and its DTM, the RFF
  // group under NAD and its DTM, IMD in the line group.
  k('DESADV', 'SG1 RFF', "ours max 10, edifact's 99", 'raised to 99 in D.02A'),
  k('DESADV', 'SG1 RFF/DTM', "ours max 1, edifact's 9", 'raised to 9 in D.02A'),
  k('DESADV', 'SG2 NAD/SG3 RFF', "ours max 10, edifact's 99", 'raised to 99 in D.02A'),
  k('DESADV', 'SG2 NAD/SG3 RFF/DTM', "ours max 1, edifact's 99", 'raised to 99 in D.02A'),
  k('DESADV', 'SG10 CPS/SG17 LIN/IMD', "ours max 25, edifact's 99", 'raised to 99 in D.02A'),
  // D.02B put a PAC in the line group; D.11A added the EFI (external file
  // link) groups; D.11B raised the LOC of the terms of delivery.
  k('DESADV', 'SG10 CPS/SG17 LIN/PAC', "only in edifact's (C 9)", 'added in D.02B'),
  k('DESADV', 'group EFI', "only in edifact's (C 10)", 'added in D.11A'),
  k('DESADV', 'SG10 CPS/SG11 PAC/group EFI', "only in edifact's (C 99)", 'added in D.11A'),
  k('DESADV', 'SG10 CPS/SG17 LIN/group EFI', "only in edifact's (C 99)", 'added in D.11A'),
  k('DESADV', 'SG5 TOD/LOC', "ours max 5, edifact's 9999", 'raised to 9999 in D.11B'),
  // The package's own: no published directory from D.01B to D.18A has these
  // values or lacks these groups (D.01B's are the directory's throughout).
  k('DESADV', 'SG10 CPS/FTX', "ours max 5, edifact's 99", "the package's own: 5 in D.01B to D.18A"),
  k('DESADV', 'SG10 CPS/SG11 PAC/MEA', "ours max 10, edifact's 99", "the package's own: 10 in D.01B to D.18A"),
  k('DESADV', 'SG10 CPS/SG11 PAC/QTY', "ours max 10, edifact's 9", "the package's own: 10 in D.01B to D.18A"),
  k('DESADV', 'SG10 CPS/SG11 PAC/SG13 PCI/RFF', "ours max 1, edifact's 99", "the package's own: 1 in D.01B to D.18A"),
  k('DESADV', 'SG10 CPS/SG11 PAC/SG13 PCI/DTM', "ours max 5, edifact's 9", "the package's own: 5 in D.01B to D.18A"),
  k('DESADV', 'SG10 CPS/SG11 PAC/SG13 PCI/SG15 GIN', 'only in ours (O 99)',
    'the package lacks the GIN group under PCI, which D.01B to D.18A all have'),
  k('DESADV', 'SG10 CPS/SG17 LIN/SG25 QVR', 'only in ours (O 10)',
    'the package lacks the QVR group in the line group, which D.01B to D.18A all have'),
  // INVOIC. GIS and PAT are marked for deletion in D.01B: D.02B replaced them
  // with GEI (processing information) and PYT (payment terms).
  k('INVOIC', 'GIS', 'only in ours (O 10)', 'replaced by GEI in D.02B'),
  k('INVOIC', 'GEI', "only in edifact's (C 10)", 'replaces GIS from D.02B'),
  k('INVOIC', 'SG8 PAT', 'only in ours (O 10)', 'replaced by the PYT group in D.02B'),
  k('INVOIC', 'group PYT', "only in edifact's (C 10)", 'replaces the PAT group from D.02B'),
  k('INVOIC', 'SG26 LIN/SG28 PAT', 'only in ours (O 10)', 'replaced by the PYT group in D.02B'),
  k('INVOIC', 'SG26 LIN/group PYT', "only in edifact's (C 10)", 'replaces the PAT group from D.02B'),
  k('INVOIC', 'SG26 LIN/SG49 GIS', 'only in ours (O 10)', 'replaced by the GEI group in D.02B'),
  k('INVOIC', 'SG26 LIN/group GEI', "only in edifact's (C 999)", 'replaces the GIS group from D.02B'),
  // D.07B added the EFI groups, D.13A raised the line's PAC group.
  k('INVOIC', 'group EFI', "only in edifact's (C 99)", 'added in D.07B'),
  k('INVOIC', 'SG26 LIN/group EFI', "only in edifact's (C 99)", 'added in D.07B'),
  k('INVOIC', 'SG26 LIN/SG31 PAC', "ours max 10, edifact's 999", 'raised to 999 in D.13A'),
  // The package's own (D.01B to D.18A all say ours). Its summary MOA group
  // is conditional where every directory has it mandatory (SG50 here).
  k('INVOIC', 'SG26 LIN/SG35 NAD/SG36 RFF', "ours max 5, edifact's 99", "the package's own: 5 in D.01B to D.18A"),
  k('INVOIC', 'SG26 LIN/SG39 ALC/SG44 TAX/MOA', "ours max 2, edifact's 1", "the package's own: 2 in D.01B to D.18A"),
  k('INVOIC', 'SG50 MOA', "ours M, edifact's C", "the package's own: mandatory in D.01B to D.18A"),
  k('INVOIC', 'SG53 ALC', "ours max 15, edifact's 10", "the package's own: 15 in D.01B to D.18A"),
  // ORDERS. GIS and PAT as in INVOIC: GEI and PYT from D.02B.
  k('ORDERS', 'SG8 PAT', 'only in ours (O 10)', 'replaced by the PYT group in D.02B'),
  k('ORDERS', 'group PYT', "only in edifact's (C 10)", 'replaces the PAT group from D.02B'),
  k('ORDERS', 'SG28 LIN/SG30 PAT', 'only in ours (O 10)', 'replaced by the PYT group in D.02B'),
  k('ORDERS', 'SG28 LIN/group PYT', "only in edifact's (C 10)", 'replaces the PAT group from D.02B'),
  k('ORDERS', 'SG28 LIN/GIS', 'only in ours (O 99)', 'replaced by GEI in D.02B'),
  k('ORDERS', 'SG28 LIN/GEI', "only in edifact's (C 99)", 'replaces GIS from D.02B'),
  k('ORDERS', 'SG28 LIN/SG33 RFF/GIS', 'only in ours (O 99)', 'replaced by GEI in D.02B'),
  k('ORDERS', 'SG28 LIN/SG33 RFF/GEI', "only in edifact's (C 99)", 'replaces GIS from D.02B'),
  // The package's own (D.01B to D.18A all say ours): the MOA and RTE groups
  // under the header ALC have their maxima swapped.
  k('ORDERS', 'SG19 ALC/SG22 MOA', "ours max 2, edifact's 1", "the package's own: 2 in D.01B to D.18A"),
  k('ORDERS', 'SG19 ALC/SG23 RTE', "ours max 1, edifact's 2", "the package's own: 1 in D.01B to D.18A"),
];

// Our message: a tree of {tag, loop, name, mandatory, max, children} from a
// .def file: `TAG USAGE MAX`, `loop ID USAGE MAX ["name"]` ... `end`.
function ours(type) {
  const file = path.join(definitions, 'edifact', directory, `${type}.def`);
  if (!fs.existsSync(file)) {
    console.log(`FAIL: ${type}: no definition ${file}`);
    process.exit(1);
  }
  const root = { children: [] };
  const stack = [root];
  let inside = false;
  for (const raw of fs.readFileSync(file, 'utf8').split('\n')) {
    const line = raw.replace(/#.*$/, '');
    if (!line.trim()) continue;
    const t = line.trim().match(/"[^"]*"|\S+/g);
    if (!/^\s/.test(line)) {
      inside = t[0] === 'message' && t[1] === type;
      continue;
    }
    if (!inside) continue;
    if (t[0] === 'end') {
      stack.pop();
      continue;
    }
    const loop = t[0] === 'loop';
    const [tag, usage, max, name] = loop ? t.slice(1) : t;
    const node = { tag, loop, name: name ? name.replace(/"/g, '') : '', mandatory: usage === 'M',
                   max: max === '>1' ? Infinity : Number(max), children: [] };
    stack[stack.length - 1].children.push(node);
    if (loop) stack.push(node);
  }
  if (stack.length !== 1 || root.children.length === 0) throw new Error(`${file}: no message ${type} read`);
  return root.children;
}

// The package's message: an entry whose content is an array is a group, its
// first entry the segment that starts it.
function theirs(type) {
  const convert = (entries) => entries.map((e) => {
    if (Array.isArray(e.content)) {
      const children = convert(e.content);
      return { tag: children[0].tag, loop: true, name: '', mandatory: e.mandatory, max: e.repetition, children };
    }
    return { tag: e.content, loop: false, name: '', mandatory: e.mandatory, max: e.repetition, children: [] };
  });
  const file = require.resolve(`edifact/messages/${type}.json`, { paths: [__dirname] });
  return convert(JSON.parse(fs.readFileSync(file, 'utf8')));
}

const key = (n) => (n.loop ? 'loop ' : '') + n.tag;
const label = (n) => (n.loop ? (n.name ? `${n.name} ` : 'group ') : '') + n.tag;

// Longest common subsequence of two levels on their keys: the aligned pairs.
function align(a, b) {
  const m = a.length, n = b.length;
  const L = Array.from({ length: m + 1 }, () => new Array(n + 1).fill(0));
  for (let i = m - 1; i >= 0; i--)
    for (let j = n - 1; j >= 0; j--)
      L[i][j] = key(a[i]) === key(b[j]) ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out = [];
  let i = 0, j = 0;
  while (i < m || j < n) {
    if (i < m && j < n && key(a[i]) === key(b[j])) out.push([a[i++], b[j++]]);
    else if (j >= n || (i < m && L[i + 1][j] >= L[i][j + 1])) out.push([a[i++], null]);
    else out.push([null, b[j++]]);
  }
  return out;
}

const fmt = (n) => (n === Infinity ? '>1' : String(n));
const usage = (n, ours) => `${n.mandatory ? 'M' : ours ? 'O' : 'C'} ${fmt(n.max)}`;
function compare(type, at, a, b, out) {
  const pairs = align(a, b);
  // A position on one side only whose tag the other side also has only
  // unaligned at this level is one segment or group in another place.
  const lone = (side) => pairs.filter((q) => !q[1 - side]).map((q) => key(q[side]));
  const oursOnly = lone(0), theirsOnly = lone(1);
  const moved = new Set(oursOnly.filter((k) => theirsOnly.includes(k)));
  let i = 0, j = 0;
  for (const [x, y] of pairs) {
    if (x) i++;
    if (y) j++;
    const p = at + label(x || y);
    if (!x || !y) {
      const n = x || y;
      if (moved.has(key(n))) {
        if (x) out.push({ message: type, path: p, what: `out of place: ours at position ${i} of this level, edifact's elsewhere` });
      } else {
        out.push({ message: type, path: p, what: x ? `only in ours (${usage(x, true)})` : `only in edifact's (${usage(y, false)})` });
      }
      continue;
    }
    if (x.mandatory !== y.mandatory)
      out.push({ message: type, path: p, what: `ours ${x.mandatory ? 'M' : 'O'}, edifact's ${y.mandatory ? 'M' : 'C'}` });
    if (x.max !== y.max) out.push({ message: type, path: p, what: `ours max ${fmt(x.max)}, edifact's ${fmt(y.max)}` });
    if (x.loop) compare(type, p + '/', x.children, y.children, out);
  }
  return out;
}

const found = [];
for (const type of MESSAGES) compare(type, '', ours(type), theirs(type), found);
const id = (d) => `${d.message} ${d.path}: ${d.what}`;
if (list) {
  for (const d of found) console.log(id(d));
  console.log(`${found.length} difference(s) against the package's structures, directory ${directory}`);
  process.exit(0);
}
const known = new Set(KNOWN.map(id));
const seen = new Set(found.map(id));
const unexplained = found.filter((d) => !known.has(id(d)));
const gone = KNOWN.filter((d) => !seen.has(id(d)));
for (const d of unexplained) console.log(`FAIL: ${id(d)}`);
for (const d of gone) console.log(`FAIL: ${id(d)} is listed as known but no longer differs`);
console.log(`${found.length} difference(s) against the package's structures (${MESSAGES.join(', ')}, directory ${directory}), ` +
            `${found.length - unexplained.length} known, ${unexplained.length} not explained, ${gone.length} known but gone`);
process.exit(unexplained.length || gone.length ? 1 : 0);
