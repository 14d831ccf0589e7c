// The partner-facing edge, as a hostile or careless sender meets it, over raw
// sockets (curl and node's http refuse to send most of these bytes).
//   node http_edge.js PORT WORKDIR
// WORKDIR holds body.b64 (a signed+encrypted AS2 body, base64) and its
// content type in ct.txt, nested.der (six nested compressed-data layers) and
// mdn_port.txt. Prints "FAIL: ..." per failed check; exit status = failures.
'use strict'
const net = require('net')
const fs = require('fs')
const path = require('path')

const [port, work] = [Number(process.argv[2]), process.argv[3]]
const body = fs.readFileSync(path.join(work, 'body.b64'))
const ct = fs.readFileSync(path.join(work, 'ct.txt'), 'latin1').trim()
let failures = 0
const fail = (what) => { failures++; console.log(`FAIL: ${what}`) }
const check = (what, expected, actual) => { if (expected !== actual) fail(`${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`) }

// Sends `chunks` (Buffers or strings; a number is a pause in ms) and collects
// what comes back until the server closes or `waitMs` passes.
function exchange (chunks, waitMs = 5000) {
  return new Promise((resolve) => {
    const started = Date.now()
    const s = net.connect(port, '127.0.0.1')
    const got = []
    let closed = false
    const done = () => { clearTimeout(timer); s.destroy(); resolve({ data: Buffer.concat(got), closed, ms: Date.now() - started }) }
    const timer = setTimeout(done, waitMs)
    s.on('data', d => got.push(d))
    s.on('close', () => { closed = true; done() })
    s.on('error', () => {})
    s.on('connect', async () => {
      for (const c of chunks) {
        if (typeof c === 'number') await new Promise(r => setTimeout(r, c))
        else if (!s.destroyed) s.write(c)
      }
    })
  })
}

const status = (r) => { const m = /^HTTP\/1\.1 (\d{3}) ([^\r]*)\r\n/.exec(r.data.toString('latin1')); return m ? `${m[1]} ${m[2]}` : `(no answer: ${JSON.stringify(r.data.toString('latin1').slice(0, 80))})` }
const bodyOf = (r) => { const t = r.data.toString('latin1'); return t.slice(t.indexOf('\r\n\r\n') + 4) }
const answers = (r) => (r.data.toString('latin1').match(/^HTTP\/1\.1 \d{3}/gm) || []).length

// An AS2 request: the standard headers, overridden or extended by `extra`.
function as2 (extra = {}, payload = body) {
  const h = {
    'Host': '127.0.0.1', 'AS2-Version': '1.2', 'AS2-From': 'ACMESUPPLY', 'AS2-To': 'EDIHUB',
    'Message-ID': '<edge-ok@acme.example>', 'Content-Type': ct, 'Content-Transfer-Encoding': 'base64',
    'Disposition-Notification-Options': 'signed-receipt-protocol=optional, pkcs7-signature; signed-receipt-micalg=optional, sha-256',
    'Content-Length': String(payload.length), ...extra
  }
  let head = 'POST /as2 HTTP/1.1\r\n'
  for (const [k, v] of Object.entries(h)) if (v !== null) head += `${k}: ${v}\r\n`
  return [Buffer.from(head + '\r\n', 'latin1'), payload]
}

