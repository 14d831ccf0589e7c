// Slow senders for tools/bench-edge: N connections that send half a request
// head and then one byte every INTERVAL ms, for SECONDS; prints how many the
// server closed early and how many answers came back, as one JSON line.
//   node slow_senders.js PORT N SECONDS [INTERVAL_MS=2000]
'use strict'
const net = require('net')
const [port, n, seconds, interval = 2000] = process.argv.slice(2).map(Number)
let closed = 0, answered = 0, connected = 0
const sockets = []
for (let i = 0; i < n; i++) {
  const s = net.connect(port, '127.0.0.1', () => {
    connected++
    s.write(`POST /as2 HTTP/1.1\r\nHost: 127.0.0.1\r\nAS2-From: ACMESUPPLY\r\nX-Slow-${i}: `)
  })
  s.on('data', () => { answered++ })
  s.on('close', () => { closed++ })
  s.on('error', () => {})
  sockets.push(s)
}
const tick = setInterval(() => { for (const s of sockets) if (!s.destroyed) s.write('x') }, interval)
setTimeout(() => {
  clearInterval(tick)
  console.log(JSON.stringify({ slow_senders: n, connected, closed_by_server: closed, answered }))
  for (const s of sockets) s.destroy()
  process.exit(0)
}, seconds * 1000)
