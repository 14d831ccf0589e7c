'use strict';
// A second reading of the positions in edihub's CONTRL: the npm package
// `edifact`'s parser (pinned in package.json beside this file) reads the
// interchange that was acknowledged and the CONTRL, and each UCS and UCD is
// resolved the way ISO 9735 counts them:
//   UCS 0096  the segment's position in the message, UNH = 1;
//   UCD 0098  the data element's position in the segment, the tag = 1 (so
//             the first element after the tag is 2), and the component's
//             position in its composite, the first = 1.
//
//   node contrl_positions.js INTERCHANGE CONTRL
//
// prints one line per finding, the message's reference first:
//   1 UCS 6 QTY 13                  a segment finding: the tag found there and 0085
//   1 UCS 6 QTY / UCD 37 2:2 '24X'  an element finding: the value found there
// and exits 1 when a position points past its segment, element or component.
const fs = require('fs');
const Parser = require('edifact/parser.js');

// The segments of `text`: {name, elements: [[component, ...], ...]}.
function read(text) {
  const parser = new Parser();
  parser.encoding('UNOC');
  const out = [];
  let elements, components;
  parser.onopensegment = (name) => out.push({ name, elements: (elements = []) });
  parser.onelement = () => elements.push((components = []));
  parser.oncomponent = (value) => components.push(value);
  parser.write(text.replace(/'\r?\n/g, "'"));
  parser.end();
  return out;
}

// The messages of an interchange by their UNH reference (0062), each the
// list of its segments from UNH to UNT.
function messages(segments) {
  const out = new Map();
  let current = null;
  for (const s of segments) {
    if (s.name === 'UNH') out.set(s.elements[0][0], (current = []));
    if (current) current.push(s);
    if (s.name === 'UNT') current = null;
  }
  return out;
}

const [original, contrl] = process.argv.slice(2).map((f) => read(fs.readFileSync(f, 'latin1')));
const byReference = messages(original);
let bad = 0;
let message = null, segment = null, ucs = '';
for (const s of contrl) {
  const e = s.elements;
  if (s.name === 'UCM') {
    message = byReference.get(e[0][0]) || null;
    if (!message) { console.log(`UCM ${e[0][0]}: no such message`); bad = 1; }
  } else if (s.name === 'UCS' && message) {
    const at = Number(e[0][0]);
    segment = message[at - 1] || null;
    ucs = `${message[0].elements[0][0]} UCS ${at} ${segment ? segment.name : '(past the message)'}`;
    if (!segment) bad = 1;
    if (e.length > 1 && e[1][0]) console.log(`${ucs} ${e[1][0]}`);
  } else if (s.name === 'UCD' && segment) {
    const code = e[0][0], element = Number(e[1][0]), component = Number(e[1][1] || 0);
    const value = segment.elements[element - 2];
    let found;
    if (!value) found = '(past the segment)';
    else if (component === 0) found = `'${value.join(':')}'`;
    else found = component <= value.length ? `'${value[component - 1]}'` : '(past the composite)';
    if (found.startsWith('(')) bad = 1;
    console.log(`${ucs} / UCD ${code} ${element}${component ? ':' + component : ''} ${found}`);
  }
}
process.exit(bad);
