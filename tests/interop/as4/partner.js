// An AS4 partner for edihub's outbound acknowledgments, run by
// tests/integration/as4_acks_test.sh: it reads what edihub pushes with an
// XML parser that is not ours (@xmldom/xmldom, namespace-aware), takes the
// payload its eb:PartInfo names (gunzipped when CompressionType says so),
// keeps it, and answers as the path's mode says.
//
//   node partner.js PORT OUTDIR
//   POST /as4/receipt      an eb:Receipt (SOAP 1.2) referring to the MessageId
//   POST /as4/fail-first   HTTP 500 without a signal the first time a MessageId comes, then a Receipt
//   POST /as4/error        HTTP 500 with an eb:Error EBMS:0004 (failure)
//   POST /as4/wrong-ref    a Receipt referring to another message
//   POST /as4/hang         never answers
// OUTDIR/log gets "MODE MESSAGEID PARTY-TO MIMETYPE" per request; OUTDIR/MESSAGEID the payload.
'use strict';
const http = require('http');
const fs = require('fs');
const path = require('path');
const zlib = require('zlib');
const { DOMParser } = require('@xmldom/xmldom');

const EB = 'http://docs.oasis-open.org/ebxml-msg/ebms/v3.0/ns/core/200704/';
const S12 = 'http://www.w3.org/2003/05/soap-envelope';
const [port, outdir] = process.argv.slice(2);
const seen = new Map();

function param(contentType, name) {
  const m = new RegExp(`;\\s*${name}="?([^";]+)"?`, 'i').exec(contentType);
  return m ? m[1] : '';
}

// The parts of a multipart/related body: { headers (lower-case names), body (Buffer) }.
function parts(body, boundary) {
  const delimiter = Buffer.from(`--${boundary}`);
  const out = [];
  let at = body.indexOf(delimiter);
  while (at >= 0) {
    const start = at + delimiter.length;
    if (body.slice(start, start + 2).toString() === '--') break;
    const next = body.indexOf(delimiter, start);
    if (next < 0) throw new Error('unterminated multipart');
    const part = body.slice(start + 2, next - 2);  // CRLF after the delimiter, CRLF before the next
    const split = part.indexOf('\r\n\r\n');
    const headers = {};
    for (const line of part.slice(0, split).toString().split('\r\n')) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    out.push({ headers, body: part.slice(split + 4) });
    at = next;
  }
  return out;
}

function text(doc, local) {
  const n = doc.getElementsByTagNameNS(EB, local)[0];
  return n ? n.textContent.trim() : '';
}

function signal(ref, inner) {
  return '<?xml version="1.0" encoding="UTF-8"?>' +
    `<env:Envelope xmlns:env="${S12}" xmlns:ebms="${EB}"><env:Header><ebms:Messaging env:mustUnderstand="true">` +
    '<ebms:SignalMessage><ebms:MessageInfo><ebms:Timestamp>' + new Date().toISOString() + '</ebms:Timestamp>' +
    `<ebms:MessageId>signal-${Date.now()}-${Math.random().toString(36).slice(2)}@partner.example</ebms:MessageId>` +
    `<ebms:RefToMessageId>${ref}</ebms:RefToMessageId></ebms:MessageInfo>${inner}</ebms:SignalMessage>` +
    '</ebms:Messaging></env:Header><env:Body/></env:Envelope>';
}

http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const mode = req.url.split('/').pop();
    const answer = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'application/soap+xml; charset=UTF-8' });
      res.end(body);
    };
    try {
      const type = req.headers['content-type'] || '';
      const all = parts(Buffer.concat(chunks), param(type, 'boundary'));
      const start = param(type, 'start');
      const root = all.find((p) => p.headers['content-id'] === start);
      if (!root) throw new Error(`no root part ${start}`);
      const doc = new DOMParser().parseFromString(root.body.toString('utf8'), 'application/xml');
      if (!doc.getElementsByTagNameNS(S12, 'Envelope')[0]) throw new Error('not a SOAP 1.2 envelope');
      const id = text(doc, 'MessageId');
      const to = doc.getElementsByTagNameNS(EB, 'To')[0].getElementsByTagNameNS(EB, 'PartyId')[0].textContent;
      const info = doc.getElementsByTagNameNS(EB, 'PartInfo')[0];
      const href = info.getAttribute('href');
      const props = {};
      for (const p of Array.from(info.getElementsByTagNameNS(EB, 'Property'))) props[p.getAttribute('name')] = p.textContent;
      const attachment = all.find((p) => p.headers['content-id'] === `<${href.replace(/^cid:/, '')}>`);
      if (!attachment) throw new Error(`no attachment for ${href}`);
      const payload = props.CompressionType === 'application/gzip' ? zlib.gunzipSync(attachment.body) : attachment.body;
      fs.appendFileSync(path.join(outdir, 'log'), `${mode} ${id} ${to} ${props.MimeType}\n`);
      fs.writeFileSync(path.join(outdir, id.replace(/[^A-Za-z0-9.@_-]/g, '_')), payload);
      if (mode === 'hang') return;  // never answers
      const count = (seen.get(id) || 0) + 1;
      seen.set(id, count);
      if (mode === 'fail-first' && count === 1) return answer(500, 'Internal Server Error');
      if (mode === 'error')
        return answer(500, signal(id, `<ebms:Error errorCode="EBMS:0004" severity="failure" category="Content" ` +
          `shortDescription="Other" origin="ebMS" refToMessageInError="${id}">` +
          '<ebms:Description xml:lang="en">no P-Mode for this service and action</ebms:Description></ebms:Error>'));
      const ref = mode === 'wrong-ref' ? 'someone-else@partner.example' : id;
      return answer(200, signal(ref, '<ebms:Receipt><ebms:UserMessage/></ebms:Receipt>'));
    } catch (e) {
      fs.appendFileSync(path.join(outdir, 'log'), `${mode} unreadable ${e.message}\n`);
      return answer(400, `unreadable: ${e.message}`);
    }
  });
}).listen(Number(port), '127.0.0.1');
