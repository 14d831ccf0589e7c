'use strict';
// The most server CPU one request can cost before its sender is
// authenticated: hostile requests built at (and just past) every cap the
// gateway sets, each posted a few times to a running `edihub serve`, the
// server's CPU read from /proc/PID/task/*/schedstat (nanoseconds, every
// thread: I/O threads, workers, the log writer) around each one.
//   node worst_case.js PORT SERVER_PID WORK_DIR
// WORK_DIR holds what the shell made with openssl: as2-*.body/.ct files.
// Prints one line per shape and, last, the largest as JSON.

const fs = require('fs');
const http = require('http');
const path = require('path');

const [port, pid, work] = [Number(process.argv[2]), process.argv[3], process.argv[4]];
const REPEAT = 3;

function cpuNs() {
  let total = 0;
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      total += Number(fs.readFileSync(`/proc/${pid}/task/${t}/schedstat`, 'utf8').split(' ')[0]);
    } catch (e) { /* a thread that ended */ }
  }
  return total;
}

function post(pathName, headers, body) {
  return new Promise((resolve) => {
    const req = http.request({ host: '127.0.0.1', port, path: pathName, method: 'POST', headers: Object.assign({ 'Content-Length': body.length }, headers), agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString('latin1') }));
    });
    req.on('error', (e) => resolve({ status: 0, body: String(e) }));
    req.end(body);
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function measure(name, pathName, headers, body) {
  let worst = 0;
  let answer = null;
  for (let i = 0; i < REPEAT; ++i) {
    await sleep(60);  // the batched log writer flushes every 20 ms: not counted in the next request
    const before = cpuNs();
    answer = await post(pathName, headers, body);
    await sleep(40);  // what the answer leaves behind (its log row) is this request's too
    worst = Math.max(worst, cpuNs() - before);
  }
  const ms = worst / 1e6;
  // The answer in a few words: the EBMS error's code, the MDN's disposition, or its first line.
  const words = [/errorCode="[^"]*"/, /processed\/error: [a-z-]+/, /NotUnderstood/, /^[^\r\n]{0,60}/]
    .map((re) => (answer.body.match(re) || [null])[0]).find((w) => w);
  const first = words || '';
  console.log(`  ${name.padEnd(62)} ${(body.length / 1024).toFixed(0).padStart(7)} KiB  ${ms.toFixed(2).padStart(8)} ms  HTTP ${answer.status} ${first.slice(0, 60)}`);
  return { name, ms, status: answer.status };
}

const NS = 'xmlns:S12="http://www.w3.org/2003/05/soap-envelope" xmlns:eb="http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/"';
function envelope(messagingAttrs, extraHeader, body) {
  return `<?xml version="1.0" encoding="UTF-8"?><S12:Envelope ${NS}><S12:Header>${extraHeader}<eb:Messaging S12:mustUnderstand="true"${messagingAttrs}><eb:UserMessage><eb:MessageInfo><eb:Timestamp>2024-03-18T09:00:00Z</eb:Timestamp><eb:MessageId>worst-${Math.random()}@acme.example</eb:MessageId></eb:MessageInfo><eb:PartyInfo><eb:From><eb:PartyId type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">ACMESUPPLY</eb:PartyId><eb:Role>initiator</eb:Role></eb:From><eb:To><eb:PartyId type="urn:oasis:names:tc:ebcore:partyid-type:unregistered">EDIHUB</eb:PartyId><eb:Role>responder</eb:Role></eb:To></eb:PartyInfo><eb:CollaborationInfo><eb:Service>edi</eb:Service><eb:Action>deliver</eb:Action><eb:ConversationId>c</eb:ConversationId></eb:CollaborationInfo></eb:UserMessage></eb:Messaging></S12:Header><S12:Body>${body}</S12:Body></S12:Envelope>`;
}
const soap = { 'Content-Type': 'application/soap+xml; charset=UTF-8' };
const attrs = (n, width = 0) => Array.from({ length: n }, (_, i) => ` a${i}="${'v'.repeat(width)}"`).join('');

