// A partner's async MDN endpoint for tests: stores each POST as DIR/N.headers
// and DIR/N.body; answers 500 to the first FAIL_FIRST requests, then 200.
//   node mdn_sink.js DIR   (prints "port N" once listening on 127.0.0.1)
'use strict'
const http = require('http')
const fs = require('fs')
const dir = process.argv[2]
let failFirst = Number(process.env.FAIL_FIRST || 0)
let n = 0
http.createServer((req, res) => {
  const chunks = []
  req.on('data', c => chunks.push(c))
  req.on('end', () => {
    if (failFirst > 0) {
      failFirst--
      res.writeHead(500)
      return res.end('not now')
    }
    n++
    const headers = Object.entries(req.headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')
    fs.writeFileSync(`${dir}/${n}.headers`, headers + '\r\n')
    fs.writeFileSync(`${dir}/${n}.body`, Buffer.concat(chunks))
    res.writeHead(200)
    res.end('ok')
  })
}).listen(0, '127.0.0.1', function () { console.log(`port ${this.address().port}`) })