async function main () {
  // 1. Encoded words that POCO would decode into CR LF: refused at the edge, named.
  const evil = '=?UTF-8?Q?x=0D=0AAS2-From:_EVIL?='
  for (const [header, value] of [['Message-ID', `<${evil}@acme.example>`], ['AS2-From', evil],
    ['Disposition-Notification-To', `mailto:${evil}`], ['Receipt-Delivery-Option', `http://127.0.0.1:1/${evil}`]]) {
    const r = await exchange(as2({ [header]: value }))
    check(`encoded word in ${header}: status`, '400 Bad Request', status(r))
    const expected = header === 'AS2-From'
      ? 'header AS2-From is not an AS2 id (RFC 4130: 1-128 printable characters)\n'
      : `header ${header} holds an RFC 2047 encoded word: not allowed in AS2 headers\n`
    check(`encoded word in ${header}: answer`, expected, bodyOf(r))
  }
  // A raw CR inside a value cannot even be sent as one header; a NUL can.
  let r = await exchange(as2({ 'Message-ID': '<a\x00b@acme.example>' }))
  check('NUL in Message-ID', '400 Bad Request', status(r))

  // 2. A 0xFF byte in a header: answered 400 naming it, not read as the end of the headers.
  r = await exchange([Buffer.concat([Buffer.from('POST /as2 HTTP/1.1\r\nHost: x\r\nX-Note: a'), Buffer.from([0xff]),
    Buffer.from('b\r\nAS2-From: ACMESUPPLY\r\nContent-Length: 4\r\n\r\nabcd')])])
  check('0xFF header: status', '400 Bad Request', status(r))
  check('0xFF header: answer', 'header X-Note has byte 0xFF at position 2: control characters and invalid UTF-8 are not allowed in header values\n', bodyOf(r))
  check('0xFF header: connection closed', true, r.closed)

  // 3-5. Content-Length: malformed, negative, duplicate: 400, one answer, closed.
  for (const cl of ['abc', '1e3', '5, 10', '12345678901234567890123', '-1']) {
    r = await exchange([`POST /as2 HTTP/1.1\r\nHost: x\r\nContent-Length: ${cl}\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n`])
    check(`Content-Length '${cl}': status`, '400 Bad Request', status(r))
    check(`Content-Length '${cl}': answer`, 'malformed Content-Length: one decimal length, not negative, not two that differ, not together with Transfer-Encoding\n', bodyOf(r))
    check(`Content-Length '${cl}': the body never runs as a second request`, 1, answers(r))
    check(`Content-Length '${cl}': closed`, true, r.closed)
  }
  r = await exchange(['POST /as2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 41\r\n\r\nhelloGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'])
  check('two Content-Lengths: status', '400 Bad Request', status(r))
  check('two Content-Lengths: one answer', 1, answers(r))
  r = await exchange(['POST /as2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'])
  check('Content-Length and chunked: status', '400 Bad Request', status(r))
  r = await exchange(['POST /as2 HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\nxxxx'])
  check('Transfer-Encoding gzip: status', '400 Bad Request', status(r))
  check('Transfer-Encoding gzip: answer', "Transfer-Encoding 'gzip' is not supported (only chunked)\n", bodyOf(r))

  // Reason phrases are the status's own.
  r = await exchange(as2({ 'Content-Length': '999999999' }, Buffer.alloc(0)))
  check('too large: status line', '413 Payload Too Large', status(r))

  // 6. An unknown sender's large body: refused from the headers, the body never read.
  const big = `POST /as2 HTTP/1.1\r\nHost: x\r\nAS2-From: STRANGER\r\nAS2-To: EDIHUB\r\nMessage-ID: <big@x>\r\nContent-Type: application/pkcs7-mime\r\nContent-Length: 1500000\r\nExpect: 100-continue\r\n\r\n`
  r = await exchange([big], 3000)
  check('unknown sender: status', '403 Forbidden', status(r))
  check('unknown sender: answer', "unknown AS2-From 'STRANGER': no partner profile lists it\n", bodyOf(r))
  check('unknown sender: no 100 Continue first', false, r.data.toString('latin1').startsWith('HTTP/1.1 100'))
  check('unknown sender: closed', true, r.closed)

  // 7. Six nested compressed layers of 25 MB each: one budget for the whole
  // message, refused when the layers together pass it.
  const nested = fs.readFileSync(path.join(work, 'nested.der'))
  r = await exchange(as2({ 'Message-ID': '<nested@acme.example>', 'Content-Type': 'application/pkcs7-mime; smime-type=compressed-data', 'Content-Transfer-Encoding': 'binary' }, nested), 20000)
  check('nested compression: status', '200 OK', status(r))
  if (!/Disposition: automatic-action\/MDN-sent-automatically; processed\/error: decompression-failed/.test(r.data.toString('latin1'))) fail(`nested compression: MDN ${r.data.toString('latin1').slice(0, 300)}`)

  // 8. Slow senders hold a socket, never a worker: 40 half-sent heads, and
  // /healthz still answers at once; each is answered 408 at its deadline.
  const slow = Array.from({ length: 40 }, () => exchange(['POST /as2 HTTP/1.1\r\nHost: x\r\nAS2-From: ACME'], 8000))
  await new Promise(r => setTimeout(r, 200))
  const health = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 2000)
  check('healthz with 40 slow senders', '200 OK', status(health))
  if (health.ms > 1000) fail(`healthz took ${health.ms} ms with 40 slow senders`)
  for (const [i, s] of (await Promise.all(slow)).entries()) {
    if (i > 0) continue
    check('slow head: status', '408 Request Timeout', status(s))
    check('slow head: answer', 'the request head did not arrive in time (2000 ms)\n', bodyOf(s))
  }
  // A trickle: one body byte every 400 ms never outlives the request deadline.
  const trickle = [...as2({ 'Message-ID': '<trickle@acme.example>', 'Content-Length': '100' }, Buffer.alloc(0))]
  for (let i = 0; i < 20; i++) trickle.push(400, 'A')
  r = await exchange(trickle, 10000)
  check('trickle: status', '408 Request Timeout', status(r))
  check('trickle: answer', 'the request body did not arrive in time (3000 ms)\n', bodyOf(r))
  if (r.ms > 7000) fail(`trickle held for ${r.ms} ms`)  // without the deadline: 8000 ms and more

  // 9. Connections per client are capped.
  const held = await Promise.all(Array.from({ length: 50 }, () => new Promise((resolve) => {
    const s = net.connect(port, '127.0.0.1', () => resolve(s))
  })))
  r = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n'], 2000)
  check('over the per-client cap: status', '503 Service Unavailable', status(r))
  check('over the per-client cap: answer', 'too many connections from this client\n', bodyOf(r))
  for (const s of held) s.destroy()
  // Until the server has seen the 50 close (a few ms; at most 5 s).
  for (const start = Date.now(); Date.now() - start < 5000;) {
    r = await exchange(['GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'], 2000)
    if (status(r) !== '503 Service Unavailable') break
    await new Promise(r => setTimeout(r, 50))
  }

  // 10. Async MDN URLs are compared normalised: a dot segment cannot leave the allowed path.
  const mdnPort = fs.readFileSync(path.join(work, 'mdn_port.txt'), 'latin1').trim()
  for (const url of [`http://127.0.0.1:${mdnPort}/mdn/../admin`, `http://127.0.0.1:${mdnPort}/mdn/%2e%2e/admin`, `http://127.0.0.1:${mdnPort}/mdnx`]) {
    r = await exchange(as2({ 'Message-ID': '<dots@acme.example>', 'Receipt-Delivery-Option': url }))
    check(`async URL ${url}: status`, '403 Forbidden', status(r))
  }
  process.exit(failures)
}
main()
