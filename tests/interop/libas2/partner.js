// A trading partner's AS2 server made with the npm package libas2 (not our
// code): it receives what edihub sends (acknowledgments), decrypts it with
// the partner's key, verifies edihub's signature, keeps the content, and
// answers a signed MDN, sync in the HTTP answer or async to the
// Receipt-Delivery-Option. The path chooses the behaviour:
//   /sync  /async    a good MDN
//   /fail-first      HTTP 500 to the first request of each Message-ID, then /sync
//   /wrong-mic       a signed MDN whose Received-Content-MIC is not ours
//   /bad-signature   an MDN whose signed report was altered after signing
//   /hang            never answers (the sender's timeout)
//   node partner.js PORT CERTS_DIR OUT_DIR
'use strict'
const http = require('http')
const fs = require('fs')
const path = require('path')
const { AS2Parser, AS2Disposition } = require('libas2')
const { AS2SignedData } = require('libas2/dist/src/AS2Crypto/AS2SignedData')
AS2SignedData.prototype._getCertAlgorithmId = () => '1.2.840.113549.1.1.11'

const [port, certs, out] = process.argv.slice(2)
const agreement = {
  host: { name: 'ACME', id: 'ACMESUPPLY', url: 'http://127.0.0.1/', certificate: fs.readFileSync(`${certs}/acme.crt`, 'utf8'),
    privateKey: fs.readFileSync(`${certs}/acme.key`, 'utf8'), decrypt: true, sign: 'sha-256', mdn: { signing: 'sha-256' } },
  partner: { name: 'EDIHUB', id: 'EDIHUB', url: 'http://127.0.0.1/', certificate: fs.readFileSync(`${certs}/edihub.crt`, 'utf8'),
    verify: true, mdn: { signing: 'sha-256' } }
}
const seen = new Map()  // Message-ID -> requests received

// The MDN as HTTP headers and body.
function split (built) {
  const at = built.indexOf('\r\n\r\n')
  const headers = {}
  for (const line of built.slice(0, at).toString('latin1').replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(': ')
    if (colon > 0) headers[line.slice(0, colon)] = line.slice(colon + 2)
  }
  return { headers, body: built.slice(at + 4) }
}

http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', async () => {
    const mode = req.url.replace(/^\/as2\//, '')
    const messageId = req.headers['message-id'] || ''
    seen.set(messageId, (seen.get(messageId) || 0) + 1)
    fs.appendFileSync(path.join(out, 'requests.log'), `${mode} ${messageId} ${seen.get(messageId)}\n`)
    if (mode === 'hang') return  // never answered
    if (mode === 'fail-first' && seen.get(messageId) === 1) { res.writeHead(500); return res.end('not now') }
    try {
      const head = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')
      const node = await AS2Parser.parse(Buffer.concat([Buffer.from(head + '\r\n\r\n'), Buffer.concat(chunks)]))
      const { contentNode, dispositionNode, disposition } = await AS2Disposition.outgoing({ node, agreement, returnNode: false })
      if (contentNode) {
        const safe = messageId.replace(/[^A-Za-z0-9.@-]/g, '_')
        fs.writeFileSync(path.join(out, `${safe}.edi`), contentNode.content)
        fs.writeFileSync(path.join(out, `${safe}.mic`), disposition.notification.receivedContentMic ?
          `${disposition.notification.receivedContentMic.mic}, ${disposition.notification.receivedContentMic.algorithm}` : '')
      }
      let built
      if (mode === 'wrong-mic') {
        // A well-signed MDN whose Received-Content-MIC is not the one computed.
        disposition.notification.receivedContentMic = { mic: 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=', algorithm: 'sha-256' }
        const signed = await disposition.toMimeNode().sign({ cert: agreement.host.certificate, key: agreement.host.privateKey, algorithm: 'sha-256' })
        signed.setHeader([{ key: 'AS2-From', value: 'ACMESUPPLY' }, { key: 'AS2-To', value: 'EDIHUB' }, { key: 'AS2-Version', value: '1.2' }])
        built = await signed.build()
      } else {
        built = await dispositionNode.build()
      }
      if (mode === 'bad-signature') {
        // The signed report altered after signing.
        built = Buffer.from(built.toString('latin1').replace('automatic-action', 'automatic-actioN'), 'latin1')
      }
      const mdn = split(built)
      if (mode === 'async') {
        res.writeHead(200)
        res.end()
        const target = new URL(req.headers['receipt-delivery-option'])
        const post = http.request({ method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname,
          headers: { ...mdn.headers, 'AS2-From': 'ACMESUPPLY', 'AS2-To': 'EDIHUB', 'Content-Length': mdn.body.length } })
        post.on('error', () => {})
        post.end(mdn.body)
        return
      }
      res.writeHead(200, mdn.headers)
      res.end(mdn.body)
    } catch (err) {
      fs.appendFileSync(path.join(out, 'errors.log'), `${messageId} ${err && err.stack}\n`)
      res.writeHead(500)
      res.end(String(err))
    }
  })
}).listen(Number(port), '127.0.0.1', () => console.log(`port ${port}`))
