// The baseline: a bare Node HTTP server doing the same I/O as Riff, with nothing else.
// POST /upload streams the request body to a file; GET /file serves SERVE_FILE with one Range.
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';

let count = 0;
const server = createServer(async (req, res) => {
  if (req.url === '/healthz') return res.end('ok');
  if (req.method === 'POST' && req.url === '/upload') {
    await pipeline(req, createWriteStream(path.join(process.env.DATA_DIR, `upload-${count++}`)));
    return res.end('{}');
  }
  if (req.url === '/file') {
    const size = statSync(process.env.SERVE_FILE).size;
    const match = /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (match) {
      const start = Number(match[1]);
      const end = Math.min(Number(match[2]), size - 1);
      res.writeHead(206, { 'content-type': 'audio/wav', 'content-length': end - start + 1, 'content-range': `bytes ${start}-${end}/${size}`, 'accept-ranges': 'bytes' });
      return createReadStream(process.env.SERVE_FILE, { start, end }).pipe(res);
    }
    res.writeHead(200, { 'content-type': 'audio/wav', 'content-length': size });
    return createReadStream(process.env.SERVE_FILE).pipe(res);
  }
  res.statusCode = 404;
  res.end();
});
server.listen(Number(process.env.PORT), '127.0.0.1');
process.on('SIGTERM', () => server.close(() => process.exit(0)));
