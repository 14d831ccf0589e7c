#!/usr/bin/env node
'use strict';
// Deterministic generator of large, well-formed X12 / EDIFACT benchmark files.
//
//   node generate.js x12|edifact OUT_FILE SIZE_MB [SEED]
//
// Writes at least SIZE_MB MiB (SIZE_MB * 1048576 bytes; whole interchanges
// only, so the file ends a little past that) and prints one JSON line:
//   {"file":...,"bytes":...,"interchanges":...,"messages":...,"segments":...}
// "messages" are transaction sets (ST..SE) for X12 and messages (UNH..UNT)
// for EDIFACT. "segments" counts every segment of every interchange, envelope
// segments included (ISA..IEA / UNB..UNZ); the EDIFACT UNA service string
// advice is not counted as a segment.
//
// Output is streamed through a small buffer (memory stays bounded whatever the
// size), and is a pure function of (standard, SIZE_MB, SEED): a seeded PRNG
// drives every choice and no clock is read.
//
// X12: ISA (exactly 106 characters, version 00401) / GS / 1-5 ST..SE / GE /
// IEA; element separator '*', sub-element separator '>', segment terminator
// '~' followed by '\n'. Each interchange holds one functional group of either
// 856 ship notices (GS01=SH) or 810 invoices (GS01=IN), release 004010.
// EDIFACT: UNA:+.? ' / UNB+UNOA:3 / 1-5 DESADV or INVOIC D96A messages / UNZ,
// segment terminator "'" followed by '\n'; free text occasionally carries the
// release character (?+ ?: ?' ??). All data stays within the UNOA repertoire.

const fs = require('fs');

function usage(msg) {
  if (msg) process.stderr.write(`generate.js: ${msg}\n`);
  process.stderr.write('usage: node generate.js x12|edifact OUT_FILE SIZE_MB [SEED]\n');
  process.exit(2);
}

const [standard, outFile, sizeArg, seedArg] = process.argv.slice(2);
if (standard !== 'x12' && standard !== 'edifact') usage('standard must be x12 or edifact');
if (!outFile) usage('missing OUT_FILE');
const sizeMb = Number(sizeArg);
if (!Number.isFinite(sizeMb) || sizeMb <= 0) usage('SIZE_MB must be a positive number');
const seed = seedArg === undefined ? 0x5eed1234 : Number(seedArg) >>> 0;
const targetBytes = Math.ceil(sizeMb * 1048576);

