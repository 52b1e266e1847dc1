// Brotli-compress one file for the site (node tools/brotli_compress.mjs IN OUT), with
// Node's own zlib: quality 11, a 4 MB window (decodable with little memory).  The output
// depends on the input and these settings only, so builds stay reproducible.
import { readFileSync, writeFileSync } from "node:fs";
import { brotliCompressSync, constants } from "node:zlib";

const [input, output] = process.argv.slice(2);
if (!input || !output) {
  console.error("usage: node tools/brotli_compress.mjs IN OUT");
  process.exit(2);
}
const data = readFileSync(input);
writeFileSync(output, brotliCompressSync(data, {
  params: {
    [constants.BROTLI_PARAM_QUALITY]: 11,
    [constants.BROTLI_PARAM_LGWIN]: 22,
    [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
  },
}));
