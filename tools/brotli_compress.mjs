// Brotli-compress files for the site (node tools/brotli_compress.mjs IN OUT [IN OUT ...]),
// with Node's own zlib: quality 11, a 4 MB window (decodable with little memory).  The
// output depends on the input and these settings only, so builds stay reproducible.
// Several pairs in one call: the build's precompressed text (tools/precompress.py) makes
// hundreds of small files, and a process each would cost more than the compression.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const pairs = process.argv.slice(2);
if (pairs.length === 0 || pairs.length % 2 !== 0) {
  console.error("usage: node tools/brotli_compress.mjs IN OUT [IN OUT ...]");
  process.exit(2);
}
for (let i = 0; i < pairs.length; i += 2) {
  const data = readFileSync(pairs[i]);
  writeFileSync(pairs[i + 1], brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_LGWIN]: 22,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
    },
  }));
}