// ---------------------------------------------------------------- PRNG ------
// mulberry32: tiny, fast, good enough for test data, fully deterministic.
let rngState = seed >>> 0;
function rand() {
  rngState = (rngState + 0x6d2b79f5) >>> 0;
  let t = rngState;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const int = (lo, hi) => lo + Math.floor(rand() * (hi - lo + 1)); // inclusive
const pick = (arr) => arr[Math.floor(rand() * arr.length)];
const chance = (p) => rand() < p;
const digits = (n) => {
  let s = '';
  for (let i = 0; i < n; i++) s += String.fromCharCode(48 + Math.floor(rand() * 10));
  return s;
};
const pad = (v, n) => String(v).padStart(n, '0');
const rpad = (s, n) => (s + ' '.repeat(n)).slice(0, n);
const money = (cents) => `${Math.floor(cents / 100)}.${pad(cents % 100, 2)}`;

// GTIN/UPC with a valid GS1 check digit.
function gtin(len) {
  const body = digits(len - 1);
  let sum = 0;
  for (let i = body.length - 1, w = 3; i >= 0; i--, w = 4 - w) sum += (body.charCodeAt(i) - 48) * w;
  return body + ((10 - (sum % 10)) % 10);
}

// Calendar: dates walk forward through 2024-2025 as interchanges are written.
let dayIndex = 0;
function dateParts(offsetDays = 0) {
  const d = new Date(Date.UTC(2024, 0, 1) + ((dayIndex + offsetDays) % 700) * 86400000);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
}
const ccyymmdd = (o) => { const p = dateParts(o); return `${p.y}${pad(p.m, 2)}${pad(p.d, 2)}`; };
const yymmdd = (o) => ccyymmdd(o).slice(2);
const hhmm = () => `${pad(int(0, 23), 2)}${pad(int(0, 59), 2)}`;

// ---------------------------------------------------------------- data ------
const COMPANIES = [
  'ACME DISTRIBUTION', 'NORTHWIND TRADERS', 'GLOBEX SUPPLY', 'INITECH PARTS', 'UMBRELLA LOGISTICS',
  'STARK INDUSTRIAL', 'WAYNE HARDWARE', 'CONTOSO RETAIL', 'FABRIKAM FOODS', 'TAILSPIN TOYS',
  'WIDE WORLD IMPORTERS', 'ADVENTURE WORKS', 'BLUE YONDER MARKETS', 'LITWARE HOME', 'PROSEWARE OFFICE',
];
const STREETS = ['MAIN ST', 'INDUSTRIAL PKWY', 'COMMERCE DR', 'HARBOR BLVD', 'OAK AVE', 'RIVER RD', 'DEPOT LN'];
const US_CITIES = [
  ['SPRINGFIELD', 'IL', '62701'], ['COLUMBUS', 'OH', '43215'], ['RENO', 'NV', '89501'],
  ['MEMPHIS', 'TN', '38103'], ['ALLENTOWN', 'PA', '18101'], ['FRESNO', 'CA', '93721'],
  ['PLANO', 'TX', '75074'], ['TACOMA', 'WA', '98402'], ['DULUTH', 'GA', '30096'],
];
const EU_CITIES = [
  ['HAMBURG', '20095', 'DE'], ['ROTTERDAM', '3011', 'NL'], ['ANTWERPEN', '2000', 'BE'],
  ['LYON', '69002', 'FR'], ['MILANO', '20121', 'IT'], ['WIEN', '1010', 'AT'], ['GDANSK', '80-001', 'PL'],
];
const PRODUCTS = [
  'WIDGET BLUE', 'WIDGET RED', 'GEAR ASSEMBLY 40MM', 'HEX BOLT M8X40', 'CABLE TIE 200MM', 'LED PANEL 60X60',
  'SAFETY GLOVES L', 'PALLET WRAP 500MM', 'COPY PAPER A4', 'BRAKE PAD SET', 'OIL FILTER', 'USB-C CABLE 1M',
  'DRILL BIT SET 12PC', 'CORDLESS DRILL 18V', 'STORAGE BIN 40L', 'LABEL ROLL 100X150',
];
// Free text that needs the EDIFACT release character when written.
const TRICKY_TEXT = [
  'SMITH+JONES LTD', 'REF: ORDER 4411', "O'BRIEN FREIGHT", 'BUY 2+1 FREE', 'RATIO 3:1 PACKED',
  'DISCOUNT 5% IF PAID? CALL', "DON'T STACK", 'A+B COMPONENTS',
];
const CARRIERS = [['UPSN', 'UPS GROUND'], ['FDEG', 'FEDEX GROUND'], ['RDWY', 'YRC FREIGHT'], ['ODFL', 'OLD DOMINION']];
const UOM_X12 = ['EA', 'CA', 'BX', 'PK'];

// --------------------------------------------------------------- output -----
const fd = fs.openSync(outFile, 'w');
let outBuf = '';
let bytes = 0;
function emit(s) {
  outBuf += s;
  if (outBuf.length >= 1 << 20) flush();
}
function flush() {
  if (outBuf.length) {
    bytes += fs.writeSync(fd, outBuf, null, 'latin1');
    outBuf = '';
  }
}
const written = () => bytes + outBuf.length; // all output is ASCII

let interchanges = 0;
let messages = 0;
let segments = 0;

// ------------------------------------------------------------------ X12 -----
function x12Interchange(icn) {
  const segs = []; // one interchange, joined at the end
  const seg = (...els) => segs.push(els.join('*') + '~\n');
  const sender = rpad(pick(['ACMEDIST', '012345678', 'NWTRADERS', 'GLOBEXSUP', '987654321']) + digits(2), 15);
  const receiver = rpad(pick(['RETAILCORP', '5551234567', 'BIGBOXINC', 'MEGAMART']) + digits(2), 15);
  const time = hhmm();
  const isa = [
    'ISA', '00', ' '.repeat(10), '00', ' '.repeat(10), 'ZZ', sender, 'ZZ', receiver,
    yymmdd(), time, 'U', '00401', pad(icn, 9), pick(['0', '1']), chance(0.9) ? 'P' : 'T', '>',
  ].join('*') + '~';
  if (isa.length !== 106) throw new Error(`ISA length ${isa.length}`);
  segs.push(isa + '\n');

  const is856 = chance(0.55);
  const gcn = String(icn % 1000000000 || 1);
  seg('GS', is856 ? 'SH' : 'IN', sender.trim(), receiver.trim(), ccyymmdd(), time, gcn, 'X', '004010');
  const nSets = int(1, 5);
  for (let t = 1; t <= nSets; t++) {
    const start = segs.length;
    const stcn = pad(t, 4) + (chance(0.3) ? digits(int(1, 5)) : '');
    if (is856) x12ShipNotice(seg, stcn); else x12Invoice(seg, stcn);
    const count = segs.length - start + 1; // ST..SE inclusive, SE not yet written
    seg('SE', count, stcn);
  }
  seg('GE', nSets, gcn);
  seg('IEA', 1, pad(icn, 9));
  messages += nSets;
  segments += segs.length;
  return segs.join('');
}

function nameAddress(seg, code, name, idq, id) {
  seg('N1', code, name, idq, id);
  const [city, st, zip] = pick(US_CITIES);
  seg('N3', `${int(1, 9999)} ${pick(STREETS)}`);
  seg('N4', city, st, zip, 'US');
}

function x12ShipNotice(seg, stcn) {
  seg('ST', '856', stcn);
  const shipId = 'SH' + digits(8);
  seg('BSN', '00', shipId, ccyymmdd(), hhmm(), pick(['0001', '0002', '0004']));
  seg('DTM', '011', ccyymmdd(), hhmm());
  if (chance(0.5)) seg('DTM', '017', ccyymmdd(int(1, 5)));
  let hl = 0;
  const shipHl = ++hl;
  seg('HL', shipHl, '', 'S');
  const cartons = int(1, 40);
  seg('TD1', 'CTN25', cartons, '', '', '', 'G', `${int(5, 900)}.${int(0, 9)}`, 'LB');
  const [scac, cname] = pick(CARRIERS);
  seg('TD5', 'B', '2', scac, 'M', cname);
  seg('REF', 'BM', 'BOL' + digits(9));
  if (chance(0.6)) seg('REF', 'CN', '1Z' + digits(16));
  nameAddress(seg, 'ST', pick(COMPANIES) + ' DC ' + int(1, 99), '92', digits(5));
  nameAddress(seg, 'SF', pick(COMPANIES), '92', 'V' + digits(5));
  const orders = int(1, 3);
  for (let o = 0; o < orders; o++) {
    const orderHl = ++hl;
    seg('HL', orderHl, shipHl, 'O');
    seg('PRF', 'PO' + digits(8), '', '', ccyymmdd(-int(3, 20)));
    if (chance(0.5)) seg('REF', 'IA', 'VEND' + digits(4));
    const packs = int(1, 3);
    for (let p = 0; p < packs; p++) {
      const packHl = ++hl;
      seg('HL', packHl, orderHl, 'P');
      seg('MAN', 'GM', '00' + gtin(18));
      const items = int(1, 4);
      for (let i = 0; i < items; i++) {
        seg('HL', ++hl, packHl, 'I');
        const lin = ['LIN', '', 'UP', gtin(12), 'VN', 'SKU' + digits(6)];
        if (chance(0.3)) lin.push('BP', 'BP' + digits(7));
        seg(...lin);
        seg('SN1', '', int(1, 144), pick(UOM_X12));
        if (chance(0.7)) seg('PID', 'F', '', '', '', pick(PRODUCTS));
        if (chance(0.1)) seg('REF', 'LT', 'LOT' + digits(6), '', 'LT>' + digits(4));
      }
    }
  }
  seg('CTT', hl);
}

function x12Invoice(seg, stcn) {
  seg('ST', '810', stcn);
  const po = 'PO' + digits(8);
  seg('BIG', ccyymmdd(), 'INV' + digits(7), ccyymmdd(-int(3, 20)), po);
  seg('CUR', 'SE', 'USD');  // 004010 810: CUR (040) before REF (050)
  seg('REF', 'IA', 'VEND' + digits(4));
  if (chance(0.4)) seg('REF', 'VN', 'SO' + digits(7), 'SALES ORDER', 'PO>' + po);
  nameAddress(seg, 'ST', pick(COMPANIES) + ' STORE ' + int(1, 999), '92', digits(5));
  nameAddress(seg, 'RE', pick(COMPANIES), '92', 'V' + digits(5));
  seg('ITD', '01', '3', '2', '', '10', '', '30');
  seg('DTM', '011', ccyymmdd());
  seg('FOB', pick(['PP', 'CC', 'PB']));
  const lines = int(1, 12);
  let total = 0;
  for (let i = 1; i <= lines; i++) {
    const qty = int(1, 200);
    const price = int(50, 25000);
    total += qty * price;
    seg('IT1', i, qty, pick(UOM_X12), money(price), '', 'UP', gtin(12), 'VN', 'SKU' + digits(6));
    if (chance(0.7)) seg('PID', 'F', '', '', '', pick(PRODUCTS));
  }
  if (chance(0.3)) {
    const charge = int(500, 9000);
    total += charge;
    seg('SAC', 'C', 'D240', '', '', charge);
  }
  seg('TDS', total);
  const [scac] = pick(CARRIERS);
  seg('CAD', 'M', '', '', scac, '', '', 'BM', 'BOL' + digits(9));
  seg('CTT', lines);
}

// -------------------------------------------------------------- EDIFACT -----
function esc(s) { // apply the release character for UNA:+.? '
  return s.replace(/[?+:']/g, (c) => '?' + c);
}

function edifactInterchange(icn) {
  const segs = [];
  const seg = (...els) => segs.push(els.join('+') + "'\n");
  const ref = 'IC' + pad(icn, 8);
  const sender = gtin(13);
  const receiver = gtin(13);
  const time = hhmm();
  emit("UNA:+.? '\n");
  seg('UNB', 'UNOA:3', `${sender}:14`, `${receiver}:14`, `${yymmdd()}:${time}`, ref);
  const isDesadv = chance(0.5);
  const n = int(1, 5);
  for (let m = 1; m <= n; m++) {
    const start = segs.length;
    const mref = String(m) + (chance(0.3) ? digits(int(1, 6)) : '');
    if (isDesadv) edifactDesadv(seg, mref); else edifactInvoic(seg, mref);
    seg('UNT', segs.length - start + 1, mref); // UNH..UNT inclusive
  }
  seg('UNZ', n, ref);
  messages += n;
  segments += segs.length;
  return segs.join('');
}

function nad(seg, qual) {
  const [city, zip, country] = pick(EU_CITIES);
  const name = chance(0.08) ? esc(pick(TRICKY_TEXT)) : pick(COMPANIES);
  seg('NAD', qual, `${gtin(13)}::9`, '', name, `${pick(STREETS)} ${int(1, 400)}`, city, '', zip, country);
}

function edifactDesadv(seg, mref) {
  seg('UNH', mref, 'DESADV:D:96A:UN:EAN005');
  seg('BGM', '351', 'DN' + digits(8), '9');
  seg('DTM', `137:${ccyymmdd()}:102`);
  seg('DTM', `11:${ccyymmdd()}${hhmm()}:203`);
  seg('DTM', `132:${ccyymmdd(int(1, 4))}:102`);
  seg('RFF', 'ON:PO' + digits(8));
  seg('DTM', `171:${ccyymmdd(-int(3, 20))}:102`);
  nad(seg, 'BY');
  nad(seg, 'SU');
  nad(seg, 'DP');
  seg('TDT', '20', '', '30', '31', `${pick(CARRIERS)[0]}::172`);
  seg('EQD', 'TE', 'TRL' + digits(6));
  let cps = 1;
  seg('CPS', cps);
  const pallets = int(1, 4);
  seg('PAC', pallets, '', '201');
  let line = 0;
  for (let p = 0; p < pallets; p++) {
    seg('CPS', ++cps, 1);
    seg('PAC', 1, '', '201');
    seg('PCI', '33E');
    seg('GIN', 'BJ', '3' + gtin(17));
    const items = int(1, 5);
    for (let i = 0; i < items; i++) {
      seg('LIN', ++line, '', `${gtin(13)}:SRV`);
      seg('PIA', '1', `SKU${digits(6)}:SA`);
      seg('IMD', 'F', '', `:::${pick(PRODUCTS)}`);
      seg('QTY', `12:${int(1, 500)}:PCE`);
      // D.96A DESADV has no FTX in its header: free text goes with a line (SG15).
      if (chance(0.05)) seg('FTX', 'AAI', '', '', esc(pick(TRICKY_TEXT)));
      if (chance(0.3)) seg('RFF', 'ON:PO' + digits(8));
    }
  }
  seg('CNT', '2:' + cps);
}

function edifactInvoic(seg, mref) {
  seg('UNH', mref, 'INVOIC:D:96A:UN:EAN008');
  seg('BGM', '380', 'INV' + digits(7), '9');
  seg('DTM', `137:${ccyymmdd()}:102`);
  seg('DTM', `35:${ccyymmdd(-int(1, 3))}:102`);
  if (chance(0.3)) seg('FTX', 'AAB', '', '', esc(pick(TRICKY_TEXT)));
  seg('RFF', 'ON:PO' + digits(8));
  seg('RFF', 'DQ:DN' + digits(8));
  nad(seg, 'BY');
  seg('RFF', 'VA:' + pick(['DE', 'NL', 'BE', 'FR']) + digits(9));
  nad(seg, 'SU');
  seg('RFF', 'VA:' + pick(['DE', 'NL', 'BE', 'FR']) + digits(9));
  const cur = pick(['EUR', 'EUR', 'EUR', 'USD', 'GBP']);
  seg('CUX', `2:${cur}:4`);
  seg('PAT', '1', '', '5:3:D:30');
  const lines = int(1, 12);
  let total = 0;
  for (let i = 1; i <= lines; i++) {
    const qty = int(1, 300);
    const price = int(20, 40000);
    total += qty * price;
    seg('LIN', i, '', `${gtin(13)}:SRV`);
    seg('PIA', '1', `SKU${digits(6)}:SA`);
    seg('IMD', 'F', '', `:::${pick(PRODUCTS)}`);
    seg('QTY', `47:${qty}:PCE`);
    seg('MOA', `203:${money(qty * price)}`);
    seg('PRI', `AAA:${money(price)}`);
    seg('TAX', '7', 'VAT', '', '', ':::19', 'S');
  }
  seg('UNS', 'S');
  seg('CNT', '2:' + lines);
  const tax = Math.round(total * 0.19);
  seg('MOA', `79:${money(total)}`);
  seg('MOA', `125:${money(total)}`);
  seg('MOA', `176:${money(tax)}`);
  seg('MOA', `86:${money(total + tax)}`);
  seg('TAX', '7', 'VAT', '', '', ':::19', 'S');
  seg('MOA', `124:${money(tax)}`);
}

// ----------------------------------------------------------------- main -----
try {
  while (written() < targetBytes) {
    interchanges++;
    if (interchanges % 40 === 0) dayIndex++;
    emit(standard === 'x12' ? x12Interchange(interchanges) : edifactInterchange(interchanges));
  }
  flush();
} finally {
  fs.closeSync(fd);
}

process.stdout.write(JSON.stringify({ file: outFile, bytes, interchanges, messages, segments }) + '\n');
