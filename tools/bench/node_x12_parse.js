#!/usr/bin/env node
'use strict';
// node-x12 (npm) peer for tools/bench-edi-parse:  node node_x12_parse.js FILE
//
// API used: `new X12Parser(true).parse(text)` called once per interchange,
// then the envelope is read from the returned X12Interchange object model
// (functionalGroups[].transactions[].segments). Strict mode makes node-x12
// check the envelope itself: SE01 segment count, SE02 = ST02, GE01 set count,
// GE02 = GS06, IEA01 group count and IEA02 = ISA13 (it throws on a mismatch).
//
// Why one interchange at a time (measured on a 20 MB generated file, 2-core
// machine, node 20):
// - parse() of the whole file in one string returns an X12FatInterchange but
//   keeps every segment, element and source range alive: ~5 MB/s and ~1.2 GB
//   peak RSS for 20 MB; on the 120 MiB benchmark file node aborts after ~40 s
//   with "heap out of memory" (default ~4 GB heap). Fed interchange by
//   interchange the same parse() code runs at ~50 MB/s in ~100-140 MB RSS.
// - The X12Parser Transform stream (fs.createReadStream(f).pipe(parser)) is
//   slower (~6 MB/s: one object-mode push per segment, and its envelope
//   information needs getInterchangeFromSegments() over the array of all
//   segments) and is not correct on multi-chunk input: when a chunk ends right
//   on a segment terminator its _consumeChunk() keeps the previous partial
//   segment in _dataCache and replays it (corrupt segments, then a TypeError
//   in getInterchangeFromSegments), and it re-validates an "ISA" at the start
//   of every chunk (strict mode throws on the second chunk).
// The file is read in 4 MiB chunks and cut after each IEA segment; the timing
// covers reading, cutting, parsing and counting the whole file.

const { X12Parser } = require('node-x12');
const { forEachInterchange, prevNonBlank, report, fileArg } = require('./common');

const file = fileArg('node_x12_parse.js');

// The interchange starting at `start` ends after the terminator of its IEA
// segment. Delimiters come from this interchange's own ISA (fixed positions).
function findEnd(buf, start) {
  if (buf.length - start < 106) return -1;
  if (!buf.startsWith('ISA', start)) throw new Error(`expected ISA at interchange start, got ${JSON.stringify(buf.substr(start, 20))}`);
  const elem = buf[start + 3];
  const term = buf[start + 105];
  const needle = 'IEA' + elem;
  for (let i = buf.indexOf(needle, start + 106); i >= 0; i = buf.indexOf(needle, i + 4)) {
    const p = prevNonBlank(buf, i);
    if (p >= 0 && buf[p] === term) {
      const end = buf.indexOf(term, i + 4);
      return end < 0 ? -1 : end + 1;
    }
  }
  return -1;
}

const counts = { interchanges: 0, messages: 0, segments: 0 };
const t0 = process.hrtime.bigint();
const bytes = forEachInterchange(file, findEnd, (text) => {
  const ic = new X12Parser(true).parse(text);
  if (ic.interchanges !== undefined) throw new Error('more than one ISA in one cut interchange');
  let segments = 2; // ISA + IEA
  let messages = 0;
  for (const group of ic.functionalGroups) {
    segments += 2; // GS + GE
    for (const tx of group.transactions) {
      messages++;
      segments += tx.segments.length + 2; // ST + body + SE
    }
  }
  counts.interchanges++;
  counts.messages += messages;
  counts.segments += segments;
});
report('node-x12', bytes, t0, counts);
