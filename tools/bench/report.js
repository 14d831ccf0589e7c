#!/usr/bin/env node
'use strict';
// Prints the tables of tools/bench-edi-parse from its results file.
//
//   node report.js RESULTS_TSV
//
// Each line of RESULTS_TSV: STANDARD <TAB> NAME <TAB> STATUS <TAB> RAW_OUTPUT
// where NAME "generator" carries the JSON summary printed by generate.js (the
// expected counts) and any other NAME is a parser run whose RAW_OUTPUT should
// be one JSON line {"parser","bytes","seconds","mb_per_s","peak_rss_mb",
// "interchanges","messages","segments"}; STATUS is "ok" or "failed". A row
// with "floor": true (memchr over the terminators) has no counts to check.
// A parser run several times is shown by its fastest run.
// Exit status 0 always unless the results file is unreadable: timings and
// count mismatches are reported, never turned into a failure.

const fs = require('fs');

const rows = fs.readFileSync(process.argv[2], 'utf8').split('\n').filter(Boolean).map((line) => {
  const [standard, name, status, ...rest] = line.split('\t');
  const raw = rest.join('\t');
  let json = null;
  if (status === 'ok') {
    try { json = JSON.parse(raw); } catch (e) { json = null; }
  }
  return { standard, name, status: json ? status : 'failed', json, raw };
});

const standards = [...new Set(rows.map((r) => r.standard))];
const fmt = (v, d) => (typeof v === 'number' && Number.isFinite(v) ? v.toFixed(d) : 'n/a');
const COUNT_FIELDS = ['interchanges', 'messages', 'segments'];

for (const std of standards) {
  const gen = rows.find((r) => r.standard === std && r.name === 'generator');
  // Several runs of one parser (EDIHUB_BENCH_RUNS > 1): keep the fastest, and
  // report a failure if any run failed.
  const runs = [];
  for (const r of rows.filter((x) => x.standard === std && x.name !== 'generator')) {
    const i = runs.findIndex((x) => x.name === r.name);
    if (i < 0) runs.push(r);
    else if (runs[i].json && (!r.json || r.json.mb_per_s > runs[i].json.mb_per_s)) runs[i] = r;
  }
  const expected = gen && gen.json;
  const title = std === 'x12' ? 'X12' : 'EDIFACT';
  console.log('');
  if (expected) {
    console.log(`${title}: ${expected.file}  ${(expected.bytes / 1048576).toFixed(1)} MiB, ` +
      `${expected.interchanges} interchanges, ${expected.messages} messages, ${expected.segments} segments`);
  } else {
    console.log(`${title}:`);
  }
  const edihub = runs.find((r) => r.name === 'edihub' && r.json);
  const header = ['parser', 'MB/s', 'peak RSS MB', 'seconds', 'edihub/peer'];
  const table = [header];
  const notes = [];
  for (const r of runs) {
    if (!r.json) {
      table.push([r.name, 'FAILED', '', '', '']);
      notes.push(`${r.name}: ${r.raw || 'no output'}`);
      continue;
    }
    const j = r.json;
    let ratio = '';
    if (r.name === 'edihub') ratio = '1.00x';
    else if (edihub && j.mb_per_s > 0) ratio = `${(edihub.json.mb_per_s / j.mb_per_s).toFixed(2)}x`;
    else ratio = 'n/a';
    table.push([j.parser || r.name, fmt(j.mb_per_s, 1), fmt(j.peak_rss_mb, 1), fmt(j.seconds, 3), ratio]);
    if (expected && !j.floor) {
      const bad = COUNT_FIELDS.filter((f) => j[f] !== expected[f]).map((f) => `${f} ${j[f]} (expected ${expected[f]})`);
      if (j.bytes !== expected.bytes) bad.unshift(`bytes ${j.bytes} (expected ${expected.bytes})`);
      if (bad.length) notes.push(`WARNING ${r.name} counts differ: ${bad.join(', ')}`);
    }
  }
  const memory = runs.find((r) => r.name === 'edihub-memory' && r.json);
  const floor = runs.find((r) => r.json && r.json.floor);
  if (memory && floor && floor.json.mb_per_s > 0) {
    notes.push(`edihub in memory at ${(100 * memory.json.mb_per_s / floor.json.mb_per_s).toFixed(0)}% of the memchr ` +
      'floor (every segment terminator found, nothing else; goal 50%)');
  }
  const widths = header.map((_, c) => Math.max(...table.map((row) => String(row[c]).length)));
  table.forEach((row, i) => {
    console.log('  ' + row.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '));
    if (i === 0) console.log('  ' + widths.map((w) => '-'.repeat(w)).join('  '));
  });
  if (expected && runs.length && notes.every((n) => !n.startsWith('WARNING'))) {
    const okRuns = runs.filter((r) => r.json).map((r) => r.name);
    if (okRuns.length) console.log(`  counts match the generator for: ${okRuns.join(', ')}`);
  }
  for (const n of notes) console.log('  ' + n);
}
console.log('');
console.log('MB/s = MiB of input per second (bytes / 1048576 / seconds); peak RSS in MiB (maxRSS);');
console.log('edihub/peer = edihub MB/s divided by that parser\'s MB/s (above 1: edihub is faster).');
