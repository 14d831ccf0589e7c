// An ERP's webhook for tests: appends one line per POST to DIR/requests.log,
// "STATUS IDEMPOTENCY-KEY SHA256-OF-BODY", keeps the body of each key as
// DIR/<n>.json (n: the order keys were first seen), and answers 500 to the
// first request of every key (so each is retried), then 200, each 200 after
// DELAY_MS (0 by default: a slower ERP, so that a test can stop the gateway
// while deliveries remain, whatever the load on the machine).
// FAIL_FIRST=TEXT: only the keys that contain TEXT get a 500 first.
//   node webhook_sink.js DIR [DELAY_MS]   (prints "port N" once listening on 127.0.0.1)
'use strict'
const http = require('http')
const fs = require('fs')
const crypto = require('crypto')
const dir = process.argv[2]
const delayMs = Number(process.argv[3] || 0)
const seen = new Map()  // key -> requests
http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', () => {
    const key = req.headers['idempotency-key'] || '-'
    const body = Buffer.concat(chunks)
    const count = (seen.get(key) || 0) + 1
    seen.set(key, count)
    const failFirst = !process.env.FAIL_FIRST || key.includes(process.env.FAIL_FIRST)
    const status = count === 1 && failFirst ? 500 : 200
    if (count === 1) fs.writeFileSync(`${dir}/${seen.size}.json`, body)
    fs.appendFileSync(`${dir}/requests.log`,
      `${status} ${key} ${crypto.createHash('sha256').update(body).digest('hex')}\n`)
    setTimeout(() => {
      res.writeHead(status)
      res.end(status === 200 ? 'ok' : 'not now')
    }, status === 200 ? delayMs : 0)
  })
}).listen(0, '127.0.0.1', function () { console.log(`port ${this.address().port}`) })
