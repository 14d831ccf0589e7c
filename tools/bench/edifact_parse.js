#!/usr/bin/env node
'use strict';
// edifact (npm) peer for tools/bench-edi-parse:  node edifact_parse.js FILE
//
// API used: the SAX-style `Parser` (require('edifact').Parser) with its default
// no-op validator and the event hooks assigned directly on the instance
// (parser.onopensegment / onelement / oncomponent / onclosesegment), which the
// package's README recommends when performance matters (no EventEmitter
// dispatch); `parser.write(interchange)` then `parser.end()` per interchange.
// Every segment is still fully tokenized by the package (each component is
// handed over as a string, release characters resolved); the hooks count
// segments and keep the values of the service segments only (UNB, UNH, UNT,
// UNZ), from which the envelope is checked here: UNT segment count and
// reference, UNZ message count and reference (a mismatch throws). As the
// package's Reader does, the UNB syntax identifier (UNOA...) sets the
// parser's character set.
//
// Measured on a 20 MB generated file (2-core machine, node 20): Parser with
// direct hooks ~80 MB/s; the same with parser.on(...) listeners ~65 MB/s;
// Reader.parse() per interchange (validates against the bundled segment and
// element definitions and builds a segment array) ~43 MB/s.
//
// Why one interchange at a time: the Parser only recognises a UNA service
// string advice at the very start of the stream (state "empty"); the UNA of
// the second interchange of a file fails with "Invalid character : after
// reading segment name UNA". parser.end() ("Terminate the EDI interchange")
// puts it back into that state, so the file is read in 4 MiB chunks, cut after
// each UNZ segment and written interchange by interchange. The timing covers
// reading, cutting, parsing and checking the whole file.

const { Parser } = require('edifact');
const { forEachInterchange, prevNonBlank, report, fileArg } = require('./common');

const file = fileArg('edifact_parse.js');

// Delimiters of the interchange at `start`: from its UNA, else the defaults.
function delimiters(buf, start) {
  if (buf.startsWith('UNA', start)) {
    return { des: buf[start + 4], rc: buf[start + 6], st: buf[start + 8] };
  }
  return { des: '+', rc: '?', st: "'" };
}

// true when the character at i is preceded by an odd number of release chars.
function released(buf, i, rc) {
  let n = 0;
  while (i - n - 1 >= 0 && buf[i - n - 1] === rc) n++;
  return (n & 1) === 1;
}

// The interchange starting at `start` ends after the terminator of its UNZ.
function findEnd(buf, start) {
  if (buf.length - start < 9) return -1;
  if (!buf.startsWith('UNA', start) && !buf.startsWith('UNB', start)) {
    throw new Error(`expected UNA or UNB at interchange start, got ${JSON.stringify(buf.substr(start, 20))}`);
  }
  const { des, rc, st } = delimiters(buf, start);
  const needle = 'UNZ' + des;
  for (let i = buf.indexOf(needle, start + 3); i >= 0; i = buf.indexOf(needle, i + 4)) {
    const p = prevNonBlank(buf, i);
    if (p > start && buf[p] === st && !released(buf, p, rc)) {
      for (let e = buf.indexOf(st, i + 4); e >= 0; e = buf.indexOf(st, e + 1)) {
        if (!released(buf, e, rc)) return e + 1;
      }
      return -1;
    }
  }
  return -1;
}

const counts = { interchanges: 0, messages: 0, segments: 0 };

const parser = new Parser();
// Per-interchange / per-message state driven by the hooks below.
let service = false; // current segment is UNB/UNH/UNT/UNZ: keep its values
let values = []; // first component of each element of the current service segment
let syntaxPending = false; // next component is the UNB syntax identifier
let component = 0; // component index within the current element
let segName = '';
let icRef = '';
let icMessages = 0;
let msgRef = '';
let msgSegments = 0;
let inMessage = false;

parser.onopensegment = function (name) {
  counts.segments++;
  if (inMessage) msgSegments++;
  segName = name;
  service = name === 'UNB' || name === 'UNH' || name === 'UNT' || name === 'UNZ';
  if (service) values = [];
  if (name === 'UNB') syntaxPending = true;
  else if (name === 'UNH') {
    if (inMessage) throw new Error('UNH inside a message');
    inMessage = true;
    msgSegments = 1;
  }
};
parser.onelement = function () {
  component = 0;
};
parser.oncomponent = function (value) {
  if (syntaxPending) {
    syntaxPending = false;
    this.encoding(value); // e.g. UNOA: the character set the tokenizer accepts
  }
  if (service && component === 0) values.push(value);
  component++;
};
parser.onclosesegment = function () {
  if (!service) return;
  switch (segName) {
    case 'UNB':
      icRef = values[4];
      icMessages = 0;
      break;
    case 'UNH':
      msgRef = values[0];
      icMessages++;
      counts.messages++;
      break;
    case 'UNT':
      if (!inMessage) throw new Error('UNT outside a message');
      if (Number(values[0]) !== msgSegments) throw new Error(`UNT count ${values[0]} != ${msgSegments} segments in message ${msgRef}`);
      if (values[1] !== msgRef) throw new Error(`UNT reference ${values[1]} != UNH reference ${msgRef}`);
      inMessage = false;
      break;
    case 'UNZ':
      if (Number(values[0]) !== icMessages) throw new Error(`UNZ count ${values[0]} != ${icMessages} messages in interchange ${icRef}`);
      if (values[1] !== icRef) throw new Error(`UNZ reference ${values[1]} != UNB reference ${icRef}`);
      counts.interchanges++;
      break;
  }
};

const t0 = process.hrtime.bigint();
const bytes = forEachInterchange(file, findEnd, (text) => {
  // A UNA at the start is picked up by write(); without one, back to defaults.
  if (!text.startsWith('UNA')) parser.configure({});
  parser.write(text);
  parser.end();
  if (inMessage) throw new Error('interchange ended inside a message');
});
report('edifact', bytes, t0, counts);