async function main() {
  const rows = [];
  console.log('AS4 (POST /as4), before any signature is checked:');
  // The report of the issue: 90,000 attributes on eb:Messaging, 955 KiB.
  rows.push(await measure('eb:Messaging with 90,000 attributes (refused: > 64)', '/as4', soap, Buffer.from(envelope(attrs(90000), '', ''))));
  rows.push(await measure('64 attributes on 312 elements: 20,000 in all (at the caps)', '/as4', soap,
    Buffer.from(envelope('', '', Array.from({ length: 312 }, () => `<x${attrs(64)}/>`).join('')))));
  rows.push(await measure('20,065 attributes in all (refused: > 20,000)', '/as4', soap,
    Buffer.from(envelope('', '', Array.from({ length: 314 }, () => `<x${attrs(64)}/>`).join('')))));
  rows.push(await measure('4,980 elements 31 deep (at the caps)', '/as4', soap,
    Buffer.from(envelope('', '', Array.from({ length: 166 }, () => '<a>'.repeat(30) + '</a>'.repeat(30)).join('')))));
  rows.push(await measure('5,001 elements (refused)', '/as4', soap,
    Buffer.from(envelope('', '', '<x/>'.repeat(5001)))));
  rows.push(await measure('1,000 namespace declarations on 16 elements (at the cap)', '/as4', soap,
    Buffer.from(envelope('', '', Array.from({ length: 16 }, (_, e) => `<x${Array.from({ length: 62 }, (_, i) => ` xmlns:p${i}="urn:${e}:${i}"`).join('')}/>`).join('')))));
  rows.push(await measure('namespace look-ups at depth 31 under 64 declarations each', '/as4', soap,
    Buffer.from(envelope('', '', Array.from({ length: 30 }, (_, d) => `<p${d}:a${Array.from({ length: 63 }, (_, i) => ` xmlns:p${i}="urn:${d}:${i}"`).join('')}>`).join('') + Array.from({ length: 30 }, (_, d) => `</p${29 - d}:a>`).join('')))));
  rows.push(await measure('a 512 KiB text node (at the cap)', '/as4', soap, Buffer.from(envelope('', '', `<t>${'x'.repeat(512 * 1024)}</t>`))));
  rows.push(await measure('48 attribute values of 16 KiB (at the cap)', '/as4', soap, Buffer.from(envelope('', '', `<x${attrs(48, 16384)}/>`))));
  rows.push(await measure('an envelope of 1 MiB + 1 byte (refused)', '/as4', soap, Buffer.from(envelope('', '', 'x'.repeat(1 << 20)))));
  rows.push(await measure('500 SOAP header blocks marked mustUnderstand', '/as4', soap,
    Buffer.from(envelope('', Array.from({ length: 500 }, (_, i) => `<h${i} xmlns="urn:h" S12:mustUnderstand="true"/>`).join(''), ''))));
  // SwA: parts at the part cap, each an attachment.
  const b = 'worstboundary';
  const swa = (parts, size) => {
    let s = `--${b}\r\nContent-Type: application/soap+xml\r\nContent-ID: <soap>\r\n\r\n${envelope('', '', '')}\r\n`;
    for (let i = 0; i < parts; ++i) s += `--${b}\r\nContent-Type: application/octet-stream\r\nContent-ID: <p${i}>\r\n\r\n${'z'.repeat(size)}\r\n`;
    return Buffer.from(s + `--${b}--\r\n`);
  };
  rows.push(await measure('SwA: 1,000 MIME parts of 1 KiB', '/as4', { 'Content-Type': `multipart/related; boundary="${b}"; type="application/soap+xml"; start="<soap>"` }, swa(1000, 1024)));
  rows.push(await measure('SwA: 4 MIME parts of 8 MiB (32 MiB body)', '/as4', { 'Content-Type': `multipart/related; boundary="${b}"; type="application/soap+xml"; start="<soap>"` }, swa(4, 8 << 20)));
  // WS-Security: the JDK-signed samples, broken so that the signature fails (xmlsec runs in full).
  for (const f of ['broken-wss-tampered-attachment.as4', 'broken-wss-wrong-signer.as4', 'broken-wss-unknown-key.as4']) {
    const bytes = fs.readFileSync(path.join(__dirname, '../../samples/as4', f));
    const nl = bytes.indexOf('\n');
    const ct = bytes.subarray(0, nl).toString().replace(/^Content-Type: /, '').trim();
    rows.push(await measure(`WS-Security, ${f}`, '/as4', { 'Content-Type': ct }, bytes.subarray(nl + 3)));
  }

  console.log('AS2 (POST /as2), before any signature is verified (acme requires one):');
  const as2 = (id, extra = {}) => Object.assign({ 'AS2-From': 'ACMESUPPLY', 'AS2-To': 'EDIHUB', 'Message-ID': `<worst-${Math.random()}-${id}@acme.example>` }, extra);
  const hundred = {};
  for (let i = 0; i < 95; ++i) hundred[`X-Filler-${i}`] = 'f'.repeat(8000);
  rows.push(await measure('95 headers of 8 KB, unknown AS2-From (refused from the head)', '/as2', Object.assign({ 'AS2-From': 'NOBODY', 'AS2-To': 'EDIHUB', 'Message-ID': '<h@x>', 'Content-Type': 'application/edi-x12' }, hundred), Buffer.from('x')));
  for (const mb of [1, 10, 100]) {
    const body = Buffer.alloc(mb << 20, 0x41);
    rows.push(await measure(`${mb} MiB of unsigned bytes (refused: unsigned)`, '/as2', as2(`u${mb}`, { 'Content-Type': 'application/edi-x12' }), body));
  }
  for (const f of fs.readdirSync(work).filter((n) => n.startsWith('as2-') && n.endsWith('.body')).sort()) {
    const name = f.slice(4, -5);
    const ct = fs.readFileSync(path.join(work, `as2-${name}.ct`), 'utf8').trim();
    rows.push(await measure(`openssl-made: ${name.replace(/-/g, ' ')}`, '/as2', as2(name, { 'Content-Type': ct, 'Content-Transfer-Encoding': 'binary' }), fs.readFileSync(path.join(work, f))));
  }
  const worst = rows.reduce((a, r) => (r.ms > a.ms ? r : a), rows[0]);
  console.log(JSON.stringify({ worst_ms: Number(worst.ms.toFixed(2)), worst: worst.name }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
