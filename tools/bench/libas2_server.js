// The benchmark's peer: a minimal AS2 receiver on the npm package libas2,
// doing what edihub does per message (decrypt, verify, signed sync MDN),
// without a store.   node libas2_server.js PORT CERTS_DIR
'use strict'
const http = require('http')
const fs = require('fs')
const path = require('path')
const { AS2Parser, AS2Disposition } = require(path.join(__dirname, '../../tests/interop/libas2/node_modules/libas2'))
const { AS2SignedData } = require(path.join(__dirname, '../../tests/interop/libas2/node_modules/libas2/dist/src/AS2Crypto/AS2SignedData'))
AS2SignedData.prototype._getCertAlgorithmId = () => '1.2.840.113549.1.1.11'

const [port, certs] = process.argv.slice(2)
const edihubCert = fs.readFileSync(`${certs}/edihub.crt`, 'utf8')
const edihubKey = fs.readFileSync(`${certs}/edihub.key`, 'utf8')
const acmeCert = fs.readFileSync(`${certs}/acme.crt`, 'utf8')
const agreement = {
  host: { name: 'EDIHUB', id: 'EDIHUB', url: 'http://127.0.0.1/', certificate: edihubCert, privateKey: edihubKey,
    decrypt: true, sign: 'sha-256', mdn: { signing: 'sha-256' } },
  partner: { name: 'ACME', id: 'ACMESUPPLY', url: 'http://127.0.0.1/', certificate: acmeCert, verify: true,
    mdn: { signing: 'sha-256' } }
}

http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', async () => {
    try {
      const head = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')
      const node = await AS2Parser.parse(Buffer.concat([Buffer.from(head + '\r\n\r\n'), Buffer.concat(chunks)]))
      const { dispositionNode } = await AS2Disposition.outgoing({ node, agreement, returnNode: false })
      const built = await dispositionNode.build()
      const split = built.indexOf('\r\n\r\n')
      const headers = {}
      for (const line of built.slice(0, split).toString('latin1').split('\r\n')) {
        const colon = line.indexOf(': ')
        if (colon > 0) headers[line.slice(0, colon)] = line.slice(colon + 2)
      }
      res.writeHead(200, headers)
      res.end(built.slice(split + 4))
    } catch (err) {
      res.writeHead(500)
      res.end(String(err))
    }
  })
}).listen(Number(port), '127.0.0.1', () => console.log(`port ${port}`))
