// Sends an EDI file to edihub as an AS2 message composed, signed and
// encrypted by the npm package libas2, then parses and verifies edihub's
// signed MDN with libas2, and compares its Received-Content-MIC with the MIC
// libas2 itself computes for the same message.
//   node send.js URL EDI_FILE CERTS_DIR MESSAGE_ID
'use strict'
const fs = require('fs')
const { AS2Composer, AS2Parser, AS2Disposition, request } = require('libas2')
const { AS2SignedData } = require('libas2/dist/src/AS2Crypto/AS2SignedData')

// libas2 0.8.2 cannot sign out of the box ("Unsupported signature algorithm:
// RSAES-PKCS1-v1_5"): declare sha256WithRSAEncryption.
AS2SignedData.prototype._getCertAlgorithmId = () => '1.2.840.113549.1.1.11'

async function main () {
  const [url, file, certs, messageId] = process.argv.slice(2)
  const acmeCert = fs.readFileSync(`${certs}/acme.crt`, 'utf8')
  const acmeKey = fs.readFileSync(`${certs}/acme.key`, 'utf8')
  const edihubCert = fs.readFileSync(`${certs}/edihub.crt`, 'utf8')
  const edihubKey = fs.readFileSync(`${certs}/edihub.key`, 'utf8')

  const composer = new AS2Composer({
    message: { filename: 'message.edi', contentType: 'application/edi-x12', content: fs.readFileSync(file, 'utf8') },
    agreement: {
      host: { name: 'ACME', id: 'ACMESUPPLY', url: 'http://127.0.0.1/', certificate: acmeCert, privateKey: acmeKey,
        decrypt: false, sign: 'sha-256', mdn: { signing: 'sha-256' } },
      partner: { name: 'EDIHUB', id: 'EDIHUB', url, file: 'EDIX12', certificate: edihubCert, encrypt: 'aes256-CBC', verify: true }
    },
    additionalHeaders: { 'Message-ID': messageId }
  })
  const options = await composer.toRequestOptions(url)

  // The MIC libas2 computes when it receives this very message itself.
  const raw = Object.entries(options.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n') + '\r\n\r\n' + options.body.toString('binary')
  const received = await AS2Parser.parse(Buffer.from(raw, 'binary'))
  const { disposition: own } = await AS2Disposition.outgoing({
    node: received,
    agreement: {
      host: { name: 'EDIHUB', id: 'EDIHUB', url, certificate: edihubCert, privateKey: edihubKey, decrypt: true, sign: 'sha-256' },
      partner: { name: 'ACME', id: 'ACMESUPPLY', url: 'http://127.0.0.1/', certificate: acmeCert, verify: true, mdn: { signing: 'sha-256' } }
    },
    returnNode: false
  })

  const response = await request(options)
  const mdnNode = await response.mime()
  // MDN_CERT=acme: verify with the wrong certificate (must fail: the signature is checked).
  const mdn = await AS2Disposition.incoming(mdnNode, { cert: process.env.MDN_CERT === 'acme' ? acmeCert : edihubCert })
  const result = {
    status: response.statusCode,
    processed: mdn.notification.disposition.processed,
    description: mdn.notification.disposition.description || null,
    mic: mdn.notification.receivedContentMic ? mdn.notification.receivedContentMic.mic : null,
    libas2_mic: own.notification.receivedContentMic ? own.notification.receivedContentMic.mic : null
  }
  console.log(JSON.stringify(result))
  process.exit(result.status === 200 && result.processed && result.mic && result.mic === result.libas2_mic ? 0 : 1)
}

main().catch(err => { console.error(err && err.stack ? err.stack : err); process.exit(2) })
