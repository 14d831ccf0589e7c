'use strict';
// Shared plumbing for the npm peer parsers of tools/bench-edi-parse.
//
// Both peers read the file in fixed-size chunks and hand the parser one whole
// interchange at a time (see each script for why), so their memory stays
// bounded whatever the file size. Timing covers reading, splitting, parsing
// and counting the whole file; it excludes node's start-up and require().
//
// Output, one JSON line (the C++ bench prints the same shape):
//   {"parser":...,"bytes":N,"seconds":S,"mb_per_s":X,"peak_rss_mb":Y,
//    "interchanges":I,"messages":M,"segments":K}
// where mb_per_s = bytes / 1048576 / seconds (MiB/s) and peak_rss_mb =
// process.resourceUsage().maxRSS / 1024 (maxRSS is in KiB, so MiB).

const fs = require('fs');
const { StringDecoder } = require('string_decoder');

const CHUNK_BYTES = 4 << 20;

// Calls onInterchange(text) for every interchange in `file`, in order.
// `findEnd(buf, start)` returns the index just past the interchange that
// starts at `start` (buf[start] is its first non-blank character), or -1 when
// `buf` does not yet hold all of it. Blank characters between interchanges
// (CR, LF, space, tab) are skipped. Returns the number of bytes read.
function forEachInterchange(file, findEnd, onInterchange) {
  const fd = fs.openSync(file, 'r');
  const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
  const decoder = new StringDecoder('utf8');
  let buf = '';
  let bytes = 0;
  let eof = false;
  try {
    while (!eof) {
      const n = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) {
        eof = true;
        buf += decoder.end();
      } else {
        bytes += n;
        buf += decoder.write(chunk.subarray(0, n));
      }
      let pos = 0;
      for (;;) {
        pos = skipBlanks(buf, pos);
        if (pos >= buf.length) break;
        const end = findEnd(buf, pos);
        if (end < 0) {
          if (eof) throw new Error(`incomplete interchange at the end of ${file}`);
          break;
        }
        onInterchange(buf.slice(pos, end));
        pos = end;
      }
      buf = buf.slice(pos);
    }
  } finally {
    fs.closeSync(fd);
  }
  return bytes;
}

function skipBlanks(s, i) {
  for (let c = s.charCodeAt(i); c === 10 || c === 13 || c === 32 || c === 9; c = s.charCodeAt(++i));
  return i;
}

// Index of the first non-blank character before index i (or -1).
function prevNonBlank(s, i) {
  for (i--; i >= 0; i--) {
    const c = s.charCodeAt(i);
    if (c !== 10 && c !== 13 && c !== 32 && c !== 9) return i;
  }
  return -1;
}

function report(parser, bytes, t0, counts) {
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  const out = {
    parser,
    bytes,
    seconds: +seconds.toFixed(4),
    mb_per_s: +(bytes / 1048576 / seconds).toFixed(2),
    peak_rss_mb: +(process.resourceUsage().maxRSS / 1024).toFixed(1),
    interchanges: counts.interchanges,
    messages: counts.messages,
    segments: counts.segments,
  };
  process.stdout.write(JSON.stringify(out) + '\n');
}

function fileArg(script) {
  const file = process.argv[2];
  if (!file || process.argv.length > 3) {
    process.stderr.write(`usage: node ${script} FILE\n`);
    process.exit(2);
  }
  return file;
}

module.exports = { forEachInterchange, prevNonBlank, report, fileArg };
