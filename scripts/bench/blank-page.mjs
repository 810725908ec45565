// A blank page (a heading and a line of text) on PORT: Lighthouse's floor on this machine (lib.mjs startBlankPage).
// Its own process, as the benches run Lighthouse synchronously.
import http from 'node:http';

http
  .createServer((req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Blank</title><meta name="description" content="A blank page"></head><body><h1>Hello</h1><p>Just a line of text.</p></body></html>');
  })
  .listen(Number(process.env.PORT), '127.0.0.1');
