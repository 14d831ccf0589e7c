// Load generator for the AS2 benchmark: posts AS2 captures (header lines, a
// blank line, the body) to URL with CONCURRENCY requests in flight, over
// keep-alive connections, and prints one JSON line of figures.
//   node as2_load.js URL CONCURRENCY CAPTURE...
'use strict'
const http = require('http')
const fs = require('fs')

const [url, concurrencyText, ...files] = process.argv.slice(2)
const concurrency = Number(concurrencyText)
const target = new URL(url)
const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
const requests = files.map(file => {
  const raw = fs.readFileSync(file)
  const split = raw.indexOf('\r\n\r\n')
  const headers = {}
  for (const line of raw.slice(0, split).toString('latin1').split('\r\n')) {
    const colon = line.indexOf(': ')
    if (colon > 0) headers[line.slice(0, colon)] = line.slice(colon + 2)
  }
  return { headers, body: raw.slice(split + 4) }
})

function post (r) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint()
    const req = http.request({ agent, method: 'POST', hostname: target.hostname, port: target.port, path: target.pathname,
      headers: { ...r.headers, 'Content-Length': r.body.length } }, res => {
      let bytes = 0
      res.on('data', c => { bytes += c.length })
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - started) / 1e6, bytes }))
    })
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - started) / 1e6, bytes: 0 }))
    req.end(r.body)
  })
}

async function main () {
  const latencies = []
  let next = 0, ok = 0, failed = 0
  const started = process.hrtime.bigint()
  async function worker () {
    while (next < requests.length) {
      const r = requests[next++]
      const res = await post(r)
      latencies.push(res.ms)
      if (res.status === 200 && res.bytes > 0) ok++; else failed++
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  const seconds = Number(process.hrtime.bigint() - started) / 1e9
  latencies.sort((a, b) => a - b)
  const pct = p => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]
  console.log(JSON.stringify({ requests: requests.length, ok, failed, concurrency, seconds: +seconds.toFixed(3),
    msgs_per_s: +(requests.length / seconds).toFixed(1), p50_ms: +pct(0.5).toFixed(2), p99_ms: +pct(0.99).toFixed(2) }))
  agent.destroy()
}
main()
